/**
 * What an answer to a collection query should be under the model (lib/query-model.ts), and how an
 * answer that is not differs from it: discrepancies, each naming the query arguments that can
 * explain it (its owners), in words that name every item they show.
 *
 * - an item the model does not know (the scope, `include` or `slug`, let it through): the scope's;
 * - an item listed that a filter leaves out: that filter's (every filter that leaves it out);
 * - a status that is not publish, listed without `status`: the default's (`status:default`);
 * - items in the wrong order within the page: `order` when they come in the opposite direction
 *   (or its default, desc), else `orderby` (or the default order, by date);
 * - the wrong items on a page: the paging's (`page`, `offset`) when they are the items of another
 *   place of the list, the ordering's when they are the items of that page in the default order (a
 *   page cut from the list before it was put in order); neither's when both explain them, else both;
 * - fewer items than expected: every filter and the paging (the caller tells them apart by asking
 *   without the argument it judges);
 * - a page after the last: an empty list or a refusal (4xx) both do (what a server answers past
 *   the end is not stated).
 */
import { isValidationError, namesParam, whyNotAccepted } from '../../../src/sdk/controls.ts';
import type { Response } from '../../../src/sdk/http.ts';
import { boundText } from './query-items.ts';
import { FIXED_DIRECTION, compareKey, descOf, filtersOf, keyText, member, orderbyOf, predicate, type FilterArg, type MItem, type Query, type When } from './query-model.ts';

export interface Expected {
  /** Every item of the result, in the query's order. */
  all: MItem[];
  start: number;
  perPage: number;
  /** The items of the page asked for. */
  window: MItem[];
  /** A page after the last (page > 1, no offset, nothing left). */
  pastLast: boolean;
}

export interface Discrepancy {
  kind: 'refused' | 'not-list' | 'foreign' | 'extra' | 'duplicate' | 'missing' | 'count' | 'order' | 'window' | 'past-last';
  owners: string[];
  text: string;
  /** The items the text names. */
  ids: number[];
  /** The items expected and not listed (kind missing). */
  missing?: number[];
  /**
   * The wrong items on a page: the ordering or the paging, which the caller tells apart by asking
   * for the whole list and for the page in the default order (lib/query-check.ts); `owners` holds both.
   */
  unsettled?: { ordering: string[]; paging: string[] };
  /** A refusal that names no argument of the query (kind refused). */
  unnamed?: boolean;
  /** A wrong page owned by nothing because the whole list is wrong: the owners of that list's discrepancy (whose check a skip names). */
  spoiledBy?: string[];
}

export const PAGING = ['page', 'offset', 'per_page'] as const;

export function expected(model: readonly MItem[], q: Query): Expected {
  const dir = descOf(q) ? -1 : 1;
  const all = model.filter((i) => member(i, q) === true).sort((a, b) => dir * (compareKey(a, b, q) ?? 0));
  const perPage = Number(q.per_page ?? 10);
  const page = Number(q.page ?? 1);
  const start = q.offset !== undefined ? Number(q.offset) : (page - 1) * perPage;
  return { all, start, perPage, window: all.slice(start, start + perPage), pastLast: q.offset === undefined && page > 1 && start >= all.length };
}

