/**
 * suite/v4 routes (extensions part 4 › Suite): the read-only routes (and every other documented
 * GET) answer GET; `/module/<slug>` answers for every documented module; the documented path
 * segment patterns (`<slug>` a-z and hyphen, `<plugin>`, `<id>`, `<service>`, `<keyring_id>`
 * digits, `<options>`, `<notice>`) refuse values outside them.
 *
 * A route that answers 404 rest_no_route fails: it does not exist. Where the answer shows that
 * the suite's external service is missing (it names the service, the connection, a registration
 * or token), or the route's answer comes from that service and the target reports it is not
 * connected (support.ts suiteConnection), the check says so and skips. A path segment's refusals
 * count only when the same request with a documented value reaches the route.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { ArgSpec, RouteSpec } from '../../schemas/types.ts';
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/sdk/http.ts';
import { segmentSamples, siteAddress } from '../../src/sdk/discovery.ts';
import { SUITE, answered, brief, expectAnswered, isNoRoute, isValidationError, namedParams, refused, sameRefusal, skipIfForbidden } from './lib/support.ts';
import { skipIfRemoteUnavailable, spamService } from './lib/suite-service.ts';
import { validValue } from '../../schemas/values.ts';

const suiteRoutes = catalog.routes.filter((r) => r.namespace === SUITE);
/** Covered elsewhere: the namespace index (below, by its own ID), /settings (suite.settings.read), /module/<slug> (all modules, below). */
const SEPARATE = new Set(['suite.index', 'suite.settings', 'suite.module.item']);
const MODULE_ITEM = suiteRoutes.find((r) => r.id === 'suite.module.item')!;

interface Sample {
  value: string;
  /** Known to name an existing member (a 404 is then a failure, not an unknown sample). */
  known: boolean;
}

/** The spam filter's service name, as its namespace is spelled on the target (`spamfilter`, or `akismet`). */

/** A value for each path segment of a route. Unknown members are fine: a 404 for them skips. */
async function segmentValue(t: BehaviourContext, route: RouteSpec, param: string, spec: ArgSpec): Promise<Sample> {
  if (route.id === 'suite.plugin.item') {
    const plugin = await knownPlugin(t, spec);
    if (plugin) return { value: plugin, known: true };
  }
  if (route.id === 'suite.module.key.check') return { value: spamService(t), known: false };
  if (route.id === 'suite.module.data' || route.id === 'suite.settings.item') return { value: t.run.profile.toTargetModule('stats'), known: true };
  if (spec.type === 'integer') return { value: '1', known: false };
  if (param === 'service') return { value: 'google', known: false };
  if (param === 'plugin') return { value: 'cmsc-none/cmsc-none.php', known: false };
  return { value: spec.pattern ? segmentSamples(spec.pattern).accept[0]! : 'cmsc', known: false };
}

let plugins: Promise<string[]> | undefined;
/**
 * A plugin the target has, for `/plugin/<plugin>`: GET /plugins' body is not shown; the reference
 * implementation answers an object keyed by plugin file ("akismet/akismet.php").
 */
async function knownPlugin(t: BehaviourContext, spec: ArgSpec): Promise<string | undefined> {
  plugins ??= t.client.get('/suite/v4/plugins').then((res) => (answered(res) && res.body && typeof res.body === 'object' && !Array.isArray(res.body) ? Object.keys(res.body) : []));
  const re = new RegExp(`^(?:${spec.pattern})$`);
  return (await plugins).find((p) => re.test(p));
}

async function concretePath(t: BehaviourContext, route: RouteSpec, override: Record<string, string> = {}): Promise<{ path: string; known: boolean; samples: string[] }> {
  let path = route.path;
  let known = true;
  const samples: string[] = [];
  for (const [param, spec] of Object.entries(route.params ?? {})) {
    const sample = override[param] !== undefined ? { value: override[param]!, known: true } : await segmentValue(t, route, param, spec);
    known &&= sample.known;
    samples.push(`<${param}> = ${sample.value}`);
    path = path.replace(`<${param}>`, sample.value);
  }
  return { path, known, samples };
}

