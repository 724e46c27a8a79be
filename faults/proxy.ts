/**
 * A fault-injecting HTTP proxy: stands in front of a real target and breaks one documented
 * behaviour (a named fault), so that the suite can be shown to catch it. Faults are written
 * in spec names; the proxy translates routes through the target's profile.
 * It also counts what passes through (for read-only and rate tests).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { getProfile, type Profile, type ProfileName } from '../schemas/profiles.ts';
import { CAPTIVE_PAGE, GATEWAY_PAGE, UNAVAILABLE_PAGE, sendHuge, type FlakyOptions, type FlakyStats, type HugeBodyOptions } from './flaky.ts';
import { prng } from '../schemas/prng.ts';

export type { FlakyOptions, FlakyStats, HugeBodyOptions } from './flaky.ts';

export interface FaultRequest {
  method: string;
  /** Route in spec names (e.g. /cms/v2/posts/12), addressed by `rest_route` or under `/wp-json/`. */
  route: string;
  /** The request's URL as the client sent it (path and query, percent-encoding kept); absent in a replay. */
  url?: string;
  /** Query parameters other than rest_route; mutable. */
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (mutable), when the body is JSON. */
  json?: any;
  /** Raw body when it is not JSON. */
  raw: Buffer;
  profile: Profile;
  /** Whether the request carries an Authorization header. */
  authenticated: boolean;
}

export interface FaultResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body (mutable), when the body is JSON. */
  json?: any;
  text: string;
}

export interface Fault {
  /** Stable ID, e.g. "cms.per-page-clamped". */
  id: string;
  /** What a broken server does, in one sentence. */
  title: string;
  /** Behaviour IDs (or prefixes ending in '*') expected to catch this fault. */
  caughtBy: string[];
  /** Runs before forwarding; return a response to answer without the target. */
  request?(req: FaultRequest): void | FaultResponse | Promise<void | FaultResponse>;
  /** Runs on the target's answer; mutate `res` (status, headers, json). */
  response?(req: FaultRequest, res: FaultResponse): void | Promise<void>;
}

export interface ProxyStats {
  total: number;
  byMethod: Record<string, number>;
  /** Requests that could change state (anything but GET, HEAD, OPTIONS). */
  writes: number;
  /** When each request arrived (performance.now(), ms). */
  arrivals: number[];
  /** The most requests that were open at once (arrived, not yet answered). */
  maxInFlight: number;
}

/**
 * Chaos: transport-level trouble applied to a share of requests, deterministic for a seed.
 * Rates are fractions of requests (0..1).
 */
export interface ChaosOptions {
  seed?: number;
  /** Added to every answer. */
  latencyMs?: number;
  /** Requests that get no answer for `stallMs` (longer than the client's timeout). */
  stallRate?: number;
  stallMs?: number;
  /** Requests whose connection is reset without an answer. */
  resetRate?: number;
  /** Requests answered 5xx (in bursts of `burstLength` consecutive requests). */
  errorRate?: number;
  burstLength?: number;
  /** Requests answered 429 with Retry-After: `retryAfterSec`. */
  rateLimitRate?: number;
  retryAfterSec?: number;
  /** Answers whose JSON body is cut in half. */
  malformedJsonRate?: number;
  /** Answers replaced by an HTML error page (status 500). */
  htmlErrorRate?: number;
}

export interface ChaosStats {
  stalled: number;
  reset: number;
  errors: number;
  rateLimited: number;
  malformed: number;
  html: number;
}

