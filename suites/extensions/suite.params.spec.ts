/**
 * suite/v4 routes with parameters (extensions part 4 › Suite, "Routes with parameters"): each
 * required parameter missing is refused; each typed parameter given a value of the wrong type is
 * refused; each enum (and pattern) is enforced. Everything is derived from the catalog; values
 * stay invalid after the coercion a WordPress-style server applies (support.ts). At SHOULD level,
 * the refusals name the offending parameter as the reference implementation does (400 with
 * `data.params`, wordpress-behaviour.md §2).
 *
 * A refusal shows that a parameter is checked only when the route takes the nearest valid request
 * (positive control, support.ts expectControl): a route that does not exist, or refuses the valid
 * request the same way, fails. Each route's control is chosen for live-site safety (CONTROLS):
 * where the valid request is harmless (a read, the current value written back, an empty list) it
 * must be accepted; where every valid request would change the site for good (installing a
 * plugin, writing a helper script, storing a licence), a request valid in every documented
 * parameter but naming nothing that exists is sent instead, and shows the parameters passed the
 * check (accepted, or refused for another reason than a parameter); where not even that is
 * harmless, the refusal itself must name the parameter.
 *
 * The settings and module routes are checked in suite.settings.spec.ts. Requests that could
 * write are sent only when writes are allowed; should a server accept a bad one, the value it
 * changed is written back where the route has a GET.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { ArgSpec, EndpointSpec, RouteSpec } from '../../schemas/types.ts';
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Method, Response } from '../../src/sdk/http.ts';
import { isObject, siteAddress } from '../../src/sdk/discovery.ts';
import { tagFor } from '../../src/sdk/fixtures.ts';
import {
  SUITE,
  answered,
  brief,
  expectControl,
  expectRefused,
  idPart,
  isNoRoute,
  isValidationError,
  namesParam,
  show,
  type ControlKind,
} from './lib/support.ts';
import { sampleSegment } from './lib/suite-service.ts';
import { exclusive, routeLock, withRestore } from './lib/restore.ts';
import { OUTSIDE_ENUM, validValue, wrongTypeValue, type Carrier } from '../../schemas/values.ts';

/** Checked by their own files. */
const ELSEWHERE = new Set(['suite.index.read', 'suite.settings.update', 'suite.module.item.update', 'suite.module.all.active.update', 'suite.module.active.update']);

/** Path segments whose accepted values are not stated: harmless samples that name nothing real. */
const segment = (t: BehaviourContext, route: RouteSpec, param: string): string => sampleSegment(t, route, param, '1');

interface Case {
  kind: 'required' | 'type' | 'enum' | 'pattern';
  arg: string;
  /** The request's parameters: the required ones valid, the one under test missing or invalid. */
  params: (t: BehaviourContext) => Record<string, unknown>;
  what: string;
}

function sampleFor(t: BehaviourContext, name: string, arg: ArgSpec): unknown {
  if (arg.format === 'uri') return siteAddress(t.index, t.run.info.targetUrl);
  if (name === 'object_type') return 'post';
  if (name === 'name') return 'blogname';
  if (name === 'slug') return 'cmsc-none';
  return validValue(arg);
}

const requiredOf = (endpoint: EndpointSpec) =>
  Object.entries(endpoint.args === 'not-shown' ? {} : endpoint.args).filter(([, a]) => a.required === true && !('default' in a));
/** Valid values of the required parameters but `except`. */
const base = (t: BehaviourContext, endpoint: EndpointSpec, except?: string) =>
  Object.fromEntries(requiredOf(endpoint).filter(([n]) => n !== except).map(([n, a]) => [n, sampleFor(t, n, a)]));

function casesOf(endpoint: EndpointSpec, carrier: Carrier): Case[] {
  const args = endpoint.args === 'not-shown' ? {} : endpoint.args;
  const out: Case[] = [];
  for (const [name, arg] of Object.entries(args)) {
    if (arg.required === true && !('default' in arg)) out.push({ kind: 'required', arg: name, params: (t) => base(t, endpoint, name), what: `without ${name}` });
    const wrong = wrongTypeValue(arg, carrier);
    if (wrong !== undefined) out.push({ kind: 'type', arg: name, params: (t) => ({ ...base(t, endpoint, name), [name]: wrong }), what: `with ${name} = ${show(wrong)} (not a ${arg.type})` });
    if (arg.enum) out.push({ kind: 'enum', arg: name, params: (t) => ({ ...base(t, endpoint, name), [name]: OUTSIDE_ENUM }), what: `with ${name} = ${show(OUTSIDE_ENUM)} (not one of ${arg.enum.join(', ')})` });
    // No character of the pattern at all: refused even where a pattern may match anywhere in the value (JSON Schema).
    if (arg.pattern && arg.type === 'string')
      out.push({ kind: 'pattern', arg: name, params: (t) => ({ ...base(t, endpoint, name), [name]: '!?!' }), what: `with ${name} = "!?!" (${arg.note ?? arg.pattern})` });
  }
  return out;
}

