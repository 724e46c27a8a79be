/**
 * The NDJSON event log of a run (`events.ndjson`): one JSON object per HTTP exchange, appended by
 * whichever process sent the request (the CLI for the index fetch and sweeps, the suite workers for
 * behaviours). For debugging: which behaviour sent what, and what came back.
 *
 * Each line: {"at","behaviour","method","url","status","durationMs","auth","requestBody"?,
 * "invalid"?,"responseBytes","responseBody"?,"error"?}. Never credentials: URLs carry none, the
 * Authorization header is recorded only as its kind (none | configured | other), and values of
 * JSON keys that look like secrets (password, token, key ...) are replaced by "[redacted]".
 * Bodies are kept as sent (not re-serialised); response bodies truncated to 1000 characters,
 * request bodies (the suite's own, a few KB at most: a batch of 25 items) to 64 KB, so that every
 * request of a run can be read again whole (the proof that each one validates against the
 * exported OpenAPI document, test/openapi-requests.test.ts). `invalid` names the arguments a
 * refusal check sent wrong on purpose (RequestOptions.invalid).
 */
import { appendFileSync } from 'node:fs';
import type { Exchange } from './client.ts';

export const EVENT_BODY_LIMIT = 1000;
/** Request bodies are kept whole up to this size (the suite's largest, a batch of 25 items, is a few KB). */
export const EVENT_REQUEST_BODY_LIMIT = 65_536;
const SECRET_KEY = /pass(word)?|secret|token|api_?key|^key$|nonce/i;

export interface RequestEvent {
  at: string;
  /** Behaviour ID that sent the request; "setup" (index fetch), "sweep" or "fixtures" otherwise. */
  behaviour: string;
  method: string;
  url: string;
  /** 0 when no response arrived. */
  status: number;
  durationMs: number;
  auth: Exchange['auth'];
  requestBody?: string;
  /** The arguments sent wrong on purpose (a refusal check's input). */
  invalid?: string[];
  responseBytes: number;
  /** The body was over --max-body and was read no further. */
  bodyOverLimit?: boolean;
  responseBody?: string;
  error?: string;
}

const REDACTED = '"[redacted]"';

/** End (exclusive) of the JSON string that starts at text[i] (a '"'); the text's end when it is not closed. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 92) j++; // a backslash: skip the character it escapes
    else if (c === 34) return j + 1;
  }
  return text.length;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const NUMBER_CHAR = /[0-9eE+.-]/;

/**
 * Where the values of secret-looking keys are: the spans [start, end) of every string or number
 * value whose key matches SECRET_KEY, found in one scan of the text as JSON (strings are skipped
 * whole, so nothing inside a string is taken for a key; a key's escapes are decoded before it is
 * matched). Text that is not JSON is scanned the same way: a quoted name followed by a colon.
 */
export function secretSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) !== 34) {
      i++;
      continue;
    }
    const end = stringEnd(text, i);
    let k = end;
    while (k < text.length && isSpace(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) !== 58) {
      i = end; // a string that is not a key
      continue;
    }
    let key = text.slice(i + 1, end - 1);
    if (key.includes('\\'))
      try {
        key = String(JSON.parse(text.slice(i, end)));
      } catch {
        // not closed: matched as it is
      }
    let v = k + 1;
    while (v < text.length && isSpace(text.charCodeAt(v))) v++;
    i = v;
    if (!SECRET_KEY.test(key)) continue;
    const c = text.charCodeAt(v);
    if (c === 34) {
      const e = stringEnd(text, v);
      spans.push([v, e]);
      i = e;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let e = v + 1;
      while (e < text.length && NUMBER_CHAR.test(text[e]!)) e++;
      spans.push([v, e]);
      i = e;
    }
  }
  return spans;
}

/**
 * Redact the string and number values of secret-looking JSON keys, then truncate. The body is
 * kept as the target sent it (not parsed and serialised again), and only the part that is kept is
 * built: the run's 4,000-odd bodies (about 14 MB against the 7.1 site, 5 KB for every GET
 * /suite/v4/settings, which carries wordpress_api_key) used to be parsed, copied and serialised
 * whole for 1,000 characters each.
 */
export function safeBody(text: string | undefined, limit = EVENT_BODY_LIMIT): string | undefined {
  if (text === undefined || text === '') return undefined;
  const spans = secretSpans(text);
  let length = text.length;
  for (const [a, b] of spans) length += REDACTED.length - (b - a);
  let s = '';
  let at = 0;
  for (const [a, b] of spans) {
    if (s.length > limit) break;
    s += text.slice(at, a) + REDACTED;
    at = b;
  }
  if (s.length <= limit) s += text.slice(at, at + limit + 1 - s.length);
  return length <= limit ? s : `${s.slice(0, limit)}… [${length - limit} more characters]`;
}

export function requestEvent(e: Exchange, at = new Date()): RequestEvent {
  const requestBody = safeBody(e.requestBody, EVENT_REQUEST_BODY_LIMIT);
  const responseBody = safeBody(e.responseText);
  return {
    at: at.toISOString(),
    behaviour: e.tag ?? 'setup',
    method: e.method,
    url: e.url,
    status: e.status,
    durationMs: Math.round(e.durationMs * 10) / 10,
    auth: e.auth,
    ...(requestBody !== undefined ? { requestBody } : {}),
    ...(e.invalid?.length ? { invalid: e.invalid } : {}),
    responseBytes: e.responseBytes ?? Buffer.byteLength(e.responseText ?? ''),
    ...(e.bodyOverLimit ? { bodyOverLimit: true } : {}),
    ...(responseBody !== undefined ? { responseBody } : {}),
    ...(e.error ? { error: e.error } : {}),
  };
}

/**
 * An `onExchange` hook appending to `path`. Each event is one write of one line with O_APPEND, so
 * lines from concurrent workers do not interleave. Logging never fails a request.
 */
export function eventWriter(path: string, tag?: string): (e: Exchange) => void {
  return (e) => {
    try {
      appendFileSync(path, `${JSON.stringify(requestEvent(tag && !e.tag ? { ...e, tag } : e))}\n`);
    } catch {
      // a full disk or a removed report directory must not break the run
    }
  };
}
