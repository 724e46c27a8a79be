/**
 * Deviations: the failing behaviours of a run grouped by the documented item that broke, so
 * that one broken thing on a server is one finding. A pure function of a run's behaviours and
 * the catalog (schemas/catalog); behaviours keep their own verdicts, only counting and
 * presentation change.
 *
 * How it decides (quoted in reports and the issue's closing note). Only failed behaviours form
 * deviations (a skip or an error is not a finding about the target); every failed behaviour is in
 * exactly one.
 *
 * 1. Documented items. Every catalog item a behaviour names in its `covers` is reduced to the
 *    documented item it belongs to, and items the documents state once are joined:
 *    - an arg (`arg:<endpoint>.<name>#<attribute>`) is the arg, whatever attribute is checked;
 *      args and path parameters of one namespace with the same name, type and values are one
 *      item (`include` of every listing; `interval` of /stats and /stats/<interval>);
 *    - a field is its top-level field in every context (`field:post.meta.footnotes@view` is
 *      `post.meta`); fields of the same name, type and values on resources of one namespace are
 *      one item (`meta` of posts and pages), and so is a body arg of a write endpoint on the
 *      resource's route that has the field's name (the `meta` arg of create, update, autosave);
 *    - a suite setting or module is one item with its args and its field of the same name;
 *    - index fields of the same name are one item;
 *    - endpoints, routes and whole resources (`field:post`) are coarse items: they stand for
 *      everything they carry.
 * 2. Candidates of a failing behaviour:
 *    - the documented items of its covers. When its message names some of them, only those
 *      (a check that covers 40 writable args and says "meta.footnotes: ... read back []" is about
 *      `meta`), and a coarse cover is narrowed to the fields or modules of it the message names
 *      (a module list check failing on "geo-location" is about that module);
 *    - what its recorded failing requests used: the endpoint each request addressed (method and
 *      route) and the documented args it sent in its query or JSON body.
 * 3. Evidence. A fine item the behaviour itself covers can always be blamed. A coarse item (an
 *    endpoint, route, whole resource) can be blamed only when at least 80 % of the executed
 *    behaviours that name it in their covers fail, and an arg seen only in a failing request only
 *    when at least half of the executed behaviours that name that endpoint's arg fail (discovery
 *    behaviours, which check the index rather than what the server does, are not counted among
 *    the passes). So a settings write that stores nothing (every behaviour over POST /settings
 *    fails) is blamed, but GET /settings is not blamed for five settings it answers wrongly among
 *    140 it answers right; a listing filter is blamed for the checks that find their fixture
 *    through it only when its own checks fail.
 * 4. Assignment (greedy, explaining the most failures first). Repeatedly, the candidate item
 *    that explains the most failing behaviours not yet assigned takes all of them; ties go to the
 *    item more of them cover themselves, then to a fine item before a coarse one, then catalog
 *    order. A behaviour left whose several fine candidates explain nothing else, all args of one
 *    endpoint, is a deviation of that endpoint (a create that refuses what is optional). A
 *    behaviour with no candidate is a deviation of its own (`behaviour:<ID>`).
 *
 * So a documented item missing everywhere (an arg on six endpoints, a field in three contexts)
 * is one deviation, and an endpoint that fails the same way for every item it carries (a write
 * that stores nothing, a toggle that changes nothing) is one deviation.
 */
import { catalog } from '../schemas/catalog/index.ts';
import { getProfile, type ProfileName } from '../schemas/profiles.ts';
import { LEVELS, type BehaviourResult, type Deviation, type DeviationKind, type Level, type Results } from '../schemas/results.ts';
import type { ArgSpec, EndpointSpec, FieldSpec, HttpMethod, RouteSpec } from '../schemas/types.ts';

export type { Deviation, DeviationKind } from '../schemas/results.ts';

/** The share of its executed checks that must fail before a coarse item (endpoint, route, whole resource) is blamed. */
export const COARSE_BLAME_SHARE = 0.8;
/** The share of its own executed checks that must fail before an arg seen only in a failing request is blamed. */
export const REQUEST_BLAME_SHARE = 0.5;

