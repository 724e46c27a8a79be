/**
 * Faults of the query arguments of the cms/v2 collections: documented values refused
 * (`cms.arg-rejected.<arg>`, one per argument), bounds clamped instead of refused, defaults
 * replaced.
 */
import { endpointById } from '../../schemas/catalog/index.ts';
import type { Fault, FaultRequest } from '../proxy.ts';
import { ALL_ARGS, COLLECTION, boundsBehaviours, drop, has, invalidParam, isGet, onQueryCollection, perType, valuesBehaviours, valuesOf } from './common.ts';

/** The documented post formats (the collection query's format items). */
const FORMATS: readonly string[] = ((endpointById('cms.posts.collection.list').endpoint.args as Record<string, any>).format.items.enum as string[]).map(String);

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


export const queryFaults: Fault[] = [
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
  {
    // A filter written for the two formats a site uses most (issue 40: every documented value, not one).
    id: 'cms.format-filter-partial',
    title: 'filters posts by format standard and aside only: any other format asked for lists the standard posts',
    caughtBy: ['cms.posts.filter.format.values'],
    request(req) {
      if (!isGet(req) || req.route !== '/cms/v2/posts' || !has(req.query, 'format')) return;
      const values = valuesOf(req.query, 'format');
      const other = (v: string) => FORMATS.includes(v) && v !== 'standard' && v !== 'aside';
      if (!values.some(other)) return;
      drop(req.query, 'format');
      req.query.set('format', [...new Set(values.map((v) => (other(v) ? 'standard' : v)))].join(','));
    },
  },
];

