/**
 * Faults in the core content namespace (cms/v2: posts, pages, revisions, autosaves, media).
 * Each breaks one documented (or WordPress) behaviour of a real target so that the suites
 * under suites/cms/ can be shown to catch it: a server that clamps per_page instead of
 * rejecting it, ignores a filter, leaks raw fields, ignores force, accepts anonymous writes ...
 *
 * Families with one fault per argument:
 * - `cms.arg-rejected.<arg>`: refuses documented values of one query argument (400);
 * - `cms.filter-ignored.<arg>`: drops one filter from post and page listings (as a server
 *   that does not implement it would).
 *
 * Faults see routes in spec names (the proxy translates through the target's profile).
 */
import { endpointById } from '../schemas/catalog/index.ts';
import { catalog } from '../schemas/catalog/index.ts';
import { routeShape } from '../schemas/route-keys.ts';
import { json, type Fault, type FaultRequest, type FaultResponse } from './proxy.ts';
import { cmsStateFaults } from './cms-state.ts';

const TYPES = ['posts', 'pages'] as const;
const COLLECTION = /^\/cms\/v2\/(posts|pages)$/;
const ITEM = /^\/cms\/v2\/(posts|pages)\/(\d+)$/;
const REVISIONS = /^\/cms\/v2\/(posts|pages)\/(\d+)\/revisions$/;
const REVISION = /^\/cms\/v2\/(posts|pages)\/(\d+)\/revisions\/(\d+)$/;
const AUTOSAVES = /^\/cms\/v2\/(posts|pages)\/(\d+)\/autosaves$/;
const AUTOSAVE = /^\/cms\/v2\/(posts|pages)\/(\d+)\/autosaves\/(\d+)$/;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const invalidParam = (name: string) => json(400, { code: 'rest_invalid_param', message: `Invalid parameter(s): ${name}`, data: { status: 400, params: { [name]: 'rejected by the fault' } } });

/** Query keys of one argument, in either form a client may send it: `a` (a comma list), `a[]` (PHP's), `a[k]`, `a[k][]` ... */
const keysOf = (q: URLSearchParams, name: string) => [...new Set([...q.keys()].filter((k) => k === name || k.startsWith(`${name}[`)))];
const has = (q: URLSearchParams, name: string) => keysOf(q, name).length > 0;
const drop = (q: URLSearchParams, name: string) => keysOf(q, name).forEach((k) => q.delete(k));
/** The values of an argument: an array argument's items whether sent as `a=1,2` or `a[]=1&a[]=2` (`a=` is one empty item, as `a[]=`). */
const valuesOf = (q: URLSearchParams, name: string) => keysOf(q, name).flatMap((k) => q.getAll(k).flatMap((v) => (ARRAY_ARGS.has(name) && k === name ? v.split(',') : [v])));

const isGet = (req: FaultRequest) => req.method === 'GET';
const contextOf = (req: FaultRequest) => req.query.get('context') ?? 'view';
/** The item(s) of a post/page response: a list's entries, a single item. */
const itemsOf = (res: FaultResponse): any[] => (Array.isArray(res.json) ? res.json : res.json && typeof res.json === 'object' && 'id' in res.json ? [res.json] : []);
const isPostTypeRead = (req: FaultRequest) => isGet(req) && (COLLECTION.test(req.route) || ITEM.test(req.route));

// ---------------------------------------------------------------------------
// Which collection query documents which argument (for the `.values` behaviour IDs)
// ---------------------------------------------------------------------------

interface QueryCollection {
  /** Behaviour ID prefix. */
  id: string;
  route: RegExp;
  args: string[];
}

const argsOf = (endpointId: string, without: string[] = []) => {
  const a = endpointById(endpointId).endpoint.args;
  return a === 'not-shown' ? [] : Object.keys(a).filter((k) => !without.includes(k));
};

const QUERY_COLLECTIONS: QueryCollection[] = [
  ...TYPES.map((t) => ({ id: `cms.${t}`, route: new RegExp(`^/cms/v2/${t}$`), args: argsOf(`cms.${t}.collection.list`) })),
  ...TYPES.map((t) => ({ id: `cms.${t}.revisions`, route: new RegExp(`^/cms/v2/${t}/\\d+/revisions$`), args: argsOf(`cms.${t}.revisions.collection.list`, ['parent']) })),
  { id: 'cms.media', route: /^\/cms\/v2\/media$/, args: argsOf('cms.media.collection.list') },
];
const ALL_ARGS = [...new Set(QUERY_COLLECTIONS.flatMap((c) => c.args))];
/** The query arguments documented as arrays (`status`, `include` ...). */
const ARRAY_ARGS = new Set(
  ['cms.posts.collection.list', 'cms.pages.collection.list', 'cms.posts.revisions.collection.list', 'cms.media.collection.list'].flatMap((id) => {
    const a = endpointById(id).endpoint.args;
    return a === 'not-shown' ? [] : Object.entries(a).filter(([, spec]) => [spec.type].flat().includes('array')).map(([n]) => n);
  }),
);
const valuesBehaviours = (arg: string) => QUERY_COLLECTIONS.filter((c) => c.args.includes(arg)).map((c) => `${c.id}.query.${arg}.values`);
const boundsBehaviours = (arg: 'per_page' | 'page') => QUERY_COLLECTIONS.filter((c) => c.args.includes(arg)).map((c) => `${c.id}.query.${arg}.bounds`);
const onQueryCollection = (req: FaultRequest, arg?: string) => isGet(req) && QUERY_COLLECTIONS.some((c) => c.route.test(req.route) && (!arg || c.args.includes(arg)));

