/**
 * The documented items deviations are grouped by (results/deviations.ts): every catalog item
 * reduced to the documented item it belongs to, and the items the documents state once joined
 * (see the comment at the top of results/deviations.ts); the items a behaviour's covers and
 * recorded requests name.
 */
import { catalog } from '../schemas/catalog/index.ts';
import { extensionAnonymousAccess } from '../schemas/catalog/extensions.ts';
import type { Profile } from '../schemas/profiles.ts';
import type { BehaviourResult, DeviationKind } from './results.ts';
import type { ArgSpec, EndpointSpec, FieldSpec, HttpMethod, RouteSpec } from '../schemas/types.ts';

// ---------------------------------------------------------------- the catalog's documented items

export interface Node {
  /** Catalog-based key: `arg:<endpointId>.<name>`, `param:<routeId>.<name>`, `field:<resourceId>.<name>`, `suite.setting.<name>`, `endpoint:<id>` ... */
  key: string;
  kind: DeviationKind;
  /** The name a message may use for it ('' when none). */
  name: string;
  coarse: boolean;
  /** Catalog order. */
  order: number;
  spec?: string;
  /** What to show: "include (arg of GET /cms/v2/posts)". */
  label: string;
}

export interface Index {
  nodes: Map<string, Node>;
  parent: Map<string, string>;
  /** Top-level field names of each resource. */
  resourceFields: Map<string, string[]>;
  /** Endpoints of each route, with the route. */
  routes: { route: RouteSpec; re: RegExp; literal: number }[];
  endpoints: Map<string, { route: RouteSpec; endpoint: EndpointSpec }>;
  /** The endpoint an endpoint, method or arg item (catalog key, not joined) belongs to. */
  endpointOfNode: Map<string, string>;
}

export const specOf = (s: { doc: string; section: string }) => `${s.doc === 'core' ? 'core-routes.md' : 'extension-namespaces.md'} § ${s.section}`;
const signature = (a: ArgSpec | FieldSpec | undefined): string => JSON.stringify([a?.type ?? null, a?.enum ?? null, (a as ArgSpec)?.items?.type ?? null, (a as ArgSpec)?.items?.enum ?? null]);
export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let built: Index | undefined;

export function find(ix: Index, key: string): string {
  if (ix === built) {
    const r = roots.get(key);
    if (r !== undefined) return r;
  }
  let k = key;
  for (let p = ix.parent.get(k); p !== undefined && p !== k; p = ix.parent.get(k)) k = p;
  if (ix === built) roots.set(key, k);
  return k;
}
/** Roots of the finished index (no union after it is built). */
const roots = new Map<string, string>();

function union(ix: Index, a: string, b: string): void {
  const ra = find(ix, a);
  const rb = find(ix, b);
  if (ra === rb) return;
  const na = ix.nodes.get(ra)!;
  const nb = ix.nodes.get(rb)!;
  // The representative: settings and modules first, then fields, args, params; then catalog order.
  const rank = (n: Node) => ['setting', 'module', 'field', 'arg', 'param'].indexOf(n.kind);
  const [keep, drop] = rank(na) < rank(nb) || (rank(na) === rank(nb) && na.order <= nb.order) ? [ra, rb] : [rb, ra];
  ix.parent.set(drop, keep);
}