// ---------------------------------------------------------------- positive controls

interface ControlDesign {
  kind: ControlKind | 'names-param';
  /** The control's parameters; `read` GETs the route's documented GET (its current state). */
  params?: (t: BehaviourContext, read: () => Promise<Response>) => Promise<Record<string, unknown>>;
  /** Parameters whose valid values the spec leaves open. */
  open?: string[];
}


/**
 * The positive control of each route, chosen for live-site safety. Routes not listed send the
 * valid values of their required parameters, which must be accepted.
 */
const CONTROLS: Record<string, ControlDesign> = {
  // Installing a helper script writes a file the site runs: never. A string that is not a
  // base64-encoded script is valid in type; no server installs it (and should one answer with
  // a path, it is deleted at once).
  'suite.backup-helper-script.create': { kind: 'passes-validation', params: async () => ({ helper: 'cmsc-not-a-base64-script!' }) },
  // Deleting a helper script at a path that names nothing.
  'suite.backup-helper-script.delete': { kind: 'passes-validation', params: async (t) => ({ path: `/${tagFor(t.run.info.runId)}-no-such-helper.php` }) },
  // Reads; object_type and name take values the spec does not list.
  'suite.database-object.backup.read': { kind: 'accepted', open: ['object_type'] },
  'suite.options.backup.read': { kind: 'accepted', open: ['name'] },
  // The key check with the default (empty) key: checks the stored key, changes nothing.
  'suite.module.key.check.update': { kind: 'accepted', params: async () => ({ api_key: '' }) },
  // Installing a plugin: never. Upper-case letters and underscores are word characters (valid per
  // the spec) but no plugin directory slug has them, so nothing can be installed.
  'suite.plugins.collection.create': { kind: 'passes-validation', params: async () => ({ slug: 'CMSC_No_Such_Plugin' }) },
  // Activating a plugin cannot be undone through this interface: the plugin path names nothing.
  'suite.plugins.item.update': { kind: 'passes-validation', params: async () => ({ status: 'active' }) },
  // Verifying the site with a keyring that does not exist.
  'suite.verify-site.item.update': { kind: 'passes-validation', params: async () => ({ keyring_id: 2147480000 }) },
  // Installing a CRM extension: never; an extension name that names nothing.
  'suite.suite-crm.update': { kind: 'passes-validation', params: async () => ({ extension: 'cmsc-none' }) },
  // Writes whose route has a GET: the current state written back (harmless: it changes nothing).
  'suite.recommendations.data.update': {
    kind: 'accepted',
    params: async (_t, read) => {
      const res = await read();
      // An empty one as the documented object (WordPress answers PHP's empty array as []).
      return { data: answered(res) && isObject(res.body) ? res.body : {} };
    },
  },
  'suite.recommendations.step.update': {
    kind: 'accepted',
    open: ['step'],
    params: async (_t, read) => {
      const res = await read();
      return { step: answered(res) && typeof res.body?.step === 'string' ? res.body.step : typeof res.body === 'string' ? res.body : 'not-started' };
    },
  },
  'suite.licensing.error.update': {
    kind: 'accepted',
    params: async (_t, read) => {
      const res = await read();
      return { error: answered(res) && typeof res.body === 'string' ? res.body : '' };
    },
  },
  'suite.tracking.settings.update': {
    kind: 'accepted',
    params: async (_t, read) => {
      const res = await read();
      return answered(res) && typeof res.body?.tracks_opt_out === 'boolean' ? { tracks_opt_out: res.body.tracks_opt_out } : {};
    },
  },
  // Attaching no licence at all.
  'suite.licensing.attach-licenses.update': { kind: 'accepted', params: async () => ({ licenses: [] }) },
  // Every valid licence is stored; dismissing the activation notice cannot be set back: no
  // harmless valid request exists, so the refusal itself must name the parameter.
  'suite.licensing.set-license.update': { kind: 'names-param' },
  'suite.licensing.user.activation-notice-dismiss.update': { kind: 'names-param' },
};

const designOf = (endpoint: EndpointSpec): ControlDesign => CONTROLS[endpoint.id] ?? { kind: 'accepted' };

/** Control answers, once per endpoint and worker (the request is the same for every case). */
const controls = new Map<string, Promise<{ what: string; res: Response }>>();

