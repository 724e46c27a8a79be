/**
 * How a check's end is classified (conformance, target, harness) from the type of the error it
 * threw and the exchanges it made, and how an exchange is kept in the results (truncated, with a
 * curl). The kind is decided here, where the error still has its type (in the suite worker, or
 * from the serialised error's name and code), and carried to the results as it is.
 */
import type { RecordedExchange } from '../../results/results.ts';
import type { FailureKind } from '../../results/verdict.ts';
import { curlFor, type Exchange } from './client.ts';
import { NOT_SENT, NO_ANSWER } from './transient.ts';

const KINDS: readonly unknown[] = ['conformance', 'target', 'harness'] satisfies FailureKind[];

const TRUNCATE = 2000;
const truncate = (s: string | undefined) => (s === undefined || s.length <= TRUNCATE ? s : `${s.slice(0, TRUNCATE)}… [${s.length - TRUNCATE} more characters]`);

export function recordExchange(e: Exchange): RecordedExchange {
  return { ...e, requestBody: truncate(e.requestBody), responseText: truncate(e.responseText) ?? '', curl: curlFor(e) };
}

/** Did the target misbehave at the transport or format level in these exchanges? Returns what it did. */
export function targetTrouble(log: readonly Exchange[]): string | undefined {
  for (const e of [...log].reverse()) {
    if (e.error) return e.error;
    if (e.bodyOverLimit) return `${e.method} ${e.route} answered a body of ${e.responseBytes ?? '?'} bytes, over --max-body: read no further`;
    if (e.status >= 500 || e.status === 429) return `${e.method} ${e.route} answered ${e.status}`;
    const type = e.responseHeaders['content-type'] ?? '';
    if (e.responseText && /json/.test(type)) {
      try {
        JSON.parse(e.responseText);
      } catch {
        return `${e.method} ${e.route} answered malformed JSON`;
      }
    }
    if (e.responseText && !/json/.test(type) && e.method !== 'HEAD') return `${e.method} ${e.route} answered ${type || 'no content type'}, not JSON`;
  }
  return undefined;
}

/**
 * conformance: the server does not do what is documented (an assertion or t.fail);
 * target: the target did not answer usably (network error, timeout, or garbage that stopped the check);
 * harness: any other exception — a bug in cms-conformance.
 * `err` may be the error itself or vitest's serialised copy of it (its name, code, cause and own
 * fields kept); an error that carries its `failureKind` (the fixtures' cleanup) says it itself.
 */
export function failureKindOf(err: unknown, log: readonly Exchange[] = []): FailureKind {
  const carried = (err as { failureKind?: unknown })?.failureKind;
  if (KINDS.includes(carried)) return carried as FailureKind;
  const name = (err as Error)?.name;
  if (name === 'ConformanceFailure' || name === 'AssertionError') return 'conformance';
  if (name === 'TargetError') return 'target';
  // A network error that reached a check some other way than the client (a socket reset, a refused
  // connection, a timeout): the target's trouble, not a bug of ours.
  const code = (err as { code?: unknown; cause?: { code?: unknown } })?.cause?.code ?? (err as { code?: unknown })?.code;
  if (typeof code === 'string' && (NO_ANSWER.has(code) || NOT_SENT.has(code))) return 'target';
  if (targetTrouble(log)) return 'target';
  return 'harness';
}

/**
 * A request as it went on the wire, in one line a reader can act on: method, the documented route
 * (spec names), the query exactly as sent (its forms: comma lists, `o[k]=v`), whether it carried
 * credentials, and the start of its body.
 */
export function requestLine(e: Pick<Exchange, 'method' | 'url' | 'route' | 'auth' | 'requestBody'>, toSpecRoute: (route: string) => string = (r) => r): string {
  let query = '';
  try {
    const params = [...new URL(e.url).searchParams.entries()].filter(([k]) => k !== 'rest_route');
    query = params.map(([k, v]) => `${k}=${v}`).join('&');
  } catch {
    /* not a URL: no query shown */
  }
  const who = e.auth === 'none' ? 'without credentials' : e.auth === 'configured' ? 'with credentials' : 'with other credentials';
  const body = e.requestBody ? `, body ${e.requestBody.length > 120 ? `${e.requestBody.slice(0, 120)}…` : e.requestBody}` : '';
  return `${e.method} ${toSpecRoute(e.route)}${query ? `?${query}` : ''} (${who}${body})`;
}