const present = (q: Query, keys: readonly string[]) => keys.filter((k) => q[k] !== undefined);
const valueText = (v: unknown) => (Array.isArray(v) ? v.join(',') : v && typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Why a filter leaves an item out, in words. */
function whyOut(arg: FilterArg, i: MItem, q: Query): string {
  const v = valueText(q[arg]);
  const time = (w?: When) => (w ? (w.lo === w.hi ? boundText(w.lo, w.offset) : `${boundText(w.lo, w.offset)}..${boundText(w.hi, w.offset)}`) : 'not known');
  switch (arg) {
    case 'include':
    case 'slug':
      return `${arg}=${v} does not name it`;
    case 'exclude':
      return `exclude=${v} names it`;
    case 'status':
      return q.status === undefined ? `its status is ${i.status} and no status was given (default publish)` : `its status ${i.status} is not in status=${v}`;
    case 'search':
      return `it does not carry "${v}"${q.search_columns ? ` in ${valueText(q.search_columns)}` : ''}`;
    case 'author':
    case 'author_exclude':
      return `its author is ${i.author} (${arg}=${v})`;
    case 'after':
    case 'before':
      return `its date ${time(i.date)} is not ${arg} ${v}`;
    case 'modified_after':
    case 'modified_before':
      return `its modified time ${time(i.modified)} is not ${arg === 'modified_after' ? 'after' : 'before'} ${v}`;
    case 'sticky':
      return `it is ${i.sticky ? '' : 'not '}sticky (sticky=${v})`;
    case 'categories':
    case 'categories_exclude':
      return `its categories are [${i.categories.join(', ')}] (${arg}=${v})`;
    case 'tags':
    case 'tags_exclude':
      return `its tags are [${i.tags.join(', ')}] (${arg}=${v})`;
    case 'parent':
    case 'parent_exclude':
      return `its parent is ${i.parent} (${arg}=${v})`;
    case 'menu_order':
      return `its menu_order is ${i.menu_order} (menu_order=${v})`;
  }
}

/** Ids with their keys: "12 (title "kilo"), 15 (title "lima")". */
const keyed = (items: readonly MItem[], q: Query) => items.map((i) => `${i.id} (${keyText(i, q, (w) => boundText(w.lo, w.offset))})`).join(', ');
const ids = (items: readonly MItem[]) => items.map((i) => i.id);

/** The answer as it should be, or the discrepancies of the answer. */
export function judge(model: readonly MItem[], q: Query, exp: Expected, res: Pick<Response, 'status' | 'body' | 'text'>): Discrepancy[] {
  const keys = Object.keys(q).filter((k) => q[k] !== undefined);
  const ok = res.status >= 200 && res.status < 300;
  if (exp.pastLast) {
    if (ok && Array.isArray(res.body) && res.body.length === 0) return [];
    if (res.status >= 400 && res.status < 500) return [];
    return [{ kind: 'past-last', owners: ['page'], ids: [], text: `page ${String(q.page)} is after the last page (${exp.all.length} items match, ${exp.perPage} a page), yet it ${ok ? `lists ${Array.isArray(res.body) ? res.body.length : 'something that is not a list'}` : `answered ${res.status}`} (an empty list or a refusal both do)` }];
  }
  if (!ok) {
    const named = isValidationError(res as Response, keys) ? keys.filter((k) => namesParam(res as Response, k)) : [];
    return [{ kind: 'refused', owners: named.length ? named : keys, ids: [], text: whyNotAccepted(res, 'the query'), ...(named.length ? {} : { unnamed: true }) }];
  }
  if (!Array.isArray(res.body)) return [{ kind: 'not-list', owners: keys, ids: [], text: `the answer is not a list: ${res.text.slice(0, 120)}` }];
  const byId = new Map(model.map((i) => [i.id, i]));
  const got = (res.body as unknown[]).map((x) => (x as { id?: unknown })?.id);
  const out: Discrepancy[] = [];
  const foreign = got.filter((id) => typeof id !== 'number' || !byId.has(id));
  if (foreign.length) {
    const scope = present(q, ['include', 'slug']);
    out.push({ kind: 'foreign', owners: scope, ids: foreign.filter((x): x is number => typeof x === 'number'), text: `lists ${foreign.map(String).join(', ')}, which ${scope.map((s) => `${s}=${valueText(q[s])}`).join(' and ')} do${scope.length === 1 ? 'es' : ''} not name` });
  }
  const listed = got.filter((id): id is number => typeof id === 'number' && byId.has(id)).map((id) => byId.get(id)!);
  const dup = listed.filter((i, k) => listed.indexOf(i) !== k);
  if (dup.length) out.push({ kind: 'duplicate', owners: present(q, ['orderby', 'order', ...PAGING]), ids: ids(dup), text: `lists ${ids(dup).join(', ')} twice` });
  const inResult = new Set(exp.all.map((i) => i.id));
  // Items listed that filters leave out, those left out for the same reason together.
  const extras = new Map<string, { owners: string[]; ids: number[] }>();
  for (const i of listed.filter((x) => !inResult.has(x.id))) {
    const against = filtersOf(q).filter((a) => predicate(a, i, q) === false);
    const why = against.map((a) => whyOut(a, i, q)).join(' and ');
    const e = extras.get(why) ?? { owners: against.map((a) => (a === 'status' && q.status === undefined ? 'status:default' : a)), ids: [] };
    e.ids.push(i.id);
    extras.set(why, e);
  }
  for (const [why, e] of extras) out.push({ kind: 'extra', owners: e.owners, ids: e.ids, text: `lists ${e.ids.join(', ')}, though ${e.ids.length > 1 ? why.replace(/\bit does\b/g, 'they do').replace(/\bit is\b/g, 'they are').replace(/\bit\b/g, 'them').replace(/\bits\b/g, 'their') : why}` });
  if (out.length) return out;
  return pageDiscrepancies(q, exp, listed);
}

/** Items in the order of a query (ties as they come). */
export const inOrder = (xs: readonly MItem[], q: Query): MItem[] => [...xs].sort((x, y) => (descOf(q) ? -1 : 1) * (compareKey(x, y, q) ?? 0));
/** The same keys of the query's order, however ties are placed. */
export function sameKeys(xs: readonly MItem[], ys: readonly MItem[], q: Query): boolean {
  if (xs.length !== ys.length) return false;
  const [a, b] = [inOrder(xs, q), inOrder(ys, q)];
  return a.every((x, k) => compareKey(x, b[k]!, q) === 0);
}
/** The query in the default order (date, newest first). */
export function defaultOrder(q: Query): Query {
  const d: Query = { ...q };
  delete d.orderby;
  delete d.order;
  return d;
}

/** The page asked for, taken from the list in the default order; undefined: that order is not known. */
export function defaultWindow(q: Query, exp: Expected): MItem[] | undefined {
  const d = defaultOrder(q);
  if (exp.all.some((x) => exp.all.some((y) => compareKey(x, y, d) === undefined))) return undefined;
  return inOrder(exp.all, d).slice(exp.start, exp.start + exp.perPage);
}

/** The items on the page against the expected page: count, order, window. */
function pageDiscrepancies(q: Query, exp: Expected, a: MItem[]): Discrepancy[] {
  const w = exp.window;
  const tie = (x: MItem, y: MItem) => compareKey(x, y, q) === 0;
  const sameSeq = (xs: readonly MItem[], ys: readonly MItem[]) => xs.length === ys.length && xs.every((x, k) => tie(x, ys[k]!));
  const dir = descOf(q) ? -1 : 1;
  const sorted = (xs: readonly MItem[], d: number) => xs.every((x, k) => k === 0 || d * (compareKey(xs[k - 1]!, x, q) ?? 0) <= 0);
  /** Another place of the list whose items (by key) are those of the page. */
  const otherStart = (): number | undefined => {
    for (let s = 0; s + a.length <= exp.all.length; s++) if (s !== exp.start && sameSeq(exp.all.slice(s, s + a.length), [...a].sort((x, y) => dir * (compareKey(x, y, q) ?? 0)))) return s;
    return undefined;
  };
  const paging = present(q, ['page', 'offset']);
  const ordering = q.orderby !== undefined ? ['orderby'] : ['orderby:default'];
  const where = `${exp.all.length} items match; the page asked for starts at place ${exp.start + 1} and holds ${w.length}: ${keyed(w, q) || 'none'}`;
  const shown = `the answer lists ${keyed(a, q) || 'nothing'}`;
  if (sameSeq(a, w)) return [];
  const unsettled = { ordering, paging: paging.length ? paging : ['per_page'] };
  if (a.length !== w.length) {
    const s = a.length ? otherStart() : undefined;
    if (s !== undefined) return [{ kind: 'window', owners: [...ordering, ...unsettled.paging], unsettled, ids: [...ids(a), ...ids(w)], text: `${shown}: the items from place ${s + 1}, not from place ${exp.start + 1} (${where})` }];
    if (a.length > w.length) return [{ kind: 'count', owners: a.length > exp.perPage ? ['per_page'] : paging.length ? paging : ['per_page'], ids: [...ids(a), ...ids(w)], text: `${shown}: ${a.length} items, ${w.length} expected (${where})` }];
    const missing = w.filter((x) => !a.some((y) => y.id === x.id));
    return [{ kind: 'missing', owners: [...filtersOf(q).map((f) => (f === 'status' && q.status === undefined ? 'status:default' : f)), ...paging], ids: [...ids(missing), ...ids(a)], missing: ids(missing), text: `does not list ${keyed(missing, q)}, which match (${shown}; ${where})` }];
  }
  const multiset = (xs: readonly MItem[]) => [...xs].sort((x, y) => compareKey(x, y, q) ?? 0);
  if (sameSeq(multiset(a), multiset(w))) {
    // The opposite direction is order's (or its default's), where the order asked for takes one.
    if (!FIXED_DIRECTION.includes(orderbyOf(q)) && sorted(a, -dir)) {
      const owner = q.order !== undefined ? 'order' : 'order:default';
      return [{ kind: 'order', owners: [owner], ids: ids(a), text: `${shown}: in ${dir < 0 ? 'ascending' : 'descending'} order of ${orderbyOf(q)}, not ${q.order !== undefined ? `order=${String(q.order)}` : 'descending (the default order)'} (${where})` }];
    }
    return [{ kind: 'order', owners: ordering, ids: ids(a), text: `${shown}: not in the order of ${orderbyOf(q)} (${where})` }];
  }
  // The wrong items: those of another place of the list, or those of the page asked for in the
  // default order put in the order asked for afterwards (the page cut before the list was sorted).
  const s = otherStart();
  const cut = q.orderby !== undefined || q.order !== undefined ? defaultWindow(q, exp) : undefined;
  const hint = [s !== undefined ? `the items from place ${s + 1} of the list` : '', cut && sameKeys(a, cut, defaultOrder(q)) ? `the items of that page in the default order (by date, newest first), put in order of ${orderbyOf(q)} afterwards` : ''].filter(Boolean).join(', or ');
  return [{ kind: 'window', owners: [...ordering, ...unsettled.paging], unsettled, ids: [...ids(a), ...ids(w)], text: `${shown}${hint ? `: ${hint}` : ', not the items of that place'} (${where})` }];
}
