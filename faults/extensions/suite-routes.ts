/**
 * Faults of the other suite/v4 routes: reads broken, parameters (required, typed, enums, route
 * patterns) not enforced or refused whatever they are, the module route's settings and toggles,
 * every write method, the read defaults, and the namespaces the suite advertises.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { ArgSpec, DeclaredType, RouteSpec } from '../../schemas/types.ts';
import { fitsAfterCoercion, isBooleanish } from '../../schemas/values.ts';
import { invalidParam, noRoute, serverError, success } from '../kit.ts';
import { json, type Fault, type FaultRequest } from '../proxy.ts';
import { SUITE_SETTINGS, isModuleKey, isWrite, params, settingByTarget, indexMissing } from './common.ts';

const suiteRoutes = catalog.routes.filter((r) => r.namespace === 'suite/v4');

/** A regular expression for a documented route shape, with a capture per segment parameter. */
function shapeRe(route: RouteSpec): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const src = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<([a-z_]+)>/g, (_m, n: string) => {
    names.push(n);
    // A plugin is named by its folder and file ("akismet/akismet.php").
    return n === 'plugin' ? '(.+)' : '([^/]+)';
  });
  return { re: new RegExp(`^${src}$`), names };
}

const patterned = suiteRoutes
  .filter((r) => Object.values(r.params ?? {}).some((p) => p.pattern))
  .map((route) => ({ route, ...shapeRe(route) }));

function requiredMissing(req: FaultRequest): string | undefined {
  const route = suiteRoutes.find((r) => shapeRe(r).re.test(req.route));
  const endpoint = route?.endpoints.find((e) => (e.methods as string[]).includes(req.method));
  if (!endpoint || endpoint.args === 'not-shown' || /\/module\/[^/]+\/active$|\/module\/all\/active$/.test(req.route)) return undefined;
  const p = params(req);
  return Object.entries(endpoint.args).find(([n, a]) => a.required === true && !('default' in a) && (p[n] === undefined || p[n] === null))?.[0];
}

function badArg(req: FaultRequest, which: 'type' | 'enum'): string | undefined {
  const route = suiteRoutes.find((r) => shapeRe(r).re.test(req.route));
  if (!route || ['suite.settings', 'suite.module.item', 'suite.module.all.active', 'suite.module.active'].includes(route.id)) return undefined;
  const endpoint = route.endpoints.find((e) => (e.methods as string[]).includes(req.method));
  if (!endpoint || endpoint.args === 'not-shown') return undefined;
  const p = params(req);
  return Object.entries(endpoint.args).find(([n, a]: [string, ArgSpec]) => {
    if (p[n] === undefined) return false;
    if (which === 'enum') return (a.enum && !a.enum.includes(p[n] as string)) || (a.pattern && a.type === 'string' && !new RegExp(a.pattern).test(String(p[n])));
    const type = Array.isArray(a.type) ? undefined : a.type;
    return type !== undefined && type !== 'text' && !fitsAfterCoercion(type, p[n]);
  })?.[0];
}

/** The parameter routes' endpoints that have documented arguments (the refusal checks of suite.params.*), by route and method. */
const parameterEndpoints = suiteRoutes
  .filter((r) => !['suite.index', 'suite.settings', 'suite.module.item', 'suite.module.all.active', 'suite.module.active'].includes(r.id))
  .flatMap((route) => route.endpoints.filter((e) => e.args !== 'not-shown' && Object.keys(e.args).length).map((endpoint) => ({ route, endpoint, ...shapeRe(route) })));
const parameterRequest = (req: FaultRequest) => parameterEndpoints.find((p) => p.re.test(req.route) && (p.endpoint.methods as string[]).includes(req.method));
/** Routes whose every valid request changes the site for good: their refusal checks name the parameter instead of sending one (suite.params.spec.ts). */
const NO_HARMLESS_CONTROL = ['suite.licensing.set-license.update', 'suite.licensing.user.activation-notice-dismiss.update'];