/** Query values for the required args of a GET endpoint (types and names from the catalog). */
function requiredQuery(t: BehaviourContext, args: Record<string, ArgSpec> | 'not-shown'): Record<string, string> {
  if (args === 'not-shown') return {};
  const out: Record<string, string> = {};
  for (const [name, arg] of Object.entries(args)) {
    if (arg.required !== true || 'default' in arg) continue;
    out[name] = name === 'object_type' ? 'post' : name === 'name' ? 'blogname' : name === 'redirect_url' ? siteAddress(t.index, t.run.info.targetUrl) : String(validValue(arg));
  }
  return out;
}

/** Query parameters of a GET whose valid values the spec leaves open (no type, no allowed values). */
function openArgs(args: Record<string, ArgSpec> | 'not-shown'): string[] {
  if (args === 'not-shown') return [];
  return Object.entries(args)
    .filter(([, a]) => a.type === undefined && !a.enum)
    .map(([n]) => n);
}

async function expectGetAnswered(t: BehaviourContext, route: RouteSpec, res: Response, what: string, known: boolean, samples: string[], open: string[] = []) {
  if (answered(res)) return;
  skipIfForbidden(t, res, what);
  if (isNoRoute(res)) t.fail(`${what} answered ${brief(res)}: the documented route does not exist on the target`);
  await skipIfRemoteUnavailable(t, route.id, res, what);
  if (res.status === 404 && !known)
    t.skip(`${what} answered ${brief(res)} for ${samples.join(', ')}, a value not known to name anything on the target (the route's members are not shown)`);
  const named = namedParams(res, open);
  if (isValidationError(res, open) && named.length && named.every((p) => open.includes(p)))
    t.skip(`${what} answered ${brief(res)}: the target does not take the value sent for ${named.join(', ')}, whose valid values the spec leaves open`);
  expectAnswered(t, res, what);
}

const start = (t: BehaviourContext) => {
  t.requireNamespace(SUITE);
  t.requireCredentials();
};

behaviour(
  {
    id: 'suite.index',
    level: 'MUST',
    namespace: SUITE,
    route: '/suite/v4',
    title: 'GET /suite/v4 (the namespace index) answers',
    spec: suiteRoutes.find((r) => r.id === 'suite.index')!.spec,
    covers: ['endpoint:suite.index.read', 'namespace.suite/v4'],
  },
  async (t) => {
    t.requireNamespace(SUITE);
    expectAnswered(t, await t.client.get('/suite/v4'), 'GET /suite/v4');
  },
  { concurrent: true },
);

// --- every documented GET answers -------------------------------------------------------------

for (const route of suiteRoutes.filter((r) => !SEPARATE.has(r.id))) {
  const get = route.endpoints.find((e) => e.methods.includes('GET'));
  if (!get) continue;
  behaviour(
    {
      id: `suite.read.${route.id.replace(/^suite\./, '')}`,
      level: 'MUST',
      namespace: SUITE,
      route: route.path,
      title: `GET ${route.path} answers${Object.keys(requiredArgs(get.args)).length ? ` (with ${Object.keys(requiredArgs(get.args)).join(', ')})` : ''}`,
      spec: get.spec,
      covers: [`endpoint:${get.id}`],
    },
    async (t) => {
      start(t);
      const { path, known, samples } = await concretePath(t, route);
      const query = requiredQuery(t, get.args);
      const res = await t.client.get(path, { query });
      await expectGetAnswered(t, route, res, `GET ${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`, known, samples, openArgs(get.args));
    },
    { concurrent: true },
  );
}

function requiredArgs(args: Record<string, ArgSpec> | 'not-shown'): Record<string, ArgSpec> {
  return args === 'not-shown' ? {} : Object.fromEntries(Object.entries(args).filter(([, a]) => a.required === true && !('default' in a)));
}

