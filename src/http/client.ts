/**
 * HTTP client for a target (undici). Routes are addressed as
 * `{base}/index.php?rest_route=<route>`; query values are serialised in the form the exported
 * OpenAPI document declares and every reading of the spec accepts (serializeQuery: arrays as one
 * comma list, `a=1,2`; objects as `o[k]=v`), never PHP's `a[]=`. Every exchange is counted and
 * attributed to the behaviour that sent it.
 *
 * Transient trouble of the target (no answer, a gateway's answer, an HTML page for JSON) is sent
 * again and, when it persists, thrown as a TargetError; bodies are read up to --max-body: see
 * src/http/transient.ts.
 */
import { dispatcherFor, request as undiciRequest } from './undici.ts';
import type { Dispatcher } from 'undici';
import type { RecordedExchange } from '../../results/results.ts';
import { TargetError, WritesNotAllowed } from '../core/errors.ts';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_RETRIES, NOT_SENT, NO_ANSWER, READS, backoffMs, formatBytes, gatewayTrouble, headerValue, parseJson, readBody, refuseBody, retryAfterMs, sleep } from './transient.ts';
import { Limiter, RateLimiter } from './pacing.ts';
import { connectionHint } from './connection.ts';

export { RateLimiter } from './pacing.ts';

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_RETRIES, formatBytes, gatewayTrouble, idempotentUpdates, isApplicationError, retryAfterMs } from './transient.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
import { serializeQuery, type QueryValue } from './wire.ts';

export { serializeQuery, type QueryValue } from './wire.ts';

export interface Credentials {
  user?: string;
  appPassword?: string;
  authHeader?: string;
}

/** `default` uses the configured credentials (if any), `none` sends none. */
export type AuthChoice = 'default' | 'none' | Credentials;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /**
   * The documented arguments this request sends with a wrong value on purpose (a refusal check's
   * input: `per_page` below its minimum, a `status` outside its enum ...), by name; for a batch,
   * the names of its items' arguments too. Recorded in the exchange (and events.ndjson): the proof
   * that every request validates against the exported OpenAPI document (test/openapi-requests.test.ts)
   * holds these to violating the document on exactly those arguments.
   */
  invalid?: readonly string[];
  /** Appended verbatim after the serialised query (for inputs that must be sent exactly). */
  rawQuery?: string;
  /** JSON-serialised unless it is a string (then sent as is with `contentType`). */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  auth?: AuthChoice;
  timeoutMs?: number;
  /**
   * Return whatever the target answers (after retrying transient trouble) instead of throwing a
   * TargetError for a gateway answer or an HTML page: for callers that judge the answer
   * themselves (the index fetch says "is it a Content Site REST Interface server?").
   */
  anyAnswer?: boolean;
  /**
   * A page the index links to (not a REST route), requested at this absolute URL: an HTML answer is
   * what is expected there, so only no answer and gateway answers (5xx, 429) are the target's trouble.
   */
  pageUrl?: string;
}

/** One request and its answer, as sent (full bodies; the results keep a truncated copy with a curl: RecordedExchange). */
export type Exchange = Omit<RecordedExchange, 'curl'>;

export interface Response<T = any> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, else undefined. */
  body: T;
  text: string;
  durationMs: number;
  exchange: Exchange;
}

export interface ClientOptions {
  baseUrl: string;
  credentials?: Credentials;
  timeoutMs?: number;
  concurrency?: number;
  /** Times transient trouble is retried (--retries; default 3, 0 = never). */
  retries?: number;
  /** Writes (by method and the target's route) that may be sent again after trouble that may have come after the work (idempotentUpdates). */
  repeatable?: (method: Method, route: string) => boolean;
  /** Response bodies larger than this are read no further (--max-body; default 8 MiB). */
  maxBodyBytes?: number;
  /** At most this many requests started per second (shared by all forks); 0 or undefined = no limit. */
  maxRps?: number;
  /** An existing limiter of --max-rps to share (instead of one made for this client from maxRps). */
  rate?: RateLimiter;
  /** Translates documented routes to the target's (profile). Identity by default. */
  mapRoute?: (route: string) => string;
  /** Called for every completed exchange (event log, attribution). */
  onExchange?: (e: Exchange) => void;
  /** The run may not write (why, e.g. "--read-only"): every request but GET, HEAD and OPTIONS is refused before it is sent (WritesNotAllowed). */
  readOnly?: string;
  /** Sent with every request, with or without credentials (--header); never recorded. */
  headers?: Record<string, string>;
  /** Every request goes through this proxy (its URL; src/http/connection.ts decides it). */
  proxy?: string;
  /** The target's TLS certificate is not verified (--insecure). */
  insecure?: boolean;
}

