/**
 * Faults a team writing its own server makes where filters meet, where a bound is met exactly and
 * where a read path was forgotten (issue 40): each correct for every documented item alone at
 * comfortable values, each against a sentence the spec states. Caught by the collection filters
 * checked against a model (suites/cms/lib/filters.ts) and by the anonymous read paths
 * (suites/cms/read-paths.spec.ts).
 */
import { learnedCredentials } from '../kit.ts';
import { json, type Fault, type FaultRequest } from '../proxy.ts';
import { COLLECTION, ITEM, TYPES, drop, has, isGet, perType, valuesOf } from './common.ts';

const credentials = learnedCredentials('/cms/v2');
const isRead = (req: FaultRequest) => isGet(req) && (COLLECTION.test(req.route) || ITEM.test(req.route));

/** A date-time moved by `ms`, written as it was (its wall clock and zone); undefined: not a date-time. */
function shifted(value: string, ms: number): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(value.trim());
  if (!m) return undefined;
  const wall = Date.parse(`${m[1]}T${m[2]}${m[3] ?? ''}Z`) + ms;
  if (!Number.isFinite(wall)) return undefined;
  const iso = new Date(wall).toISOString();
  return `${iso.slice(0, 19)}${m[3] ? iso.slice(19, 19 + m[3].length) : ''}${m[4] ?? ''}`;
}

/** The key a list is put in order by, as the items of an answer carry it. */
function keyOf(item: any, orderby: string, req: FaultRequest): string | number {
  const text = (v: any) => String(v?.rendered ?? v ?? '').toLowerCase();
  switch (orderby) {
    case 'id':
    case 'author':
    case 'parent':
    case 'menu_order':
      return Number(item?.[orderby] ?? 0);
    case 'title':
      return text(item?.title);
    case 'slug':
      return String(item?.slug ?? '');
    case 'modified':
      return Date.parse(`${String(item?.modified_gmt ?? item?.modified ?? '')}Z`) || 0;
    case 'include':
      return valuesOf(req.query, 'include').indexOf(String(item?.id));
    case 'include_slugs':
      return valuesOf(req.query, 'slug').indexOf(String(item?.slug));
    case 'relevance':
      return text(item?.title).includes(String(req.query.get('search') ?? '').toLowerCase()) ? 0 : 1;
    default:
      return Date.parse(`${String(item?.date_gmt ?? item?.date ?? '')}Z`) || 0;
  }
}

const cutBeforeSort = (): Fault => {
  const asked = new WeakMap<FaultRequest, { orderby: string; desc: boolean }>();
  return {
    id: 'cms.page-cut-before-sort',
    title: 'takes the page of a post or page listing in the default order (newest first) and only then puts that page in the order asked for',
    // Every orderby value whose order a page of two can show on these fixtures (an author is every item's, posts have no parent).
    caughtBy: TYPES.flatMap((t) => ['date', 'id', 'include', 'include_slugs', 'modified', 'relevance', 'slug', 'title', ...(t === 'pages' ? ['menu_order', 'parent'] : [])].map((v) => `cms.${t}.filter.orderby.${v}`)),
    request(req) {
      if (!isGet(req) || !COLLECTION.test(req.route) || (!has(req.query, 'orderby') && !has(req.query, 'order'))) return;
      const orderby = req.query.get('orderby') ?? 'date';
      asked.set(req, { orderby, desc: !['include', 'include_slugs', 'relevance'].includes(orderby) && req.query.get('order') !== 'asc' });
      drop(req.query, 'orderby');
      drop(req.query, 'order');
    },
    response(req, res) {
      const a = asked.get(req);
      if (!a || !Array.isArray(res.json)) return;
      const dir = a.desc ? -1 : 1;
      res.json = [...res.json].sort((x, y) => {
        const [p, q] = [keyOf(x, a.orderby, req), keyOf(y, a.orderby, req)];
        return dir * (p < q ? -1 : p > q ? 1 : 0);
      });
    },
  };
};

