/**
 * A model of the post and page collection query (core part 4, "Post collection query" and Pages;
 * part 3 for `status`): which of the items the model knows a combination of documented filters
 * lists, in which order and on which page. Pure: no requests.
 *
 * Every filter is a predicate of one item that answers true, false or undefined (not known: the
 * item's text where only its rendered form is known, a status whose listing the spec leaves open,
 * a date known only within a window). The query a check sends is scoped by `include` or `slug` to
 * items the model knows, and items whose membership or place in the order is not known are left
 * out of that scope (lib/query-combos.ts), so every answer is judged whole: membership, order where
 * the spec fixes it (the `orderby` values and `order` asc or desc; ties are free: items with the
 * same key may come in any order), and paging (`page`, `per_page`, `offset`).
 *
 * An answer that differs is explained as discrepancies, each with the query arguments that can
 * explain it (its owners): an item listed that a filter leaves out is that filter's; an item on the
 * wrong page or in the wrong place is the ordering's or the paging's (lib/filters.ts judges each
 * behaviour on the discrepancies of its own argument only).
 */
import type { QueryValue } from '../../../src/sdk/http.ts';

/** A time the model knows of an item: exactly (lo === hi) or within a window; the item's own offset from GMT, in minutes (how its wall clock is written). */
export interface When {
  lo: number;
  hi: number;
  offset: number;
}

export interface MItem {
  id: number;
  status: string;
  slug: string;
  /** The title as served (rendered, tags removed), for ordering and messages. */
  title: string;
  /**
   * What a search matches (title, content, excerpt: plain text, lower case). `sure`: the stored
   * text is known (fixtures); else only the rendered text is, and a word found only in content or
   * excerpt may or may not be in the stored text.
   */
  text: { title: string; content: string; excerpt: string; sure: boolean };
  /** Undefined where the item's author is not an integer: filters by author judge nothing of it. */
  author: number | undefined;
  date?: When;
  modified?: When;
  categories: number[];
  tags: number[];
  sticky: boolean;
  parent: number;
  menu_order: number;
  /** The password protects content and excerpt: what a search of them finds is not known unless `text.sure`. */
  protected?: boolean;
}

export type Query = Record<string, QueryValue>;
export type Tri = boolean | undefined;

/** The arguments whose meaning the model holds (the filters), in the order messages name them. */
export const MODEL_FILTERS = [
  'include',
  'exclude',
  'slug',
  'status',
  'search',
  'author',
  'author_exclude',
  'after',
  'before',
  'modified_after',
  'modified_before',
  'sticky',
  'categories',
  'categories_exclude',
  'tags',
  'tags_exclude',
  'parent',
  'parent_exclude',
  'menu_order',
] as const;
export type FilterArg = (typeof MODEL_FILTERS)[number];

/** The statuses `status=any` lists at MUST level (every write status but future: lib/model.ts ANY_MUST); future and trash are left open. */
const ANY_SURE = ['publish', 'draft', 'pending', 'private'];
const ANY_OPEN = ['future', 'trash'];