// ---------------------------------------------------------------- the catalog's documented items

interface Node {
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

interface Index {
  nodes: Map<string, Node>;
  parent: Map<string, string>;
  /** Top-level field names of each resource. */
  resourceFields: Map<string, string[]>;
  /** Endpoints of each route, with the route. */
  routes: { route: RouteSpec; re: RegExp; literal: number }[];
  endpoints: Map<string, { route: RouteSpec; endpoint: EndpointSpec }>;
}

const specOf = (s: { doc: string; section: string }) => `${s.doc === 'core' ? 'core-routes.md' : 'extension-namespaces.md'} § ${s.section}`;
const signature = (a: ArgSpec | FieldSpec | undefined): string => JSON.stringify([a?.type ?? null, a?.enum ?? null, (a as ArgSpec)?.items?.type ?? null, (a as ArgSpec)?.items?.enum ?? null]);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let built: Index | undefined;

function find(ix: Index, key: string): string {
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

function buildIndex(): Index {
  if (built) return built;
  const ix: Index = { nodes: new Map(), parent: new Map(), resourceFields: new Map(), routes: [], endpoints: new Map() };
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
    ix.routes.push({ route, re: new RegExp(`^${route.path.split(/<[^>]+>/).map(escape).join('[^/]+')}$`), literal: -names });
    add({ key: `route:${route.id}`, kind: 'route', name: '', coarse: true, spec: specOf(route.spec), label: `${route.path} (every method)` });
    for (const [p, spec] of Object.entries(route.params ?? {})) {
      const key = add({ key: `param:${route.id}.${p}`, kind: 'param', name: p, coarse: false, spec: specOf(route.spec), label: `${p} (path segment of ${route.path})` });
      join(`arg\u0000${route.namespace}\u0000${p}\u0000${signature(spec)}`, key);
    }
    for (const e of route.endpoints) {
      ix.endpoints.set(e.id, { route, endpoint: e });
      add({ key: `endpoint:${e.id}`, kind: 'endpoint', name: '', coarse: true, spec: specOf(e.spec), label: `${e.methods.join('/')} ${route.path}` });
      if (e.args === 'not-shown') continue;
      for (const [name, arg] of Object.entries(e.args)) {
        const key = add({ key: `arg:${e.id}.${name}`, kind: 'arg', name, coarse: false, spec: specOf(e.spec), label: `${name} (arg of ${e.methods[0]} ${route.path})` });
        join(`arg\u0000${route.namespace}\u0000${name}\u0000${signature(arg)}`, key);
      }
    }
  }
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
function nodeOfCover(ix: Index, cover: string): string | undefined {
  if (coverCache.has(cover)) return coverCache.get(cover);
  const n = nodeOfCoverUncached(ix, cover);
  coverCache.set(cover, n);
  return n;
}

function nodeOfCoverUncached(ix: Index, cover: string): string | undefined {
  const bare = cover.replace(/[#@].*$/, '');
  if (ix.nodes.has(bare)) return bare;
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
function endpointOf(ix: Index, specPath: string, method: string): { route: RouteSpec; endpoint: EndpointSpec } | undefined {
  const hits = ix.routes.filter((r) => r.re.test(specPath)).sort((a, b) => b.literal - a.literal);
  for (const { route } of hits) {
    const e = route.endpoints.find((x) => x.methods.includes(method as HttpMethod));
    if (e) return { route, endpoint: e };
  }
  return undefined;
}

// ---------------------------------------------------------------- grouping

type Run = Pick<Results, 'behaviours'> & { target?: Pick<Results['target'], 'profile'> };

interface Candidate {
  key: string;
  /** Named by the behaviour's own covers (not only seen in its requests). */
  own: boolean;
}

const textOf = (b: BehaviourResult) => `${b.reason ?? ''}\n${b.message ?? ''}`;

/** Whether `name` occurs in `text` as a whole word (names may hold hyphens and slashes). */
function names(text: string, name: string): boolean {
  if (!name) return false;
  return new RegExp(`(?<![\\w/-])${escape(name)}(?![\\w/-])`).test(text);
}

function profileOf(run: Run) {
  try {
    return getProfile((run.target?.profile ?? 'spec') as ProfileName);
  } catch {
    return getProfile('spec');
  }
}

/** Documented items (joined) a behaviour's covers name. */
function coverNodes(ix: Index, b: Pick<BehaviourResult, 'covers'>): string[] {
  const out = new Set<string>();
  for (const c of b.covers ?? []) {
    const n = nodeOfCover(ix, c);
    if (n) out.add(find(ix, n));
  }
  return [...out];
}

/** Items the recorded requests of a failed behaviour used (the catalog's own, not joined): the endpoints addressed and the documented args sent. */
function requestNodes(ix: Index, b: BehaviourResult, profile: ReturnType<typeof profileOf>): string[] {
  const out = new Set<string>();
  for (const e of b.exchanges ?? []) {
    let url: URL;
    try {
      url = new URL(e.url);
    } catch {
      continue;
    }
    const targetRoute = url.searchParams.get('rest_route') ?? e.route;
    const specPath = profile.toSpecRoute(targetRoute.replace(/\/+$/, '') || '/');
    const method = (url.searchParams.get('_method') ?? e.method).toUpperCase();
    const hit = endpointOf(ix, specPath, method);
    if (!hit) continue;
    out.add(`endpoint:${hit.endpoint.id}`);
    const args = hit.endpoint.args === 'not-shown' ? {} : hit.endpoint.args;
    const sent = new Set([...url.searchParams.keys()].map((k) => k.replace(/\[.*$/, '')));
    if (e.requestBody) {
      try {
        const body = JSON.parse(e.requestBody);
        if (body && typeof body === 'object' && !Array.isArray(body)) for (const k of Object.keys(body)) sent.add(k);
      } catch {
        /* not JSON */
      }
    }
    for (const k of sent) {
      const name = hit.route.namespace === 'suite/v4' ? profile.toSpecSetting(profile.toSpecModule(k)) : k;
      if (name in args && ix.nodes.has(`arg:${hit.endpoint.id}.${name}`)) out.add(`arg:${hit.endpoint.id}.${name}`);
    }
  }
  return [...out];
}

/** Each joined item's names: its own and those of the items joined to it. */
let rootNames: Map<string, string[]> | undefined;
function namesOf(ix: Index, root: string): string[] {
  if (!rootNames) {
    rootNames = new Map();
    for (const [k, n] of ix.nodes) {
      const r = find(ix, k);
      if (n.name && !rootNames.get(r)?.includes(n.name)) rootNames.set(r, [...(rootNames.get(r) ?? []), n.name]);
    }
  }
  return rootNames.get(root) ?? [];
}

/**
 * The deviations of a run: its failed behaviours grouped by the documented item that broke
 * (see the comment at the top of this file for how it decides). Worst level first, then the
 * most behaviours, then key.
 */
export function groupDeviations(run: Run): Deviation[] {
  const ix = buildIndex();
  const profile = profileOf(run);
  const failed = run.behaviours.filter((b) => b.status === 'failed');
  if (failed.length === 0) return [];
  const namesFor = (k: string) => namesOf(ix, k);

  // Evidence: failed and passed (non-discovery) behaviours that name each item in their covers,
  // by joined item and by the catalog's own item (the arg of one endpoint).
  const fails = new Map<string, number>();
  const passes = new Map<string, number>();
  // Only the items evidence is asked for: the coarse covers and the request items of the failures.
  const wanted = new Set<string>();
  for (const b of failed) {
    for (const k of coverNodes(ix, b)) if (ix.nodes.get(k)!.coarse) wanted.add(k);
    for (const k of requestNodes(ix, b, profile)) wanted.add(`=${k}`);
  }
  for (const b of run.behaviours) {
    if (b.status !== 'failed' && !(b.status === 'passed' && !b.id.startsWith('disc.'))) continue;
    const tally = b.status === 'failed' ? fails : passes;
    const seen = new Set<string>();
    for (const c of b.covers ?? []) {
      const raw = nodeOfCover(ix, c);
      if (raw === undefined) continue;
      for (const n of [`=${raw}`, find(ix, raw)]) if (wanted.has(n) && !seen.has(n)) seen.add(n), tally.set(n, (tally.get(n) ?? 0) + 1);
    }
  }
  /** `exact`: the evidence of the catalog's own item (one endpoint's arg), not of every item joined to it. */
  const blamed = (k: string, share: number, exact = false) => {
    const f = fails.get(exact ? `=${k}` : k) ?? 0;
    const p = passes.get(exact ? `=${k}` : k) ?? 0;
    return f > 0 && f >= share * (f + p);
  };

  const candidates = new Map<string, Candidate[]>();
  for (const b of failed) {
    const text = textOf(b);
    const own = coverNodes(ix, b);
    let fine = own.filter((k) => !ix.nodes.get(k)!.coarse);
    const coarse = own.filter((k) => ix.nodes.get(k)!.coarse);
    // A whole resource narrowed to the fields the message names.
    for (const k of coarse) {
      if (!k.startsWith('field:')) continue;
      const res = k.slice('field:'.length);
      for (const f of ix.resourceFields.get(res) ?? []) if (names(text, f)) fine.push(find(ix, `field:${res}.${f}`));
    }
    // A cover over many modules or settings narrowed to those the message names (e.g. a module list check).
    fine = [...new Set(fine)];
    const named = fine.filter((k) => namesFor(k).some((n) => names(text, n)));
    if (named.length > 0 && named.length < fine.length) fine = named;
    const list: Candidate[] = fine.map((key) => ({ key, own: true }));
    for (const k of coarse) if (blamed(k, COARSE_BLAME_SHARE)) list.push({ key: k, own: true });
    for (const k of requestNodes(ix, b, profile)) {
      const root = find(ix, k);
      if (!list.some((c) => c.key === root) && blamed(k, ix.nodes.get(k)!.coarse ? COARSE_BLAME_SHARE : REQUEST_BLAME_SHARE, true)) list.push({ key: root, own: false });
    }
    candidates.set(b.id, list);
  }

  // Greedy assignment: the item explaining the most unassigned failures first.
  const assigned = new Map<string, string>();
  for (;;) {
    const count = new Map<string, { n: number; own: number }>();
    for (const b of failed) {
      if (assigned.has(b.id)) continue;
      for (const c of candidates.get(b.id)!) {
        const x = count.get(c.key) ?? { n: 0, own: 0 };
        x.n++;
        if (c.own) x.own++;
        count.set(c.key, x);
      }
    }
    if (count.size === 0) break;
    const [best, { n }] = [...count].sort(([ka, a], [kb, b]) => {
      const na = ix.nodes.get(ka)!;
      const nb = ix.nodes.get(kb)!;
      return b.n - a.n || b.own - a.own || Number(na.coarse) - Number(nb.coarse) || na.order - nb.order;
    })[0]!;
    for (const b of failed) {
      if (assigned.has(b.id) || !candidates.get(b.id)!.some((c) => c.key === best)) continue;
      // Several items of one endpoint, none failing anywhere else: the endpoint is what broke
      // (a create that refuses what is optional, a write that ignores two of its args at once).
      const own = candidates.get(b.id)!.filter((c) => c.own && !ix.nodes.get(c.key)!.coarse);
      const endpoint = n === 1 && own.length > 1 ? soleEndpoint(ix, b) : undefined;
      assigned.set(b.id, endpoint ?? best);
    }
  }

  const groups = new Map<string, BehaviourResult[]>();
  for (const b of failed) {
    const key = assigned.get(b.id) ?? `behaviour:${b.id}`;
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  const deviations = [...groups].map(([key, bs]) => toDeviation(ix, key, bs, (b) => candidates.get(b.id)?.some((c) => c.key === key && c.own) ?? false));
  const rank = (l: Level) => LEVELS.indexOf(l);
  return deviations.sort((a, b) => rank(a.level) - rank(b.level) || b.behaviours.length - a.behaviours.length || a.key.localeCompare(b.key));
}

/** The one endpoint all of a behaviour's covers belong to (`arg:<endpoint>.<name>`, `endpoint:<endpoint>`), if there is one. */
function soleEndpoint(ix: Index, b: Pick<BehaviourResult, 'covers'>): string | undefined {
  const ids = new Set<string>();
  for (const c of b.covers ?? []) {
    const m = /^(?:arg|endpoint):([^#:]+?)(?:\.[a-z_-]+)?(?:[#:].*)?$/.exec(c);
    const id = c.startsWith('endpoint:') ? /^endpoint:([^:]+)/.exec(c)?.[1] : m && [...ix.endpoints.keys()].find((e) => c.startsWith(`arg:${e}.`) && !c.slice(`arg:${e}.`.length).includes('.'));
    if (!id || !ix.endpoints.has(id)) return undefined;
    ids.add(id);
  }
  return ids.size === 1 ? `endpoint:${[...ids][0]}` : undefined;
}

/** `own`: whether a behaviour checks the item itself (its message says what broke best). */
function toDeviation(ix: Index, key: string, bs: BehaviourResult[], own: (b: BehaviourResult) => boolean): Deviation {
  const rank = (l: Level) => LEVELS.indexOf(l);
  const level = bs.map((b) => b.level).sort((a, b) => rank(a) - rank(b))[0]!;
  const first = [...bs].sort((a, b) => Number(own(b)) - Number(own(a)) || rank(a.level) - rank(b.level) || a.id.localeCompare(b.id))[0]!;
  const node = ix.nodes.get(key);
  const sentence = bs.find((b) => b.sentence)?.sentence;
  const joined = node ? [...ix.nodes.keys()].filter((k) => find(ix, k) === key && k !== key) : [];
  const label = node
    ? node.kind === 'arg' || node.kind === 'field' || node.kind === 'param'
      ? `${node.label}${joined.length ? ` and ${joined.length} more place${joined.length === 1 ? '' : 's'} that document it` : ''}`
      : node.label
    : `${first.id} (${first.title})`;
  return {
    key,
    kind: node?.kind ?? 'behaviour',
    item: label,
    spec: node?.spec ?? first.spec,
    ...(sentence ? { sentence } : {}),
    level,
    message: (first.reason ?? first.message ?? '').slice(0, 500),
    behaviours: bs.map((b) => b.id).sort(),
    ...(first.route ? { route: first.route } : {}),
  };
}

/** The deviations of a results file: its own, or grouped now for results written before deviations existed. */
export const deviationsOf = (r: Run & { deviations?: Deviation[] }): Deviation[] => r.deviations ?? groupDeviations(r);

/** "12 deviations in 42 failing behaviours" */
export function deviationHeadline(deviations: readonly Deviation[]): string {
  const n = deviations.length;
  const f = deviations.reduce((s, d) => s + d.behaviours.length, 0);
  return `${n} deviation${n === 1 ? '' : 's'} in ${f} failing behaviour${f === 1 ? '' : 's'}`;
}

/** At most this many deviations are listed one line each at the end of a run (the reports list all). */
export const SUMMARY_LINES = 40;

/**
 * The lines the console summary leads with: "N deviations in M failing behaviours", then one line
 * per deviation (level, item, behaviours, message), worst first; nothing when nothing failed.
 */
export function deviationSummary(r: Run & { deviations?: Deviation[] }, width = 160): string[] {
  const ds = deviationsOf(r);
  if (ds.length === 0) return [];
  const clip = (t: string, n: number) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);
  const lines = [`${deviationHeadline(ds)}:`];
  for (const d of ds.slice(0, SUMMARY_LINES)) {
    const head = `  ${d.level.padEnd(8)} ${d.item}${d.behaviours.length > 1 ? ` (${d.behaviours.length} behaviours)` : ` (${d.behaviours[0]})`}`;
    const msg = d.message.split('\n')[0]!;
    lines.push(clip(`${head}: ${msg}`, Math.max(width, head.length + 20)));
  }
  if (ds.length > SUMMARY_LINES) lines.push(`  … and ${ds.length - SUMMARY_LINES} more (every deviation is in the report)`);
  return lines;
}