/** The items of an answer the excerpt fault rewrites: the list's, or the single item. */
const itemsIn = (body: any): any[] => (Array.isArray(body) ? body : body && typeof body === 'object' && 'id' in body ? [body] : []);
const EDIT_ONLY = ['password', 'permalink_template', 'generated_slug'];

export const combinationFaults: Fault[] = [
  {
    id: 'cms.exclude-ignored-with-include',
    title: 'ignores exclude on post and page listings whenever include is given',
    caughtBy: perType('filter.include-exclude'),
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route) && has(req.query, 'include')) drop(req.query, 'exclude');
    },
  },
  {
    id: 'cms.date-bounds-inclusive',
    title: 'lists items published (or modified) at the very second after, before, modified_after and modified_before name (>= and <= instead of after and before)',
    caughtBy: TYPES.flatMap((t) => ['after', 'before', 'modified_after', 'modified_before'].map((b) => `cms.${t}.filter.${b}`)),
    request(req) {
      if (!isGet(req) || !COLLECTION.test(req.route)) return;
      for (const [name, ms] of [['after', -1000], ['modified_after', -1000], ['before', 1000], ['modified_before', 1000]] as const) {
        const v = req.query.get(name);
        const moved = v === null ? undefined : shifted(v, ms);
        if (moved) req.query.set(name, moved);
      }
    },
  },
  cutBeforeSort(),
  {
    id: 'cms.excerpt-length-unprotected',
    title: 'builds the excerpt of a password-protected post or page without the password check when excerpt_length is given (anonymous readers get it)',
    caughtBy: perType('auth.read-paths'),
    request(req) {
      if (req.authenticated || !isRead(req) || !has(req.query, 'excerpt_length')) return;
      credentials.authenticate(req);
      if (!req.authenticated && !req.headers.authorization) return;
      req.query.set('context', 'edit');
      (req as FaultRequest & { excerptFault?: boolean }).excerptFault = true;
    },
    response(req, res) {
      credentials.learn(req, res);
      if (!(req as FaultRequest & { excerptFault?: boolean }).excerptFault) return;
      // Nothing else of what the credentials read: no item that is not published, no raw field.
      if (!Array.isArray(res.json) && res.json?.status !== undefined && res.json.status !== 'publish') {
        Object.assign(res, json(401, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } }));
        return;
      }
      if (Array.isArray(res.json)) res.json = res.json.filter((i: any) => i?.status === undefined || i.status === 'publish');
      const length = Number(req.query.get('excerpt_length')) || 55;
      for (const i of itemsIn(res.json)) {
        // The excerpt as such a server builds it: the stored one, else the first words of the content, cut to excerpt_length.
        const source = String(i?.excerpt?.raw || String(i?.content?.raw ?? '').replace(/<[^>]*>/g, ' '));
        if (i?.excerpt?.protected) i.excerpt.rendered = `<p>${source.split(/\s+/).filter(Boolean).slice(0, length).join(' ')}</p>\n`;
        if (i?.content?.protected) i.content.rendered = '';
        for (const f of ['title', 'content', 'excerpt']) if (i?.[f] && typeof i[f] === 'object') delete i[f].raw;
        for (const f of EDIT_ONLY) delete i?.[f];
      }
    },
  },
  {
    id: 'cms.slug-lists-hidden-anonymously',
    title: 'lists drafts, private, pending, scheduled and trashed posts and pages to anonymous readers who ask by slug',
    caughtBy: perType('auth.read-paths'),
    request(req) {
      if (req.authenticated || !isGet(req) || !COLLECTION.test(req.route) || !has(req.query, 'slug')) return;
      credentials.authenticate(req);
      if (!has(req.query, 'status')) req.query.set('status', 'publish,future,draft,pending,private,trash');
    },
    response: credentials.learn,
  },
];