/** The positive control of a refusal of `c` (or of all cases, for `c` undefined). */
async function checkControl(t: BehaviourContext, ctx: EndpointCtx, refusals: { c: Case; res: Response }[]): Promise<void> {
  const { endpoint, method, path, carrier } = ctx;
  const design = designOf(endpoint);
  if (design.kind === 'names-param') {
    for (const { c, res } of refusals) {
      if (isNoRoute(res)) t.fail(`${method} ${path} ${c.what} answered ${brief(res)}: the route does not exist, so its refusals show nothing`);
      if (!(isValidationError(res, [c.arg]) && namesParam(res, c.arg)))
        t.skip(
          `${method} ${path} ${c.what} was refused (${brief(res)}) without naming ${c.arg}; every valid request to this route changes the site for good, ` +
            'so no positive control is sent and the refusal cannot be told from a route that refuses everything',
        );
    }
    return;
  }
  let memo = controls.get(endpoint.id);
  if (!memo) {
    memo = (async () => {
      const read = () => t.client.get(path);
      const params = design.params ? await design.params(t, read) : base(t, endpoint);
      const res = await send(t, method, path, carrier, params);
      // Should a server install the junk helper script after all, it is removed at once.
      if (endpoint.id === 'suite.backup-helper-script.create' && answered(res) && typeof res.body?.path === 'string')
        await t.client.request('DELETE', path, { query: { path: res.body.path } });
      return { what: `${method} ${path} ${carrier === 'query' ? `?${new URLSearchParams(params as Record<string, string>)}` : show(params)}`, res };
    })();
    controls.set(endpoint.id, memo);
  }
  const { what, res } = await memo;
  expectControl(t, { what, res, refusals: refusals.map((r) => r.res), kind: design.kind, open: design.open });
}

// ---------------------------------------------------------------- restoring what a bad write changed

/** Where the route has a GET, what it answered before: written back should a bad request be accepted. */
/**
 * Routes whose write stores nothing of its own: POST /module/<service>/key/check checks the key
 * the spam filter stores (ext §4). Its GET answers from that key, which the spam filter's own
 * behaviours change meanwhile: a write-back from a snapshot would race with them.
 */
const STORES_NOTHING = new Set(['suite.module.key.check']);

async function snapshot(t: BehaviourContext, route: RouteSpec, path: string, method: Method): Promise<(() => Promise<string | undefined>) | undefined> {
  if (method === 'GET' || STORES_NOTHING.has(route.id) || !route.endpoints.some((e) => e.methods.includes('GET'))) return undefined;
  const before = await t.client.get(path);
  if (!answered(before)) return undefined;
  return async () => {
    const now = await t.client.get(path);
    if (answered(now) && JSON.stringify(now.body) === JSON.stringify(before.body)) return undefined;
    const write = route.endpoints.find((e) => (e.methods as string[]).includes(method))!;
    const names = write.args === 'not-shown' ? [] : Object.keys(write.args);
    // The GET answer is not shown; where it carries the written argument (or is its value), write that back.
    const body =
      before.body && typeof before.body === 'object' && !Array.isArray(before.body) && names.some((n) => n in before.body)
        ? Object.fromEntries(names.filter((n) => n in before.body).map((n) => [n, before.body[n]]))
        : names.length === 1
          ? { [names[0]!]: before.body }
          : undefined;
    if (!body) return `${path} changed and its earlier answer ${show(before.body)} cannot be written back`;
    const res = await t.client.request(method, path, { body });
    return answered(res) ? undefined : `writing back ${path} answered ${brief(res)}`;
  };
}

/** Send `params` in the query or the body; `invalid`: the argument a case sends wrong (or leaves out) on purpose. */
async function send(t: BehaviourContext, method: Method, path: string, carrier: Carrier, params: Record<string, unknown>, invalid?: string): Promise<Response> {
  const marked = invalid === undefined ? {} : { invalid: [invalid] };
  return carrier === 'query' ? t.client.request(method, path, { query: params as Record<string, never>, ...marked }) : t.client.request(method, path, { body: params, ...marked });
}

interface EndpointCtx {
  endpoint: EndpointSpec;
  method: Method;
  path: string;
  carrier: Carrier;
}

// ---------------------------------------------------------------- the behaviours

const endpoints = catalog.routes
  .filter((r) => r.namespace === SUITE)
  .flatMap((route) => route.endpoints.map((endpoint) => ({ route, endpoint })))
  .filter(({ endpoint }) => !ELSEWHERE.has(endpoint.id));

