/**
 * What the faults of cms/v2 share: the post and page routes (spec names), how a query names an
 * argument (`a`, `a[]`, `a[k]`), the items of an answer, and which collection query documents
 * which argument (for the `.values` behaviour IDs).
 */
import { endpointById } from '../../schemas/catalog/index.ts';
import { invalidParam as refusedParam } from '../kit.ts';
import type { FaultRequest, FaultResponse } from '../proxy.ts';

export const TYPES = ['posts', 'pages'] as const;
export const COLLECTION = /^\/cms\/v2\/(posts|pages)$/;
export const ITEM = /^\/cms\/v2\/(posts|pages)\/(\d+)$/;
export const REVISIONS = /^\/cms\/v2\/(posts|pages)\/(\d+)\/revisions$/;
export const REVISION = /^\/cms\/v2\/(posts|pages)\/(\d+)\/revisions\/(\d+)$/;
export const AUTOSAVES = /^\/cms\/v2\/(posts|pages)\/(\d+)\/autosaves$/;
export const AUTOSAVE = /^\/cms\/v2\/(posts|pages)\/(\d+)\/autosaves\/(\d+)$/;
export const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const invalidParam = (name: string) => refusedParam(name, 'rejected by the fault');

/** Query keys of one argument, in either form a client may send it: `a` (a comma list), `a[]` (PHP's), `a[k]`, `a[k][]` ... */
export const keysOf = (q: URLSearchParams, name: string) => [...new Set([...q.keys()].filter((k) => k === name || k.startsWith(`${name}[`)))];
export const has = (q: URLSearchParams, name: string) => keysOf(q, name).length > 0;
export const drop = (q: URLSearchParams, name: string) => keysOf(q, name).forEach((k) => q.delete(k));
/** The values of an argument: an array argument's items whether sent as `a=1,2` or `a[]=1&a[]=2` (`a=` is one empty item, as `a[]=`). */
export const valuesOf = (q: URLSearchParams, name: string) => keysOf(q, name).flatMap((k) => q.getAll(k).flatMap((v) => (ARRAY_ARGS.has(name) && k === name ? v.split(',') : [v])));

export const isGet = (req: FaultRequest) => req.method === 'GET';
export const contextOf = (req: FaultRequest) => req.query.get('context') ?? 'view';
/** The item(s) of a post/page response: a list's entries, a single item. */
export const itemsOf = (res: FaultResponse): any[] => (Array.isArray(res.json) ? res.json : res.json && typeof res.json === 'object' && 'id' in res.json ? [res.json] : []);
export const isPostTypeRead = (req: FaultRequest) => isGet(req) && (COLLECTION.test(req.route) || ITEM.test(req.route));


export interface QueryCollection {
  /** Behaviour ID prefix. */
  id: string;
  route: RegExp;
  args: string[];
}

export const argsOf = (endpointId: string, without: string[] = []) => {
  const a = endpointById(endpointId).endpoint.args;
  return a === 'not-shown' ? [] : Object.keys(a).filter((k) => !without.includes(k));
};

export const QUERY_COLLECTIONS: QueryCollection[] = [
  ...TYPES.map((t) => ({ id: `cms.${t}`, route: new RegExp(`^/cms/v2/${t}$`), args: argsOf(`cms.${t}.collection.list`) })),
  ...TYPES.map((t) => ({ id: `cms.${t}.revisions`, route: new RegExp(`^/cms/v2/${t}/\\d+/revisions$`), args: argsOf(`cms.${t}.revisions.collection.list`, ['parent']) })),
  { id: 'cms.media', route: /^\/cms\/v2\/media$/, args: argsOf('cms.media.collection.list') },
];
export const ALL_ARGS = [...new Set(QUERY_COLLECTIONS.flatMap((c) => c.args))];
/** The query arguments documented as arrays (`status`, `include` ...). */
export const ARRAY_ARGS = new Set(
  ['cms.posts.collection.list', 'cms.pages.collection.list', 'cms.posts.revisions.collection.list', 'cms.media.collection.list'].flatMap((id) => {
    const a = endpointById(id).endpoint.args;
    return a === 'not-shown' ? [] : Object.entries(a).filter(([, spec]) => [spec.type].flat().includes('array')).map(([n]) => n);
  }),
);
export const valuesBehaviours = (arg: string) => QUERY_COLLECTIONS.filter((c) => c.args.includes(arg)).map((c) => `${c.id}.query.${arg}.values`);
export const boundsBehaviours = (arg: 'per_page' | 'page') => QUERY_COLLECTIONS.filter((c) => c.args.includes(arg)).map((c) => `${c.id}.query.${arg}.bounds`);
export const onQueryCollection = (req: FaultRequest, arg?: string) => isGet(req) && QUERY_COLLECTIONS.some((c) => c.route.test(req.route) && (!arg || c.args.includes(arg)));

/** A create or update of a post or page. */
export const isItemWrite = (req: FaultRequest) => (req.method === 'POST' && COLLECTION.test(req.route)) || (['POST', 'PUT', 'PATCH'].includes(req.method) && ITEM.test(req.route));
export const perType = (suffix: string) => TYPES.map((t) => `cms.${t}.${suffix}`);
