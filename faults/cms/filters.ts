/**
 * Faults of the collection filters: `cms.filter-ignored.<arg>` drops one filter from post and
 * page listings (as a server that does not implement it would), and filters that answer wrongly.
 */
import { endpointById } from '../../schemas/catalog/index.ts';
import type { Fault, FaultRequest } from '../proxy.ts';
import { COLLECTION, TYPES, argsOf, drop, has, invalidParam, isGet, valuesOf } from './common.ts';

/** Filter behaviours that fail when the argument is ignored (posts and pages where documented). */
export const FILTER_BEHAVIOURS: Record<string, string[]> = {
  include: ['filter.include'],
  exclude: ['filter.exclude'],
  slug: ['filter.slug'],
  search: ['filter.search'],
  search_columns: ['filter.search_columns'],
  search_semantics: ['filter.search_semantics'],
  author: ['filter.author'],
  author_exclude: ['filter.author_exclude'],
  status: ['filter.status'],
  after: ['filter.after'],
  before: ['filter.before'],
  modified_after: ['filter.modified_after'],
  modified_before: ['filter.modified_before'],
  offset: ['filter.offset'],
  page: ['filter.page'],
  // The ordering behaviours that find their list reversed depend on filter.order (suites/cms/lib/filters.ts).
  order: ['filter.order'],
  orderby: ['filter.orderby.id', 'filter.orderby.title', 'filter.orderby.slug', 'filter.orderby.include', 'filter.orderby.include_slugs', 'filter.orderby.relevance', 'filter.orderby.modified', 'filter.orderby.menu_order', 'filter.orderby.parent'],
  sticky: ['filter.sticky'],
  format: ['filter.format'],
  categories: ['filter.categories'],
  categories_exclude: ['filter.categories_exclude'],
  tags: ['filter.tags'],
  tags_exclude: ['filter.tags_exclude'],
  tax_relation: ['filter.tax_relation'],
  parent: ['filter.parent'],
  parent_exclude: ['filter.parent_exclude'],
  menu_order: ['filter.menu_order'],
};

/** posts have no parent field: orderby=parent on posts keeps any order, its check skips (not observable) unless the value is refused. */
const NOT_FOR: Record<string, string[]> = { 'filter.orderby.parent': ['posts'] };

export function documentedFor(type: (typeof TYPES)[number], arg: string, behaviour: string): boolean {
  if (NOT_FOR[behaviour]?.includes(type)) return false;
  const args = argsOf(`cms.${type}.collection.list`);
  const m = /^filter\.orderby\.(.+)$/.exec(behaviour);
  if (m) {
    const orderby = endpointById(`cms.${type}.collection.list`).endpoint.args;
    return orderby !== 'not-shown' && (orderby.orderby?.enum ?? []).map(String).includes(m[1]!);
  }
  return args.includes(arg);
}

const filterIgnored: Fault[] = Object.entries(FILTER_BEHAVIOURS).map(([arg, behaviours]) => ({
  id: `cms.filter-ignored.${arg}`,
  title: `ignores the ${arg} filter of post and page listings`,
  caughtBy: TYPES.flatMap((t) => behaviours.filter((b) => documentedFor(t, arg, b)).map((b) => `cms.${t}.${b}`)),
  request(req) {
    if (isGet(req) && COLLECTION.test(req.route)) drop(req.query, arg);
  },
}));

/**
 * An update does not move an item's modified date (issue 34): the modified filters and
 * orderby=modified answer as if every item was last modified when it was created. The proxy
 * remembers when it saw each item created (the answer's Date), drops modified_after,
 * modified_before and orderby=modified from listings and applies them itself to those times.
 */