export function routeUrl(baseUrl: string, route: string, query?: Record<string, QueryValue>, rawQuery?: string): string {
  const encodedRoute = encodeURIComponent(route).replace(/%2F/g, '/');
  let url = `${baseUrl}/index.php?rest_route=${encodedRoute}`;
  const q = query ? serializeQuery(query) : '';
  if (q) url += `&${q}`;
  if (rawQuery) url += `&${rawQuery.replace(/^[?&]/, '')}`;
  return url;
}

export function authorizationHeader(c: Credentials | undefined): string | undefined {
  if (!c) return undefined;
  if (c.authHeader) return c.authHeader;
  if (c.user !== undefined && c.appPassword !== undefined)
    return `Basic ${Buffer.from(`${c.user}:${c.appPassword}`).toString('base64')}`;
  return undefined;
}

interface Shared {
  agent: Dispatcher;
  limiter: Limiter;
  rate?: RateLimiter;
  totals: { requests: number; latencyMs: number; retried: number; gaveUp: number; oversized: number };
  /**
   * A request's connection was refused through all its retries, and nothing has answered since: the
   * target is down (it stopped, or the run is being stopped because of it). Refused connections are
   * then not sent again (each retry only delays the end: cleanup, the stop), until an answer comes.
   */
  down?: boolean;
  /**
   * A request got no answer (timed out, reset, cut off) through all its retries, and nothing has
   * answered since: the target has stalled. Requests that get no answer are then not sent again
   * (each retry would wait out the same timeout), until an answer comes.
   */
  silent?: boolean;
}

export class Client {
  readonly baseUrl: string;
  /** Requests sent through this client (fork). */
  requests = 0;
  latencyMs = 0;
  /** Attempts sent again because of transient trouble (each counts as a request, too). */
  retried = 0;
  /** Requests whose transient trouble persisted through the retries (thrown as TargetError). */
  gaveUp = 0;
  /** Answers whose body was over --max-body. */
  oversized = 0;
  readonly log: Exchange[] = [];
  private readonly shared: Shared;

