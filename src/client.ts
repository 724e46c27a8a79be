/**
 * HTTP client for a target (undici). Routes are addressed as
 * `{base}/index.php?rest_route=<route>`; query values are serialised the way WordPress
 * parses them (`a[]=1&a[]=2`, `o[k]=v`). Every exchange is counted and attributed to the
 * behaviour that sent it.
 *
 * Transient trouble of the target is retried (`--retries`, with backoff, within the run's
 * concurrency and --max-rps, honouring Retry-After) and, when it persists, thrown as a
 * TargetError, so that no check ever reads it as the application's answer:
 * - no answer: connection refused/reset, timeouts, a body cut off mid-way;
 * - gateway answers: any 5xx whose body is not the application's JSON error
 *   (`{code, message, data?}`: WordPress's own errors), a 503 with Retry-After, a 429;
 * - a 2xx HTML page where the application answers JSON (a captive portal or a proxy's page).
 * Reads (GET, HEAD, OPTIONS) are sent again freely, and updates whose repetition is harmless
 * (idempotentUpdates). Other writes only when the first attempt cannot have reached the application: the connection was refused or never made, a 429, or a 503 with
 * Retry-After (a refusal before the work). Everything else a write meets is thrown at once
 * (src/fixtures.ts finds and removes a tagged item a failed create may have made, then retries).
 * An application's own 5xx (its JSON error) is returned as is: a server failure is a finding.
 *
 * Bodies are read up to `maxBodyBytes` (--max-body): a larger one is read no further (the
 * stream is destroyed), the exchange records its size, and reading `body` or `text` of that
 * response throws a TargetError (a check that needs the body cannot be made).
 */
import { Agent, request as undiciRequest } from './http.ts';
import type { RecordedExchange } from '../schemas/results.ts';
import { TargetError } from './errors.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
export type QueryValue = string | number | boolean | null | undefined | QueryValue[] | { [k: string]: QueryValue };

export interface Credentials {
  user?: string;
  appPassword?: string;
  authHeader?: string;
}

/** `default` uses the configured credentials (if any), `none` sends none. */
export type AuthChoice = 'default' | 'none' | Credentials;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
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
}

/** A counting semaphore shared by all forks of one client. */
class Limiter {
  private active = 0;
  private queue: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

/** Spaces request starts so that at most `rps` start per second. */
export class RateLimiter {
  /** When the last start happened (performance.now()). */
  private last = -Infinity;
  private queue: Promise<void> = Promise.resolve();
  constructor(private readonly rps: number) {}
  /**
   * Wait for a slot: one start at a time, each at least 1/rps after the one before it actually
   * started. (Slots computed ahead of time would all start together after a pause of the event
   * loop, a burst above the rate.) `pauseUntil` pushes every later start back (a 429's Retry-After).
   */
  slot(): Promise<void> {
    const interval = 1000 / this.rps;
    const turn = this.queue.then(async () => {
      const wait = this.last + interval - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.last = performance.now();
    });
    this.queue = turn;
    return turn;
  }
  pauseUntil(t: number): void {
    this.last = Math.max(this.last, t - 1000 / this.rps);
  }
}

/** How long a 429's Retry-After asks to wait, in ms (seconds or an HTTP date), capped. */
export function retryAfterMs(value: string | undefined, capMs = 10_000): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  const ms = Number.isFinite(secs) ? secs * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), capMs) : undefined;
}

export const DEFAULT_RETRIES = 3;
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** No answer, and the request may have reached the application (reads are sent again; writes are not). */
const NO_ANSWER = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_ABORTED',
  'TimeoutError',
  'ETIMEDOUT',
  'ECONNABORTED',
  'HPE_INVALID_CONSTANT',
]);
/** The request never reached the target (no connection was made): any method may be sent again. */
const NOT_SENT = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

const READS = new Set<Method>(['GET', 'HEAD', 'OPTIONS']);

/**
 * Updates whose repetition is harmless: POST, PUT or PATCH on an endpoint that takes all three
 * (WordPress's EDITABLE: one update handler) in the namespaces whose update handlers set fields
 * to the values sent (WordPress core's controllers, Akismet's settings and key, Contact Form 7's
 * forms): sent twice, they leave the same state and answer the same. Not Jetpack's EDITABLE
 * routes, many of which are actions (sync now, activate a plan); never DELETE (a second one
 * answers 404/410, not what the first said) nor a create (POST on a collection).
 */
