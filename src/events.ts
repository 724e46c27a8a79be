/**
 * The NDJSON event log of a run (`events.ndjson`): one JSON object per HTTP exchange, appended by
 * whichever process sent the request (the CLI for the index fetch and sweeps, the suite workers for
 * behaviours). For debugging: which behaviour sent what, and what came back.
 *
 * Each line: {"at","behaviour","method","url","status","durationMs","auth","requestBody"?,
 * "responseBytes","responseBody"?,"error"?}. Never credentials: URLs carry none, the
 * Authorization header is recorded only as its kind (none | configured | other), and values of
 * JSON keys that look like secrets (password, token, key ...) are replaced by "[redacted]".
 * Bodies are truncated to 1000 characters.
 */
import { appendFileSync } from 'node:fs';
import type { Exchange } from '../src/client.ts';

export const EVENT_BODY_LIMIT = 1000;
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
  responseBytes: number;
  /** The body was over --max-body and was read no further. */
  bodyOverLimit?: boolean;
  responseBody?: string;
  error?: string;
}

function redactJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redactJson);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = SECRET_KEY.test(k) && (typeof x === 'string' || typeof x === 'number') ? '[redacted]' : redactJson(x);
    return out;
  }
  return v;
}

/** Redact secret-looking JSON values, then truncate. Non-JSON text is only truncated. */
export function safeBody(text: string | undefined, limit = EVENT_BODY_LIMIT): string | undefined {
  if (text === undefined || text === '') return undefined;
  let s = text;
  try {
    s = JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    // not JSON
  }
  return s.length <= limit ? s : `${s.slice(0, limit)}… [${s.length - limit} more characters]`;
}

export function requestEvent(e: Exchange, at = new Date()): RequestEvent {
  const requestBody = safeBody(e.requestBody);
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
