/**
 * Faults of the writable fields, one by one (suites/cms/lib/write-fields.ts), and of the fields
 * issue 26 added (a context's declared title, slugs that are not unique).
 */
import { endpointById } from '../../schemas/catalog/index.ts';
import { json, type Fault, type FaultRequest } from '../proxy.ts';
import {
  AUTOSAVE,
  AUTOSAVES,
  COLLECTION,
  contextOf,
  isGet,
  isPostTypeRead,
  ITEM,
  itemsOf,
  perType,
  REVISION,
  REVISIONS,
  WRITES,
  isItemWrite,
} from './common.ts';
import { itemRewrite } from './context.ts';
import { bodyRewrite } from './writes.ts';

const OPEN_CLOSED = ['open', 'closed'];
const FORMATS: readonly string[] = (endpointById('cms.posts.collection.create').endpoint.args as Record<string, any>).format.enum;
export const isFieldWrite = (req: FaultRequest) => isItemWrite(req) || (req.method === 'POST' && AUTOSAVES.test(req.route));

/** Slugs asked for that the target made unique (item id → the slug sent), to answer them back as sent. */
const askedSlugs = new Map<string, string>();

export const fieldFaults: Fault[] = [
  bodyRewrite(
    'cms.write-field-dropped.comment_status',
    'ignores comment_status on create and update (its documented values are not stored)',
    [...perType('fields.create-stored'), ...perType('fields.update-stored'), ...perType('fields.enum-values'), 'cms.pages.fields.enum-values-on-create'],
    isItemWrite,
    (body) => {
      if (OPEN_CLOSED.includes(body.comment_status)) delete body.comment_status;
    },
  ),
  bodyRewrite(
    'cms.create-format-dropped',
    'stores only format aside given on create: every other documented format is dropped (the post is standard)',
    ['cms.posts.fields.enum-values-on-create'],
    (req) => req.method === 'POST' && req.route === '/cms/v2/posts',
    (body) => {
      if (FORMATS.includes(body.format) && body.format !== 'aside') delete body.format;
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
  // orderby's values on revision lists (issue 40): ignored as a server that does not know them.
  {
    id: 'cms.revisions-orderby-id-default-order',
    title: 'answers revision lists with orderby=id in the default order (newest first), whatever order says',
    caughtBy: perType('revisions.filter.orderby.id'),
    request(req) {
      if (isGet(req) && REVISIONS.test(req.route) && req.query.get('orderby') === 'id') for (const k of ['orderby', 'order']) req.query.delete(k);
    },
  },
  {
    id: 'cms.revisions-orderby-include-ignored',
    title: 'ignores orderby=include on revision lists (they come newest first)',
    caughtBy: perType('revisions.filter.orderby.include'),
    request(req) {
      if (isGet(req) && REVISIONS.test(req.route) && req.query.get('orderby') === 'include') req.query.delete('orderby');
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