// ---------------------------------------------------------------------------
// Query arguments: values refused, bounds, defaults
// ---------------------------------------------------------------------------

/**
 * When an argument's documented values are refused. Most refuse any value; the arguments the
 * suite also sends alongside others refuse only values the suite sends for them alone, so that
 * the fault stays about that one argument: per_page other than 1, an empty include list, a
 * search for a word without a hyphen.
 */
const REFUSED: Record<string, (values: string[]) => boolean> = {
  per_page: (v) => v.some((x) => x !== '1'),
  include: (v) => v.length === 0 || v.every((x) => x === ''),
  search: (v) => v.some((x) => !x.includes('-')),
};

const argRejected: Fault[] = ALL_ARGS.map((arg) => ({
  id: `cms.arg-rejected.${arg}`,
  title: `refuses documented values of the query argument ${arg} with 400`,
  caughtBy: valuesBehaviours(arg),
  request(req) {
    if (!onQueryCollection(req, arg) || !has(req.query, arg)) return;
    const refuse = REFUSED[arg] ?? (() => true);
    if (refuse(valuesOf(req.query, arg))) return invalidParam(arg);
  },
}));

/** Rewrite a numeric query value of collection GETs. */
function numeric(id: string, title: string, caughtBy: string[], name: string, rewrite: (n: number) => number | undefined): Fault {
  return {
    id,
    title,
    caughtBy,
    request(req) {
      if (!onQueryCollection(req)) return;
      const raw = req.query.get(name);
      if (raw === null || !/^-?\d+$/.test(raw.trim())) return;
      const out = rewrite(Number(raw));
      if (out !== undefined) req.query.set(name, String(out));
    },
  };
}

/** Add a query value to post/page (and, with `media`, media) listings that do not send the argument. */
function defaulted(id: string, title: string, caughtBy: string[], name: string, value: string, when: (req: FaultRequest) => boolean = () => true, media = false): Fault {
  return {
    id,
    title,
    caughtBy,
    request(req) {
      const listing = COLLECTION.test(req.route) || (media && req.route === '/cms/v2/media');
      if (isGet(req) && listing && !has(req.query, name) && when(req)) req.query.set(name, value);
    },
  };
}

const perType = (suffix: string) => TYPES.map((t) => `cms.${t}.${suffix}`);

const queryFaults: Fault[] = [
  ...argRejected,
  numeric('cms.per-page-clamped', 'clamps per_page into 1..100 instead of rejecting 0 and 101', [...boundsBehaviours('per_page'), ...valuesBehaviours('per_page')], 'per_page', (n) =>
    n > 100 ? 100 : n < 1 ? 1 : undefined,
  ),
  numeric('cms.page-zero-accepted', 'answers page 0 (and below) as page 1', [...boundsBehaviours('page'), ...valuesBehaviours('page')], 'page', (n) => (n < 1 ? 1 : undefined)),
  {
    id: 'cms.invalid-as-500',
    title: 'answers a rejected collection query with 500 instead of its refusal (400)',
    caughtBy: [...boundsBehaviours('per_page'), ...boundsBehaviours('page')],
    response(req, res) {
      // Whatever status the target refuses with (WordPress 400; 422 is another reading), but for credentials.
      if (onQueryCollection(req) && res.status >= 400 && res.status < 500 && ![401, 403, 404].includes(res.status)) res.status = 500;
    },
  },
  defaulted(
    'cms.per-page-default-ignored',
    'lists 100 items when per_page is not given (documented default 10)',
    [...perType('query.per_page.default'), 'cms.media.query.per_page.default'],
    'per_page',
    '100',
    () => true,
    true,
  ),
  defaulted('cms.order-default-asc', 'orders ascending when order is not given (documented default desc)', perType('query.order.default'), 'order', 'asc'),
  defaulted('cms.status-default-any', 'lists every status when status is not given (documented default publish)', perType('query.status.default'), 'status', 'any', (req) => req.authenticated),
  defaulted('cms.page-default-second', 'serves page 2 when page is not given (documented default 1)', perType('query.page.default'), 'page', '2'),
];

// ---------------------------------------------------------------------------
// Filters ignored
// ---------------------------------------------------------------------------