export function buildIndex(): Index {
  if (built) return built;
  const ix: Index = { nodes: new Map(), parent: new Map(), resourceFields: new Map(), routes: [], endpoints: new Map(), endpointOfNode: new Map() };
  let order = 0;
  const add = (n: Omit<Node, 'order'>) => {
    if (!ix.nodes.has(n.key)) ix.nodes.set(n.key, { ...n, order: order++ });
    return n.key;
  };
  const bySignature = new Map<string, string>();
  const join = (sigKey: string, key: string) => {
    const first = bySignature.get(sigKey);
    if (first === undefined) bySignature.set(sigKey, key);
    else union(ix, first, key);
  };
  const fieldsByName = new Map<string, string[]>();

  for (const f of catalog.indexFields) {
    add({ key: f.id, kind: 'index-field', name: f.name, coarse: false, spec: specOf(f.spec), label: `${f.name} (site index field)` });
    join(`index\u0000${f.name}`, f.id);
  }
  for (const ns of [...new Set([...catalog.namespaces.core, ...catalog.namespaces.extensions])])
    add({ key: `namespace.${ns}`, kind: 'namespace', name: ns, coarse: false, label: `namespace ${ns}` });
  add({ key: `authentication.${catalog.authentication.scheme}`, kind: 'authentication', name: catalog.authentication.scheme, coarse: false, spec: specOf(catalog.authentication.spec), label: `authentication (${catalog.authentication.scheme})` });
  for (const s of catalog.settings) add({ key: s.id, kind: 'setting', name: s.name, coarse: false, spec: specOf(s.spec), label: `${s.name} (suite setting)` });
  for (const m of catalog.modules) add({ key: m.id, kind: 'module', name: m.slug, coarse: false, spec: specOf(m.spec), label: `${m.slug} (suite module)` });
  for (const l of catalog.limits) add({ key: l.id, kind: 'limit', name: '', coarse: false, spec: specOf(l.spec), label: `${l.what} (limit)` });

  for (const route of catalog.routes) {
    const names = (route.path.match(/<[^>]+>/g) ?? []).length;
    // A path segment whose documented pattern takes a slash (the plugin file of /plugin/<plugin>) spans several.
    const segments = (route.path.match(/<([^>]+)>/g) ?? []).map((m) => (route.params?.[m.slice(1, -1)]?.pattern?.includes('/') ? '.+' : '[^/]+'));
    ix.routes.push({ route, re: new RegExp(`^${route.path.split(/<[^>]+>/).map((part, i) => escape(part) + (i < segments.length ? segments[i] : '')).join('')}$`), literal: -names });
    add({ key: `route:${route.id}`, kind: 'route', name: '', coarse: true, spec: specOf(route.spec), label: `${route.path} (every method)` });
    for (const [p, spec] of Object.entries(route.params ?? {})) {
      const key = add({ key: `param:${route.id}.${p}`, kind: 'param', name: p, coarse: false, spec: specOf(route.spec), label: `${p} (path segment of ${route.path})` });
      join(`arg\u0000${route.namespace}\u0000${p}\u0000${signature(spec)}`, key);
    }
    for (const e of route.endpoints) {
      ix.endpoints.set(e.id, { route, endpoint: e });
      add({ key: `endpoint:${e.id}`, kind: 'endpoint', name: '', coarse: true, spec: specOf(e.spec), label: `${e.methods.join('/')} ${route.path}` });
      ix.endpointOfNode.set(`endpoint:${e.id}`, e.id);
      // Whether the endpoint is batchable (allow_batch, `batch:<id>` in covers).
      if (e.allowBatch !== undefined) add({ key: `batch:${e.id}`, kind: 'endpoint', name: '', coarse: false, spec: specOf(e.spec), label: `allow_batch of ${e.methods.join('/')} ${route.path}` });
      // One method of an endpoint that takes several (PUT of POST/PUT/PATCH): a server may break only that one.
      if (e.methods.length > 1)
        for (const m of e.methods) ix.endpointOfNode.set(add({ key: `endpoint:${e.id}:${m}`, kind: 'endpoint', name: '', coarse: false, spec: specOf(e.spec), label: `${m} ${route.path}` }), e.id);
      if (e.args === 'not-shown') continue;
      for (const [name, arg] of Object.entries(e.args)) {
        const key = add({ key: `arg:${e.id}.${name}`, kind: 'arg', name, coarse: false, spec: specOf(e.spec), label: `${name} (arg of ${e.methods[0]} ${route.path})` });
        ix.endpointOfNode.set(key, e.id);
        join(`arg\u0000${route.namespace}\u0000${name}\u0000${signature(arg)}`, key);
        // A filter of a listing over a field's values (`format` of GET /posts: an array of the
        // post formats) is that field: a server without it lacks both.
        if (arg.type === 'array' && arg.items) join(`field\u0000${route.namespace}\u0000${name}\u0000${signature(arg.items as ArgSpec)}`, key);
      }
    }
  }
  // 4. Endpoints › Pages: "Same route shapes as posts ..., with the same batchable flags": a page
  // route, endpoint or method is the post one the document states once.
  for (const route of catalog.routes) {
    if (!route.id.startsWith('cms.pages.')) continue;
    const twin = catalog.routes.find((r) => r.id === route.id.replace(/^cms\.pages\./, 'cms.posts.'));
    if (!twin) continue;
    union(ix, `route:${twin.id}`, `route:${route.id}`);
    for (const e of route.endpoints) {
      const t = twin.endpoints.find((x) => x.id === e.id.replace(/^cms\.pages\./, 'cms.posts.'));
      if (!t) continue;
      union(ix, `endpoint:${t.id}`, `endpoint:${e.id}`);
      if (ix.nodes.has(`batch:${t.id}`) && ix.nodes.has(`batch:${e.id}`)) union(ix, `batch:${t.id}`, `batch:${e.id}`);
      for (const m of e.methods) if (ix.nodes.has(`endpoint:${e.id}:${m}`) && ix.nodes.has(`endpoint:${t.id}:${m}`)) union(ix, `endpoint:${t.id}:${m}`, `endpoint:${e.id}:${m}`);
    }
  }
  // Who may read or write without credentials, by namespace (core part 5 leaves it open; the
  // reference refuses anonymous writes everywhere and anonymous reads of the extension endpoints
  // docs/anonymous-access.md lists as not public): a server that lets them through does so in its
  // namespace's permission check, one item however many endpoints show it.
  const accessNamespaces = new Set(['cms/v2', ...Object.keys(extensionAnonymousAccess).map((id) => ix.endpoints.get(id)?.route.namespace).filter((n): n is string => !!n)]);
  for (const ns of accessNamespaces)
    add({ key: `access.${ns}`, kind: 'authentication', name: '', coarse: false, spec: specOf(catalog.authentication.spec), label: `anonymous access to ${ns} (what the reference implementation refuses without credentials)` });
  const settingNames = new Map<string, string>([...catalog.settings.map((s) => [s.name, s.id] as const), ...catalog.modules.map((m) => [m.slug, m.id] as const)]);
  for (const r of catalog.resources) {
    add({ key: `field:${r.id}`, kind: 'resource', name: '', coarse: true, spec: specOf(r.spec), label: `${r.id} (every field)` });
    if (r.fields === 'not-shown') continue;
    ix.resourceFields.set(r.id, Object.keys(r.fields));
    const ns = r.route ? (/^\/([^/]+\/v\d+)/.exec(r.route)?.[1] ?? '') : '';
    for (const [name, f] of Object.entries(r.fields)) {
      const key = add({ key: `field:${r.id}.${name}`, kind: 'field', name, coarse: false, spec: specOf(r.spec), label: `${name} (field of ${r.id.replace(/^resource\./, '')})` });
      if (r.route) join(`field\u0000${ns}\u0000${name}\u0000${signature(f)}`, key);
      // A suite setting or module is its field of the settings resource.
      const setting = ns === 'suite/v4' ? settingNames.get(name) : undefined;
      if (setting) union(ix, setting, key);
      if (r.route) fieldsByName.set(`${r.route}\u0000${name}`, [...(fieldsByName.get(`${r.route}\u0000${name}`) ?? []), key]);
    }
  }
  // A body arg of a write endpoint on a resource's route is the resource's field of that name.
  for (const r of catalog.resources) {
    if (!r.route || r.fields === 'not-shown') continue;
    for (const { route, endpoint } of ix.endpoints.values()) {
      if (endpoint.args === 'not-shown' || !endpoint.methods.some((m) => m !== 'GET' && m !== 'DELETE')) continue;
      if (route.path !== r.route && !route.path.startsWith(`${r.route}/`)) continue;
      for (const name of Object.keys(endpoint.args)) if (name in r.fields) union(ix, `field:${r.id}.${name}`, `arg:${endpoint.id}.${name}`);
    }
  }
  built = ix;
  return ix;
}