export interface FaultProxy {
  url: string;
  stats: ProxyStats;
  chaos: ChaosStats;
  flaky: FlakyStats;
  /** Huge bodies started, and the bytes actually sent of them (the client stops reading). */
  huge: { started: number; bytesSent: number };
  close(): Promise<void>;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'content-encoding']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function parseJson(text: string): any {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A percent-decoded path (the raw path when it is not valid percent-encoding). */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Start a proxy to `targetUrl` applying `faults` in order. */
export async function startFaultProxy(
  targetUrl: string,
  faults: Fault[],
  opts: { profile?: ProfileName; port?: number; chaos?: ChaosOptions; flaky?: FlakyOptions; hugeBody?: HugeBodyOptions } = {},
): Promise<FaultProxy> {
  const chaos = opts.chaos;
  const flaky = opts.flaky;
  const flakyStats: FlakyStats = { gateway: 0, reset: 0, stalled: 0, unavailable: 0, unavailableAfter: 0, captive: 0, truncated: 0, slow: 0 };
  const huge = { started: 0, bytesSent: 0 };
  const random = prng(chaos?.seed ?? 1);
  const chaosStats: ChaosStats = { stalled: 0, reset: 0, errors: 0, rateLimited: 0, malformed: 0, html: 0 };
  let burstLeft = 0;
  const profile = getProfile(opts.profile ?? 'spec');
  const upstream = new URL(targetUrl.replace(/\/+$/, ''));
  const agent = new Agent({ connections: 16 });
  const stats: ProxyStats = { total: 0, byMethod: {}, writes: 0, arrivals: [], maxInFlight: 0 };
  let inFlight = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    stats.maxInFlight = Math.max(stats.maxInFlight, ++inFlight);
    res.once('close', () => inFlight--);
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://proxy');
    // Count the effective method (WordPress honours ?_method= and X-HTTP-Method-Override).
    const effective = (url.searchParams.get('_method') ?? (req.headers['x-http-method-override'] as string | undefined) ?? req.method ?? 'GET').toUpperCase();
    stats.total++;
    stats.arrivals.push(performance.now());
    stats.byMethod[effective] = (stats.byMethod[effective] ?? 0) + 1;
    if (WRITE_METHODS.has(effective)) stats.writes++;
    const n = stats.total;
    const every = (k: number | undefined) => !!k && n % k === 0;
    /** What flaky does with the target's answer (decided now, by request count). */
    let flakyAfter: 'gateway' | 'unavailable' | 'truncate' | 'slow' | undefined;
    if (flaky) {
      if (every(flaky.resetEvery)) {
        flakyStats.reset++;
        req.socket.resetAndDestroy?.() ?? req.socket.destroy();
        return;
      }
      if (every(flaky.unavailableEvery)) {
        flakyStats.unavailable++;
        res.writeHead(503, { 'content-type': 'text/html; charset=UTF-8', 'retry-after': String(flaky.retryAfterSec ?? 1) });
        res.end(UNAVAILABLE_PAGE);
        return;
      }
      if (every(flaky.captiveEvery)) {
        flakyStats.captive++;
        res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
        res.end(CAPTIVE_PAGE);
        return;
      }
      if (every(flaky.stallEvery)) {
        flakyStats.stalled++;
        await sleep(flaky.stallMs ?? 3_000);
        if (req.socket.destroyed) return;
      }
      if (every(flaky.gatewayEvery)) flakyAfter = 'gateway';
      else if (every(flaky.unavailableAfterEvery)) flakyAfter = 'unavailable';
      else if (every(flaky.truncateEvery)) flakyAfter = 'truncate';
      else if (every(flaky.slowBodyEvery)) flakyAfter = 'slow';
    }
    if (opts.hugeBody && opts.hugeBody.route.test(url.searchParams.get('rest_route') ?? '') && (!opts.hugeBody.method || opts.hugeBody.method === effective)) {
      huge.started++;
      await sendHuge(res, opts.hugeBody, (b) => (huge.bytesSent += b));
      return;
    }

    if (chaos) {
      if (chaos.latencyMs) await sleep(chaos.latencyMs);
      const roll = random();
      let edge = 0;
      const hit = (rate = 0) => roll >= edge && roll < (edge += rate);
      if (burstLeft > 0 || hit(chaos.errorRate)) {
        burstLeft = burstLeft > 0 ? burstLeft - 1 : Math.max(0, (chaos.burstLength ?? 3) - 1);
        chaosStats.errors++;
        res.writeHead(503, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify({ code: 'chaos_unavailable', message: 'Service Unavailable (chaos)', data: { status: 503 } }));
        return;
      }
      if (hit(chaos.stallRate)) {
        chaosStats.stalled++;
        await new Promise((r) => setTimeout(r, chaos.stallMs ?? 30_000).unref());
        req.socket.destroy();
        return;
      }
      if (hit(chaos.resetRate)) {
        chaosStats.reset++;
        req.socket.resetAndDestroy?.() ?? req.socket.destroy();
        return;
      }
      if (hit(chaos.rateLimitRate)) {
        chaosStats.rateLimited++;
        res.writeHead(429, { 'content-type': 'application/json; charset=UTF-8', 'retry-after': String(chaos.retryAfterSec ?? 1) });
        res.end(JSON.stringify({ code: 'too_many_requests', message: 'Slow down (chaos)', data: { status: 429 } }));
        return;
      }
    }

    const targetRoute = url.searchParams.get('rest_route');
    // WordPress's path address `{base}/wp-json/<route>` (what Frontity and HeadstartWP use): a route for the faults too, sent on as it came.
    const pretty = targetRoute === null ? /^\/wp-json(\/.*)?$/.exec(url.pathname) : null;
    const routeOf = (r: string | null) => (r === null ? '' : profile.toSpecRoute(r || '/'));
    const query = new URLSearchParams(url.searchParams);
    query.delete('rest_route');
    const isJson = String(req.headers['content-type'] ?? '').includes('json');
    const fr: FaultRequest = {
      method: req.method ?? 'GET',
      route: routeOf(targetRoute ?? (pretty ? safeDecode(pretty[1] ?? '/') : null)),
      url: req.url ?? '/',
      query,
      headers: req.headers,
      json: isJson ? parseJson(raw.toString('utf8')) : undefined,
      raw,
      profile,
      authenticated: req.headers.authorization !== undefined,
    };
    const jsonBefore = fr.json === undefined ? undefined : JSON.stringify(fr.json);
    const queryBefore = query.toString();

    let answer: FaultResponse | undefined;
    for (const f of faults) {
      const r = await f.request?.(fr);
      if (r) {
        answer = r;
        break;
      }
    }
    if (!answer) {
      const out = new URL(upstream.toString());
      out.pathname = (upstream.pathname.replace(/\/+$/, '') + url.pathname).replace(/\/{2,}/g, '/');
      const params = new URLSearchParams();
      if (targetRoute !== null) params.set('rest_route', fr.route ? profile.toTargetRoute(fr.route) : targetRoute);
      // A query no fault changed goes on as the client wrote it (a comma list keeps its literal
      // commas, which URLSearchParams would write as %2C); a changed one, as URLSearchParams writes it.
      const rest = fr.query.toString() === queryBefore ? url.search.slice(1).split('&').filter((p) => p !== '' && !p.startsWith('rest_route=')).join('&') : fr.query.toString();
      out.search = [params.toString(), rest].filter(Boolean).join('&');
      const jsonAfter = fr.json === undefined ? undefined : JSON.stringify(fr.json);
      const body = jsonAfter !== undefined && jsonAfter !== jsonBefore ? Buffer.from(jsonAfter) : raw;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const up = await request(out, {
        method: fr.method as 'GET',
        headers,
        body: body.length || WRITE_METHODS.has(fr.method) ? body : undefined,
        dispatcher: agent,
      });
      const text = await up.body.text();
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) h[k] = Array.isArray(v) ? v.join(', ') : v;
      answer = { status: up.statusCode, headers: h, json: parseJson(text), text };
    }
    const before = answer.json === undefined ? undefined : JSON.stringify(answer.json);
    for (const f of faults) await f.response?.(fr, answer);
    const after = answer.json === undefined ? undefined : JSON.stringify(answer.json);
    let text = after !== before && after !== undefined ? after : answer.text;
    if (chaos) {
      const roll = random();
      const malformed = chaos.malformedJsonRate ?? 0;
      if (roll < malformed && text.length > 1) {
        chaosStats.malformed++;
        text = text.slice(0, Math.ceil(text.length / 2));
      } else if (roll < malformed + (chaos.htmlErrorRate ?? 0)) {
        chaosStats.html++;
        answer.status = 500;
        answer.headers = { 'content-type': 'text/html; charset=UTF-8' };
        text = '<!DOCTYPE html><html><body><h1>There has been a critical error on this website.</h1></body></html>';
      }
    }
    if (flakyAfter === 'gateway') {
      // The application answered (and did whatever the request asked); the client gets a gateway's page.
      flakyStats.gateway++;
      res.writeHead(502, { 'content-type': 'text/html; charset=UTF-8' });
      res.end(GATEWAY_PAGE);
      return;
    }
    if (flakyAfter === 'unavailable') {
      // The application answered (and did the work); a gateway in front of it answers 503 with Retry-After anyway.
      flakyStats.unavailableAfter++;
      res.writeHead(503, { 'content-type': 'text/html; charset=UTF-8', 'retry-after': String(flaky!.retryAfterSec ?? 1) });
      res.end(UNAVAILABLE_PAGE);
      return;
    }
    const bytes = Buffer.from(text);
    if (flakyAfter === 'truncate' && bytes.length > 1) {
      flakyStats.truncated++;
      res.writeHead(answer.status, { ...answer.headers, 'content-length': String(bytes.length) });
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
      return;
    }
    if (flakyAfter === 'slow' && bytes.length > 8) {
      flakyStats.slow++;
      res.writeHead(answer.status, { ...answer.headers, 'content-length': String(bytes.length) });
      const piece = Math.ceil(bytes.length / 8);
      for (let i = 0; i < bytes.length; i += piece) {
        if (res.destroyed) return;
        res.write(bytes.subarray(i, i + piece));
        await sleep(flaky!.slowBodyMs ?? 100);
      }
      res.end();
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(bytes);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'proxy_error', message: String((err as Error)?.message ?? err), data: { status: 502 } }));
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    chaos: chaosStats,
    flaky: flakyStats,
    huge,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await agent.close();
    },
  };
}

/** Does a behaviour ID match one of a fault's `caughtBy` entries (exact, or prefix ending in '*')? */
export function matchesCaughtBy(fault: Fault, behaviourId: string): boolean {
  return fault.caughtBy.some((p) => (p.endsWith('*') ? behaviourId.startsWith(p.slice(0, -1)) : p === behaviourId));
}

/** A JSON answer a fault gives instead of the target. */
export const json = (status: number, body: unknown): FaultResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=UTF-8' },
  json: body,
  text: JSON.stringify(body),
});

/** Helpers for writing faults. */
export const on = {
  /** Route equals (spec names) and method matches. */
  route(req: FaultRequest, route: string | RegExp, method?: string): boolean {
    const ok = typeof route === 'string' ? req.route === route : route.test(req.route);
    return ok && (!method || req.method === method);
  },
};