/** Filter behaviours that fail when the argument is ignored (posts and pages where documented). */
const FILTER_BEHAVIOURS: Record<string, string[]> = {
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

/** posts have no parent field: orderby=parent on posts keeps any order (caught by cms.orderby-rejected instead). */
const NOT_FOR: Record<string, string[]> = { 'filter.orderby.parent': ['posts'] };

function documentedFor(type: (typeof TYPES)[number], arg: string, behaviour: string): boolean {
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

const filterFaults: Fault[] = [
  ...filterIgnored,
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
    caughtBy: ['cms.posts.filter.orderby.author', 'cms.pages.filter.orderby.author', 'cms.posts.filter.orderby.parent'],
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route) && ['author', 'parent'].includes(req.query.get('orderby') ?? '')) return invalidParam('orderby');
    },
  },
];

// ---------------------------------------------------------------------------
// Contexts
// ---------------------------------------------------------------------------

/** Change every post/page item of a read's answer. */
function itemRewrite(id: string, title: string, caughtBy: string[], when: (req: FaultRequest) => boolean, edit: (item: any) => void, request?: Fault['request']): Fault {
  return {
    id,
    title,
    caughtBy,
    request,
    response(req, res) {
      if (isPostTypeRead(req) && res.status === 200 && when(req)) for (const item of itemsOf(res)) if (item && typeof item === 'object') edit(item);
    },
  };
}

const contextFaults: Fault[] = [
  itemRewrite('cms.raw-in-view', 'adds title.raw to items outside the edit context', [...perType('context.view'), ...perType('context.default')], (req) => contextOf(req) === 'view', (item) => {
    if (item.title && typeof item.title === 'object') item.title.raw = item.title.rendered;
  }),
  itemRewrite('cms.content-in-embed', 'serves content.rendered in the embed context', perType('context.embed'), (req) => contextOf(req) === 'embed', (item) => {
    item.content = { rendered: '<p>content</p>', protected: false };
  }),
  itemRewrite('cms.raw-missing-in-edit', 'leaves content.raw out of the edit context', perType('context.edit'), (req) => contextOf(req) === 'edit', (item) => {
    if (item.content && typeof item.content === 'object') delete item.content.raw;
  }),
  itemRewrite('cms.author-field-dropped', 'leaves the author field out of every item', [...perType('context.view.fields'), ...perType('context.embed.fields'), ...perType('context.edit.fields')], () => true, (item) => {
    delete item.author;
  }),
  // One field of the wrong type in every post (the integer author as a string): only the context
  // behaviours of posts own the field types, so only they may fail (not every filter and query).
  itemRewrite('cms.post-field-wrong-type', 'serves the author of every post as a string ("1"), not an integer', ['cms.posts.context.view', 'cms.posts.context.embed', 'cms.posts.context.default', 'cms.posts.context.edit'], (req) => /^\/cms\/v2\/posts(\/\d+)?$/.test(req.route), (item) => {
    if (typeof item.author === 'number') item.author = String(item.author);
  }),
  {
    id: 'cms.default-context-edit',
    title: 'answers authenticated reads without context in the edit context',
    caughtBy: perType('context.default'),
    request(req) {
      if (isPostTypeRead(req) && req.authenticated && !req.query.has('context')) req.query.set('context', 'edit');
    },
  },
];

// ---------------------------------------------------------------------------
// Authentication (anonymous requests let through as authenticated)
// ---------------------------------------------------------------------------

/** Authorization headers the target accepted on cms routes (the same target across runs). */
const accepted = new Set<string>();
function learn(req: FaultRequest, res: FaultResponse): void {
  const a = req.headers.authorization;
  if (typeof a === 'string' && res.status < 400 && req.route.startsWith('/cms/v2')) accepted.add(a);
}
function authenticate(req: FaultRequest): void {
  const good = accepted.values().next().value;
  if (good && !req.authenticated) req.headers.authorization = good;
}

const authFaults: Fault[] = [
  {
    id: 'cms.anonymous-write-accepted',
    title: 'lets anonymous writes to posts and pages (create, update, delete, autosave, revision delete) through',
    caughtBy: [...perType('auth.create'), ...perType('auth.update'), ...perType('auth.delete'), ...perType('auth.autosave'), ...perType('auth.revision-delete')],
    request(req) {
      if (req.authenticated || !WRITES.has(req.method) || !req.route.startsWith('/cms/v2/')) return;
      // WordPress refuses revision deletion even to an administrator: answer as a server that deletes.
      if (req.method === 'DELETE' && REVISION.test(req.route)) return json(200, { deleted: true, previous: { id: Number(REVISION.exec(req.route)![3]) } });
      authenticate(req);
    },
    response: learn,
  },
  {
    id: 'cms.edit-context-anonymous',
    title: 'serves context=edit to anonymous readers',
    caughtBy: perType('auth.edit-context'),
    request(req) {
      if (isPostTypeRead(req) && contextOf(req) === 'edit') authenticate(req);
    },
    response: learn,
  },
  {
    id: 'cms.status-listed-anonymously',
    title: 'lists and serves non-public posts and pages to anonymous readers',
    caughtBy: perType('auth.status'),
    request(req) {
      if (isPostTypeRead(req) && (has(req.query, 'status') || ITEM.test(req.route))) authenticate(req);
    },
    response: learn,
  },
];

