/**
 * Combinations of the documented filters of a post type's collection query, drawn by fast-check
 * over the items of the model (lib/query-model.ts), and the edges every bound is sent at.
 *
 * A combination is a record of picks (indexes of the model's items, terms, words, an edge of an
 * item's date), not of values, so that fast-check shrinks it (fewer filters, fewer items, the first
 * items) and the query it stands for is made from the model when it is sent (`materialize`): the
 * scope (`include` or `slug`) keeps only items whose membership and place in the order are known.
 *
 * What the documents leave open is never combined: `exclude` with `include` (what WordPress makes
 * of them is its own: lib/filters.ts checks the pair alone), `sticky=false` with `include`, two
 * taxonomy filters without `tax_relation`, `offset` with a page after the first, `order` with the
 * orderby values whose order is the list's (include, include_slugs) or a rank (relevance).
 */
import fc from 'fast-check';
import type { PostType } from './collections.ts';
import { expected, type Expected } from './query-judge.ts';
import { boundText } from './query-items.ts';
import { FIXED_DIRECTION, member, unorderable, type MItem, type Query } from './query-model.ts';

/** An id no item or term is likely to have. */
export const UNUSED_ID = 987_654_321;

export interface ModelCtx {
  type: PostType;
  items: MItem[];
  /** Indexes of the published items (the scopes of most combinations). */
  published: number[];
  /** Credentials: the status filter and items in other statuses. */
  authenticated: boolean;
  /** One-word searches the model knows the matches of. */
  words: string[];
  authors: number[];
  categories: number[];
  tags: number[];
  parents: number[];
  menuOrders: number[];
  /** Items with an exact date / modified time, for edges. */
  dated: number[];
  modifiedKnown: number[];
}

export interface Edge {
  item: number;
  delta: number;
}
export interface Tax {
  terms: number[];
  object: boolean;
  operator?: 'AND' | 'OR';
  children?: boolean;
}
export interface Combo {
  scope: { by: 'include' | 'slug'; pick: number[] };
  /** The check of include and exclude together (lib/filters.ts): the one combination that sends both. */
  pair?: boolean;
  exclude?: number[];
  status?: string[];
  search?: { word: number; cols?: string[] };
  author?: number;
  author_exclude?: number;
  after?: Edge;
  before?: Edge;
  modified_after?: Edge;
  modified_before?: Edge;
  sticky?: boolean;
  categories?: Tax;
  categories_exclude?: Tax;
  tags?: Tax;
  tags_exclude?: Tax;
  parent?: number[];
  parent_exclude?: number[];
  menu_order?: number;
  orderby?: string;
  order?: 'asc' | 'desc';
  per_page: number;
  page?: number | 'last' | 'past';
  offset?: number | 'total';
}

const TAXES = ['categories', 'categories_exclude', 'tags', 'tags_exclude'] as const;
const EDGES = ['after', 'before', 'modified_after', 'modified_before'] as const;
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'any'];

/** The arguments of the combinations a collection documents (posts: sticky and the taxonomies; pages: parent and menu_order). */
export function argsOf(ctx: ModelCtx): string[] {
  const q = ctx.type.query;
  const out = ['exclude', 'search', 'author', 'author_exclude', 'sticky', ...TAXES, 'parent', 'parent_exclude', 'menu_order', ...EDGES].filter((a) => a in q);
  if (ctx.authenticated && 'status' in q) out.push('status');
  return out.filter((a) => (EDGES.includes(a as never) ? (a.startsWith('modified') ? ctx.modifiedKnown.length : ctx.dated.length) > 0 : true));
}

const some = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 7 }, { arbitrary: arb, weight: 1 });
const indexes = (xs: readonly number[], min = 1) => fc.subarray([...xs], { minLength: Math.min(min, xs.length) });

