/**
 * The site index and the namespace indexes (core part 1, part 4 › Index routes).
 *
 * suites/discovery/index.spec.ts checks the TYPES of the site index fields on the index the
 * CLI fetched once; this file checks what needs requests (the `context` and `namespace`
 * parameters, what the namespace indexes answer) and the values the spec describes beyond
 * their types.
 */
import { catalog, endpointById } from '../../schemas/catalog/index.ts';
import { zoneOffsetHours } from '../../src/sdk/timezone.ts';
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/sdk/http.ts';
import { whyNotAccepted } from '../../src/sdk/controls.ts';
import { findAdvertisedRoute } from '../../src/sdk/discovery.ts';
import { normalizeIndex } from '../../schemas/profiles.ts';

const ok = (status: number) => status >= 200 && status <= 299;

/** The spec-named view of an index answer (site or namespace index). */
function specView(t: BehaviourContext, res: Response): any {
  return normalizeIndex(res.body, t.run.profile);
}

function routeKeys(t: BehaviourContext, res: Response): string[] {
  const routes = specView(t, res)?.routes;
  return routes && typeof routes === 'object' ? Object.keys(routes).sort() : [];
}

/**
 * Part 2 › Contexts: "A `context` parameter takes `view`, `embed` or `edit` (default `view`)".
 * The index routes' own entries record only the default; the values are the catalog's
 * Contexts enum (as recorded on the post collection's `context`).
 */
const CONTEXTS: string[] = [...(endpointById('cms.posts.collection.list').endpoint.args as Record<string, any>).context.enum];
function contextValues(endpointId: string): { values: string[]; fallback: string } {
  const arg = (endpointById(endpointId).endpoint.args as Record<string, any>).context;
  return { values: CONTEXTS, fallback: arg.default };
}

// ---------------------------------------------------------------------------
// GET / with context
// ---------------------------------------------------------------------------

const ROOT = endpointById('index.root.read');

behaviour(
  {
    id: 'index.root.context',
    level: 'MUST',
    namespace: '',
    route: '/',
    title: `GET / accepts context ${CONTEXTS.join(', ')}, and omitting it answers as context=${contextValues('index.root.read').fallback}`,
    spec: ROOT.endpoint.spec,
    covers: ['arg:index.root.read.context', 'endpoint:index.root.read'],
  },
  async (t) => {
    const { values, fallback } = contextValues('index.root.read');
    const answers = await Promise.all([t.client.get('/'), ...values.map((context) => t.client.get('/', { query: { context } }))]);
    const [omitted, ...withContext] = answers;
    const shape = (res: Response) => {
      const v = specView(t, res);
      return JSON.stringify({ namespaces: v?.namespaces, routes: routeKeys(t, res) });
    };
    if (!ok(omitted!.status) || !Array.isArray(omitted!.body?.namespaces)) t.fail(`GET / answered ${omitted!.status} without the site index`);
    values.forEach((context, i) => {
      const res = withContext[i]!;
      if (!ok(res.status)) t.fail(`GET / with context=${context} answered ${res.status}: ${res.text.slice(0, 200)}`);
      if (!Array.isArray(res.body?.namespaces) || typeof res.body?.routes !== 'object') t.fail(`GET / with context=${context} is not the site index`);
    });
    const viewShape = shape(withContext[values.indexOf(fallback)]!);
    if (shape(omitted!) !== viewShape) t.fail(`GET / without context lists other namespaces or routes than with context=${fallback}`);
  },
  { concurrent: true },
);

// ---------------------------------------------------------------------------
// Namespace indexes: GET /oembed/1.0 and GET /cms/v2
// ---------------------------------------------------------------------------

const NAMESPACE_INDEXES = [
  { ns: 'oembed/1.0', endpointId: 'index.oembed.read', other: 'cms/v2' },
  { ns: 'cms/v2', endpointId: 'index.cms.read', other: 'oembed/1.0' },
] as const;