// ---------------------------------------------------------------------------
// Writes: statuses, create, update, password
// ---------------------------------------------------------------------------

const WRITE_STATUSES = new Set<string>(catalog.statuses.write);
const FILTER_ONLY = new Set<string>(catalog.statuses.filterOnly);
const isWrite = (req: FaultRequest) => (req.method === 'POST' && COLLECTION.test(req.route)) || (['POST', 'PUT', 'PATCH'].includes(req.method) && ITEM.test(req.route));

function bodyRewrite(id: string, title: string, caughtBy: string[], when: (req: FaultRequest) => boolean, edit: (body: any, req: FaultRequest) => void | FaultResponse): Fault {
  return {
    id,
    title,
    caughtBy,
    request(req) {
      if (when(req) && req.json && typeof req.json === 'object') return edit(req.json, req);
    },
  };
}

const writeFaults: Fault[] = [
  bodyRewrite('cms.trash-status-accepted', 'accepts the filter-only statuses (trash, inherit ...) on write, storing a draft', perType('write.status.filter-only'), isWrite, (body) => {
    if (FILTER_ONLY.has(body.status)) body.status = 'draft';
  }),
  bodyRewrite('cms.unknown-status-accepted', 'accepts an unknown status on write, storing a draft', perType('write.status.unknown'), isWrite, (body) => {
    if (typeof body.status === 'string' && !WRITE_STATUSES.has(body.status) && !FILTER_ONLY.has(body.status)) body.status = 'draft';
  }),
  bodyRewrite('cms.pending-stored-as-draft', 'stores status pending as draft', perType('write.statuses'), isWrite, (body) => {
    if (body.status === 'pending') body.status = 'draft';
  }),
  bodyRewrite(
    'cms.title-required',
    'refuses to create an item without a title',
    [...perType('create.optional-fields'), 'cms.pages.create.slug-only'],
    (req) => req.method === 'POST' && COLLECTION.test(req.route),
    (body) => (body.title === undefined ? invalidParam('title') : undefined),
  ),
  bodyRewrite(
    'cms.empty-post-refused',
    'refuses to create a post whose title, content and excerpt are all empty (as WordPress does)',
    ['cms.posts.create.slug-only'],
    (req) => req.method === 'POST' && req.route === '/cms/v2/posts',
    (body) =>
      [body.title, body.content, body.excerpt].every((v) => v === undefined || v === '' || (v && typeof v === 'object' && !v.raw))
        ? json(400, { code: 'empty_content', message: 'Content, title, and excerpt are empty.', data: { status: 400 } })
        : undefined,
  ),
  ...(['POST', 'PUT', 'PATCH'] as const).map((method) =>
    bodyRewrite(
      `cms.update-ignored.${method.toLowerCase()}`,
      `answers ${method} updates that change only the title with 200 without applying them`,
      perType(`update.${method.toLowerCase()}`),
      (req) => req.method === method && ITEM.test(req.route),
      (body, req) => (Object.keys(body).join() === 'title' ? json(200, { id: Number(ITEM.exec(req.route)![2]) }) : undefined),
    ),
  ),
  bodyRewrite('cms.update-clears-content', 'empties content and excerpt on updates that do not send them', perType('update.partial'), (req) => ['POST', 'PUT', 'PATCH'].includes(req.method) && ITEM.test(req.route), (body) => {
    // In the form the request writes its title (the documented object, or WordPress's bare string).
    const empty = typeof body.title === 'string' ? '' : { raw: '' };
    if (body.content === undefined) body.content = empty;
    if (body.excerpt === undefined) body.excerpt = empty;
  }),
  // The fixtures of password.protects and password.query verify themselves (src/sdk/fixtures.ts): those
  // skip, depending on fields.create-stored, which owns "create stores the password".
  bodyRewrite('cms.password-dropped', 'ignores the password of posts and pages on write', [...perType('fields.create-stored'), ...perType('fields.update-stored')], isWrite, (body) => {
    delete body.password;
  }),
  {
    id: 'cms.password-query-ignored',
    title: 'ignores the password query argument of a single GET',
    caughtBy: perType('password.query'),
    request(req) {
      if (isGet(req) && ITEM.test(req.route)) req.query.delete('password');
    },
  },
];

// ---------------------------------------------------------------------------
// Deletion, revisions, autosaves
// ---------------------------------------------------------------------------