  constructor(
    private readonly opts: ClientOptions,
    shared?: Shared,
    private readonly tag?: string,
  ) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.shared = shared ?? {
      agent: dispatcherFor({ connections: opts.concurrency ?? 4, proxy: opts.proxy, insecure: opts.insecure }),
      limiter: new Limiter(opts.concurrency ?? 4),
      rate: opts.rate ?? (opts.maxRps ? new RateLimiter(opts.maxRps) : undefined),
      totals: { requests: 0, latencyMs: 0, retried: 0, gaveUp: 0, oversized: 0 },
    };
  }

  /** A client sharing connections and the concurrency limit, with its own counters and tag. */
  fork(tag: string, onExchange?: (e: Exchange) => void): Client {
    return new Client({ ...this.opts, onExchange: onExchange ?? this.opts.onExchange }, this.shared, tag);
  }

  /**
   * The target does not answer: a request met refused connections, or no answer in time, through
   * all its retries, and nothing has answered since. Callers that would try again on their own
   * (cleanup, recovering a create) do not.
   */
  get unanswering(): boolean {
    return !!(this.shared.down || this.shared.silent);
  }

  /** Count a request sent again by a caller (a create retried after removing what the first attempt made). */
  noteRetry(): void {
    this.retried++;
    this.shared.totals.retried++;
  }

  get totals() {
    return this.shared.totals;
  }

  get hasCredentials(): boolean {
    return authorizationHeader(this.opts.credentials) !== undefined;
  }

  get mapRoute(): (route: string) => string {
    return this.opts.mapRoute ?? ((r) => r);
  }

  url(route: string, query?: Record<string, QueryValue>, rawQuery?: string): string {
    return routeUrl(this.baseUrl, this.mapRoute(route), query, rawQuery);
  }

  get<T = any>(route: string, opts: RequestOptions = {}) {
    return this.request<T>('GET', route, opts);
  }
  post<T = any>(route: string, body?: unknown, opts: RequestOptions = {}) {
    return this.request<T>('POST', route, { ...opts, body });
  }
  delete<T = any>(route: string, opts: RequestOptions = {}) {
    return this.request<T>('DELETE', route, opts);
  }

  async request<T = any>(method: Method, route: string, opts: RequestOptions = {}): Promise<Response<T>> {
    const targetRoute = this.mapRoute(route);
    const url = opts.pageUrl ?? routeUrl(this.baseUrl, targetRoute, opts.query, opts.rawQuery);
    const headers: Record<string, string> = { ...this.opts.headers, accept: 'application/json', ...opts.headers };
    const auth = opts.auth ?? 'default';
    const authValue = auth === 'none' ? undefined : authorizationHeader(auth === 'default' ? this.opts.credentials : auth);
    if (authValue) headers.authorization = authValue;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    // --timeout is per request, and a batch carries several (core part 4, Batch: up to 25): its
    // answer may take each of them in turn (25 writes of PHP on a loaded machine took over 10 s).
    const inner = route === '/batch/v1' && Array.isArray((opts.body as { requests?: unknown })?.requests) ? (opts.body as { requests: unknown[] }).requests.length : 1;
    const timeoutMs = (opts.timeoutMs ?? this.opts.timeoutMs ?? 10_000) * Math.max(1, inner);
    const retries = this.opts.retries ?? DEFAULT_RETRIES;
    const maxBody = this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    // WordPress honours ?_method= and X-HTTP-Method-Override: the effective method decides whether a retry is safe.
    const override = String(opts.headers?.['X-HTTP-Method-Override'] ?? opts.headers?.['x-http-method-override'] ?? opts.query?._method ?? (/(?:^|&)_method=([^&]*)/i.exec(opts.rawQuery ?? '')?.[1] ?? '')).toUpperCase();
    const effective = (override || method) as Method;
    if (this.opts.readOnly !== undefined && !(READS.has(method) && READS.has(effective))) throw new WritesNotAllowed(effective, route, this.opts.readOnly);
    const isRead = READS.has(effective) || this.opts.repeatable?.(effective, targetRoute) === true;

    const exchange: Exchange = {
      tag: this.tag,
      method,
      url,
      route: targetRoute,
      auth: !authValue ? 'none' : auth === 'default' ? 'configured' : 'other',
      requestBody: body,
      ...(opts.invalid?.length ? { invalid: [...opts.invalid] } : {}),
      status: 0,
      responseHeaders: {},
      responseText: '',
      durationMs: 0,
    };
    const started = performance.now();
    let oversize: string | undefined;
    /** Sending again: count it, wait (Retry-After or backoff), within the run's pace. */
    const again = async (waitMs: number, slowDown = false) => {
      this.retried++;
      this.shared.totals.retried++;
      // The target asked everyone to wait (429, 503 with Retry-After): the whole run's pace follows.
      if (slowDown) this.shared.rate?.pauseUntil(performance.now() + waitMs);
      await sleep(waitMs);
    };
    try {
      for (let attempt = 0; ; attempt++) {
        let res: { status: number; headers: Record<string, string | string[] | undefined>; text: string; bytes: number; over: boolean; declared?: boolean };
        try {
          res = await this.shared.limiter.run(async () => {
            await this.shared.rate?.slot();
            const r = await undiciRequest(url, {
              method,
              headers,
              body,
              dispatcher: this.shared.agent,
              signal: AbortSignal.timeout(timeoutMs),
            });
            const length = Number(headerValue(r.headers['content-length']));
            const read = await readBody(r.body as any, maxBody, Number.isFinite(length) && headerValue(r.headers['content-length']) !== undefined ? length : undefined);
            return { status: r.statusCode, headers: r.headers, ...read };
          });
        } catch (err) {
          const code = errorCode(err);
          const transient = NO_ANSWER.has(code) || NOT_SENT.has(code);
          if (transient && attempt < retries && (isRead || NOT_SENT.has(code)) && !(this.shared.down && NOT_SENT.has(code)) && !(this.shared.silent && NO_ANSWER.has(code))) {
            await again(backoffMs(attempt));
            continue;
          }
          const tries = attempt > 0 ? ` (${attempt + 1} attempts)` : '';
          const note = transient && !isRead && !NOT_SENT.has(code) && retries > 0 ? ' (a write is not sent again: it may have reached the application)' : '';
          const msg =
            code === 'TimeoutError'
              ? `no response within ${timeoutMs} ms${tries}: ${method} ${url}${note}`
              : `${method} ${url} failed${tries}: ${code || (err as Error).message}${connectionHint(code, this.opts.proxy !== undefined)}${note}`;
          exchange.error = msg;
          if (NOT_SENT.has(code)) this.shared.down = true;
          if (NO_ANSWER.has(code) && isRead && (attempt >= retries || this.shared.silent)) this.shared.silent = true;
          if (transient) {
            this.gaveUp++;
            this.shared.totals.gaveUp++;
          }
          throw new TargetError(msg, code);
        }
        this.shared.down = false;
        this.shared.silent = false;
        const trouble = (opts.anyAnswer || opts.pageUrl !== undefined) && res.status < 500 && res.status !== 429 ? undefined : gatewayTrouble(method, res.status, res.headers, res.text);
        // A 429 refuses before doing the work: safe to send any method again. A 5xx, a 503 with
        // Retry-After too, may come from a gateway after the application acted (issue 35): a write is
        // not sent again on it (fixture creates find what the first attempt made: src/sdk/fixtures.ts);
        // a read waits as Retry-After asks.
        const refusedBeforeWork = res.status === 429;
        const asksToWait = refusedBeforeWork || (res.status === 503 && headerValue(res.headers['retry-after']) !== undefined);
        if (trouble && attempt < retries && (isRead || refusedBeforeWork)) {
          const asked = asksToWait ? retryAfterMs(headerValue(res.headers['retry-after'])) : undefined;
          await again(asked ?? backoffMs(attempt), asksToWait);
          continue;
        }
        // A JSON answer that does not parse (cut off by something in between, or garbled) is read again;
        // when it stays so, it is returned as it is: the check judges it (targetTrouble in src/sdk/behaviour.ts).
        const garbled = !trouble && !res.over && READS.has(effective) && /json/i.test(String(headerValue(res.headers['content-type']) ?? '')) && res.text !== '' && parseJson(res.text) === undefined;
        if (garbled && attempt < retries) {
          await again(backoffMs(attempt));
          continue;
        }
        exchange.status = res.status;
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) exchange.responseHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
        exchange.responseText = res.text;
        exchange.responseBytes = res.bytes;
        if (res.over) {
          exchange.bodyOverLimit = true;
          this.oversized++;
          this.shared.totals.oversized++;
          oversize = `${method} ${targetRoute} answered ${res.status} with a body of ${res.declared ? `${formatBytes(res.bytes)} (its Content-Length)` : `more than ${formatBytes(maxBody)}`}, over the --max-body limit of ${formatBytes(maxBody)}: read no further`;
        }
        if (trouble && !opts.anyAnswer) {
          this.gaveUp++;
          this.shared.totals.gaveUp++;
          const tries = attempt > 0 ? ` ${attempt + 1} times` : '';
          const why = !isRead && !refusedBeforeWork && retries > 0 ? ' (a write is not sent again: it may have reached the application)' : '';
          throw new TargetError(`${method} ${targetRoute} ${trouble}${tries}${why}`, `HTTP_${res.status}`);
        }
        break;
      }
    } finally {
      exchange.durationMs = performance.now() - started;
      this.requests++;
      this.latencyMs += exchange.durationMs;
      this.shared.totals.requests++;
      this.shared.totals.latencyMs += exchange.durationMs;
      this.log.push(exchange);
      if (this.log.length > 50) this.log.shift();
      this.opts.onExchange?.(exchange);
    }
    const response: Response<T> = {
      status: exchange.status,
      headers: exchange.responseHeaders,
      body: parseJson(exchange.responseText) as T,
      text: exchange.responseText,
      durationMs: exchange.durationMs,
      exchange,
    };
    if (oversize !== undefined) refuseBody(response, oversize);
    return response;
  }

  async close(): Promise<void> {
    await this.shared.agent.close();
  }
}

function errorCode(err: unknown): string {
  const e = err as { code?: unknown; name?: string; message?: string; cause?: { code?: unknown } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'TimeoutError';
  // undici's ProxyAgent: the proxy refused the CONNECT tunnel (not the target's trouble: not sent again).
  const proxy = /^Proxy response \((\d+)\)/.exec(String(e?.message ?? ''));
  if (proxy) return `PROXY_${proxy[1]}`;
  const code = e?.cause?.code ?? e?.code;
  return typeof code === 'string' ? code : (e?.name ?? '');
}

/** A curl command reproducing an exchange, with credentials as environment placeholders. */
export function curlFor(e: Exchange): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl', '-sS', '-X', e.method, q(e.url)];
  if (e.auth === 'configured') parts.push('-u', '"$TARGET_USER:$TARGET_APP_PASSWORD"');
  else if (e.auth === 'other') parts.push('-H', q('Authorization: [redacted]'));
  if (e.requestBody !== undefined) parts.push('-H', q('Content-Type: application/json'), '--data', q(e.requestBody));
  return parts.join(' ');
}
