/**
 * Prism (npm @stoplight/prism-cli) as a validating proxy in front of a target, for the OpenAPI
 * document of `cms-conformance openapi`, and the small address shim the suite needs in front of
 * Prism: the suite addresses routes as `{base}/index.php?rest_route=<route>&...` (the spec's
 * address), the document as `{base}/wp-json/<route>?...` (an OpenAPI path cannot carry a query
 * string), so the shim rewrites the one to the other and forwards everything else unchanged.
 *
 *   suite ──?rest_route=──▶ shim ──/<route>──▶ Prism proxy ──/wp-json/<route>──▶ target
 *
 * Prism answers each request with an `sl-violations` header listing where the request or the
 * response broke the document; the shim records the response violations (the suite sends invalid
 * requests on purpose, so request violations are not the target's).
 *
 * Behind Prism sits a relay to the target, which sends the request on to the spec's address again
 * (so the target needs no pretty permalinks). Prism answers an upstream 501 with a mock of its own
 * ("Remocking the call", @stoplight/prism-core, no option turns it off), and WordPress answers
 * 501 where the spec wants a refusal (a revision DELETE without force=true), so the relay hands
 * Prism a 501 as 500 with `x-cms-conformance-status: 501` and the shim restores it. The relay can
 * also change answers (`breakAnswers`), the test double that shows Prism reporting a violation.
 *
 * Also a command line, for the manual check against a real site (README, "OpenAPI"):
 *   npx tsx test/helpers/prism.ts DOC UPSTREAM_BASE [SHIM_PORT] [PRISM_PORT]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { PKG_ROOT } from '../../src/core/paths.ts';

export const PRISM_BIN = join(PKG_ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface RecordedViolation extends Violation {
  /** "GET /cms/v2/posts/12?context=edit" as sent to Prism, and the status the target answered. */
  request: string;
  status: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export interface Prism {
  url: string;
  child: ChildProcess;
  /** Prism's log (stdout and stderr). */
  log: () => string;
  stop(): Promise<void>;
}

/**
 * Start `prism proxy DOC UPSTREAM` and wait until it listens. Request validation off by default
 * (only the answers are judged); `validateRequest`: Prism judges the requests too (an independent
 * check of what the suite sends, beside test/helpers/openapi-requests.ts).
 */
