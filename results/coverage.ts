/**
 * Catalog coverage: which documented facts some executed behaviour exercised.
 *
 * Denominator: every item of the catalog (schemas/catalog), enumerated by `catalogItems()`:
 *
 * | kind            | one item per                                                  | item ID                                        |
 * |-----------------|---------------------------------------------------------------|------------------------------------------------|
 * | namespace       | namespace either document says its site advertises            | `namespace.<ns>`                               |
 * | index-field     | site index field                                              | `index.field.<name>` (catalog ID)              |
 * | authentication  | the documented authentication scheme                          | `authentication.application-passwords`         |
 * | route-method    | route × method (each endpoint's methods)                      | `endpoint:<endpointId>:<METHOD>`               |
 * | route-param     | documented path segment parameter                             | `param:<routeId>.<param>`                      |
 * | allow-batch     | endpoint whose allow_batch the spec states                    | `batch:<endpointId>`                           |
 * | arg-attribute   | arg × attribute the spec states (type, default, enum, ...)    | `arg:<endpointId>.<arg>#<attribute>`           |
 * | field-context   | resource field × context (one item when no context is stated) | `field:<resourceId>.<path>[@<context>]`        |
 * | setting         | suite setting                                                 | catalog ID, e.g. `suite.setting.<name>`        |
 * | module          | suite module                                                  | catalog ID, e.g. `suite.module.<slug>`         |
 * | limit           | documented limit                                              | catalog ID, e.g. `limit.per_page.maximum`      |
 *
 * Field items: a field or sub-property with stated contexts is one item per context
 * (`field:post.title.raw@edit`); a top-level field under which no context is stated at all is one
 * item (`field:post.slug`).
 *
 * Numerator: items that at least one *executed* behaviour (status passed or failed; a skip
 * exercised nothing) names in its `covers`. A `covers` ID covers:
 * - the item with exactly that ID;
 * - every item whose ID starts with it followed by one of `.` `#` `@` `:` — so the coarser IDs
 *   suites use cover the finer items: `arg:<endpointId>.<arg>` covers every stated attribute of
 *   that arg (discovery compares all of them at once), `endpoint:<endpointId>` covers each of its
 *   methods, `field:post.title` covers `field:post.title.raw@edit` and the other contexts;
 * - `route:<routeId>` covers every route × method item of that route.
 * A `covers` ID that matches no item is listed under `unknownCovers` (a typo, or a fact the
 * catalog does not hold), never counted.
 * Facts the spec explicitly does not show (`catalog.notShown`) are not items.
 */
import { catalog } from '../schemas/catalog/index.ts';
import { uncoveredReason } from '../schemas/catalog/uncovered.ts';
import type { ArgSpec, Catalog, FieldSpec } from '../schemas/types.ts';

export const COVERAGE_KINDS = [
  'namespace',
  'index-field',
  'authentication',
  'route-method',
  'route-param',
  'allow-batch',
  'arg-attribute',
  'field-context',
  'setting',
  'module',
  'limit',
] as const;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];

export interface CatalogItem {
  id: string;
  kind: CoverageKind;
  /** Namespace the item belongs to ('' for the site index, authentication and limits). */
  namespace: string;
}

export interface CoverageCounts {
  items: number;
  covered: number;
  /** covered / items × 100, one decimal; 0 when there are no items. */
  percent: number;
}

/** Items no request of a behaviour exercised, grouped by the stated reason (schemas/catalog/uncovered.ts). */
export interface BehaviouralGap {
  /** Why no behaviour can exercise these items; null when no reason is stated (a gap to close). */
  reason: string | null;
  ids: string[];
}

export interface BehaviouralCoverage extends CoverageCounts {
  /** Every item not exercised by a request, grouped by reason (stated reasons first, catalog order within). */
  uncovered: BehaviouralGap[];
}

export interface Coverage extends CoverageCounts {
  /** How the figure is computed, in one paragraph (for readers of results.json). */
  definition: string;
  /** Covered items exercised by at least one behaviour that sent requests (not only read the index). */
  coveredByRequests: number;
  /**
   * Behavioural coverage: items exercised by a request of a behaviour that ran and is not a
   * discovery behaviour (`disc.*` compare what the target advertises, not what it does).
   */
  behavioural: BehaviouralCoverage;
  byKind: Record<CoverageKind, CoverageCounts>;
  byNamespace: Record<string, CoverageCounts>;
  /** Items no executed behaviour covers, grouped by namespace and kind (catalog order). */
  uncovered: { namespace: string; kind: CoverageKind; ids: string[] }[];
  /** `covers` IDs of executed behaviours that match no catalog item. */
  unknownCovers: { id: string; behaviours: string[] }[];
}