/**
 * GETs the read fault leaves working: the index, /settings and /module/<slug> (checked by other
 * faults), the two routes that tell whether the target is connected, and /plugins (which names
 * the plugin that /plugin/<plugin> is read with).
 */
const READS_KEPT = ['suite.index', 'suite.settings', 'suite.module.item', 'suite.connection.test', 'suite.site', 'suite.plugins.collection'];

export const suiteRouteFaults: Fault[] = [
  indexMissing('suite/v4', 'suite'),
  {
    id: 'ext.suite.reads-broken',
    title: 'fails on GET of every documented suite route but /connection/test, /site, /plugins, /settings and /module/<slug>',
    caughtBy: suiteRoutes
      .filter((r) => r.endpoints.some((e) => e.methods.includes('GET')) && !READS_KEPT.includes(r.id))
      .map((r) => `suite.read.${r.id.replace(/^suite\./, '')}`),
    request(req) {
      if (req.method !== 'GET') return;
      const route = suiteRoutes.find((r) => shapeRe(r).re.test(req.route));
      if (route && !READS_KEPT.includes(route.id)) return serverError();
    },
  },
  {
    id: 'ext.suite.plugins-list-broken',
    title: 'fails on GET /plugins',
    caughtBy: ['suite.read.plugins.collection'],
    request: (req) => (req.route === '/suite/v4/plugins' && req.method === 'GET' ? serverError() : undefined),
  },
  {
    id: 'ext.suite.connection-test-broken',
    title: 'fails on GET /connection/test while the external service answers (GET /site)',
    caughtBy: ['suite.read.connection.test'],
    request: (req) => (req.route === '/suite/v4/connection/test' && req.method === 'GET' ? serverError() : undefined),
  },
  {
    id: 'ext.suite.site-broken',
    title: 'fails on GET /site while the connection test passes',
    caughtBy: ['suite.read.site'],
    request: (req) => (req.route === '/suite/v4/site' && req.method === 'GET' ? serverError() : undefined),
  },
  {
    id: 'ext.suite.module-unknown',
    title: 'does not know the latex module (404 on its routes, no toggle on GET /settings)',
    caughtBy: ['suite.read.module.item', 'suite.modules.value.latex'],
    request(req) {
      if (req.route.startsWith(`/suite/v4/module/${req.profile.toTargetModule('latex')}`))
        return json(404, { code: 'not_found', message: 'The requested module was not found.', data: { status: 404 } });
    },
    response(req, res) {
      if (req.route === SUITE_SETTINGS && req.method === 'GET' && res.json && typeof res.json === 'object') delete res.json[req.profile.toTargetModule('latex')];
    },
  },
  {
    id: 'ext.suite.route-pattern-permissive',
    title: 'answers route segments outside their documented characters (digits in <slug>, letters in <id>, ...)',
    caughtBy: ['suite.pattern.*'],
    request(req) {
      for (const { route, re, names } of patterned) {
        const m = re.exec(req.route);
        if (!m) continue;
        const outside = names.some((n, i) => {
          const pattern = route.params?.[n]?.pattern;
          return pattern !== undefined && !new RegExp(`^(?:${pattern})$`).test(decodeURIComponent(m[i + 1]!));
        });
        if (outside) return json(200, { code: 'success' });
      }
    },
  },
  {
    id: 'ext.suite.required-param-not-enforced',
    title: 'accepts requests to the parameter routes without their required parameters',
    caughtBy: ['suite.params.required.*'],
    request: (req) => (requiredMissing(req) ? success() : undefined),
  },
  {
    id: 'ext.suite.param-type-not-enforced',
    title: 'accepts parameters of the wrong type on the parameter routes',
    caughtBy: ['suite.params.type.*'],
    request: (req) => (badArg(req, 'type') ? success() : undefined),
  },
  {
    id: 'ext.suite.param-enum-not-enforced',
    title: 'accepts values outside a parameter\'s enum or pattern (plugins status, slug)',
    caughtBy: ['suite.params.enum.*', 'suite.params.pattern.*'],
    request: (req) => (badArg(req, 'enum') ? success() : undefined),
  },
  {
    // As WordPress 7.1 with Jetpack answers network-active on a single site (issue 40).
    id: 'ext.suite.param-enum-value-refused',
    title: 'refuses the last documented value of a parameter\'s enum as invalid (plugins status network-active: 400 naming the parameter)',
    caughtBy: ['suite.params.enum-values.*'],
    request(req) {
      const p = parameterRequest(req);
      if (!p || p.endpoint.args === 'not-shown') return undefined;
      const given = params(req);
      const arg = Object.entries(p.endpoint.args).find(([n, a]) => a.enum && given[n] === a.enum[a.enum.length - 1])?.[0];
      return arg ? invalidParam(arg) : undefined;
    },
  },
  {
    id: 'ext.suite.param-routes-missing',
    title: 'has none of the parameter routes (404 rest_no_route for each documented method that takes parameters)',
    caughtBy: ['suite.params.*'],
    request: (req) => (parameterRequest(req) ? noRoute() : undefined),
  },
  {
    id: 'ext.suite.params-refuse-all',
    title: 'refuses every request to the parameter routes the same way (400 rest_invalid_param), valid or not',
    caughtBy: parameterEndpoints
      .filter((p) => !NO_HARMLESS_CONTROL.includes(p.endpoint.id))
      .flatMap((p) => ['required', 'type', 'enum', 'pattern'].map((k) => `suite.params.${k}.${p.endpoint.id.replace(/^suite\./, '')}.*`)),
    request: (req) => (parameterRequest(req) ? invalidParam('cmsc') : undefined),
  },
  {
    id: 'ext.suite.pattern-routes-refuse-all',
    title: 'refuses every request to the routes with documented path segments the same way (400), whatever the segment',
    caughtBy: ['suite.pattern.*'],
    request: (req) => (patterned.some((p) => p.re.test(req.route)) ? invalidParam('cmsc') : undefined),
  },
  {
    id: 'ext.suite.param-errors-unnamed',
    title: 'refuses bad parameters without naming them',
    caughtBy: ['suite.params.names-param.*'],
    response(req, res) {
      if (req.route.startsWith('/suite/v4/') && res.status === 400 && res.json?.data) delete res.json.data.params;
    },
  },
];