export async function startPrism(doc: string, upstream: string, opts: { port?: number; timeoutMs?: number; validateRequest?: boolean } = {}): Promise<Prism> {
  const port = opts.port || (await freePort());
  const child = spawn(process.execPath, [PRISM_BIN, 'proxy', doc, upstream, '--port', String(port), '--host', '127.0.0.1', '--validate-request', String(opts.validateRequest ?? false), '--verboseLevel', 'warn'], {
    env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  // Prism logs "listening" at info level only: poll the port instead.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}: ${log.slice(-2000)}`);
    try {
      await request(`${url}/`, { method: 'HEAD', headersTimeout: 2_000 }).then((r) => r.body.dump());
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGTERM');
        throw new Error(`prism did not listen on ${url} within ${opts.timeoutMs ?? 60_000} ms: ${log.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return { url, child, log: () => log, stop };
}

/** `?rest_route=/x&a=b` → `/x?a=b` (raw, as the client encoded it); undefined when there is no rest_route. */
export function prettyAddress(rawUrl: string): string | undefined {
  const q = rawUrl.indexOf('?');
  if (q === -1) return undefined;
  const parts = rawUrl.slice(q + 1).split('&');
  const i = parts.findIndex((p) => p.startsWith('rest_route='));
  if (i === -1) return undefined;
  const route = parts[i]!.slice('rest_route='.length) || '/';
  parts.splice(i, 1);
  const rest = parts.filter(Boolean).join('&');
  return `${route.startsWith('/') ? route : `/${route}`}${rest ? `?${rest}` : ''}`;
}

const STATUS_HEADER = 'x-cms-conformance-status';
const HOP = ['connection', 'keep-alive', 'transfer-encoding', 'content-length'];

export interface Relay {
  url: string;
  /** Change JSON answers (a test double of a target that breaks the document); undefined: unchanged. */
  breakAnswers?: (path: string, json: unknown) => unknown;
  stop(): Promise<void>;
}

/** The relay between Prism and the target: forwards everything, a 501 as 500 + x-cms-conformance-status. */
export async function startRelay(targetBase: string): Promise<Relay> {
  const agent = new Agent({ connections: 16 });
  const relay: Relay = { url: '', stop: async () => {} };
  const server = await serve(async (req, res) => {
    const body = await readAll(req);
    const method = req.method ?? 'GET';
    const { route, url } = restRouteAddress(req.url ?? '/');
    const r = await request(`${targetBase}${url}`, { method: method as 'GET', headers: forwardHeaders(req), body: body.length || !['GET', 'HEAD'].includes(method) ? body : undefined, dispatcher: agent });
    let payload = Buffer.from(await r.body.arrayBuffer());
    const out = responseHeaders(r.headers);
    if (relay.breakAnswers && /json/.test(String(r.headers['content-type'] ?? '')) && payload.length) {
      const changed = relay.breakAnswers(route, JSON.parse(payload.toString('utf8')));
      if (changed !== undefined) payload = Buffer.from(JSON.stringify(changed));
    }
    let status = r.statusCode;
    if (status === 501) {
      status = 500;
      out[STATUS_HEADER] = '501';
    }
    res.writeHead(status, out);
    res.end(method === 'HEAD' ? undefined : payload);
  });
  relay.url = server.url;
  relay.stop = async () => {
    await server.stop();
    await agent.close();
  };
  return relay;
}

/** `/wp-json/x?a=b` → `/index.php?rest_route=/x&a=b`: the spec's address, which every site answers (pretty permalinks or not). */
export function restRouteAddress(rawUrl: string): { route: string; url: string } {
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const query = q === -1 ? '' : rawUrl.slice(q + 1);
  const m = /^\/wp-json(\/.*)?$/.exec(path);
  if (!m) return { route: path, url: rawUrl };
  const route = m[1] ?? '/';
  return { route, url: `/index.php?rest_route=${route}${query ? `&${query}` : ''}` };
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function forwardHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'host' && !HOP.includes(k)) headers[k] = v;
  return headers;
}

function responseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP.includes(k)) out[k] = v;
  return out;
}

async function serve(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, port = 0): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`relay: ${(e as Error).message}`);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface Shim {
  url: string;
  violations: RecordedViolation[];
  /** Where the requests broke the document (only when Prism validates requests). */
  requestViolations: RecordedViolation[];
  /** Requests that went through Prism. */
  validated: number;
  stop(): Promise<void>;
}

/** The address shim: REST requests to Prism (pretty addresses), anything else straight to the target. */
export async function startShim(prismUrl: string, targetBase: string, port = 0): Promise<Shim> {
  const agent = new Agent({ connections: 16 });
  const shim: Shim = { url: '', violations: [], requestViolations: [], validated: 0, stop: async () => {} };
  const server = await serve(async (req, res) => {
    const body = await readAll(req);
    const pretty = prettyAddress(req.url ?? '/');
    const method = req.method ?? 'GET';
    const r = await request(pretty ? `${prismUrl}${pretty}` : `${targetBase}${req.url ?? '/'}`, { method: method as 'GET', headers: forwardHeaders(req), body: body.length || !['GET', 'HEAD'].includes(method) ? body : undefined, dispatcher: agent });
    const payload = Buffer.from(await r.body.arrayBuffer());
    let status = r.statusCode;
    if (pretty) {
      shim.validated++;
      const header = r.headers['sl-violations'];
      if (typeof header === 'string') {
        for (const v of JSON.parse(header) as Violation[]) {
          if (v.location[0] === 'response') shim.violations.push({ ...v, request: `${method} ${pretty}`, status });
          else if (v.location[0] === 'request') shim.requestViolations.push({ ...v, request: `${method} ${pretty}`, status });
        }
      }
      if (r.headers[STATUS_HEADER] === '501') status = 501;
    }
    const out = responseHeaders(r.headers);
    delete out['sl-violations'];
    delete out[STATUS_HEADER];
    res.writeHead(status, out);
    res.end(method === 'HEAD' ? undefined : payload);
  }, port);
  shim.url = server.url;
  shim.stop = async () => {
    await server.stop();
    await agent.close();
  };
  return shim;
}

export interface PrismChain {
  /** Where the suite goes (`--target`). */
  url: string;
  shim: Shim;
  prism: Prism;
  relay: Relay;
  stop(): Promise<void>;
}

/** shim → Prism proxy (DOC) → relay → target: the whole chain, stopped in reverse order. */
export async function startPrismChain(doc: string, targetBase: string, ports: { shim?: number; prism?: number; validateRequest?: boolean } = {}): Promise<PrismChain> {
  const base = targetBase.replace(/\/+$/, '');
  const relay = await startRelay(base);
  let prism: Prism | undefined;
  try {
    prism = await startPrism(doc, `${relay.url}/wp-json`, { port: ports.prism ?? 0, validateRequest: ports.validateRequest });
    const shim = await startShim(prism.url, base, ports.shim ?? 0);
    const p = prism;
    return {
      url: shim.url,
      shim,
      prism: p,
      relay,
      stop: async () => {
        await shim.stop();
        await p.stop();
        await relay.stop();
      },
    };
  } catch (e) {
    await prism?.stop();
    await relay.stop();
    throw e;
  }
}

/** Violations grouped: "response.body.status: Response body property status must be ..." → count and one example request. */
export function summarize(violations: readonly RecordedViolation[]): { where: string; message: string; count: number; example: string }[] {
  const groups = new Map<string, { where: string; message: string; count: number; example: string }>();
  for (const v of violations) {
    const where = v.location.join('.');
    const key = `${where}\0${v.message}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { where, message: v.message, count: 1, example: `${v.request} -> ${v.status}` });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

// The command line (manual checks): prints the violations when interrupted (Ctrl+C).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [doc, upstream, shimPort, prismPort] = process.argv.slice(2);
  if (!doc || !upstream) {
    console.error('usage: npx tsx test/helpers/prism.ts DOC UPSTREAM_BASE [SHIM_PORT] [PRISM_PORT]');
    process.exit(2);
  }
  const chain = await startPrismChain(doc, upstream, { shim: Number(shimPort) || 0, prism: Number(prismPort) || 0 });
  const shim = chain.shim;
  console.log(`shim ${shim.url} -> prism ${chain.prism.url} -> relay -> ${upstream}/wp-json; run the suite with --target ${shim.url}; Ctrl+C prints the violations`);
  const done = async () => {
    console.log(JSON.stringify({ validated: shim.validated, violations: summarize(shim.violations) }, null, 2));
    await chain.stop();
    process.exit(0);
  };
  process.once('SIGINT', done);
  process.once('SIGTERM', done);
}