function updateKeepsModified(): Fault {
  const created = new Map<number, number>();
  const kept = new WeakMap<FaultRequest, { after?: number; before?: number; orderby: boolean; asc: boolean }>();
  return {
    id: 'cms.update-keeps-modified',
    title: 'an update does not move the modified date of a post or page: modified_after, modified_before and orderby=modified see items as of their creation',
    // One deviation: the modified_before and orderby=modified checks depend on modified_after's finding.
    caughtBy: TYPES.map((t) => `cms.${t}.filter.modified_after`),
    request(req) {
      if (!isGet(req) || !COLLECTION.test(req.route)) return;
      const time = (k: string) => (has(req.query, k) ? Date.parse(valuesOf(req.query, k)[0] ?? '') : undefined);
      const orderby = req.query.get('orderby') === 'modified';
      const after = time('modified_after');
      const before = time('modified_before');
      if (after === undefined && before === undefined && !orderby) return;
      // A value that is not a date is still the target's to refuse: the fault is about the dates, not the validation.
      if (Number.isNaN(after) || Number.isNaN(before)) return;
      kept.set(req, { after, before, orderby, asc: req.query.get('order') === 'asc' });
      drop(req.query, 'modified_after');
      drop(req.query, 'modified_before');
      if (orderby) drop(req.query, 'orderby');
    },
    response(req, res) {
      if (req.method === 'POST' && COLLECTION.test(req.route) && res.status < 300 && typeof res.json?.id === 'number') created.set(res.json.id, Date.parse(res.headers.date ?? '') || Date.now());
      const k = kept.get(req);
      if (!k || !Array.isArray(res.json)) return;
      const at = (item: any) => created.get(item?.id) ?? 0;
      let list = res.json.filter((item: any) => (k.after === undefined || at(item) > k.after) && (k.before === undefined || at(item) < k.before));
      if (k.orderby) list = list.sort((a: any, b: any) => (k.asc ? at(a) - at(b) : at(b) - at(a)));
      res.json = list;
    },
  };
}

/** Swap the value of one query key between two values (AND and OR). */
function swap(q: URLSearchParams, key: string, a: string, b: string): void {
  const v = q.get(key);
  if (v === a) q.set(key, b);
  else if (v === b) q.set(key, a);
}

/** The meanings the names of the taxonomy filters' values state (issue 40, item 8), and their object form (item 5). */
const taxonomyFaults: Fault[] = [
  {
    // A server that reads every query key as a plain key: `categories[terms]` is an unknown key to it.
    id: 'cms.object-form-unread',
    title: 'reads no object form of the taxonomy filters: query keys with brackets are ignored on post listings (and JSON text is refused)',
    caughtBy: ['cms.posts.query.object-form'],
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route)) for (const k of [...req.query.keys()]) if (/\[[^\]]+\]/.test(k)) req.query.delete(k);
    },
  },
  {
    id: 'cms.tax-relation-swapped',
    title: 'takes tax_relation AND for OR and OR for AND on post listings',
    caughtBy: ['cms.posts.filter.tax_relation'],
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route)) swap(req.query, 'tax_relation', 'AND', 'OR');
    },
  },
  {
    id: 'cms.operator-ignored.categories',
    title: 'ignores the operator of the categories object on post listings (every object is OR)',
    caughtBy: ['cms.posts.filter.categories.operator'],
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route)) req.query.delete('categories[operator]');
    },
  },
  {
    id: 'cms.operator-swapped.tags',
    title: 'takes the operator AND of the tags object for OR and OR for AND on post listings',
    caughtBy: ['cms.posts.filter.tags.operator'],
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route)) swap(req.query, 'tags[operator]', 'AND', 'OR');
    },
  },
  {
    id: 'cms.include-children-default-true',
    title: 'includes the child categories of a categories object that does not say include_children (its default is false)',
    caughtBy: ['cms.posts.filter.categories.include_children'],
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route) && req.query.has('categories[terms]') && !req.query.has('categories[include_children]')) req.query.set('categories[include_children]', 'true');
    },
  },
];

export const filterFaults: Fault[] = [
  ...filterIgnored,
  ...taxonomyFaults,
  {
    // Issue 25: one ignored arg is one deviation, however many checks page through a listing.
    id: 'cms.per-page-ignored',
    title: 'ignores per_page on post and page listings (answers the default page size whatever is asked, and accepts any value)',
    caughtBy: TYPES.flatMap((t) => [`cms.${t}.query.per_page.values`, `cms.${t}.query.per_page.bounds`]),
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route)) drop(req.query, 'per_page');
    },
  },
  updateKeepsModified(),
  {
    id: 'cms.orderby-rejected',
    title: 'refuses orderby=author and orderby=parent on post and page listings',
    // By the values checks: every documented orderby value is accepted. The orderby checks of
    // author (and of parent on posts) skip where every fixture has one author (users cannot be
    // created through documented routes) and posts carry no parent: nothing tells the order
    // honoured from ignored there; a refusal fails them where they can run (a blog by several authors).
    caughtBy: ['cms.posts.query.orderby.values', 'cms.pages.query.orderby.values'],
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route) && ['author', 'parent'].includes(req.query.get('orderby') ?? '')) return invalidParam('orderby');
    },
  },
];