const forceOf = (req: FaultRequest) => ['true', '1'].includes((req.query.get('force') ?? '').toLowerCase());
/** Items whose forced DELETE the fault already turned into a trash (only the first one is). */
const trashedOnce = new Set<string>();

const deleteFaults: Fault[] = [
  {
    id: 'cms.delete-without-force-permanent',
    title: 'deletes posts and pages for good on DELETE without force',
    caughtBy: perType('delete.trash'),
    request(req) {
      if (req.method === 'DELETE' && ITEM.test(req.route) && !forceOf(req)) req.query.set('force', 'true');
    },
  },
  {
    id: 'cms.delete-force-ignored',
    title: 'moves posts and pages to the trash on DELETE with force=true',
    caughtBy: perType('delete.force'),
    request(req) {
      if (req.method !== 'DELETE' || !ITEM.test(req.route) || !forceOf(req) || trashedOnce.has(req.route)) return;
      // Once per item: the suite's own cleanup (a second forced DELETE) still deletes it.
      trashedOnce.add(req.route);
      req.query.delete('force');
    },
  },
  {
    id: 'cms.revision-delete-without-force-accepted',
    title: 'deletes a revision on DELETE without force=true',
    caughtBy: perType('revisions.delete.without-force'),
    request(req) {
      if (req.method === 'DELETE' && REVISION.test(req.route) && !forceOf(req)) return json(200, { deleted: true, previous: { id: Number(REVISION.exec(req.route)![3]) } });
    },
  },
  {
    id: 'cms.revision-delete-force-ignored',
    title: 'answers DELETE ?force=true on a revision with success but keeps the revision',
    caughtBy: perType('revisions.delete.force'),
    request(req) {
      if (req.method === 'DELETE' && REVISION.test(req.route) && forceOf(req)) return json(200, { deleted: true, previous: { id: Number(REVISION.exec(req.route)![3]) } });
    },
  },
  {
    id: 'cms.revision-not-created',
    title: 'makes no revision on update (the newest revision never shows in the list)',
    caughtBy: perType('revisions.created-on-update'),
    response(req, res) {
      if (isGet(req) && REVISIONS.test(req.route) && Array.isArray(res.json) && res.json.length) res.json.shift();
    },
  },
  {
    id: 'cms.revision-parent-wrong',
    title: 'gives revisions the wrong parent',
    caughtBy: perType('revisions.parent'),
    response(req, res) {
      if (!isGet(req) || !(REVISIONS.test(req.route) || REVISION.test(req.route)) || res.status !== 200) return;
      for (const r of Array.isArray(res.json) ? res.json : [res.json]) if (r && typeof r.parent === 'number') r.parent += 1;
    },
  },
  {
    id: 'cms.revision-any-parent',
    title: 'serves a revision under any parent',
    caughtBy: perType('revisions.wrong-parent'),
    response(req, res) {
      const m = REVISION.exec(req.route);
      if (isGet(req) && m && res.status >= 400 && res.status < 500) {
        res.status = 200;
        res.json = { id: Number(m[3]), parent: Number(m[2]) };
      }
    },
  },
  {
    id: 'cms.autosave-not-own',
    title: 'answers an autosave with its parent id instead of its own',
    caughtBy: perType('autosaves.create'),
    response(req, res) {
      const m = AUTOSAVES.exec(req.route);
      if (req.method === 'POST' && m && res.json && typeof res.json === 'object') res.json.id = Number(m[2]);
    },
  },
  {
    id: 'cms.autosave-not-listed',
    title: 'lists no autosaves',
    caughtBy: perType('autosaves.list'),
    response(req, res) {
      if (isGet(req) && AUTOSAVES.test(req.route) && res.status === 200) res.json = [];
    },
  },
  {
    id: 'cms.autosave-not-found',
    title: 'answers 404 for an existing autosave',
    caughtBy: perType('autosaves.read'),
    request(req) {
      if (isGet(req) && AUTOSAVE.test(req.route)) return json(404, { code: 'rest_post_no_autosave', message: 'There is no autosave revision for this post.', data: { status: 404 } });
    },
  },
  {
    id: 'cms.autosave-overwrites',
    title: 'applies an autosave of a published item to the item itself',
    caughtBy: perType('autosaves.parent-unchanged'),
    request(req) {
      const m = AUTOSAVES.exec(req.route);
      if (req.method === 'POST' && m) req.route = `/cms/v2/${m[1]}/${m[2]}`;
    },
  },
];

// ---------------------------------------------------------------------------
// Writable fields one by one (suites/cms/lib/write-fields.ts)
// ---------------------------------------------------------------------------

const OPEN_CLOSED = ['open', 'closed'];
const FORMATS: readonly string[] = (endpointById('cms.posts.collection.create').endpoint.args as Record<string, any>).format.enum;
const isFieldWrite = (req: FaultRequest) => isWrite(req) || (req.method === 'POST' && AUTOSAVES.test(req.route));

