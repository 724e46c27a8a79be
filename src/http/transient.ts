/**
 * Transient trouble of a target, as the client (src/http/client.ts) tells it apart from the
 * application's answers: which failures to send again, which answers are a gateway's, which
 * writes may be repeated, and reading a body up to --max-body.
 *
 * Transient trouble of the target is retried (`--retries`, with backoff, within the run's
 * concurrency and --max-rps, honouring Retry-After) and, when it persists, thrown as a
 * TargetError, so that no check ever reads it as the application's answer:
 * - no answer: connection refused/reset, timeouts, a body cut off mid-way;
 * - gateway answers: any 5xx whose body is not the application's JSON error
 *   (`{code, message, data?}`: WordPress's own errors), a 503 with Retry-After, a 429;
 * - a 2xx HTML page where the application answers JSON (a captive portal or a proxy's page).
 * Reads (GET, HEAD, OPTIONS) are sent again freely, and updates whose repetition is harmless
 * (idempotentUpdates). Other writes only when the first attempt cannot have reached the
 * application: the connection was refused or never made, or a 429 (a refusal before the work).
 * A 503 with Retry-After may come from a gateway after the application acted (reads wait as it
 * asks; a write is not sent again). Everything else a write meets is thrown at once
 * (src/sdk/fixtures.ts finds and removes a tagged item a failed create may have made, then retries).
 * An application's own 5xx (its JSON error) is returned as is: a server failure is a finding.
 *
 * Bodies are read up to `maxBodyBytes` (--max-body): a larger one is read no further (the
 * stream is destroyed), the exchange records its size, and reading `body` or `text` of that
 * response throws a TargetError (a check that needs the body cannot be made).
 */
import { TargetError } from '../core/errors.ts';
import { routeKeyRegex } from '../../schemas/route-keys.ts';

type Method = string;

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const DEFAULT_RETRIES = 3;
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** No answer, and the request may have reached the application (reads are sent again; writes are not). */
export const NO_ANSWER = new Set([
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
export const NOT_SENT = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

export const READS = new Set<Method>(['GET', 'HEAD', 'OPTIONS']);

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
    // A route key JavaScript cannot read is not repeatable.
    const re = routeKeyRegex(key);
    if (re) editable.push(re);
  }
  return (method, route) => (method === 'POST' || method === 'PUT' || method === 'PATCH') && editable.some((re) => re.test(route));
}

/** Statuses a gateway or proxy answers with when the application does not answer. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * Is the body the application's JSON error? WordPress's WP_Error, `{code, message, data?}`; and,
 * given the status and content type, any JSON object served as JSON with a status a gateway does
 * not answer with (500, 501, not 502 to 504): core part 7 shows no error body, so a server may
 * have its own (`{"error": {"message": …}}`).
 */
export function isApplicationError(text: string | undefined, status?: number, contentType?: string): boolean {
  const body = parseJson(text ?? '') as { code?: unknown; message?: unknown } | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  if (typeof body.code === 'string' && typeof body.message === 'string') return true;
  return status !== undefined && !GATEWAY_STATUSES.has(status) && /\bjson\b/i.test(contentType ?? '');
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
    if (!isApplicationError(text, status, type)) return `answered ${status} with ${text ? what() : 'an empty body'}, not the application's JSON error (a gateway or the server in trouble)`;
    return undefined;
  }
  if (status >= 200 && status < 300 && method !== 'HEAD' && /html/i.test(type) && parseJson(text) === undefined)
    return `answered ${status} with an HTML page, not the application's JSON (a proxy or captive portal in between?)`;
  return undefined;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Exponential backoff with jitter: 250 ms, 500 ms, 1 s, 2 s ... (capped at 4 s). */
export const backoffMs = (attempt: number) => Math.min(4_000, 250 * 2 ** attempt) + Math.random() * 100;

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} kB` : `${n} bytes`;
}

/**
 * Read a response body, at most `max` bytes: a larger body (by Content-Length, or as it arrives)
 * is read no further and its stream destroyed, so memory stays bounded whatever the target sends.
 */
export async function readBody(
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

/** How long a 429's Retry-After asks to wait, in ms (seconds or an HTTP date), capped. */
export function retryAfterMs(value: string | undefined, capMs = 10_000): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  const ms = Number.isFinite(secs) ? secs * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), capMs) : undefined;
}

/** The status and headers of an answer over --max-body are known; reading its body or text (a check that needs it) throws. */
export function refuseBody(response: object, message: string): void {
  const refuse = (): never => {
    throw new TargetError(message, 'BODY_TOO_LARGE');
  };
  Object.defineProperty(response, 'body', { get: refuse, enumerable: true });
  Object.defineProperty(response, 'text', { get: refuse, enumerable: true });
}
