/** The whole documented interface: core document + extension document. */
import type { Catalog, EndpointSpec, RouteSpec } from '../types.ts';
import { authentication, coreIndexFields, coreLimits, coreNamespaces, coreNotShown, coreResources, coreRoutes, statuses } from './core.ts';
import {
  extensionIndexFields,
  extensionNamespaces,
  extensionNotShown,
  extensionResources,
  extensionRoutes,
  modules,
  settings,
} from './extensions.ts';

export const catalog: Catalog = {
  indexFields: [...coreIndexFields, ...extensionIndexFields],
  namespaces: { core: coreNamespaces, extensions: extensionNamespaces },
  authentication,
  routes: [...coreRoutes, ...extensionRoutes],
  resources: [...coreResources, ...extensionResources],
  settings,
  modules,
  limits: coreLimits,
  statuses,
  notShown: [...coreNotShown, ...extensionNotShown],
};

export function allEndpoints(): { route: RouteSpec; endpoint: EndpointSpec }[] {
  return catalog.routes.flatMap((route) => route.endpoints.map((endpoint) => ({ route, endpoint })));
}

export function routeById(id: string): RouteSpec {
  const r = catalog.routes.find((x) => x.id === id);
  if (!r) throw new Error(`no catalog route ${id}`);
  return r;
}

/** Every endpoint by its ID, made at the first lookup (the catalog is frozen: it never changes). */
let byId: Map<string, { route: RouteSpec; endpoint: EndpointSpec }> | undefined;
export function endpointById(id: string): { route: RouteSpec; endpoint: EndpointSpec } {
  byId ??= new Map(allEndpoints().map((x) => [x.endpoint.id, Object.freeze(x)]));
  const hit = byId.get(id);
  if (!hit) throw new Error(`no catalog endpoint ${id}`);
  return hit;
}

/** The namespaces of the extension instance that the core site does not have. */
export const extensionOnlyNamespaces = (): string[] => catalog.namespaces.extensions.filter((n) => !catalog.namespaces.core.includes(n));

/**
 * The documented route a concrete path (spec names, e.g. `/cms/v2/posts/12/autosaves`) belongs to,
 * if any: a route without parameters before one with them (`/suite/v4/module/all` before
 * `/suite/v4/module/<slug>`). A path segment is any run of characters but a slash, or, where the
 * documented pattern takes a slash (the plugin file of `/plugin/<plugin>`), of any characters.
 */
let routeMatchers: { route: RouteSpec; re: RegExp; params: number }[] | undefined;
export function documentedRouteOf(path: string): RouteSpec | undefined {
  routeMatchers ??= catalog.routes
    .map((route) => {
      const segments = (route.path.match(/<([^>]+)>/g) ?? []).map((m) => (route.params?.[m.slice(1, -1)]?.pattern?.includes('/') ? '.+' : '[^/]+'));
      const literal = route.path.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      return { route, re: new RegExp(`^${literal.map((part, i) => part + (i < segments.length ? `(?:${segments[i]})` : '')).join('')}$`, 'i'), params: segments.length };
    })
    .sort((a, b) => a.params - b.params);
  const clean = path.split('?')[0]!.replace(/\/+$/, '') || '/';
  return routeMatchers.find((m) => m.re.test(clean))?.route;
}