for (const { route, endpoint } of endpoints) {
  const method = endpoint.methods[0]!;
  const carrier: Carrier = method === 'GET' || method === 'DELETE' ? 'query' : 'body';
  const cases = casesOf(endpoint, carrier);
  if (!cases.length) continue;
  const epId = endpoint.id.replace(/^suite\./, '');
  const concrete = (t: BehaviourContext) => Object.keys(route.params ?? {}).reduce((p, param) => p.replace(`<${param}>`, segment(t, route, param)), route.path);
  // Bad writes to a route that has a GET are written back if accepted: those run one at a time.
  const concurrent = method === 'GET' || !route.endpoints.some((e) => e.methods.includes('GET'));
  /** Run `check` on the route's concrete path; an accepted bad write is written back (snapshot). */
  const onPath = async (t: BehaviourContext, check: (path: string) => Promise<void>) => {
    t.requireNamespace(SUITE);
    t.requireCredentials();
    if (method !== 'GET') t.requireWrites();
    const path = concrete(t);
    const run = async () => {
      const restore = await snapshot(t, route, path, method);
      await withRestore(() => check(path), restore ?? (async () => undefined));
    };
    // A write to a route with a GET holds the route's state across suite files (restore.ts:
    // suite.methods.spec.ts and security.spec.ts write it too), from its snapshot to its restore.
    if (concurrent) await run();
    else await exclusive([routeLock(route.path)], run);
  };

  for (const c of cases) {
    behaviour(
      {
        id: `suite.params.${c.kind}.${epId}.${idPart(c.arg)}`,
        level: 'MUST',
        namespace: SUITE,
        route: route.path,
        title: `${method} ${route.path} ${c.what} is refused`,
        spec: endpoint.spec,
        covers: [`arg:${endpoint.id}.${c.arg}`],
      },
      async (t) =>
        onPath(t, async (path) => {
          const params = c.params(t);
          const res = await send(t, method, path, carrier, params, c.arg);
          if (!(res.status >= 400 && res.status < 500)) t.counterexample({ method, path, [carrier]: params });
          expectRefused(t, res, `${method} ${path} ${c.what}`);
          await checkControl(t, { endpoint, method, path, carrier }, [{ c, res }]);
        }),
      { concurrent },
    );
  }

  // Every documented value of an enum passes the route's validation (issue 40): sent in the
  // route's positive control (the nearest valid request, chosen for live-site safety), one at a time.
  const args = endpoint.args === 'not-shown' ? {} : endpoint.args;
  for (const [name, arg] of Object.entries(args)) {
    if (!arg.enum) continue;
    const kind = designOf(endpoint).kind;
    if (kind === 'names-param') continue;
    behaviour(
      {
        id: `suite.params.enum-values.${epId}.${idPart(name)}`,
        level: 'MUST',
        namespace: SUITE,
        route: route.path,
        title: `${method} ${route.path} with ${name} = each of ${arg.enum.join(', ')} ${kind === 'accepted' ? 'is accepted' : 'passes validation (accepted, or refused for another reason than a parameter)'}`,
        spec: endpoint.spec,
        covers: [`arg:${endpoint.id}.${name}`],
      },
      async (t) =>
        onPath(t, async (path) => {
          const design = designOf(endpoint);
          const params = design.params ? await design.params(t, () => t.client.get(path)) : base(t, endpoint);
          for (const value of arg.enum!) {
            const sent = { ...params, [name]: value };
            const res = await send(t, method, path, carrier, sent);
            if (isValidationError(res) || !(answered(res) || kind === 'passes-validation')) t.counterexample({ method, path, [carrier]: sent });
            expectControl(t, { what: `${method} ${path} ${show(sent)} (${name}: one of ${arg.enum!.join(', ')})`, res, refusals: [], kind });
          }
        }),
      { concurrent },
    );
  }

  behaviour(
    {
      id: `suite.params.names-param.${epId}`,
      level: 'SHOULD',
      namespace: SUITE,
      route: route.path,
      title: `${method} ${route.path}: each refusal is a 400 naming the offending parameter in data.params (${cases.map((c) => `${c.arg} ${c.kind}`).join(', ')})`,
      spec: endpoint.spec,
      covers: cases.map((c) => `arg:${endpoint.id}.${c.arg}`),
    },
    async (t) =>
      onPath(t, async (path) => {
        const problems: string[] = [];
        const refusals: { c: Case; res: Response }[] = [];
        for (const c of cases) {
          const res = await send(t, method, path, carrier, c.params(t), c.arg);
          refusals.push({ c, res });
          if (res.status !== 400 || !namesParam(res, c.arg)) problems.push(`${c.what}: answered ${brief(res)}${res.status === 400 ? ` with data.params ${show(res.body?.data?.params)}` : ''}`);
        }
        if (designOf(endpoint).kind !== 'names-param' || problems.length === 0) await checkControl(t, { endpoint, method, path, carrier }, refusals);
        if (problems.length) t.fail(`${method} ${path}: ${problems.join('; ')}`);
      }),
    { concurrent },
  );
}