export const COVERAGE_DEFINITION =
  'Items: every catalog fact (namespace, index field, authentication, route x method, path parameter, allow_batch, ' +
  'arg x stated attribute, resource field x context, setting, module, limit). An item is covered when a behaviour ' +
  'that ran (passed or failed; skips and errors do not count) names it, or a coarser ID containing it, in its covers list ' +
  '(arg:<endpoint>.<arg> covers all attributes of the arg; endpoint:<id> all its methods; route:<id> all methods of the route). ' +
  'Behavioural coverage counts only items named by a behaviour that sent requests (or checked the answer the setup of the run requested for it) and is not a discovery behaviour (disc.*): ' +
  'what the target does, not what its index advertises.';

const SEPARATORS = new Set(['.', '#', '@', ':']);

/** Attributes of an arg that are items: everything the catalog states except free-text notes. */
function argAttributes(arg: ArgSpec): string[] {
  return Object.keys(arg).filter((k) => k !== 'note');
}

function fieldItems(resourceId: string, namespace: string, fields: Record<string, FieldSpec>): CatalogItem[] {
  const out: CatalogItem[] = [];
  const walk = (path: string, f: FieldSpec): CatalogItem[] => {
    const base = `field:${resourceId}.${path}`;
    const own = (f.contexts ?? []).map((c): CatalogItem => ({ id: `${base}@${c}`, kind: 'field-context', namespace }));
    return [...own, ...Object.entries(f.properties ?? {}).flatMap(([k, sub]) => walk(`${path}.${k}`, sub))];
  };
  for (const [name, f] of Object.entries(fields)) {
    const found = walk(name, f);
    out.push(...(found.length ? found : [{ id: `field:${resourceId}.${name}`, kind: 'field-context' as const, namespace }]));
  }
  return out;
}

/** Every item of a catalog, in catalog order. IDs are unique. */
export function catalogItems(c: Catalog = catalog): CatalogItem[] {
  const items: CatalogItem[] = [];
  const namespaces = [...new Set([...c.namespaces.core, ...c.namespaces.extensions])];
  for (const ns of namespaces) items.push({ id: `namespace.${ns}`, kind: 'namespace', namespace: ns });
  for (const f of c.indexFields) items.push({ id: f.id, kind: 'index-field', namespace: '' });
  items.push({ id: `authentication.${c.authentication.scheme}`, kind: 'authentication', namespace: '' });
  const routeNamespace = new Map<string, string>();
  for (const route of c.routes) {
    routeNamespace.set(route.path, route.namespace);
    for (const e of route.endpoints) for (const m of e.methods) items.push({ id: `endpoint:${e.id}:${m}`, kind: 'route-method', namespace: route.namespace });
    for (const p of Object.keys(route.params ?? {})) items.push({ id: `param:${route.id}.${p}`, kind: 'route-param', namespace: route.namespace });
    for (const e of route.endpoints) if (e.allowBatch !== undefined) items.push({ id: `batch:${e.id}`, kind: 'allow-batch', namespace: route.namespace });
    for (const e of route.endpoints) {
      if (e.args === 'not-shown') continue;
      for (const [name, arg] of Object.entries(e.args))
        for (const attr of argAttributes(arg)) items.push({ id: `arg:${e.id}.${name}#${attr}`, kind: 'arg-attribute', namespace: route.namespace });
    }
  }
  for (const r of c.resources) {
    if (r.fields === 'not-shown') continue;
    const ns = (r.route && (routeNamespace.get(r.route) ?? /^\/([^/]+\/v\d+)/.exec(r.route)?.[1])) || '';
    items.push(...fieldItems(r.id, ns, r.fields));
  }
  for (const s of c.settings) items.push({ id: s.id, kind: 'setting', namespace: 'suite/v4' });
  for (const m of c.modules) items.push({ id: m.id, kind: 'module', namespace: 'suite/v4' });
  for (const l of c.limits) items.push({ id: l.id, kind: 'limit', namespace: '' });
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true)));
}

/**
 * The items by every `covers` ID that stands for them: the item's own ID and each prefix of it that
 * ends before a separator (in the items' order). Made once per list of items: a run resolves about
 * 3,000 distinct covers against about 10,000 items (for every site of a fleet).
 */
const prefixIndexes = new WeakMap<readonly CatalogItem[], Map<string, string[]>>();
function prefixIndex(items: readonly CatalogItem[]): Map<string, string[]> {
  let index = prefixIndexes.get(items);
  if (index) return index;
  index = new Map();
  const add = (key: string, id: string) => {
    const ids = index!.get(key);
    if (!ids) index!.set(key, [id]);
    else if (ids[ids.length - 1] !== id) ids.push(id);
  };
  for (const item of items) {
    for (let i = 1; i < item.id.length; i++) if (SEPARATORS.has(item.id.charAt(i))) add(item.id.slice(0, i), item.id);
    add(item.id, item.id);
  }
  prefixIndexes.set(items, index);
  return index;
}