/** Slugs asked for that the target made unique (item id → the slug sent), to answer them back as sent. */
const askedSlugs = new Map<string, string>();

const fieldFaults: Fault[] = [
  bodyRewrite(
    'cms.write-field-dropped.comment_status',
    'ignores comment_status on create and update (its documented values are not stored)',
    [...perType('fields.create-stored'), ...perType('fields.update-stored'), ...perType('fields.enum-values')],
    isWrite,
    (body) => {
      if (OPEN_CLOSED.includes(body.comment_status)) delete body.comment_status;
    },
  ),
  bodyRewrite(
    'cms.field-values-unchecked',
    'accepts comment_status, ping_status and format outside their documented values, and integers, booleans and dates of the wrong type (ignoring them)',
    [...perType('fields.invalid-refused'), ...perType('autosaves.fields')],
    isFieldWrite,
    (body) => {
      for (const k of ['comment_status', 'ping_status']) if (k in body && !OPEN_CLOSED.includes(body[k])) delete body[k];
      if ('format' in body && !FORMATS.includes(body.format)) delete body.format;
      for (const k of ['author', 'featured_media', 'menu_order', 'parent']) if (typeof body[k] === 'string') delete body[k];
      if (typeof body.sticky === 'string') delete body.sticky;
      for (const k of ['date', 'date_gmt']) if (typeof body[k] === 'string' && Number.isNaN(Date.parse(body[k]))) delete body[k];
      for (const k of ['categories', 'tags']) if (Array.isArray(body[k]) && body[k].some((x: unknown) => typeof x !== 'number')) delete body[k];
      for (const k of ['slug', 'password']) if (Array.isArray(body[k])) delete body[k];
      if (typeof body.meta === 'string') delete body.meta;
    },
  ),
  {
    id: 'cms.footnotes-default-missing',
    title: 'answers meta.footnotes as null when it was never written (no default)',
    caughtBy: perType('fields.footnotes-default'),
    response(req, res) {
      if (!isGet(req)) return;
      for (const item of itemsOf(res)) if (item?.meta && item.meta.footnotes === '') item.meta.footnotes = null;
    },
  },
  {
    id: 'cms.slug-not-unique',
    title: 'gives an item the slug it was sent on create even when another item of the type has it (and as sent, accented letters and all)',
    caughtBy: [...perType('fields.slug-unique'), ...perType('fields.slug-unique-draft'), ...perType('fields.slug-alphanumeric')],
    response(req, res) {
      const item = res.json;
      if (!item || typeof item !== 'object' || typeof item.id !== 'number') return;
      const key = `${req.route.split('/')[3]}/${item.id}`;
      if (req.method === 'POST' && COLLECTION.test(req.route) && typeof req.json?.slug === 'string' && item.slug !== req.json.slug) askedSlugs.set(key, req.json.slug);
      const asked = askedSlugs.get(key);
      if (asked !== undefined) item.slug = asked;
    },
  },
  {
    id: 'cms.excerpt-length-ignored',
    title: 'ignores excerpt_length on the single GET',
    caughtBy: perType('read.excerpt-length'),
    request(req) {
      if (isGet(req) && ITEM.test(req.route)) req.query.delete('excerpt_length');
    },
  },
  {
    id: 'cms.non-decimal-id-routed',
    title: 'answers a route whose identifier segment is not a decimal integer as if it named an item',
    caughtBy: perType('route-params.integer'),
    request(req) {
      if (/^\/cms\/v2\/(posts|pages)\/(.+\/)?abc(\/|$)/.test(req.route)) return json(200, { id: 0, parent: 0 });
    },
  },
  {
    id: 'cms.subroute-context-unchecked',
    title: 'accepts any context on revision and autosave reads (answering as view)',
    caughtBy: [...perType('revisions.read.context'), ...perType('autosaves.list.context'), ...perType('autosaves.read.context')],
    request(req) {
      if (isGet(req) && (REVISION.test(req.route) || AUTOSAVES.test(req.route) || AUTOSAVE.test(req.route)) && !['view', 'embed', 'edit'].includes(contextOf(req))) req.query.delete('context');
    },
  },
  {
    id: 'cms.revisions-order-default-asc',
    title: 'lists revisions oldest first when order is omitted (documented default desc)',
    caughtBy: perType('revisions.query.defaults'),
    request(req) {
      if (isGet(req) && REVISIONS.test(req.route) && !req.query.has('order')) req.query.set('order', 'asc');
    },
  },
  {
    id: 'cms.sticky-first-by-default',
    title: 'moves sticky posts to the front of post lists unless ignore_sticky is given (default false)',
    caughtBy: ['cms.posts.query.ignore_sticky.default'],
    request(req) {
      if (isGet(req) && req.route === '/cms/v2/posts' && !req.query.has('ignore_sticky')) req.query.set('ignore_sticky', 'false');
    },
  },
  {
    id: 'cms.error-body-bare',
    title: 'answers refusals on posts with a bare {"error": ...} body (no code, message or data.status)',
    caughtBy: ['cms.errors.body-shape'],
    response(req, res) {
      if (res.status >= 400 && req.route.startsWith('/cms/v2/')) res.json = { error: String(res.json?.message ?? 'refused') };
    },
  },
  {
    id: 'cms.pagination-total-wrong',
    title: 'answers X-WP-Total as the number of items on the page, not in the collection',
    caughtBy: perType('pagination.headers'),
    response(req, res) {
      if (isGet(req) && COLLECTION.test(req.route) && Array.isArray(res.json) && 'x-wp-total' in res.headers) res.headers['x-wp-total'] = String(res.json.length);
    },
  },
];