const IDEMPOTENT_UPDATE_NAMESPACES = new Set(['cms/v2', 'spamfilter/v1', 'contactform/v1']);

/**
 * From the target's own index: is `method route` (the target's route) an update that may be sent
 * twice? `specNamespace` names the target's namespaces in spec terms (the profile).
 */
export function idempotentUpdates(index: any, specNamespace: (ns: string) => string = (ns) => ns): (method: Method, route: string) => boolean {
  const editable: RegExp[] = [];
  for (const [key, def] of Object.entries<any>(index?.routes ?? {})) {
    const ns = specNamespace(String(def?.namespace ?? ''));
    if (!IDEMPOTENT_UPDATE_NAMESPACES.has(ns)) continue;
    const endpoints: any[] = Array.isArray(def?.endpoints) ? def.endpoints : [];
    if (!endpoints.some((e) => ['POST', 'PUT', 'PATCH'].every((m) => e?.methods?.includes?.(m)))) continue;
    try {
      editable.push(new RegExp(`^${key.replace(/\(\?P</g, '(?<')}$`));
    } catch {
      /* a route key JavaScript cannot read: not repeatable */
    }
  }
  return (method, route) => (method === 'POST' || method === 'PUT' || method === 'PATCH') && editable.some((re) => re.test(route));
}

/** Is the body the application's JSON error, `{code, message, data?}` (WordPress's WP_Error)? */
export function isApplicationError(text: string | undefined): boolean {
  const body = parseJson(text ?? '') as { code?: unknown; message?: unknown } | undefined;
  return !!body && typeof body === 'object' && !Array.isArray(body) && typeof body.code === 'string' && typeof body.message === 'string';
}

/**
 * Is this answer the trouble of something between us and the application (or of the target's
 * health), not the application's answer? Returns what it is, in words, or undefined.
 */