/** Item IDs a `covers` ID stands for (empty when it matches nothing). */
export function resolveCover(cover: string, items: readonly CatalogItem[], c: Catalog = catalog): string[] {
  const hits = new Set<string>(prefixIndex(items).get(cover));
  if (cover.startsWith('route:')) {
    const route = c.routes.find((r) => r.id === cover.slice('route:'.length));
    for (const e of route?.endpoints ?? []) for (const m of e.methods) hits.add(`endpoint:${e.id}:${m}`);
  }
  return [...hits];
}

function groupUncovered(items: readonly CatalogItem[]): Coverage['uncovered'] {
  const groups = new Map<string, Coverage['uncovered'][number]>();
  for (const i of items) {
    const key = `${i.namespace}\u0000${i.kind}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { namespace: i.namespace, kind: i.kind, ids: [] }));
    g.ids.push(i.id);
  }
  return [...groups.values()];
}

/** Items grouped by their stated reason; the group without a reason (null) last. */
export function groupByReason(items: readonly CatalogItem[], reasonOf: (id: string) => string | undefined = uncoveredReason): BehaviouralGap[] {
  const groups = new Map<string | null, string[]>();
  for (const i of items) {
    const reason = reasonOf(i.id) ?? null;
    groups.set(reason, [...(groups.get(reason) ?? []), i.id]);
  }
  return [...groups].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => (a.reason === null ? 1 : 0) - (b.reason === null ? 1 : 0));
}

/** Number of uncovered items. */
export const uncoveredCount = (c: Pick<Coverage, 'uncovered'>) => c.uncovered.reduce((n, g) => n + g.ids.length, 0);

/** Discovery behaviours compare the advertised index with the catalog: they exercise no documented behaviour. */
export const isDiscovery = (id: string): boolean => id.startsWith('disc.');

const pct = (covered: number, items: number) => (items === 0 ? 0 : Math.round((covered / items) * 1000) / 10);

export interface CoveringBehaviour {
  id: string;
  status: 'passed' | 'failed' | 'skipped' | 'error';
  covers?: string[];
  requests?: number;
  /** Checked an answer the run's setup requested for it (exercised, though not its own request). */
  setupAnswer?: boolean;
}

/** The items of a catalog, enumerated once (the catalog is data, never changed after it is made). */
const itemsOf = new WeakMap<Catalog, CatalogItem[]>();

export function computeCoverage(behaviours: readonly CoveringBehaviour[], c: Catalog = catalog): Coverage {
  let items = itemsOf.get(c);
  if (!items) itemsOf.set(c, (items = catalogItems(c)));
  const covered = new Set<string>();
  const byRequests = new Set<string>();
  const behavioural = new Set<string>();
  const unknown = new Map<string, string[]>();
  const cache = new Map<string, string[]>();
  for (const b of behaviours) {
    if (b.status !== 'passed' && b.status !== 'failed') continue;
    const exercised = (b.requests ?? 0) > 0 || b.setupAnswer === true;
    for (const cover of new Set(b.covers ?? [])) {
      let ids = cache.get(cover);
      if (!ids) cache.set(cover, (ids = resolveCover(cover, items, c)));
      if (ids.length === 0) unknown.set(cover, [...(unknown.get(cover) ?? []), b.id]);
      for (const id of ids) {
        covered.add(id);
        if (exercised) byRequests.add(id);
        if (exercised && !isDiscovery(b.id)) behavioural.add(id);
      }
    }
  }
  const tally = (list: readonly CatalogItem[]): CoverageCounts => {
    const n = list.filter((i) => covered.has(i.id)).length;
    return { items: list.length, covered: n, percent: pct(n, list.length) };
  };
  const byKind = Object.fromEntries(COVERAGE_KINDS.map((k) => [k, tally(items.filter((i) => i.kind === k))])) as Record<CoverageKind, CoverageCounts>;
  const namespaces = [...new Set(items.map((i) => i.namespace))].sort();
  const byNamespace = Object.fromEntries(namespaces.map((ns) => [ns || '(site)', tally(items.filter((i) => i.namespace === ns))]));
  return {
    definition: COVERAGE_DEFINITION,
    ...tally(items),
    coveredByRequests: byRequests.size,
    behavioural: {
      items: items.length,
      covered: behavioural.size,
      percent: pct(behavioural.size, items.length),
      uncovered: groupByReason(items.filter((i) => !behavioural.has(i.id))),
    },
    byKind,
    byNamespace,
    uncovered: groupUncovered(items.filter((i) => !covered.has(i.id))),
    unknownCovers: [...unknown].map(([id, bs]) => ({ id, behaviours: bs.sort() })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}