// ---------------------------------------------------------------------------
// Issue 26: a context's declared title dropped; slugs that are not unique (a separate block)
// ---------------------------------------------------------------------------

/** Update requests that asked for a slug the stored item did not get: `<type>/<id>` -> the slug asked. */
const updateAskedSlugs = new Map<string, string>();

export const issue26Faults: Fault[] = [
  // The embed context declares title.rendered (part 2): a server that leaves title out of embed
  // answers fails the MUST context checks, not only the SHOULD field sets.
  itemRewrite('cms.title-dropped-in-embed', 'leaves the title out of embed answers', perType('context.embed'), (req) => isPostTypeRead(req) && contextOf(req) === 'embed', (item) => {
    delete item.title;
  }),
  {
    id: 'cms.slug-echoed-on-create',
    title: 'answers a create with the slug it was sent although another item of the type holds it (the stored item has another slug)',
    caughtBy: perType('fields.slug-unique'),
    response(req, res) {
      if (req.method !== 'POST' || !COLLECTION.test(req.route) || typeof req.json?.slug !== 'string') return;
      if (res.json && typeof res.json === 'object' && typeof res.json.id === 'number' && typeof res.json.slug === 'string') res.json.slug = req.json.slug;
    },
  },
  {
    id: 'cms.slug-not-unique-on-update',
    title: 'gives an item the slug an update sent even when another item of the type holds it (answered and read back)',
    caughtBy: perType('fields.slug-unique-update'),
    response(req, res) {
      const item = res.json;
      if (!item || typeof item !== 'object' || Array.isArray(item) || typeof item.id !== 'number') return;
      const key = `${req.route.split('/')[3]}/${item.id}`;
      if (WRITES.has(req.method) && req.method !== 'DELETE' && ITEM.test(req.route) && typeof req.json?.slug === 'string' && item.slug !== req.json.slug) updateAskedSlugs.set(key, req.json.slug);
      const asked = updateAskedSlugs.get(key);
      if (asked !== undefined && typeof item.slug === 'string') item.slug = asked;
    },
  },
];

// ---------------------------------------------------------------------------
// Deviations (issue 25): one broken thing of a server, shown to fail its own behaviours and at
// most three others (the fixtures the other behaviours rely on are checked when they are made,
// and a fixture found through a filter depends on that filter's behaviour).
// ---------------------------------------------------------------------------

/** Rewrite the advertised args of the post and page endpoints in the site index (GET /). */
function advertisedArgs(req: FaultRequest, res: FaultResponse, edit: (args: Record<string, any>, specRoute: string, methods: string[]) => void): void {
  if (req.route !== '/' || !isGet(req) || !res.json?.routes) return;
  for (const [key, entry] of Object.entries<any>(res.json.routes)) {
    const spec = routeShape(req.profile.toSpecRoute(key));
    if (!/^\/cms\/v2\/(posts|pages)(\/|$)/.test(spec)) continue;
    for (const e of entry?.endpoints ?? []) if (e?.args && typeof e.args === 'object') edit(e.args, spec, e.methods ?? []);
  }
}

/** An item's meta without footnotes: what a server that does not register the key answers (PHP's empty array is []). */
function withoutFootnotes(meta: unknown): unknown {
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return meta;
  const { footnotes: _, ...rest } = meta as Record<string, unknown>;
  return Object.keys(rest).length ? rest : [];
}

/** A query argument a server neither advertises nor honours, on post and page listings. */
function argUnsupported(arg: string): Fault {
  return {
    id: `cms.arg-unsupported.${arg}`,
    title: `neither advertises nor honours the ${arg} argument of post and page listings (any value accepted and ignored)`,
    caughtBy: [
      ...TYPES.filter((t) => argsOf(`cms.${t}.collection.list`).includes(arg)).flatMap((t) => [`disc.args.cms.${t}.collection.list.${arg}`, `cms.${t}.query.${arg}.values`, ...(FILTER_BEHAVIOURS[arg] ?? []).filter((b) => documentedFor(t, arg, b)).map((b) => `cms.${t}.${b}`)]),
    ],
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route)) drop(req.query, arg);
    },
    response(req, res) {
      advertisedArgs(req, res, (args, route, methods) => {
        if (/^\/cms\/v2\/(posts|pages)$/.test(route) && methods.includes('GET')) delete args[arg];
      });
    },
  };
}

