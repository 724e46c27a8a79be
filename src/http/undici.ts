/**
 * undici's Agent and its request API, loaded from their own modules instead of undici's index.
 *
 * The index also loads every other dispatcher, the mock agents, the cache stores (SQLite), fetch,
 * WebSocket and EventSource: 47 ms to require it against 17 ms for these two, in every thread
 * that makes requests (the CLI and each suite worker, in every run). `request` is undici's
 * `request(url, options)`: the same API request, with the URL split into origin and path as
 * undici's index does it.
 */
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher, ProxyAgent as UndiciProxyAgent } from 'undici';

const require = createRequire(import.meta.url);

export const Agent: typeof UndiciAgent = require('undici/lib/dispatcher/agent.js');
export type Agent = UndiciAgent;
const apiRequest: (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> = require('undici/lib/api/api-request.js');
const { getGlobalDispatcher }: { getGlobalDispatcher: () => Dispatcher } = require('undici/lib/global.js');

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & { method?: Dispatcher.HttpMethod; dispatcher?: Dispatcher };

/** How a client connects: its connections, a proxy (src/http/connection.ts), TLS verification off (--insecure). */
export interface DispatcherOptions {
  connections: number;
  proxy?: string;
  insecure?: boolean;
}

/**
 * The dispatcher of a client: an Agent, or undici's ProxyAgent when a proxy is given. Only then is undici's
 * index loaded: the ProxyAgent tunnels with the `connect` API the index puts on every dispatcher.
 * Through a proxy an http target is forwarded (absolute-form requests, as curl sends them; a corporate
 * proxy commonly allows CONNECT to port 443 only) and an https target tunnelled with CONNECT.
 * `insecure` turns off verifying the target's certificate, and the proxy's (curl -k).
 */
export function dispatcherFor(o: DispatcherOptions): Dispatcher {
  const pool = { connections: o.connections, keepAliveTimeout: 10_000, pipelining: 1 };
  const tls = o.insecure ? { rejectUnauthorized: false } : undefined;
  if (!o.proxy) return new Agent({ ...pool, ...(tls ? { connect: tls } : {}) });
  const { ProxyAgent }: { ProxyAgent: typeof UndiciProxyAgent } = require('undici');
  return new ProxyAgent({ ...pool, uri: o.proxy, proxyTunnel: false, ...(tls ? { requestTls: tls, proxyTls: tls } : {}) });
}

/** One request through `opts.dispatcher` (an Agent of this module, or any undici dispatcher; by default undici's global one). */
export function request(url: string | URL, opts: RequestOptions = {}): Promise<Dispatcher.ResponseData> {
  const u = typeof url === 'string' ? new URL(url) : url;
  const { dispatcher = getGlobalDispatcher(), ...rest } = opts;
  return apiRequest.call(dispatcher, { ...rest, origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname, method: opts.method ?? (opts.body ? 'PUT' : 'GET') });
}