export function gatewayTrouble(method: string, status: number, headers: Record<string, string | string[] | undefined>, text: string): string | undefined {
  const type = String(headerValue(headers['content-type']) ?? '');
  const what = () => (type ? type.split(';')[0]!.trim() : 'no content type');
  if (status === 429) return `answered 429 (too many requests)`;
  if (status >= 500) {
    if (status === 503 && headerValue(headers['retry-after']) !== undefined) return `answered 503 with Retry-After (temporarily unavailable)`;
    if (!isApplicationError(text)) return `answered ${status} with ${text ? what() : 'an empty body'}, not the application's JSON error (a gateway or the server in trouble)`;
    return undefined;
  }
  if (status >= 200 && status < 300 && method !== 'HEAD' && /html/i.test(type) && parseJson(text) === undefined)
    return `answered ${status} with an HTML page, not the application's JSON (a proxy or captive portal in between?)`;
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Exponential backoff with jitter: 250 ms, 500 ms, 1 s, 2 s ... (capped at 4 s). */
const backoffMs = (attempt: number) => Math.min(4_000, 250 * 2 ** attempt) + Math.random() * 100;

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} kB` : `${n} bytes`;
}

/**
 * Read a response body, at most `max` bytes: a larger body (by Content-Length, or as it arrives)
 * is read no further and its stream destroyed, so memory stays bounded whatever the target sends.
 */
async function readBody(
  body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown },
  max: number,
  declared: number | undefined,
): Promise<{ text: string; bytes: number; over: boolean; declared?: boolean }> {
  if (declared !== undefined && declared > max) {
    body.destroy();
    return { text: '', bytes: declared, over: true, declared: true };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > max) {
      body.destroy();
      return { text: '', bytes, over: true };
    }
    chunks.push(chunk);
  }
  // TextDecoder drops a UTF-8 BOM, as undici's body.text() does.
  return { text: new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)), bytes, over: false };
}

export function serializeQuery(query: Record<string, QueryValue>): string {
  const parts: string[] = [];
  const enc = (s: string) => encodeURIComponent(s);
  const walk = (key: string, v: QueryValue): void => {
    if (v === undefined) return;
    if (v === null) parts.push(`${enc(key)}=`);
    else if (Array.isArray(v)) {
      if (v.length === 0) parts.push(`${enc(key)}=`);
      for (const item of v) walk(`${key}[]`, item);
    } else if (typeof v === 'object') for (const [k, sub] of Object.entries(v)) walk(`${key}[${k}]`, sub);
    else parts.push(`${enc(key)}=${enc(String(v))}`);
  };
  for (const [k, v] of Object.entries(query)) walk(k, v);
  return parts.join('&');
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
  agent: Agent;
  limiter: Limiter;
  rate?: RateLimiter;
  totals: { requests: number; latencyMs: number; retried: number; gaveUp: number; oversized: number };
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
      agent: new Agent({ connections: opts.concurrency ?? 4, keepAliveTimeout: 10_000, pipelining: 1 }),
      limiter: new Limiter(opts.concurrency ?? 4),
      rate: opts.rate ?? (opts.maxRps ? new RateLimiter(opts.maxRps) : undefined),
      totals: { requests: 0, latencyMs: 0, retried: 0, gaveUp: 0, oversized: 0 },
    };
  }

  /** A client sharing connections and the concurrency limit, with its own counters and tag. */
  fork(tag: string, onExchange?: (e: Exchange) => void): Client {
    return new Client({ ...this.opts, onExchange: onExchange ?? this.opts.onExchange }, this.shared, tag);
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
    const url = routeUrl(this.baseUrl, targetRoute, opts.query, opts.rawQuery);
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    const auth = opts.auth ?? 'default';
    const authValue = auth === 'none' ? undefined : authorizationHeader(auth === 'default' ? this.opts.credentials : auth);
    if (authValue) headers.authorization = authValue;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs ?? 10_000;
    const retries = this.opts.retries ?? DEFAULT_RETRIES;
    const maxBody = this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    // WordPress honours ?_method= and X-HTTP-Method-Override: the effective method decides whether a retry is safe.
    const override = String(opts.headers?.['X-HTTP-Method-Override'] ?? opts.headers?.['x-http-method-override'] ?? opts.query?._method ?? (/(?:^|&)_method=([^&]*)/i.exec(opts.rawQuery ?? '')?.[1] ?? '')).toUpperCase();
    const effective = (override || method) as Method;
    const isRead = READS.has(effective) || this.opts.repeatable?.(effective, targetRoute) === true;

    const exchange: Exchange = {
      tag: this.tag,
      method,
      url,
      route: targetRoute,
      auth: !authValue ? 'none' : auth === 'default' ? 'configured' : 'other',
      requestBody: body,
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
          if (transient && attempt < retries && (isRead || NOT_SENT.has(code))) {
            await again(backoffMs(attempt));
            continue;
          }
          const tries = attempt > 0 ? ` (${attempt + 1} attempts)` : '';
          const note = transient && !isRead && !NOT_SENT.has(code) && retries > 0 ? ' (a write is not sent again: it may have reached the application)' : '';
          const msg =
            code === 'TimeoutError'
              ? `no response within ${timeoutMs} ms${tries}: ${method} ${url}${note}`
              : `${method} ${url} failed${tries}: ${code || (err as Error).message}${note}`;
          exchange.error = msg;
          if (transient) {
            this.gaveUp++;
            this.shared.totals.gaveUp++;
          }
          throw new TargetError(msg, code);
        }
        const trouble = opts.anyAnswer && res.status < 500 && res.status !== 429 ? undefined : gatewayTrouble(method, res.status, res.headers, res.text);
        // 429 and a 503 with Retry-After refuse before doing the work: safe to send any method again.
        const refusedBeforeWork = res.status === 429 || (res.status === 503 && headerValue(res.headers['retry-after']) !== undefined);
        if (trouble && attempt < retries && (isRead || refusedBeforeWork)) {
          const asked = refusedBeforeWork ? retryAfterMs(headerValue(res.headers['retry-after'])) : undefined;
          await again(asked ?? backoffMs(attempt), refusedBeforeWork);
          continue;
        }
        // A JSON answer that does not parse (cut off by something in between, or garbled) is read again;
        // when it stays so, it is returned as it is: the check judges it (targetTrouble in src/behaviour.ts).
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
    if (oversize !== undefined) {
      // The status and headers are known; a check that needs the body cannot be made.
      const message = oversize;
      const refuse = (): never => {
        throw new TargetError(message, 'BODY_TOO_LARGE');
      };
      Object.defineProperty(response, 'body', { get: refuse, enumerable: true });
      Object.defineProperty(response, 'text', { get: refuse, enumerable: true });
    }
    return response;
  }

  async close(): Promise<void> {
    await this.shared.agent.close();
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function errorCode(err: unknown): string {
  const e = err as { code?: unknown; name?: string; cause?: { code?: unknown } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'TimeoutError';
  const code = e?.cause?.code ?? e?.code;
  return typeof code === 'string' ? code : (e?.name ?? '');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