const deviationFaults: Fault[] = [
  // A server without autosaves (issue 34): a documented route missing is one deviation of that
  // route (disc.route.*); every behaviour that needs it skips, naming it (src/sdk/behaviour.ts).
  {
    id: 'cms.autosaves-missing',
    title: 'has no autosave routes: neither advertised in the index nor served (404 rest_no_route)',
    caughtBy: TYPES.flatMap((t) => [`disc.route.cms.${t}.autosaves.collection`, `disc.route.cms.${t}.autosaves.item`]),
    request(req) {
      if (AUTOSAVES.test(req.route) || AUTOSAVE.test(req.route)) return json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    },
    response(req, res) {
      if (req.method !== 'GET' || (req.route !== '/' && req.route !== '/cms/v2') || !res.json?.routes) return;
      for (const key of Object.keys(res.json.routes)) if (/\/autosaves/.test(req.profile.toSpecRoute(key))) delete res.json.routes[key];
    },
  },
  // orderby=date, now that an ignored order makes filter.orderby.date skip (depending on filter.order).
  {
    id: 'cms.orderby-date-as-id',
    title: 'orders post and page listings by id when orderby=date is asked for',
    caughtBy: perType('filter.orderby.date'),
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route) && req.query.get('orderby') === 'date') req.query.set('orderby', 'id');
    },
  },
  // password.protected-flag, without touching what is stored (cms.password-dropped now fails the owner
  // of "create stores the password", and the password behaviours skip, depending on it).
  itemRewrite('cms.protected-flag-dropped', 'answers anonymous reads of a password-protected post or page with content.protected and excerpt.protected false', perType('password.protected-flag'), (req) => !req.authenticated, (item) => {
    for (const k of ['content', 'excerpt']) if (item[k] && typeof item[k] === 'object' && item[k].protected === true) item[k].protected = false;
  }),
  // A create that ignores status: every new post or page is a draft (WordPress's default).
  // Owner: write.statuses (create stores every write status); every other behaviour's fixtures are
  // checked when made (src/sdk/fixtures.ts verifyStored), so those skip, depending on it.
  bodyRewrite(
    'cms.create-ignores-status',
    'ignores status on create: every new post or page is a draft',
    perType('write.statuses'),
    (req) => req.method === 'POST' && COLLECTION.test(req.route),
    (body) => {
      delete body.status;
    },
  ),
  // A server without the block editor's footnotes meta key: it is neither advertised, stored nor
  // answered (meta answers []).
  {
    id: 'cms.footnotes-missing',
    title: 'has no footnotes meta key: meta answers [], writes of meta.footnotes are ignored, the key is not advertised',
    caughtBy: [...perType('fields.footnotes-default'), ...perType('fields.create-stored'), ...perType('fields.update-stored'), ...TYPES.flatMap((t) => [`disc.args.cms.${t}.collection.create.meta`, `disc.args.cms.${t}.item.update.meta`, `disc.args.cms.${t}.autosaves.collection.create.meta`])],
    request(req) {
      if (!isFieldWrite(req) || !req.json || typeof req.json !== 'object') return;
      const meta = req.json.meta;
      if (meta && typeof meta === 'object' && !Array.isArray(meta) && 'footnotes' in meta) {
        delete meta.footnotes;
        if (!Object.keys(meta).length) delete req.json.meta;
      }
    },
    response(req, res) {
      for (const item of itemsOf(res)) if (item && typeof item === 'object' && 'meta' in item) item.meta = withoutFootnotes(item.meta);
      advertisedArgs(req, res, (args) => {
        const props = args.meta?.properties;
        if (props && typeof props === 'object') delete props.footnotes;
      });
    },
  },
  argUnsupported('format'),
  // An update method that answers 200 with the item as it was and stores nothing.
  ...(['PUT', 'PATCH'] as const).map(
    (method): Fault => ({
      id: `cms.update-stores-nothing.${method.toLowerCase()}`,
      title: `answers ${method} on a post or page with 200 and the item as it was, storing nothing`,
      caughtBy: [
        ...perType(`update.${method.toLowerCase()}`),
        // The behaviours that update by PATCH (enum values stored; invalid values refused).
        ...(method === 'PATCH' ? [...perType('fields.enum-values'), ...perType('fields.invalid-refused')] : []),
      ],
      request(req) {
        if (req.method === method && ITEM.test(req.route) && req.json && typeof req.json === 'object') req.json = {};
      },
    }),
  ),
];

export const cmsFaults: Fault[] = [...queryFaults, ...filterFaults, ...contextFaults, ...authFaults, ...writeFaults, ...deleteFaults, ...fieldFaults, ...issue26Faults, ...deviationFaults, ...cmsStateFaults];
