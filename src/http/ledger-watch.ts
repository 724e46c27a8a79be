/**
 * What a run's requests create and delete, read from their answers as they come (a client's
 * onExchange, src/core/ledger.ts): a POST to a collection of posts, pages, media or contact forms,
 * or to an autosaves route, answered 2xx with an id, alone or as an item of POST /batch/v1 (a
 * nested batch too), is written in the run's ledger as made at once, whichever check sent it and
 * whatever that check does next (a listing that fails, a refusal it expected); a delete answered
 * 2xx (with force=true where the item would only go to the trash) is written as gone.
 */
import { ITEM_COLLECTIONS, Ledger, itemAt, taggedWord, useLedger } from '../core/ledger.ts';
import type { Exchange } from './client.ts';
import { NOT_SENT } from './transient.ts';

const ok = (status: unknown) => typeof status === 'number' && status >= 200 && status <= 299;
const FORCED = /(?:^|[?&])force=(?:true|1)(?:&|$)/i;

function parse(text: string | undefined): any {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The per-item answers of a batch answer: WordPress's `responses[]`, a `results[]`, or a list as the whole body. */
function perItem(body: any): any[] | undefined {
  return Array.isArray(body) ? body : Array.isArray(body?.responses) ? body.responses : Array.isArray(body?.results) ? body.results : undefined;
}

const titleOf = (b: any) => (typeof b?.title === 'object' ? (b.title?.raw ?? b.title?.rendered) : b?.title);

/** `toTarget`: the profile's route names (spec → target). Returns the onExchange hook. */
export function ledgerWatch(ledger: Ledger, toTarget: (route: string) => string): (e: Exchange) => void {
  const collections = new Map(ITEM_COLLECTIONS.map(([c, type]) => [toTarget(c), { spec: c, type }]));
  const batchRoute = toTarget('/batch/v1');

  /** One request (or batch item) to `target` (the target's route, maybe with its query) and its answer. */
  const one = (by: string | undefined, method: string, target: string, status: unknown, body: () => any, sent: () => any, trouble?: string) => {
    const [path = '', query = ''] = target.split('?');
    const m = /^(.*?)(?:\/(\d+)(\/autosaves)?)?$/.exec(path)!;
    const c = collections.get(m[1]!);
    if (!c) return;
    const id = m[2] === undefined ? undefined : Number(m[2]);
    // No usable answer to a create (none, a gateway's, a page that is not JSON): it may have made an item, found by its tag if the listings answer.
    const lost = trouble ?? (ok(status) && body() === undefined ? `answered ${status} with no JSON` : undefined);
    if (method === 'POST' && id === undefined && lost) {
      const s = sent();
      const tag = taggedWord(titleOf(s), s?.slug);
      ledger.maybe({ type: c.type, collection: c.spec, ...(tag ? { tag } : {}), ...(by ? { by } : {}), why: lost });
      return;
    }
    if (!ok(status)) return;
    if (method === 'POST' && (id === undefined || m[3])) {
      const b = body();
      // An answer without an id made nothing (Contact Form 7 without context=save); an autosave of one's own draft is the draft itself.
      if (!Number.isInteger(b?.id) || b.id <= 0 || b.id === id) return;
      const s = sent();
      const tag = taggedWord(titleOf(b), b?.slug, titleOf(s), s?.slug);
      ledger.made(itemAt(id === undefined ? `${c.spec}/${b.id}` : `${c.spec}/${id}/autosaves/${b.id}`, { ...(tag ? { tag } : {}), ...(by ? { by } : {}) }));
    } else if (method === 'DELETE' && id !== undefined && !m[3] && (c.type === 'contact-form' || FORCED.test(query))) ledger.gone(`${c.spec}/${id}`);
  };

  /** A batch's items and their answers; `trouble`: the batch got no usable answer, so each create in it may have been made. */
  const batch = (by: string | undefined, requests: unknown, answers: any[] | undefined, trouble?: string) => {
    if (!Array.isArray(requests) || (!answers && !trouble)) return;
    requests.forEach((q: any, i) => {
      const a = answers?.[i];
      const method = String(q?.method ?? 'POST').toUpperCase();
      const path = typeof q?.path === 'string' ? q.path : '';
      if ((!a && !trouble) || !path) return;
      if (path.split('?')[0] === batchRoute && method === 'POST') batch(by, q.body?.requests, perItem(a?.body), trouble);
      else one(by, method, path, a?.status, () => a?.body, () => q.body, trouble);
    });
  };

  return (e) => {
    if (e.method !== 'POST' && e.method !== 'DELETE') return;
    const trouble = noUsableAnswer(e);
    if (e.method === 'POST' && e.route === batchRoute) {
      if (ok(e.status) || trouble) batch(e.tag, parse(e.requestBody)?.requests, trouble ? undefined : perItem(parse(e.responseText)), trouble);
      return;
    }
    // WordPress takes ?_method= as the method (X-HTTP-Method-Override is not recorded: such a request is not counted).
    const method = (/[?&]_method=([^&]*)/i.exec(e.url)?.[1] ?? e.method).toUpperCase();
    one(e.tag, method, `${e.route}${e.url.includes('&') ? `?${e.url.slice(e.url.indexOf('&') + 1)}` : ''}`, e.status, () => parse(e.responseText), () => parse(e.requestBody), trouble);
  };
}

/** Why an exchange has no usable answer (none at all, a 5xx, an answer over --max-body), or undefined when it has one. A 4xx (a 429 too) refused before doing anything. */
function noUsableAnswer(e: Exchange): string | undefined {
  // A connection refused (not made in time, a name not resolved) never reached the application.
  if (e.status === 0) return [...NOT_SENT].some((code) => e.error?.includes(code)) ? undefined : (e.error ?? 'no answer');
  if (e.status >= 500) return `answered ${e.status}`;
  if (e.bodyOverLimit) return `answered ${e.status} with a body over --max-body`;
  return undefined;
}

/** The onExchange option of a client with these hooks (the event log, the ledger's watch; those given), to spread into its options. */
export function exchangeHooks(...hooks: (((e: Exchange) => void) | false | undefined | '')[]): { onExchange?: (e: Exchange) => void } {
  const given = hooks.filter((h): h is (e: Exchange) => void => !!h);
  return given.length ? { onExchange: given.length === 1 ? given[0] : (e) => given.forEach((h) => h(e)) } : {};
}

/** In a suite worker: the run's ledger at `path` made this process's (src/core/ledger.ts runLedger), and the hook that writes what the answers say into it; none when the run may not write. */
export function useRunLedger(path: string | undefined, toTarget: (route: string) => string): ((e: Exchange) => void) | undefined {
  const ledger = path ? new Ledger(path) : undefined;
  useLedger(ledger);
  return ledger && ledgerWatch(ledger, toTarget);
}
