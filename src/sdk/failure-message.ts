/**
 * How a behaviour's failure is told to a reader (src/sdk/behaviour.ts): the request it sent, shown as it
 * went on the wire; the routes named as the target was sent them; and a finding made on a
 * documented route the target lacks, which is that route's own (disc.route.<route>).
 */
import { documentedRouteOf } from '../../schemas/catalog/index.ts';
import type { Profile } from '../../schemas/profiles.ts';
import type { Exchange } from '../http/client.ts';
import { findAdvertisedRoute } from './discovery.ts';
import { recordExchange, requestLine } from '../http/failure-kind.ts';
import { createdItem } from './fixture-checks.ts';
import type { RecordedExchange } from '../../results/results.ts';
import { withTargetRoutes } from './route-names.ts';

// ---------------------------------------------------------------- the exchange a failure judges

/*
 * The exchange a failure judges: the request whose answer the check found wrong, which is not
 * always the last one it sent (a check sends its PATCH, reads the item back, then fails on the
 * PATCH's 500). A failure names that request in its message and the report shows it, with its
 * answer and its curl.
 *
 * How it is known, most certain first:
 *   1. the check said so: `t.judge(res)`, or a helper that describes an answer for a message
 *      (`answerOf`, `whyNotAccepted`: src/sdk/controls.ts) noted it while the behaviour ran
 *      (per behaviour, by the tag of the client that sent it: behaviours of a file run concurrently);
 *   2. the message names it: its method and route, the arguments it sent (`maxheight=tall`,
 *      `{"password":["x"]}`), its status (`answered 500`); the exchange the message names most
 *      wins, the latest on a tie, and a noted one before the others;
 *   3. else nothing is known: the last request sent is shown, and called that.
 */
const noted = new Map<string, Exchange[]>();

/**
 * Run a behaviour's check, noting the exchanges it judges; returns the list (filled as it runs).
 * `tag`: the behaviour's client's tag (its ID): an answer is noted for the behaviour whose client
 * sent it (no AsyncLocalStorage: its promise hook cost about 5 % of a suite worker's CPU).
 */
export function judging<T>(tag: string, fn: () => Promise<T>): { list: Exchange[]; done: Promise<T> } {
  const list: Exchange[] = [];
  noted.set(tag, list);
  const done = fn().finally(() => {
    if (noted.get(tag) === list) noted.delete(tag);
  });
  return { list, done };
}

/** Note that the check whose client sent this answer judges it (latest last). Anything without an exchange, or sent by no running check's client, is ignored. */
export function noteJudged(res: { exchange?: Exchange } | undefined): void {
  const e = res?.exchange;
  const list = e?.tag === undefined ? undefined : noted.get(e.tag);
  if (!list || !e) return;
  const at = list.indexOf(e);
  if (at >= 0) list.splice(at, 1);
  list.push(e);
}