/** A value of one argument. */
function valueArb(arg: string, ctx: ModelCtx): fc.Arbitrary<unknown> {
  const n = ctx.items.length;
  const edge = (pool: number[]) => fc.record({ item: fc.constantFrom(...pool), delta: fc.constantFrom(0, -1, 1) });
  const tax = (terms: number[], operator: boolean, children: boolean) =>
    fc.record({ terms: fc.subarray([...terms, UNUSED_ID], { minLength: 1 }), object: fc.boolean(), ...(operator ? { operator: fc.constantFrom<'AND' | 'OR'>('OR', 'AND') } : {}), ...(children ? { children: fc.boolean() } : {}) });
  switch (arg) {
    case 'exclude':
      return fc.subarray(Array.from({ length: n }, (_, k) => k), { minLength: 1, maxLength: 3 });
    case 'status':
      return fc.subarray(STATUSES, { minLength: 1, maxLength: 2 });
    case 'search':
      return fc.record({ word: fc.nat({ max: Math.max(0, ctx.words.length - 1) }), cols: fc.option(fc.subarray(['post_title', 'post_content', 'post_excerpt'], { minLength: 1 }), { nil: undefined }) }, { requiredKeys: ['word'] });
    case 'author':
    case 'author_exclude':
      return fc.nat({ max: ctx.authors.length });
    case 'after':
    case 'before':
      return edge(ctx.dated);
    case 'modified_after':
    case 'modified_before':
      return edge(ctx.modifiedKnown);
    case 'sticky':
      return fc.boolean();
    case 'categories':
      return tax(ctx.categories, true, true);
    case 'categories_exclude':
      return tax(ctx.categories, false, true);
    case 'tags':
      return tax(ctx.tags, true, false);
    case 'tags_exclude':
      return tax(ctx.tags, false, false);
    case 'parent':
    case 'parent_exclude':
      return fc.subarray(ctx.parents, { minLength: 1, maxLength: 2 });
    case 'menu_order':
      return fc.constantFrom(...(ctx.menuOrders.length ? ctx.menuOrders : [0]));
    default:
      throw new Error(`no values for ${arg}`);
  }
}

/** The orderby values of the collection (documented enum). */
export const orderbyValues = (ctx: ModelCtx): string[] => (ctx.type.query.orderby?.enum ?? []).map(String);

/**
 * Combinations that hold `featured` (an argument, `orderby.<value>`, `order`, `page`, `offset`, or
 * `include-exclude`), with up to a few other filters, an order and a page.
 */
export function comboArb(featured: string, ctx: ModelCtx): fc.Arbitrary<Combo> {
  const others = argsOf(ctx).filter((a) => a !== featured && !(featured === 'search_columns' && a === 'search'));
  const byValue = featured.startsWith('orderby.') ? featured.slice(8) : undefined;
  const scopeBy: fc.Arbitrary<'include' | 'slug'> = featured === 'include' || featured === 'include-exclude' ? fc.constant('include') : featured === 'slug' || featured === 'exclude' ? fc.constant('slug') : fc.constantFrom('include', 'slug');
  const fields: Record<string, fc.Arbitrary<unknown>> = {
    scope: fc.record({ by: scopeBy, pick: indexes(ctx.published.length ? ctx.published : [0]) }),
    per_page: fc.constantFrom(100, 2, 1, 3),
    orderby: byValue ? fc.constant(byValue) : some(fc.constantFrom(...orderbyValues(ctx))),
    order: featured === 'order' ? fc.constantFrom('asc', 'desc') : some(fc.constantFrom('asc', 'desc')),
    page: featured === 'page' ? fc.constantFrom(1, 2, 'last', 'past') : some(fc.constantFrom(1, 2, 'last', 'past')),
    offset: featured === 'offset' ? fc.oneof(fc.nat({ max: ctx.published.length }), fc.constant('total')) : some(fc.oneof(fc.nat({ max: ctx.published.length }), fc.constant('total'))),
  };
  for (const a of others) fields[a] = some(valueArb(a, ctx));
  if (featured === 'include-exclude') Object.assign(fields, { pair: fc.constant(true), exclude: valueArb('exclude', ctx) });
  else if (featured === 'search_columns')
    fields.search = fc.record({ word: fc.nat({ max: Math.max(0, ctx.words.length - 1) }), cols: fc.subarray(['post_title', 'post_content', 'post_excerpt'], { minLength: 1 }) });
  else if (!['include', 'slug', 'order', 'page', 'offset'].includes(featured) && !byValue) fields[featured] = valueArb(featured, ctx);
  return fc.record(fields) as unknown as fc.Arbitrary<Combo>;
}