behaviour(
  {
    id: 'suite.read.module.item',
    level: 'MUST',
    namespace: SUITE,
    route: MODULE_ITEM.path,
    title: `GET /module/<slug> answers for every documented module (${catalog.modules.length})`,
    spec: MODULE_ITEM.spec,
    covers: ['endpoint:suite.module.item.read', `param:${MODULE_ITEM.id}.slug`, ...catalog.modules.map((m) => m.id)],
  },
  async (t) => {
    start(t);
    const results = await Promise.all(
      catalog.modules.map(async (m) => ({ slug: t.run.profile.toTargetModule(m.slug), res: await t.client.get(`/suite/v4/module/${t.run.profile.toTargetModule(m.slug)}`) })),
    );
    for (const r of results) skipIfForbidden(t, r.res, `GET /suite/v4/module/${r.slug}`);
    const wrong = results.filter((r) => !answered(r.res));
    if (wrong.length) t.fail(`${wrong.length} documented module(s) not answered: ${wrong.map((r) => `${r.slug} (${brief(r.res)})`).join(', ')}`);
  },
  { concurrent: true },
);

// --- path segment patterns refuse what they do not document -------------------------------------

/**
 * Values just outside a segment pattern: one per kind of character the pattern leaves out (a
 * digit, a letter, '-' or '_', '.', other punctuation, a space). Never '/', which would change
 * the route's shape rather than the segment.
 */
function rejectSamples(pattern: string): string[] {
  const all = segmentSamples(pattern).reject.filter((s) => !s.includes('/'));
  const kinds = [/[0-9]/, /[a-z]/, /[-_]/, /\./, /[~!@+,:]/, / /];
  return kinds.map((k) => all.find((s) => k.test(s.slice(1, -1)))).filter((s): s is string => s !== undefined);
}

for (const route of suiteRoutes) {
  for (const [param, spec] of Object.entries(route.params ?? {})) {
    if (!spec.pattern) continue;
    const endpoint = route.endpoints.find((e) => e.methods.includes('GET')) ?? route.endpoints[0]!;
    const method = endpoint.methods.includes('GET') ? 'GET' : endpoint.methods[0]!;
    const rejects = rejectSamples(spec.pattern);
    behaviour(
      {
        id: `suite.pattern.${route.id.replace(/^suite\./, '')}.${param.replace(/_/g, '-')}`,
        level: 'MUST',
        namespace: SUITE,
        route: route.path,
        title: `<${param}> of ${route.path} (${spec.note ?? spec.pattern}) refuses values outside it (${rejects.map((s) => JSON.stringify(s)).join(', ')})`,
        spec: route.spec,
        covers: [`param:${route.id}.${param}`],
      },
      async (t) => {
        start(t);
        if (method !== 'GET') t.requireWrites();
        // A write's body is empty: its required arguments are left out (on purpose: the request's
        // body is not what is checked, see the control below).
        const omitted = method === 'GET' || endpoint.args === 'not-shown' ? [] : Object.entries(endpoint.args).filter(([, a]) => a.required === true).map(([n]) => n);
        const send = async (value: string, wrong = true) => {
          const { path } = await concretePath(t, route, { [param]: value });
          const invalid = [...(wrong ? [param] : []), ...omitted];
          return { path, res: await t.client.request(method, path, { ...(method === 'GET' ? { query: requiredQuery(t, endpoint.args) } : { body: {} }), ...(invalid.length ? { invalid } : {}) }) };
        };
        const results = await Promise.all(rejects.map((v) => send(v)));
        const accepted = results.filter((r) => !refused(r.res));
        if (accepted.length) {
          t.counterexample(accepted.map((r) => r.path));
          t.fail(`${accepted.map((r) => `${method} ${r.path} answered ${brief(r.res)}`).join('; ')}: expected a refusal, <${param}> is ${spec.note ?? spec.pattern}`);
        }
        // Positive control: the same request with a documented value of the segment reaches the
        // route (any answer but "no route" and but the refusal the other values got: the
        // request's body or query is not what is checked here). A route that does not exist, or
        // refuses every value, fails.
        const documented = route.id === 'suite.module.item' ? t.run.profile.toTargetModule(catalog.modules[0]!.slug) : (await segmentValue(t, route, param, spec)).value;
        const control = await send(documented, false);
        if (isNoRoute(control.res)) t.fail(`${method} ${control.path} (a documented <${param}>) answered ${brief(control.res)}: the route does not exist, so its refusals show nothing`);
        if (results.every((r) => sameRefusal(r.res, control.res)))
          t.fail(`the route refuses every request: ${method} ${control.path} (a documented <${param}>) was refused the same way (${brief(control.res)}) as the values outside ${spec.note ?? spec.pattern}`);
      },
      { concurrent: true },
    );
  }
}