for (const { ns, endpointId, other } of NAMESPACE_INDEXES) {
  const { route, endpoint } = endpointById(endpointId);
  const args = endpoint.args as Record<string, any>;
  const idPart = endpointId.split('.')[1];
  const documented = catalog.routes.filter((r) => r.namespace === ns).map((r) => r.path);

  /** Problems with a namespace index answer for `expectedNs`. */
  const deviations = (t: BehaviourContext, res: Response, expectedNs: string, expectedRoutes: string[]): string[] => {
    if (!ok(res.status)) return [whyNotAccepted(res, 'a valid request')];
    const v = specView(t, res);
    if (!v?.routes || typeof v.routes !== 'object') return ['the answer has no routes object'];
    const problems: string[] = [];
    const foreign = Object.keys(v.routes).filter((k) => k !== `/${expectedNs}` && !k.startsWith(`/${expectedNs}/`));
    if (foreign.length) problems.push(`${foreign.length} routes outside ${expectedNs} (first ${foreign[0]})`);
    // A documented route the site index lacks too is disc.route.<route>'s finding: a route missing is one deviation.
    const missing = expectedRoutes.filter((p) => !findAdvertisedRoute(v, p) && findAdvertisedRoute(t.index, p));
    if (missing.length) problems.push(`documented routes the site index lists are missing: ${missing.join(', ')}`);
    return problems;
  };

  behaviour(
    {
      id: `index.${idPart}.routes`,
      level: 'MUST',
      namespace: ns,
      route: route.path,
      title: `GET ${route.path} answers the namespace index: the documented routes of ${ns} and no route of another namespace`,
      spec: endpoint.spec,
      covers: [`endpoint:${endpointId}`],
    },
    // "Returns: namespace index" (part 4 › Index routes): the index of that namespace's routes.
    async (t) => {
      t.requireNamespace(ns);
      const problems = deviations(t, await t.client.get(route.path), ns, documented);
      if (problems.length) t.fail(`GET ${route.path}: ${problems.join('; ')}`);
    },
    { concurrent: true },
  );

  behaviour(
    {
      id: `index.${idPart}.context`,
      level: 'MUST',
      namespace: ns,
      route: route.path,
      title: `GET ${route.path} accepts context ${CONTEXTS.join(', ')}, and omitting it answers as context=${args.context.default}`,
      spec: endpoint.spec,
      covers: [`arg:${endpointId}.context`],
    },
    async (t) => {
      t.requireNamespace(ns);
      const values = CONTEXTS;
      const [omitted, ...withContext] = await Promise.all([t.client.get(route.path), ...values.map((context) => t.client.get(route.path, { query: { context } }))]);
      const problems: string[] = [];
      values.forEach((context, i) => {
        const p = deviations(t, withContext[i]!, ns, documented);
        if (p.length) problems.push(`context=${context}: ${p.join(', ')}`);
      });
      if (problems.length) t.fail(problems.join('; '));
      const fallback = withContext[values.indexOf(args.context.default)]!;
      if (JSON.stringify(routeKeys(t, omitted!)) !== JSON.stringify(routeKeys(t, fallback)))
        t.fail(`without context GET ${route.path} lists other routes than with context=${args.context.default}`);
    },
    { concurrent: true },
  );

  behaviour(
    {
      id: `index.${idPart}.namespace-default`,
      level: 'MUST',
      namespace: ns,
      route: route.path,
      title: `GET ${route.path}: \`namespace\` defaults to ${args.namespace.default}: omitting it answers as namespace=${args.namespace.default}`,
      spec: endpoint.spec,
      covers: [`arg:${endpointId}.namespace`],
    },
    async (t) => {
      t.requireNamespace(ns);
      const [omitted, explicit] = await Promise.all([
        t.client.get(route.path),
        t.client.get(route.path, { query: { namespace: t.run.profile.toTargetNamespace(args.namespace.default) } }),
      ]);
      const problems = deviations(t, explicit, args.namespace.default, documented);
      if (problems.length) t.fail(`with namespace=${args.namespace.default}: ${problems.join('; ')}`);
      const a = routeKeys(t, omitted);
      const b = routeKeys(t, explicit);
      if (JSON.stringify(a) !== JSON.stringify(b))
        t.fail(`without namespace GET ${route.path} lists ${a.length} routes (first ${a[0]}), with namespace=${args.namespace.default} ${b.length} (first ${b[0]})`);
    },
    { concurrent: true },
  );

  behaviour(
    {
      id: `index.${idPart}.namespace-selects`,
      level: 'SHOULD',
      namespace: ns,
      route: route.path,
      title: `GET ${route.path}?namespace=${other} answers the index of ${other}, as the reference does`,
      spec: endpoint.spec,
      covers: [`arg:${endpointId}.namespace`],
    },
    // The spec gives the parameter and its default only; WordPress serves the index of the
    // namespace named by the parameter, whatever the route.
    async (t) => {
      t.requireNamespace(ns);
      t.requireNamespace(other);
      const res = await t.client.get(route.path, { query: { namespace: t.run.profile.toTargetNamespace(other) } });
      const otherRoutes = catalog.routes.filter((r) => r.namespace === other).map((r) => r.path);
      const problems = deviations(t, res, other, otherRoutes);
      if (problems.length) t.fail(`GET ${route.path}?namespace=${other}: ${problems.join('; ')}`);
    },
    { concurrent: true },
  );
}