/** The query a combination stands for, and what the model expects of it; undefined: nothing in its scope is known well enough. */
export function materialize(c: Combo, ctx: ModelCtx): { query: Query; exp: Expected } | undefined {
  const { items, type } = ctx;
  const at = (k: number) => items[Math.min(k, items.length - 1)]!;
  const q: Query = {};
  const docs = type.query;
  // A pair of include and exclude is sent only by the check of that pair.
  if (c.exclude && (c.scope.by === 'slug' || c.pair)) q.exclude = [...new Set(c.exclude.map((k) => at(k).id))];
  if (c.status && ctx.authenticated && docs.status) q.status = c.status;
  if (c.search && ctx.words.length) {
    q.search = ctx.words[Math.min(c.search.word, ctx.words.length - 1)]!;
    if (c.search.cols && docs.search_columns) q.search_columns = c.search.cols;
  }
  const author = (k: number) => (k < ctx.authors.length ? ctx.authors[k]! : UNUSED_ID);
  if (c.author !== undefined && docs.author) q.author = [author(c.author)];
  if (c.author_exclude !== undefined && docs.author_exclude) q.author_exclude = [author(c.author_exclude)];
  for (const e of EDGES) {
    const pick = c[e];
    if (!pick || !docs[e]) continue;
    const w = e.startsWith('modified') ? at(pick.item).modified : at(pick.item).date;
    if (!w || w.lo !== w.hi) continue;
    q[e] = boundText(w.lo + pick.delta * 1000, w.offset);
  }
  if (c.sticky !== undefined && docs.sticky && !(c.sticky === false && c.scope.by === 'include')) q.sticky = c.sticky;
  const tax = TAXES.find((t) => c[t] && docs[t]);
  if (tax) {
    const t = c[tax]!;
    const terms = [...new Set(t.terms.map((k) => (tax.startsWith('tags') ? ctx.tags : ctx.categories)[k] ?? UNUSED_ID))];
    q[tax] = t.object ? { terms, ...(t.operator ? { operator: t.operator } : {}), ...(t.children ? { include_children: true } : {}) } : terms;
  }
  for (const p of ['parent', 'parent_exclude'] as const) if (c[p] && docs[p]) q[p] = [...new Set(c[p]!)];
  if (c.menu_order !== undefined && docs.menu_order) q.menu_order = c.menu_order;
  // The order: values that need another argument only with it.
  let orderby = c.orderby;
  if (orderby === 'relevance' && q.search === undefined) orderby = undefined;
  if (orderby === 'include' && c.scope.by !== 'include') orderby = undefined;
  if (orderby === 'include_slugs' && c.scope.by !== 'slug') orderby = undefined;
  if (orderby) q.orderby = orderby;
  if (c.order && !FIXED_DIRECTION.includes(orderby ?? '')) q.order = c.order;
  // The scope: the picked items whose membership and place are known.
  const picked = [...new Set(c.scope.pick.map((k) => at(k)))].filter((i) => c.scope.by === 'include' || (i.slug !== '' && items.filter((j) => j.slug === i.slug).length === 1));
  const known = picked.filter((i) => member(i, q) !== undefined);
  const drop = unorderable(known.filter((i) => member(i, q) === true), q);
  const scope = known.filter((i) => !drop.has(i.id));
  if (!scope.length) return undefined;
  if (c.scope.by === 'include') q.include = scope.map((i) => i.id);
  else q.slug = scope.map((i) => i.slug);
  const total = expected(items, q).all.length;
  q.per_page = c.per_page;
  const last = Math.max(1, Math.ceil(total / c.per_page));
  if (c.offset !== undefined) q.offset = c.offset === 'total' ? total : c.offset;
  else if (c.page !== undefined) q.page = c.page === 'last' ? last : c.page === 'past' ? last + 1 : c.page;
  return { query: q, exp: expected(items, q) };
}

/** The context of the model over `items`: what the combinations draw from. */
export function modelCtx(type: PostType, items: MItem[], authenticated: boolean, words: string[]): ModelCtx {
  const idx = (p: (i: MItem) => boolean) => items.map((i, k) => (p(i) ? k : -1)).filter((k) => k >= 0);
  const published = idx((i) => i.status === 'publish');
  const distinct = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);
  const pub = published.map((k) => items[k]!);
  return {
    type,
    items,
    published,
    authenticated,
    words,
    authors: distinct(pub.flatMap((i) => (i.author === undefined ? [] : [i.author]))),
    categories: distinct(pub.flatMap((i) => i.categories)),
    tags: distinct(pub.flatMap((i) => i.tags)),
    parents: distinct([0, ...pub.map((i) => i.parent)]),
    menuOrders: distinct(pub.map((i) => i.menu_order)),
    dated: published.filter((k) => items[k]!.date?.lo === items[k]!.date?.hi),
    modifiedKnown: published.filter((k) => items[k]!.modified !== undefined && items[k]!.modified!.lo === items[k]!.modified!.hi),
  };
}