// --- suite: the module route's settings, the toggles' types, every write method, read defaults ------

const MODULE_ROUTE = /^\/suite\/v4\/module\/(?!all$)[a-z-]+$/;
/** Write routes exercised by suite.methods.* (every suite endpoint with a write method but the settings and module ones). */
const METHOD_ROUTES = suiteRoutes
  .filter((r) => r.endpoints.some((e) => e.methods.some((m) => m !== 'GET') && !['suite.settings.update', 'suite.module.item.update', 'suite.module.active.update'].includes(e.id)))
  .map((r) => new RegExp(`^${r.path.replace(/<[^>]+>/g, '.+')}$`));
const isMethodRoute = (req: FaultRequest) => req.method !== 'GET' && METHOD_ROUTES.some((re) => re.test(req.route)) && !MODULE_ROUTE.test(req.route) && req.route !== SUITE_SETTINGS;
/** Setting and toggle keys of a POST /module/<slug> body that violate `check` (a toggle as a boolean). */
function violatingOnModuleRoute(req: FaultRequest, toggles: boolean, check: (type: DeclaredType, enumValues: readonly string[] | undefined, v: unknown) => boolean): string[] {
  if (!MODULE_ROUTE.test(req.route) || !isWrite(req) || !req.json || typeof req.json !== 'object') return [];
  return Object.keys(req.json).filter((k) => {
    if (isModuleKey(req, k)) return toggles && check('boolean', undefined, req.json[k]);
    const s = settingByTarget(req, k);
    return s !== undefined && check(s.type, s.enum, req.json[k]);
  });
}

const OTHER_NAMESPACES = catalog.namespaces.extensions.filter((n) => !catalog.namespaces.core.includes(n) && !['spamfilter/v1', 'contactform/v1', 'suite/v4'].includes(n)).map((n) => `/${n}`);