const list = (v: QueryValue): QueryValue[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const nums = (v: QueryValue): number[] => list(v).map(Number);
const strs = (v: QueryValue): string[] => list(v).map(String);
const isObj = (v: QueryValue): v is Record<string, QueryValue> => !!v && typeof v === 'object' && !Array.isArray(v);
const and = (...xs: Tri[]): Tri => (xs.some((x) => x === false) ? false : xs.some((x) => x === undefined) ? undefined : true);
const not = (x: Tri): Tri => (x === undefined ? undefined : !x);

/** A date-time sent as a bound: its instant (ms, fractions kept). */
export const instantOf = (s: string): number => Date.parse(s);

/** Strictly after (`after`, `modified_after`: "published/modified after"). */
const after = (w: When | undefined, t: number): Tri => (!w ? undefined : w.lo > t ? true : w.hi <= t ? false : undefined);
const before = (w: When | undefined, t: number): Tri => (!w ? undefined : w.hi < t ? true : w.lo >= t ? false : undefined);

/** The search columns of a query (search_columns; all three by default). */
function columnsOf(q: Query): ('title' | 'content' | 'excerpt')[] {
  const cols = strs(q.search_columns ?? []);
  const map: Record<string, 'title' | 'content' | 'excerpt'> = { post_title: 'title', post_content: 'content', post_excerpt: 'excerpt' };
  const out = cols.map((c) => map[c]).filter((c): c is 'title' | 'content' | 'excerpt' => !!c);
  return out.length ? out : ['title', 'content', 'excerpt'];
}

/** Does the item's text match a one-word search? */
export function searchMatch(i: MItem, word: string, q: Query): Tri {
  const w = word.toLowerCase();
  const cols = columnsOf(q);
  if (cols.includes('title') && i.text.title.includes(w)) return true;
  const others = cols.filter((c) => c !== 'title');
  const elsewhere = others.some((c) => i.text[c].includes(w));
  if (i.text.sure) return elsewhere;
  // Only the rendered text is known: a word seen in content or excerpt may not be in the stored text
  // (blocks that render other items), nor is the hidden text of a protected item known.
  if (elsewhere || (i.protected && others.length)) return undefined;
  return false;
}

/** Term filters: a list (any of the terms) or the documented object (terms, operator AND/OR, include_children). */
function terms(i: MItem, field: 'categories' | 'tags', v: QueryValue, exclude: boolean): Tri {
  const obj = isObj(v) ? v : undefined;
  const ts = nums(obj ? (obj.terms ?? []) : v);
  if (ts.length === 0) return true;
  const has = ts.map((t) => i[field].includes(t));
  // include_children: a term this item carries that is not named may be a child of one that is (terms are not documented).
  const children = obj?.include_children === true || obj?.include_children === 'true';
  const maybe = children && i[field].some((t) => !ts.includes(t));
  const and_ = !exclude && String(obj?.operator ?? 'OR') === 'AND';
  let m: Tri = and_ ? has.every(Boolean) : has.some(Boolean);
  if (!m && maybe) m = undefined;
  return exclude ? not(m) : m;
}

/** Does an item pass one filter of the query? */
export function predicate(arg: FilterArg, i: MItem, q: Query): Tri {
  const v = q[arg];
  switch (arg) {
    case 'include':
      return nums(v).length ? nums(v).includes(i.id) : true;
    case 'exclude':
      return !nums(v).includes(i.id);
    case 'slug':
      return strs(v).length ? strs(v).includes(i.slug) : true;
    case 'status': {
      if (v === undefined) return i.status === 'publish';
      const s = strs(v);
      if (s.includes(i.status)) return true;
      if (s.includes('any')) return ANY_SURE.includes(i.status) ? true : ANY_OPEN.includes(i.status) ? undefined : false;
      return false;
    }
    case 'search':
      return typeof v === 'string' && v !== '' ? searchMatch(i, v, q) : true;
    case 'author':
      return !nums(v).length ? true : i.author === undefined ? undefined : nums(v).includes(i.author);
    case 'author_exclude':
      return !nums(v).length ? true : i.author === undefined ? undefined : !nums(v).includes(i.author);
    case 'after':
      return after(i.date, instantOf(String(v)));
    case 'before':
      return before(i.date, instantOf(String(v)));
    case 'modified_after':
      return after(i.modified, instantOf(String(v)));
    case 'modified_before':
      return before(i.modified, instantOf(String(v)));
    case 'sticky':
      return v === true || v === 'true' ? i.sticky : !i.sticky;
    case 'categories':
    case 'tags':
      return terms(i, arg, v, false);
    case 'categories_exclude':
    case 'tags_exclude':
      return terms(i, arg === 'categories_exclude' ? 'categories' : 'tags', v, true);
    case 'parent':
      return nums(v).length ? nums(v).includes(i.parent) : true;
    case 'parent_exclude':
      return !nums(v).includes(i.parent);
    case 'menu_order':
      return i.menu_order === Number(v);
  }
}

/** The filters a query sends (status counts even when absent: its default is publish). */
export const filtersOf = (q: Query): FilterArg[] => MODEL_FILTERS.filter((a) => a === 'status' || q[a] !== undefined);

/** Membership of an item in the result of a query. */
export const member = (i: MItem, q: Query): Tri => and(...filtersOf(q).map((a) => predicate(a, i, q)));

// ---------------------------------------------------------------- order

/** orderby values whose order ignores `order` here (the list order, the relevance rank): never sent with `order`. */
export const FIXED_DIRECTION = ['include', 'include_slugs', 'relevance'];

const same = (a: string, b: string) => (/[a-z]/.test(a) && /[a-z]/.test(b)) || (/[A-Z]/.test(a) && /[A-Z]/.test(b)) || (/[0-9]/.test(a) && /[0-9]/.test(b));
/**
 * Two texts in an order every collation agrees on (binary, case-insensitive, accent-insensitive):
 * at the first place they differ both characters are letters of one case, or digits; or one is
 * the other's start (not followed by a space, which a padding collation ignores). Undefined: no such order.
 */
export function textOrder(a: string, b: string): -1 | 0 | 1 | undefined {
  if (a === b) return 0;
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  if (k === a.length || k === b.length) {
    const rest = (k === a.length ? b : a).slice(k);
    if (/^\s/.test(rest)) return undefined;
    return k === a.length ? -1 : 1;
  }
  return same(a[k]!, b[k]!) ? (a[k]! < b[k]! ? -1 : 1) : undefined;
}

const exactTime = (w: When | undefined) => (w && w.lo === w.hi ? w.lo : undefined);
const num = (a: number | undefined, b: number | undefined): -1 | 0 | 1 | undefined => (a === undefined || b === undefined ? undefined : a < b ? -1 : a > b ? 1 : 0);

/** The orderby a query asks for (default date). */
export const orderbyOf = (q: Query): string => (typeof q.orderby === 'string' ? q.orderby : 'date');
/** Descending? (order defaults to desc; fixed-direction orders are ascending). */
export const descOf = (q: Query): boolean => !FIXED_DIRECTION.includes(orderbyOf(q)) && q.order !== 'asc';

/** The two items in ascending order of the query's key: -1, 0 (a tie), 1, or undefined (not known). */
export function compareKey(a: MItem, b: MItem, q: Query): -1 | 0 | 1 | undefined {
  switch (orderbyOf(q)) {
    case 'date':
      return num(exactTime(a.date), exactTime(b.date));
    case 'modified':
      return num(exactTime(a.modified), exactTime(b.modified));
    case 'id':
      return num(a.id, b.id);
    case 'author':
      return num(a.author, b.author);
    case 'parent':
      return num(a.parent, b.parent);
    case 'menu_order':
      return num(a.menu_order, b.menu_order);
    case 'title':
      return textOrder(a.title, b.title);
    case 'slug':
      return textOrder(a.slug, b.slug);
    case 'include':
      return num(nums(q.include).indexOf(a.id), nums(q.include).indexOf(b.id));
    case 'include_slugs':
      return num(strs(q.slug).indexOf(a.slug), strs(q.slug).indexOf(b.slug));
    case 'relevance': {
      // WordPress's rank for a one-word search: items with the word in their title first (ties free).
      const rank = (i: MItem) => (i.text.title.includes(String(q.search ?? '').toLowerCase()) ? 0 : 1);
      return num(rank(a), rank(b));
    }
    default:
      return undefined;
  }
}

/** The key of an item as messages show it. */
export function keyText(i: MItem, q: Query, time: (w: When) => string = (w) => new Date(w.lo).toISOString()): string {
  const t = (w?: When) => (w ? time(w) : 'not known');
  switch (orderbyOf(q)) {
    case 'date':
      return `date ${t(i.date)}`;
    case 'modified':
      return `modified ${t(i.modified)}`;
    case 'id':
      return `id ${i.id}`;
    case 'author':
      return `author ${i.author}`;
    case 'parent':
      return `parent ${i.parent}`;
    case 'menu_order':
      return `menu_order ${i.menu_order}`;
    case 'title':
      return `title "${i.title}"`;
    case 'slug':
      return `slug ${i.slug}`;
    case 'include':
      return `place ${nums(q.include).indexOf(i.id) + 1} in include`;
    case 'include_slugs':
      return `place ${strs(q.slug).indexOf(i.slug) + 1} in slug`;
    case 'relevance':
      return i.text.title.includes(String(q.search ?? '').toLowerCase()) ? 'the word in its title' : 'the word not in its title';
    default:
      return '';
  }
}

/**
 * The items whose place in the order is not known (a key not known, or two keys no collation
 * agrees on): left out of a scope, one of each such pair.
 */
export function unorderable(items: readonly MItem[], q: Query): Set<number> {
  const out = new Set<number>(items.filter((i) => compareKey(i, i, q) === undefined).map((i) => i.id));
  // Leave out the item in the most such pairs, until no pair is left.
  for (;;) {
    const left = items.filter((i) => !out.has(i.id));
    const conflicts = left.map((i) => left.filter((j) => j !== i && compareKey(i, j, q) === undefined).length);
    const worst = Math.max(0, ...conflicts);
    if (worst === 0) return out;
    out.add(left[conflicts.indexOf(worst)]!.id);
  }
}

/** The items of the result in the query's order (stable; ties kept together). Every pair must be comparable. */
export function ordered(items: readonly MItem[], q: Query): MItem[] {
  const dir = descOf(q) ? -1 : 1;
  return [...items].sort((a, b) => dir * (compareKey(a, b, q) ?? 0));
}
