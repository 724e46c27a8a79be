/**
 * The site index (GET /) and the namespace indexes, built from the router, which is built from
 * the catalog: every route with its namespace, methods, endpoints (methods, args as advertised
 * descriptors, allow_batch) and `_links.self[].href` (core part 1).
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { restError } from './errors.ts';
import type { Router } from './router.ts';
import { advertise } from './schema.ts';
import type { EndpointImpl, HandlerContext, HandlerTable, RouteEntry } from './types.ts';

/**
 * The key of a route in the index and in its `_links.self` href: WordPress's regex
 * (`/cms/v2/posts/(?P<id>[\d]+)`), or with `route-keys=spec` the documented shape in the spec's
 * notation (`/cms/v2/posts/<id>`). Routing is the same either way (router.ts matches the regex).
 */
export function advertisedKey(entry: RouteEntry, ctx: HandlerContext): string {
  return ctx.site.dialect.routeKeys === 'spec' ? entry.path : entry.key;
}

/**
 * Dialect `batch-max-items=none`: the batch route's descriptors carry only the keys part 1 lists
 * (no `maxItems`; the 25-item limit of part 4 is still enforced).
 */
function withoutMaxItems<T>(descriptor: T, entry: RouteEntry, ctx: HandlerContext): T {
  if (ctx.site.dialect.batchMaxItems !== 'none' || entry.namespace !== '' || !entry.path.startsWith('/batch/') || !descriptor || typeof descriptor !== 'object') return descriptor;
  const { maxItems: _, ...rest } = descriptor as Record<string, unknown>;
  return rest as T;
}

export function routeDoc(entry: RouteEntry, ctx: HandlerContext): Record<string, unknown> {
  return {
    namespace: entry.namespace,
    methods: [...new Set(entry.endpoints.flatMap((e) => e.methods))],
    endpoints: entry.endpoints.map((e) => ({
      methods: e.methods,
      ...(e.allowBatch ? { allow_batch: { v1: true } } : {}),
      args: Object.fromEntries(Object.entries(e.args).map(([name, s]) => [name, withoutMaxItems(advertise(s), entry, ctx)])),
    })),
    _links: { self: [{ href: ctx.restUrl(advertisedKey(entry, ctx)) }] },
  };
}

/** All namespaces of both documents, in document order (the reference server is both instances). */
export function allNamespaces(): string[] {
  const out: string[] = [];
  for (const ns of [...catalog.namespaces.extensions, ...catalog.namespaces.core]) if (!out.includes(ns)) out.push(ns);
  return out;
}

function routesDoc(router: Router, ctx: HandlerContext, namespace?: string): Record<string, unknown> {
  // Index and batch routes first, then each namespace's index route followed by its routes.
  const order = ['', ...allNamespaces()];
  const entries = [...router.routes]
    .filter((r) => namespace === undefined || r.namespace === namespace)
    .sort((a, b) => order.indexOf(a.namespace) - order.indexOf(b.namespace) || (a.path === `/${a.namespace}` ? -1 : b.path === `/${b.namespace}` ? 1 : 0));
  return Object.fromEntries(entries.map((r) => [advertisedKey(r, ctx), routeDoc(r, ctx)]));
}

export function siteIndex(router: Router, ctx: HandlerContext): Record<string, unknown> {
  const site = ctx.site;
  return {
    name: site.name,
    description: site.description,
    url: ctx.base,
    home: ctx.base,
    gmt_offset: site.gmtOffset,
    timezone_string: site.timezoneString,
    page_for_posts: 0,
    page_on_front: 0,
    show_on_front: 'posts',
    namespaces: allNamespaces(),
    authentication: {
      'application-passwords': { endpoints: { authorization: `${ctx.base}/${site.adminPath}/authorize-application.php` } },
    },
    routes: routesDoc(router, ctx),
    site_logo: 0,
    site_icon: 0,
    site_icon_url: '',
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}

/** Handlers of GET / and of every namespace index route (the `namespace` arg selects the namespace). */
export function indexHandlers(getRouter: () => Router): { table: HandlerTable; namespaceIndex: EndpointImpl } {
  const cache = new Map<string, Record<string, unknown>>();
  const namespaceIndex: EndpointImpl = {
    handler(req, ctx) {
      const ns = String(req.get('namespace') ?? '');
      if (!allNamespaces().includes(ns)) return restError('rest_invalid_namespace', 'The specified namespace could not be found.', 404);
      return { namespace: ns, routes: routesDoc(getRouter(), ctx, ns), _links: { up: [{ href: ctx.restUrl('/') }] } };
    },
  };
  const table: HandlerTable = {
    'index.root.read': {
      handler(_req, ctx) {
        // The index does not depend on stored content: built once per base URL.
        let doc = cache.get(ctx.base);
        if (!doc) cache.set(ctx.base, (doc = siteIndex(getRouter(), ctx)));
        return doc;
      },
    },
  };
  for (const route of catalog.routes) {
    for (const ep of route.endpoints) {
      const isNamespaceIndex = route.namespace !== '' && route.path === `/${route.namespace}`;
      if (isNamespaceIndex) table[ep.id] = namespaceIndex;
    }
  }
  return { table, namespaceIndex };
}