export const suiteCoverageFaults: Fault[] = [
  {
    id: 'ext.namespaces-missing',
    title: 'advertises the other extension namespaces (cloud/v2, suite/v4/stats-app ...) but serves none of their indexes (404 rest_no_route)',
    caughtBy: ['namespaces.*'],
    request: (req) => (req.method === 'GET' && OTHER_NAMESPACES.includes(req.route) ? noRoute() : undefined),
  },
  {
    id: 'ext.index-defaults-wrong',
    title: 'answers the extension namespace indexes without context as if context were edit (an extra field)',
    caughtBy: ['spamfilter.index.defaults', 'contactform.index.defaults', 'suite.index.defaults'],
    response(req, res) {
      if (req.method === 'GET' && ['/spamfilter/v1', '/contactform/v1', '/suite/v4'].includes(req.route) && !req.query.has('context') && res.json && typeof res.json === 'object')
        res.json.cmsc_context = 'edit';
    },
  },
  {
    id: 'ext.suite.module-route-wrong-type-accepted',
    title: 'accepts a setting of the wrong type, or outside its allowed values, written through POST /module/<slug> (answers success without storing)',
    caughtBy: ['suite.settings.module-route.*'],
    request: (req) =>
      violatingOnModuleRoute(req, false, (type, values, v) => !fitsAfterCoercion(type, v) || (!!values && typeof v === 'string' && !values.includes(v))).length ? success() : undefined,
  },
  {
    id: 'ext.suite.module-route-refuse-all',
    title: 'refuses every write to /module/<slug> (400 rest_invalid_param naming the first key), valid or not',
    caughtBy: ['suite.settings.module-route.*', 'suite.modules.toggle-type.*'],
    request: (req) => (MODULE_ROUTE.test(req.route) && isWrite(req) ? invalidParam(Object.keys(req.json ?? {})[0] ?? 'x') : undefined),
  },
  {
    id: 'ext.suite.toggle-wrong-type-accepted',
    title: 'accepts a module toggle that is not a boolean on POST /settings and POST /module/<slug> (answers success, changes nothing)',
    caughtBy: ['suite.modules.toggle-type.*'],
    request(req) {
      if (req.route === SUITE_SETTINGS && isWrite(req) && req.json && typeof req.json === 'object' && Object.keys(req.json).some((k) => isModuleKey(req, k) && !isBooleanish(req.json[k]))) return success();
      if (violatingOnModuleRoute(req, true, (type, _values, v) => !fitsAfterCoercion(type, v)).length) return success();
    },
  },
  {
    id: 'ext.suite.write-methods-missing',
    title: 'has none of the write methods of the suite write routes (404 rest_no_route for every POST, PUT, PATCH and DELETE)',
    caughtBy: ['suite.methods.*'],
    request: (req) => (isMethodRoute(req) ? noRoute() : undefined),
  },
  {
    id: 'ext.suite.write-methods-refuse-all',
    title: 'refuses every write to the suite write routes the same way (400 rest_invalid_param naming x)',
    caughtBy: ['suite.methods.*'],
    request: (req) => (isMethodRoute(req) ? invalidParam('x') : undefined),
  },
  {
    id: 'ext.suite.read-defaults-wrong',
    title: 'takes range as week when GET /module/<slug>/data omits it, and api_key as a 12-character key when POST /module/<service>/key/check omits it',
    caughtBy: ['suite.defaults.*'],
    request(req) {
      if (req.method === 'GET' && /^\/suite\/v4\/module\/[a-z-]+\/data$/.test(req.route) && !req.query.has('range')) req.query.set('range', 'week');
      if (isWrite(req) && /^\/suite\/v4\/module\/[^/]+\/key\/check$/.test(req.route)) {
        req.json = req.json && typeof req.json === 'object' ? req.json : {};
        if (!('api_key' in req.json)) req.json.api_key = 'cmscdefault1';
      }
    },
  },
];
