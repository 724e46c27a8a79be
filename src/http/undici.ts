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
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

export const Agent: typeof UndiciAgent = require('undici/lib/dispatcher/agent.js');
export type Agent = UndiciAgent;
const apiRequest: (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> = require('undici/lib/api/api-request.js');
const { getGlobalDispatcher }: { getGlobalDispatcher: () => Dispatcher } = require('undici/lib/global.js');

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & { method?: Dispatcher.HttpMethod; dispatcher?: Dispatcher };

/** One request through `opts.dispatcher` (an Agent of this module, or any undici dispatcher; by default undici's global one). */
export function request(url: string | URL, opts: RequestOptions = {}): Promise<Dispatcher.ResponseData> {
  const u = typeof url === 'string' ? new URL(url) : url;
  const { dispatcher = getGlobalDispatcher(), ...rest } = opts;
  return apiRequest.call(dispatcher, { ...rest, origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname, method: opts.method ?? (opts.body ? 'PUT' : 'GET') });
}