const coverCache = new Map<string, string | undefined>();
/** The documented item (node key, before joining) a `covers` ID names; undefined when the catalog has no such item. */
export function nodeOfCover(ix: Index, cover: string): string | undefined {
  if (coverCache.has(cover)) return coverCache.get(cover);
  const n = nodeOfCoverUncached(ix, cover);
  coverCache.set(cover, n);
  return n;
}

function nodeOfCoverUncached(ix: Index, cover: string): string | undefined {
  const bare = cover.replace(/[#@].*$/, '');
  if (ix.nodes.has(bare)) return bare;
  // endpoint:<id>:<METHOD> is that method's node when the endpoint takes several, else the endpoint.
  let m = /^endpoint:([^:]+)(?::[A-Z]+)?$/.exec(cover);
  if (m && ix.nodes.has(`endpoint:${m[1]}`)) return `endpoint:${m[1]}`;
  // field:<resource>.<path>: the top-level field (resource IDs may hold dots: resource.suite.settings).
  if (bare.startsWith('field:')) {
    const rest = bare.slice('field:'.length);
    for (const [res, fields] of ix.resourceFields) {
      if (!rest.startsWith(`${res}.`)) continue;
      const top = rest.slice(res.length + 1).split('.')[0]!;
      if (fields.includes(top)) return `field:${res}.${top}`;
    }
  }
  return undefined;
}

/** The catalog endpoint a request addressed (spec route, method). */
export function endpointOf(ix: Index, specPath: string, method: string): { route: RouteSpec; endpoint: EndpointSpec } | undefined {
  const hits = ix.routes.filter((r) => r.re.test(specPath)).sort((a, b) => b.literal - a.literal);
  for (const { route } of hits) {
    const e = route.endpoints.find((x) => x.methods.includes(method as HttpMethod));
    if (e) return { route, endpoint: e };
  }
  return undefined;
}

/** Documented items (joined) a behaviour's covers name. */
export function coverNodes(ix: Index, b: Pick<BehaviourResult, 'covers'>): string[] {
  const out = new Set<string>();
  for (const c of b.covers ?? []) {
    const n = nodeOfCover(ix, c);
    if (n) out.add(find(ix, n));
  }
  return [...out];
}

/** Items the recorded requests of a failed behaviour used (the catalog's own, not joined): the endpoints (and methods) addressed, their path parameters and the documented args sent. */
export function requestNodes(ix: Index, b: BehaviourResult, profile: Profile): string[] {
  const out = new Set<string>();
  const add = (targetRoute: string, method: string, query: URLSearchParams, body: unknown, depth: number) => {
    const specPath = profile.toSpecRoute(targetRoute.replace(/\/+$/, '') || '/');
    const hit = endpointOf(ix, specPath, method);
    if (!hit) return;
    out.add(`endpoint:${hit.endpoint.id}`);
    if (ix.nodes.has(`endpoint:${hit.endpoint.id}:${method}`)) out.add(`endpoint:${hit.endpoint.id}:${method}`);
    // The path segments it addressed (the form id of /contact-forms/<id>/refill).
    for (const p of Object.keys(hit.route.params ?? {})) if (ix.nodes.has(`param:${hit.route.id}.${p}`)) out.add(`param:${hit.route.id}.${p}`);
    const args = hit.endpoint.args === 'not-shown' ? {} : hit.endpoint.args;
    const sent = new Set([...query.keys()].map((k) => k.replace(/\[.*$/, '')));
    if (body && typeof body === 'object' && !Array.isArray(body)) for (const k of Object.keys(body)) sent.add(k);
    for (const k of sent) {
      const name = hit.route.namespace === 'suite/v4' ? profile.toSpecSetting(profile.toSpecModule(k)) : k;
      if (name in args && ix.nodes.has(`arg:${hit.endpoint.id}.${name}`)) out.add(`arg:${hit.endpoint.id}.${name}`);
    }
    // The items of a batch are requests of their own (a batch of updates uses the update endpoint).
    const items = depth === 0 && hit.route.namespace === 'batch/v1' ? (body as { requests?: unknown })?.requests : undefined;
    if (Array.isArray(items))
      for (const item of items) {
        if (!item || typeof item !== 'object' || typeof (item as any).path !== 'string') continue;
        const [path = '', qs = ''] = String((item as any).path).split('?');
        add(path, String((item as any).method ?? 'POST').toUpperCase(), new URLSearchParams(qs), (item as any).body, 1);
      }
  };
  for (const e of b.exchanges ?? []) {
    let url: URL;
    try {
      url = new URL(e.url);
    } catch {
      continue;
    }
    let body: unknown;
    if (e.requestBody)
      try {
        body = JSON.parse(e.requestBody);
      } catch {
        /* not JSON */
      }
    add(url.searchParams.get('rest_route') ?? e.route, (url.searchParams.get('_method') ?? e.method).toUpperCase(), url.searchParams, body, 0);
  }
  return [...out];
}

/** Each joined item's names: its own and those of the items joined to it. */
let rootNames: Map<string, string[]> | undefined;
export function namesOf(ix: Index, root: string): string[] {
  if (!rootNames) {
    rootNames = new Map();
    for (const [k, n] of ix.nodes) {
      const r = find(ix, k);
      if (n.name && !rootNames.get(r)?.includes(n.name)) rootNames.set(r, [...(rootNames.get(r) ?? []), n.name]);
    }
  }
  return rootNames.get(root) ?? [];
}

/** The one endpoint all of a behaviour's covers belong to (`arg:<endpoint>.<name>`, `endpoint:<endpoint>`), if there is one. */
export function soleEndpoint(ix: Index, b: Pick<BehaviourResult, 'covers'>): string | undefined {
  const ids = new Set<string>();
  for (const c of b.covers ?? []) {
    const m = /^(?:arg|endpoint):([^#:]+?)(?:\.[a-z_-]+)?(?:[#:].*)?$/.exec(c);
    const id = c.startsWith('endpoint:') ? /^endpoint:([^:]+)/.exec(c)?.[1] : m && [...ix.endpoints.keys()].find((e) => c.startsWith(`arg:${e}.`) && !c.slice(`arg:${e}.`.length).includes('.'));
    if (!id || !ix.endpoints.has(id)) return undefined;
    ids.add(id);
  }
  return ids.size === 1 ? `endpoint:${[...ids][0]}` : undefined;
}

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A recorded request's URL, effective method (WordPress honours `_method`) and the documented endpoint it addressed, if any. */
function sentTo(ix: Index, e: { url: string; route: string; method: string }, profile: Profile): { url: URL; method: string; hit: ReturnType<typeof endpointOf> } | undefined {
  let url: URL;
  try {
    url = new URL(e.url);
  } catch {
    return undefined;
  }
  const specPath = profile.toSpecRoute((url.searchParams.get('rest_route') ?? e.route).replace(/\/+$/, '') || '/');
  const method = (url.searchParams.get('_method') ?? e.method).toUpperCase();
  return { url, method, hit: endpointOf(ix, specPath, method) };
}

/**
 * The access items a failed behaviour's recorded requests show broken: an anonymous request
 * answered 2xx that the reference refuses (any write of cms/v2 or of an extension endpoint that is
 * not public; a read of an extension endpoint that is not public; a cms/v2 read in the edit
 * context or of a status other than publish); in a failing security check, also such a request
 * answered anything but 401, 403, 405 or a 404 rest_no_route (processed without credentials).
 */
export function accessNodes(ix: Index, b: BehaviourResult, profile: Profile): string[] {
  const out = new Set<string>();
  for (const e of b.exchanges ?? []) {
    if (e.auth !== 'none') continue;
    // Answered (2xx); or, in a failing security check, processed without credentials: any answer
    // but a refusal for want of them (401, 403) or a route or method that is not there.
    const processed = b.level === 'SECURITY' && e.status >= 400 && ![401, 403, 405].includes(e.status) && !(e.status === 404 && /rest_no_route/.test(e.responseText ?? ''));
    if (!(e.status >= 200 && e.status <= 299) && !processed) continue;
    const sent = sentTo(ix, e, profile);
    if (!sent?.hit) continue;
    const { url, method, hit } = sent;
    const ns = hit.route.namespace;
    // An anonymous batch answered: its items are anonymous requests of their own (a write of
    // cms/v2 in a batch is a write of cms/v2).
    if (hit.route.id === 'batch.v1' && e.status >= 200 && e.status <= 299) {
      for (const item of batchItems(e.requestBody)) {
        const [path = '', qs = ''] = item.path.split('?');
        const inner = endpointOf(ix, profile.toSpecRoute(path.replace(/\/+$/, '') || '/'), item.method);
        const access = inner && extensionAnonymousAccess[inner.endpoint.id];
        const innerNs = inner?.route.namespace;
        const privateRead = innerNs === 'cms/v2' && !WRITE.has(item.method) && /(^|&)context=edit(&|$)/.test(qs);
        if (inner && (access ? !access.public : innerNs === 'cms/v2' && (WRITE.has(item.method) || privateRead)) && ix.nodes.has(`access.${innerNs}`)) out.add(`access.${innerNs}`);
      }
      continue;
    }
    const access = extensionAnonymousAccess[hit.endpoint.id];
    const write = WRITE.has(method);
    // Private reads of cms/v2: the edit context, statuses other than publish, revisions and autosaves
    // (every earlier state of an item, which the reference serves only to who may edit it).
    const privateRead =
      ns === 'cms/v2' &&
      !write &&
      (url.searchParams.get('context') === 'edit' || [...url.searchParams].some(([k, v]) => k.replace(/\[.*$/, '') === 'status' && v !== 'publish') || /^cms\.(posts|pages)\.(revisions|autosaves)\./.test(hit.endpoint.id));
    if (access ? !access.public : ns === 'cms/v2' && (write || privateRead)) {
      const key = `access.${ns}`;
      if (ix.nodes.has(key)) out.add(key);
    }
  }
  return [...out];
}

/** The items of a batch request body (method, path), as far as the recorded body shows them. */
function batchItems(body: string | undefined): { method: string; path: string }[] {
  if (!body) return [];
  try {
    const items = (JSON.parse(body) as { requests?: unknown })?.requests;
    if (Array.isArray(items))
      return items.filter((x): x is { method?: unknown; path: string } => !!x && typeof (x as any).path === 'string').map((x) => ({ method: String(x.method ?? 'POST').toUpperCase(), path: x.path }));
  } catch {
    /* cut short: read what it shows */
  }
  return [...body.matchAll(/\{\s*"method"\s*:\s*"([A-Z]+)"\s*,\s*"path"\s*:\s*"([^"]+)"/g)].map((m) => ({ method: m[1]!, path: m[2]! }));
}

/**
 * Methods a failed behaviour's recorded requests found missing: a request answered 405, or 404
 * rest_no_route, by an endpoint that takes several methods (the route is there, that method is
 * not: `endpoint:<id>:<METHOD>`).
 */
export function missingMethodNodes(ix: Index, b: BehaviourResult, profile: Profile): string[] {
  const out = new Set<string>();
  for (const e of b.exchanges ?? []) {
    if (!(e.status === 405 || (e.status === 404 && /rest_no_route/.test(e.responseText ?? '')))) continue;
    const sent = sentTo(ix, e, profile);
    if (sent?.hit && ix.nodes.has(`endpoint:${sent.hit.endpoint.id}:${sent.method}`)) out.add(`endpoint:${sent.hit.endpoint.id}:${sent.method}`);
  }
  return [...out];
}
