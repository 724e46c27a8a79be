/**
 * The collection query of posts, pages and media: the filters, ordering and pagination of
 * WP_REST_Posts_Controller::get_items() over WP_Query (wordpress-behaviour.md §4), on the
 * in-memory store.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { RestError, restError } from './errors.ts';
import type { ContentStore, PostRecord, PostType } from './content-store.ts';
import { parseInputDate } from './content-store.ts';
import type { RestRequest } from './types.ts';
import { isPlainObject, restIsArray, sanitizeTextField } from './validate.ts';

/** What `status=any` stands for (statuses not excluded from search). */
const ANY_STATUSES: readonly string[] = catalog.statuses.write;

/** WP_Query::get_search_stopwords(). */
const STOPWORDS = new Set(
  'about,an,are,as,at,be,by,com,for,from,how,in,is,it,of,on,or,that,the,this,to,was,what,when,where,who,will,with,www'.split(','),
);

const ints = (v: unknown): number[] => (Array.isArray(v) ? v.map((x) => Number(x)).filter((n) => Number.isFinite(n)) : []);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);

/** WP_Query::parse_search() terms: quoted phrases kept, stopwords and 1-letter words dropped. */
function searchTerms(s: string): { include: string[]; exclude: string[] } {
  const matches = s.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g) ?? [];
  let terms = matches
    .map((t) => t.replace(/^"|"$/g, '').trim())
    .filter((t) => t !== '' && !(t.length === 1 && /^[a-z-]$/i.test(t)) && !STOPWORDS.has(t.toLowerCase()));
  if (terms.length === 0 || terms.length > 9) terms = [s];
  const include: string[] = [];
  const exclude: string[] = [];
  for (const t of terms) {
    if (t.length > 1 && t.startsWith('-')) exclude.push(t.slice(1));
    else include.push(t);
  }
  return { include, exclude };
}

interface TaxClause {
  test(p: PostRecord): boolean;
}

/** prepare_tax_query(): the `categories`/`tags` (and `_exclude`) filters as clauses. */
function taxClauses(req: RestRequest, store: ContentStore): TaxClause[] {
  const clauses: TaxClause[] = [];
  const spec = [
    { param: 'categories', field: 'categories' as const, exclude: false },
    { param: 'categories_exclude', field: 'categories' as const, exclude: true },
    { param: 'tags', field: 'tags' as const, exclude: false },
    { param: 'tags_exclude', field: 'tags' as const, exclude: true },
  ];
  for (const { param, field, exclude } of spec) {
    const v = req.get(param);
    if (v === undefined || v === null || v === '') continue;
    let terms: number[] = [];
    let includeChildren = false;
    let operator: 'IN' | 'AND' = 'IN';
    if (restIsArray(v)) terms = ints(Array.isArray(v) ? v : Object.values(v as object));
    else if (isPlainObject(v)) {
      terms = ints(v.terms);
      includeChildren = v.include_children === true;
      if (v.operator === 'AND') operator = 'AND';
    }
    if (terms.length === 0) continue;
    if (exclude) {
      const set = new Set(includeChildren ? store.withChildren(terms) : terms);
      clauses.push({ test: (p) => !p[field].some((t) => set.has(t)) });
    } else if (operator === 'AND') {
      const groups = terms.map((t) => new Set(includeChildren ? store.withChildren([t]) : [t]));
      clauses.push({ test: (p) => groups.every((g) => p[field].some((t) => g.has(t))) });
    } else {
      const set = new Set(includeChildren ? store.withChildren(terms) : terms);
      clauses.push({ test: (p) => p[field].some((t) => set.has(t)) });
    }
  }
  // `format` joins the tax query as its own clause (a post_format tax query; `standard` = no format).
  const formats = strs(req.get('format'));
  if (formats.length) clauses.push({ test: (p) => formats.includes(p.format) });
  return clauses;
}

export interface CollectionPage {
  items: PostRecord[];
  total: number;
  totalPages: number;
}

/**
 * The matching items of one page. `statuses` are the sanitized `status` values. Errors:
 * rest_no_search_term_defined, rest_orderby_include_missing_include, rest_post_invalid_page_number.
 */