/** `name=value` pairs a message quotes: `maxheight=tall`, `search_semantics="xbogusq"`, `format=["aside"]`. */
function quotedPairs(message: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of message.matchAll(/([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|\[[^\]]*\]|\{[^}]*\}|[^\s&,;:)\]]+)/g)) out.push([m[1]!, m[2]!]);
  // a body as JSON: {"password":["x"]}, {active: "yes"}
  for (const m of message.matchAll(/\{\s*"?([A-Za-z_][\w-]*)"?\s*:\s*("(?:[^"\\]|\\.)*"|\[[^\]]*\]|\{[^}]*\}|[^,}\s]+)/g)) out.push([m[1]!, m[2]!]);
  return out;
}

/** A quoted value as the text a query carries: `"x"` → x, `["a","b"]` → a,b. */
function asText(v: string): string {
  try {
    const parsed = JSON.parse(v);
    if (Array.isArray(parsed)) return parsed.map(String).join(',');
    return typeof parsed === 'object' && parsed !== null ? JSON.stringify(parsed) : String(parsed);
  } catch {
    return v;
  }
}

function queryOf(url: string): URLSearchParams | undefined {
  try {
    return new URL(url).searchParams;
  } catch {
    return undefined;
  }
}

function bodyOf(e: Exchange): Record<string, unknown> | undefined {
  if (!e.requestBody) return undefined;
  try {
    const b = JSON.parse(e.requestBody);
    return b && typeof b === 'object' && !Array.isArray(b) ? b : undefined;
  } catch {
    return undefined;
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How much of an exchange a message names: its route, the arguments it sent, its answer's status. */
export function namedBy(message: string, e: Exchange, toSpecRoute: (route: string) => string = (r) => r): number {
  const first = message.split('\n')[0] ?? '';
  let score = 0;
  const routes = [...new Set([e.route, toSpecRoute(e.route)])];
  if (routes.some((r) => new RegExp(`${escape(e.method)} ${escape(r)}(?![\\w/-])`).test(first))) score += 3;
  else if (routes.some((r) => new RegExp(`${escape(r)}(?![\\w/-])`).test(first) && r.split('/').length > 3)) score += 1;
  const query = queryOf(e.url);
  const body = bodyOf(e);
  for (const [k, v] of quotedPairs(first)) {
    const text = asText(v);
    const sent = query?.getAll(k) ?? [];
    if (sent.some((s) => s === text || s.split(',').join(',') === text)) score += 2;
    else if (body && k in body && (JSON.stringify(body[k]) === v || String(body[k]) === text || JSON.stringify(body[k]) === text)) score += 2;
  }
  if (e.status && new RegExp(`(\\b(answered|answers|answer|accepted with|refused|refused with|got|status|with):? \\(?|\\()${e.status}\\b`).test(first)) score += 1;
  // the item the route ends in, named in the message ("geo-location (404 not_found)")
  const last = e.route.split('/').pop() ?? '';
  if (last.length >= 4 && !/^\d+$/.test(last) && new RegExp(`(?<![\\w/-])${escape(last)}(?![\\w/-])`).test(first)) score += 1;
  return score;
}

/**
 * The exchanges a failure judges (see the top of this file), in the order sent; empty when nothing
 * says which (the caller then shows the last request sent, called that).
 */
export function judgedExchanges(message: string, log: readonly Exchange[], notes: readonly Exchange[], toSpecRoute?: (route: string) => string): Exchange[] {
  const pool = [...log, ...notes.filter((e) => !log.includes(e))];
  const named = pool.map((e, i) => ({ e, i, score: namedBy(message, e, toSpecRoute) })).filter((s) => s.score > 0);
  if (named.length) {
    // The exchange the message names most (a noted one before the others, the latest on a tie), and
    // every noted one it names too (a check listing several answers: "create … answered 500; update … answered 500").
    const rank = (s: { e: Exchange; score: number }) => s.score + (notes.includes(s.e) ? 0.5 : 0);
    const best = named.reduce((a, b) => (rank(b) >= rank(a) ? b : a));
    return named.filter((s) => s === best || notes.includes(s.e)).map((s) => s.e);
  }
  const last = notes.at(-1);
  return last ? [last] : [];
}

// ---------------------------------------------------------------- the message

/** Replace an error's message (and the same text in its stack). */
function setMessage(e: Error, message: string): void {
  if (message === e.message) return;
  if (typeof e.stack === 'string' && e.stack.includes(e.message)) e.stack = e.stack.replace(e.message, () => message);
  e.message = message;
}

/** Put `text` at the end of the first line of an error's message. */
function appendToFirstLine(e: Error, text: string): void {
  const nl = e.message.indexOf('\n');
  setMessage(e, nl === -1 ? `${e.message}${text}` : `${e.message.slice(0, nl)}${text}${e.message.slice(nl)}`);
}

/**
 * A failure's message names the request whose answer it judged (src/sdk/judged.ts), as it went on
 * the wire (method, route, query, credentials, body), at the end of its first line: the reader need
 * not know our code to repeat it. Not where the message already shows that request whole. When
 * nothing says which answer was judged, the last request sent is shown, called that.
 */
export function nameJudgedRequest(e: Error, judged: readonly Exchange[], log: readonly Exchange[], profile: Profile): void {
  if (typeof e.message !== 'string') return;
  const shown = judged[0] ?? log.at(-1);
  // A check that sent nothing judged the site index the run read once at its start (or names the setup's request itself).
  if (!shown) {
    if (!/\b(GET|POST|PUT|PATCH|DELETE) \/\S*.*\banswer(ed|s)?\b/.test(e.message.split('\n')[0]!)) appendToFirstLine(e, ' [request: GET / (the site index, read once at the start of the run)]');
    return;
  }
  const line = requestLine(shown, (r) => profile.toSpecRoute(r));
  const bare = line.replace(/ \(.*$/, '');
  // The same request judged twice (a property's failing case sent again to confirm it) is one.
  const distinct = new Set(judged.map((x) => `${x.method} ${x.url} ${x.requestBody ?? ''}`)).size;
  const more = distinct > 1 ? `; and ${distinct - 1} more request${distinct > 2 ? 's' : ''} it judged, in the report` : '';
  if (e.message.includes(bare)) {
    if (more) appendToFirstLine(e, ` [${more.slice(2)}]`);
    return;
  }
  appendToFirstLine(e, judged.length ? ` [request: ${line}${more}]` : ` [last request sent: ${line}]`);
}

/** The exchanges a failure keeps in the results: those it judged (marked), then the last ones sent, at most `max` in all, in the order sent. */
export function recordedExchanges(log: readonly Exchange[], judged: readonly Exchange[], max = 3): RecordedExchange[] {
  const kept = judged.slice(0, max);
  for (const e of [...log].reverse()) {
    if (kept.length >= max) break;
    if (!kept.includes(e)) kept.push(e);
  }
  const order = (e: Exchange) => {
    const i = log.indexOf(e);
    return i < 0 ? -1 : i;
  };
  return kept.sort((a, b) => order(a) - order(b)).map((e) => ({ ...recordExchange(e), ...(judged.includes(e) ? { judged: true } : {}) }));
}

/**
 * Every item ID a message lists bare is explained: an ID in a list (`got [o2(514), 524, 523]`) that
 * is not named beside it already is followed by what it is, when the run created it (`524 = a post
 * this run created (format aside, dated 2001-01-20)`); an ID the run did not create is said to be
 * another item of the site. (An ID in the message's own words, "revision 99 of page 93", is named there.)
 */
export function explainIds(err: unknown): void {
  const e = err as Error;
  if (typeof e?.message !== 'string') return;
  const first = e.message.split('\n')[0]!;
  const ids = new Set<number>();
  for (const list of first.matchAll(/\[((?:\s*(?:o\d+\(\d+\)|\d+)\s*,?)+)\]/g))
    for (const m of list[1]!.matchAll(/(?<![o(\d])(\d+)(?![\d)])/g)) ids.add(Number(m[1]));
  if (!ids.size) return;
  const known = [...ids].filter((id) => createdItem(id) !== undefined);
  const others = [...ids].filter((id) => createdItem(id) === undefined);
  const explained = [
    ...known.map((id) => `${id} = ${createdItem(id)}`),
    ...(others.length ? [`${others.join(', ')} = ${others.length === 1 ? 'an item' : 'items'} this check did not create (the site's, or another check's)`] : []),
  ];
  appendToFirstLine(e, ` (${explained.join('; ')})`);
}

/** The message of a failure names the routes the target was sent, with the spec names beside them (src/sdk/route-names.ts). */
export function quoteRoutesSent(err: unknown, profile: Profile): void {
  const e = err as Error;
  if (typeof e?.message !== 'string') return;
  setMessage(e, withTargetRoutes(e.message, profile));
}

export const isConformanceFailure = (err: unknown) => ['ConformanceFailure', 'AssertionError'].includes((err as Error)?.name);

/**
 * The first request of a behaviour that went to a documented route the target's index does not
 * advertise (in a namespace it does advertise) and was answered 404: that route is missing, which
 * `disc.route.<route>` reports.
 */
export function missingRoute(log: readonly Exchange[], run: { index: any; profile: Profile }): { owner: string; why: string } | undefined {
  const namespaces: string[] = Array.isArray(run.index?.namespaces) ? run.index.namespaces : [];
  for (const e of log) {
    if (e.status !== 404) continue;
    const route = documentedRouteOf(run.profile.toSpecRoute(e.route));
    if (!route || (route.namespace && !namespaces.includes(route.namespace)) || findAdvertisedRoute(run.index, route.path)) continue;
    return { owner: `disc.route.${route.id}`, why: `${e.method} ${run.profile.toSpecRoute(e.route)} answered 404 and ${route.path} is not in the target's index` };
  }
  return undefined;
}