// ---------------------------------------------------------------------------
// Values of the site index beyond their types (part 1)
// ---------------------------------------------------------------------------

behaviour(
  {
    id: 'index.gmt-offset.value',
    level: 'MUST',
    namespace: '',
    route: '/',
    title: 'gmt_offset is an offset in hours (between -12 and +14), the current offset of timezone_string when that names a zone',
    spec: catalog.indexFields.find((f) => f.name === 'gmt_offset')!.spec,
    covers: ['index.field.gmt_offset', 'index.field.timezone_string'],
  },
  // "gmt_offset: numeric offset of the site timezone from GMT, in hours"; the type itself is
  // disc.index.field.gmt_offset's concern: a value that is not numeric is skipped here.
  (t) => {
    const index = t.run.info.index as any;
    const raw = index?.gmt_offset;
    const hours = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    if (!Number.isFinite(hours)) t.skip(`gmt_offset ${JSON.stringify(raw)} is not numeric (reported by disc.index.field.gmt_offset)`);
    if (hours < -12 || hours > 14) t.fail(`gmt_offset ${JSON.stringify(raw)} is not an offset in hours (-12 to +14)`);
    const zone = index?.timezone_string;
    if (typeof zone === 'string' && zone !== '') {
      const expected = zoneOffsetHours(zone);
      if (expected !== undefined && Math.abs(expected - hours) > 1e-6) t.fail(`gmt_offset ${JSON.stringify(raw)} is not the current offset of timezone_string ${zone} (${expected} hours)`);
    }
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'index.routes.namespace-values',
    level: 'MUST',
    namespace: '',
    route: '/',
    title: 'every routes entry names its namespace: one of `namespaces` (empty for / and /batch/v1), and its route lies under it',
    spec: catalog.indexFields.find((f) => f.name === 'routes')!.spec,
    covers: ['index.field.routes', 'index.field.namespaces'],
  },
  // Part 1: "Each entry under `routes` has: `namespace` (string, empty for `/` and `/batch/v1`)".
  (t) => {
    const routes = t.index?.routes;
    const namespaces: any = t.index?.namespaces;
    if (!routes || typeof routes !== 'object' || !Array.isArray(namespaces)) t.skip('the index has no routes object or namespaces array (reported by disc.index.*)');
    const problems: string[] = [];
    for (const [key, entry] of Object.entries<any>(routes)) {
      const ns = entry?.namespace;
      if (typeof ns !== 'string') continue; // type: disc.index.routes.entries
      if (ns === '') continue;
      if (!namespaces.includes(ns)) problems.push(`${key}: namespace ${ns} is not in namespaces`);
      else if (key !== `/${ns}` && !key.startsWith(`/${ns}/`)) problems.push(`${key}: not under its namespace ${ns}`);
    }
    if (problems.length) t.fail(`${problems.length} route entries: ${problems.slice(0, 5).join('; ')}`);
  },
  { concurrent: true },
);