export function queryCollection(store: ContentStore, type: PostType, req: RestRequest, statuses: string[], gmtOffset = 0): CollectionPage | RestError {
  const search = typeof req.get('search') === 'string' ? sanitizeTextField(req.get('search') as string) : '';
  const orderby = String(req.get('orderby') ?? 'date');
  const include = ints(req.get('include'));
  if (orderby === 'relevance' && search === '')
    return restError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
  if (orderby === 'include' && include.length === 0)
    return restError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);

  const wanted = new Set(statuses.includes('any') ? ANY_STATUSES : statuses);
  let items = [...store.posts.values()].filter((p) => p.type === type && wanted.has(p.status));

  const exclude = ints(req.get('exclude'));
  if (include.length) items = items.filter((p) => include.includes(p.id));
  if (exclude.length) items = items.filter((p) => !exclude.includes(p.id));
  const author = ints(req.get('author'));
  const authorExclude = ints(req.get('author_exclude'));
  if (author.length) items = items.filter((p) => author.includes(p.author));
  if (authorExclude.length) items = items.filter((p) => !authorExclude.includes(p.author));
  const slugs = strs(req.get('slug'));
  if (slugs.length) items = items.filter((p) => slugs.includes(p.slug));

  if (type === 'page' || type === 'attachment') {
    const parent = ints(req.get('parent'));
    const parentExclude = ints(req.get('parent_exclude'));
    if (req.given('parent') && parent.length) items = items.filter((p) => parent.includes(p.parent));
    if (parentExclude.length) items = items.filter((p) => !parentExclude.includes(p.parent));
    const menuOrder = req.get('menu_order');
    if (typeof menuOrder === 'number') items = items.filter((p) => p.menu_order === menuOrder);
  }
  if (type === 'attachment') {
    const mediaType = req.get('media_type');
    if (typeof mediaType === 'string') items = items.filter((p) => (p.mime_type ?? '').startsWith(`${mediaType}/`));
    const mime = req.get('mime_type');
    if (typeof mime === 'string' && mime) items = items.filter((p) => p.mime_type === mime || (p.mime_type ?? '').startsWith(`${mime}/`));
  }

  // Dates: exclusive bounds on the publication / modification date.
  const bound = (name: string, field: 'date' | 'modified', cmp: (a: number, b: number) => boolean) => {
    const v = req.get(name);
    if (typeof v !== 'string') return;
    const t = parseInputDate(v, false, gmtOffset);
    if (t !== undefined) items = items.filter((p) => cmp(p[field], t));
  };
  bound('after', 'date', (a, b) => a > b);
  bound('before', 'date', (a, b) => a < b);
  bound('modified_after', 'modified', (a, b) => a > b);
  bound('modified_before', 'modified', (a, b) => a < b);

  if (type === 'post') {
    const clauses = taxClauses(req, store);
    if (clauses.length) {
      const relation = req.get('tax_relation') === 'OR' ? 'OR' : 'AND';
      items = items.filter((p) => (relation === 'OR' ? clauses.some((c) => c.test(p)) : clauses.every((c) => c.test(p))));
    }
    const sticky = req.get('sticky');
    if (sticky === true) items = items.filter((p) => p.sticky);
    else if (sticky === false) items = items.filter((p) => !p.sticky);
  }

  let relevance: ((p: PostRecord) => number) | undefined;
  if (search !== '') {
    const columns = strs(req.get('search_columns'));
    const cols = (columns.length ? columns : ['post_title', 'post_excerpt', 'post_content']).map(
      (c) => ({ post_title: 'title', post_excerpt: 'excerpt', post_content: 'content' })[c] as 'title' | 'excerpt' | 'content',
    );
    const exact = req.get('search_semantics') === 'exact';
    const { include: terms, exclude: notTerms } = searchTerms(search);
    const has = (p: PostRecord, term: string) =>
      cols.some((c) => (exact ? p[c].toLowerCase() === term.toLowerCase() : p[c].toLowerCase().includes(term.toLowerCase())));
    items = items.filter((p) => terms.every((t) => has(p, t)) && !notTerms.some((t) => has(p, t)));
    const s = search.toLowerCase();
    relevance = (p) => {
      const title = p.title.toLowerCase();
      if (title.includes(s)) return 1;
      if (terms.every((t) => title.includes(t.toLowerCase()))) return 2;
      if (terms.some((t) => title.includes(t.toLowerCase()))) return 3;
      if (p.content.toLowerCase().includes(s)) return 4;
      return 5;
    };
  }

  const desc = req.get('order') !== 'asc';
  const dir = desc ? -1 : 1;
  const cmpStr = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);
  const byKey: Record<string, (a: PostRecord, b: PostRecord) => number> = {
    date: (a, b) => a.date - b.date,
    modified: (a, b) => a.modified - b.modified,
    id: (a, b) => a.id - b.id,
    author: (a, b) => a.author - b.author,
    parent: (a, b) => a.parent - b.parent,
    slug: (a, b) => cmpStr(a.slug, b.slug),
    title: (a, b) => cmpStr(a.title, b.title),
    menu_order: (a, b) => a.menu_order - b.menu_order,
  };
  if (orderby === 'include') items.sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
  else if (orderby === 'include_slugs') items.sort((a, b) => slugs.indexOf(a.slug) - slugs.indexOf(b.slug));
  else if (orderby === 'relevance' && relevance) {
    const r = relevance;
    items.sort((a, b) => r(a) - r(b) || b.date - a.date || b.id - a.id);
  } else {
    const cmp = byKey[orderby] ?? byKey.date!;
    // Ties are broken by ID in the same direction.
    items.sort((a, b) => dir * (cmp(a, b) || a.id - b.id));
  }

  // ignore_sticky=false: sticky posts first on the first page, unless `include` is set.
  const page = Number(req.get('page') ?? 1);
  if (type === 'post' && req.get('ignore_sticky') === false && page <= 1 && include.length === 0) {
    items = [...items.filter((p) => p.sticky), ...items.filter((p) => !p.sticky)];
  }

  const total = items.length;
  const perPage = Number(req.get('per_page') ?? 10);
  const totalPages = Math.ceil(total / perPage);
  const offset = req.get('offset');
  if (total > 0 && page > totalPages)
    return restError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  const start = typeof offset === 'number' ? offset : (page - 1) * perPage;
  return { items: items.slice(start, start + perPage), total, totalPages };
}

/** The pagination Link header: prev/next with every original query parameter kept. */
export function paginationLinks(collectionUrl: string, query: Record<string, unknown>, page: number, totalPages: number): string | undefined {
  const build = (p: number) => {
    const params: string[] = [];
    const walk = (key: string, v: unknown): void => {
      if (v === undefined || v === null) return;
      if (Array.isArray(v)) v.forEach((x, i) => walk(`${key}[${i}]`, x));
      else if (typeof v === 'object') for (const [k, x] of Object.entries(v as object)) walk(`${key}[${k}]`, x);
      else params.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
    };
    for (const [k, v] of Object.entries(query)) if (k !== 'rest_route' && k !== 'page') walk(k, v);
    params.push(`page=${p}`);
    return `${collectionUrl}&${params.join('&')}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${build(Math.min(page - 1, Math.max(totalPages, 1)))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${build(page + 1)}>; rel="next"`);
  return links.length ? links.join(', ') : undefined;
}
