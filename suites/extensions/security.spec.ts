/**
 * Anonymous access to the extension namespaces (spamfilter/v1, contactform/v1, suite/v4): one
 * SECURITY behaviour per endpoint that the reference implementation refuses without credentials
 * (schemas/catalog/extensions.ts extensionAnonymousAccess, with its source; docs/anonymous-access.md).
 * Which routes need authentication is "not shown" (core part 5), so these are their own class,
 * never MUST; an endpoint public on the reference implementation is never checked as refused.
 *
 * - A read without credentials must not be answered (2xx) and must not be a server error: the
 *   spam-filter key, the forms and their mail settings, the suite's settings and modules are
 *   exactly what a broken server hands out.
 * - A write without credentials (every documented method) must not be accepted, and changes
 *   nothing: where the route has a GET, the values sent are read back with the configured
 *   credentials (and written back should they have changed). Only values the target can accept
 *   are sent: its own current values, or requests that name nothing that exists.
 * - A route that does not take the method (404 rest_no_route) fails: it refuses everything.
 * - Every pass has its positive control: the same request with the configured credentials is
 *   accepted (support.ts expectControl: a permission refusal of the credentials, or an answer
 *   naming the suite's missing external service, skips with that evidence). Where the valid
 *   write itself would change the site for good, the control is the route's read, or a request
 *   valid in every documented parameter but naming nothing (accepted, or refused for another
 *   reason than its parameters), as in suite.params.spec.ts.
 *
 * One credentialed read serves both the control and the read-back where a route has a GET.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { extensionAnonymousAccess } from '../../schemas/catalog/extensions.ts';
import type { ArgSpec, EndpointSpec, RouteSpec } from '../../schemas/types.ts';
import { behaviour, fixtures, runContext, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Method, Response } from '../../src/http/client.ts';
import { isObject, segmentSamples } from '../../src/sdk/discovery.ts';
import { FixtureError, tagFor } from '../../src/sdk/fixtures.ts';
import { extDecl } from './lib/declare.ts';
import {
  CONTACTFORM,
  SPAMFILTER,
  SUITE,
  answered,
  brief,
  expectControl,
  forbidden,
  isNoRoute,
  isValidationError,
  namesParam,
  show,
  skipIfForbidden,
  type ControlKind,
} from './lib/support.ts';
import { sampleSegment, skipIfRemoteUnavailable } from './lib/suite-service.ts';

const SPEC = catalog.authentication.spec;
const NAMESPACES = [SPAMFILTER, CONTACTFORM, SUITE];
const FORMS = '/contactform/v1/contact-forms';

type Params = Record<string, unknown>;

interface Plan {
  /** The parameters sent without credentials (and in the control, unless `control` says otherwise). */
  params?: (t: BehaviourContext, ctx: Ctx) => Promise<Params> | Params;
  /**
   * The positive control: `same` (default) the same request with credentials; `read` the route's
   * GET with credentials (where every valid write would change the site for good);
   * `names-param` the request without its required parameter, refused naming it (no harmless
   * valid request exists, not even a read).
   */
  control?: 'same' | 'read' | 'names-param';
  kind?: ControlKind;
  /** Parameters whose valid values the spec leaves open. */
  open?: string[];
  /** The path (default: support.ts concrete, harmless samples for the segments). */
  path?: (t: BehaviourContext) => Promise<string> | string;
  /** Verify by reading back: a problem, or undefined. Runs after the anonymous requests. */
  verify?: (t: BehaviourContext, ctx: Ctx) => Promise<string | undefined>;
  /** The control's parameters, where they differ from the anonymous request's. */
  controlParams?: (t: BehaviourContext, ctx: Ctx) => Params;
  /** Where another behaviour reports that the route does not exist: a 404 rest_no_route skips naming it. */
  existence?: string;
  /** After an accepted control: undo what it made. */
  cleanup?: (t: BehaviourContext, res: Response) => Promise<void>;
}

interface Ctx {
  path: string;
  /** The route's GET with credentials before the anonymous requests (where the route has one). */
  before?: Response;
  params: Params;
}

// ---------------------------------------------------------------------------------------------
// values the target can accept
// ---------------------------------------------------------------------------------------------

/** The contact form of this file (tagged, deleted after the file), created on first use. */
let form: Promise<{ id: number; title: string }> | undefined;
function ownForm(): Promise<{ id: number; title: string }> {
  form ??= (async () => {
    const client = runContext().client.fork('fixtures');
    const f = fixtures();
    const title = f.label('form-security');
    const res = await client.post(FORMS, { title, context: 'save' });
    const id = res.body?.id;
    if (!answered(res) || !Number.isInteger(id)) throw new FixtureError(`POST ${FORMS} {title, context: "save"} answered ${brief(res)}, expected a created form with an integer id`, 'contactform.forms.create');
    f.track(`${FORMS}/${id}`);
    return { id, title };
  })();
  return form;
}
const formPath = async () => `${FORMS}/${(await ownForm()).id}`;

/** Read a form's title with credentials. */
async function formTitle(t: BehaviourContext, path: string): Promise<{ res: Response; title: unknown }> {
  const res = await t.client.get(path);
  return { res, title: res.body?.title };
}

/** Values of the required args of a GET the spec leaves open, as suite.routes.spec.ts sends them. */
function requiredQuery(t: BehaviourContext, args: EndpointSpec['args']): Params {
  if (args === 'not-shown') return {};
  const out: Params = {};
  for (const [name, arg] of Object.entries(args) as [string, ArgSpec][]) {
    if (arg.required !== true || 'default' in arg) continue;
    out[name] = name === 'object_type' ? 'post' : name === 'name' ? 'blogname' : name === 'redirect_url' ? t.run.info.targetUrl : arg.type === 'integer' ? 1 : 'cmsc';
  }
  return out;
}

const PLANS: Record<string, Plan> = {
  // --- spam filter: the key is never written with credentials (a key write is verified remotely
  // and replaces the site's key); the control is the key's read.
  'spamfilter.key.update': {
    control: 'read',
    params: (_t, ctx) => ({ key: typeof ctx.before?.body === 'string' && ctx.before.body.length === 12 ? ctx.before.body : 'cmscanon0000' }),
    verify: async (t, ctx) => {
      const after = await t.client.get('/spamfilter/v1/key');
      if (answered(after) && JSON.stringify(after.body) !== JSON.stringify(ctx.before?.body)) {
        // Written back: the earlier key, or none.
        if (typeof ctx.before?.body === 'string' && ctx.before.body) await t.client.post('/spamfilter/v1/key', { key: ctx.before.body });
        else await t.client.delete('/spamfilter/v1/key');
        return `GET /spamfilter/v1/key answers ${show(after.body)}, was ${show(ctx.before?.body)}`;
      }
    },
  },
  'spamfilter.key.delete': {
    control: 'read',
    verify: async (t, ctx) => {
      const after = await t.client.get('/spamfilter/v1/key');
      if (answered(after) && JSON.stringify(after.body) !== JSON.stringify(ctx.before?.body)) {
        if (typeof ctx.before?.body === 'string' && ctx.before.body) await t.client.post('/spamfilter/v1/key', { key: ctx.before.body });
        return `GET /spamfilter/v1/key answers ${show(after.body)}, was ${show(ctx.before?.body)}`;
      }
    },
  },
  // No setting at all: a write that changes nothing (the settings' own behaviours write them meanwhile).
  'spamfilter.settings.update': { params: () => ({}) },
  // A documented interval; the route's existence is reported by spamfilter.stats.path.
  'spamfilter.stats.interval.read': { path: () => '/spamfilter/v1/stats/all', existence: 'spamfilter.stats.path' },

  // --- contact forms: the file's own form.
  'contactform.forms.collection.create': {
    params: () => ({ title: fixtures().label('form-anonymous'), context: 'save' }),
    verify: async (t, ctx) => {
      const title = String(ctx.params.title);
      const list = await t.client.get(FORMS, { query: { search: title, per_page: 100 } });
      const made = Array.isArray(list.body) ? list.body.filter((f: any) => f?.title === title) : [];
      for (const f of made) await t.client.delete(`${FORMS}/${f.id}`);
      if (made.length) return `the refused anonymous create made form ${made.map((f: any) => f.id).join(', ')} (deleted)`;
    },
    cleanup: async (t, res) => {
      if (Number.isInteger(res.body?.id)) {
        fixtures().track(`${FORMS}/${res.body.id}`);
        await t.client.delete(`${FORMS}/${res.body.id}`);
      }
    },
  },
  'contactform.forms.item.read': { path: formPath },
  'contactform.forms.item.update': {
    path: formPath,
    // Without credentials: another title (the form is this file's own); the control writes its own title back.
    params: (_t, ctx) => ({ title: `${typeof ctx.before?.body?.title === 'string' ? ctx.before.body.title : 'form'} anonymous`, context: 'save' }),
    controlParams: (_t, ctx) => ({ title: ctx.before?.body?.title, context: 'save' }),
    verify: async (t, ctx) => {
      const after = await formTitle(t, ctx.path);
      const was = ctx.before?.body?.title;
      if (answered(after.res) && after.title !== was) {
        await t.client.post(ctx.path, { title: was, context: 'save' });
        return `the form's title is ${show(after.title)}, was ${show(was)} (written back)`;
      }
    },
  },
  'contactform.forms.item.delete': {
    path: formPath,
    control: 'read',
    verify: async (t, ctx) => {
      const after = await t.client.get(ctx.path);
      if (!answered(after)) return `GET ${ctx.path} answers ${brief(after)} after the refused anonymous DELETE: the form is gone`;
    },
  },

  // --- suite: current values written back, or requests that name nothing (suite.params.spec.ts CONTROLS).
  'suite.backup-helper-script.create': { kind: 'passes-validation', params: () => ({ helper: 'cmsc-not-a-base64-script!' }) },
  'suite.backup-helper-script.delete': { kind: 'passes-validation', params: (t) => ({ path: `/${tagFor(t.run.info.runId)}-no-such-helper.php` }) },
  'suite.database-object.backup.read': { open: ['object_type'] },
  'suite.options.backup.read': { open: ['name'] },
  // A plugin the target has (GET /plugins' body is not shown; the reference implementation keys it by plugin file).
  'suite.plugin.item.read': {
    path: async (t) => {
      const list = await t.client.get('/suite/v4/plugins');
      const plugin = answered(list) && isObject(list.body) ? Object.keys(list.body as object).find((p) => /^[a-z/._-]+$/.test(p)) : undefined;
      return `/suite/v4/plugin/${plugin ?? 'cmsc-none/cmsc-none'}`;
    },
  },
  'suite.suite-ai-jwt.update': { kind: 'passes-validation' },
  'suite.marketing.survey.create': { kind: 'passes-validation' },
  'suite.tracking.settings.update': { params: () => ({}) },
  'suite.module.all.active.update': { kind: 'passes-validation', params: () => ({ modules: [], active: true }) },
  'suite.module.item.update': { kind: 'passes-validation', params: () => ({}) },
  // A module no target has (the module behaviours toggle the real ones meanwhile).
  'suite.module.active.update': { kind: 'passes-validation', path: () => '/suite/v4/module/cmsc-none/active', params: () => ({ active: true }) },
  'suite.module.key.check.update': { params: () => ({ api_key: '' }) },
  // No setting at all: a write that changes nothing (the settings' own behaviours write them meanwhile).
  'suite.settings.update': { params: () => ({}) },
  'suite.settings.item.update': { kind: 'passes-validation', params: () => ({}) },
  'suite.options.item.update': { kind: 'passes-validation', params: () => ({}) },
  'suite.notice.item.update': { kind: 'passes-validation', params: () => ({}) },
  'suite.plugins.collection.create': { kind: 'passes-validation', params: () => ({ slug: 'CMSC_No_Such_Plugin' }) },
  'suite.plugins.item.update': { kind: 'passes-validation', params: () => ({ status: 'active' }) },
  'suite.verify-site.item.update': { kind: 'passes-validation', params: () => ({ keyring_id: 2147480000 }) },
  'suite.recommendations.data.update': {
    // The current data written back; an empty one as the documented object (WordPress answers PHP's empty array as []).
    params: (_t, ctx) => ({ data: answered(ctx.before ?? ({ status: 0 } as Response)) && isObject(ctx.before!.body) ? ctx.before!.body : {} }),
  },
  'suite.recommendations.step.update': {
    open: ['step'],
    params: (_t, ctx) => ({ step: typeof ctx.before?.body?.step === 'string' ? ctx.before.body.step : typeof ctx.before?.body === 'string' ? ctx.before.body : 'not-started' }),
  },
  'suite.suite-crm.update': { kind: 'passes-validation', params: () => ({ extension: 'cmsc-none' }) },
  'suite.purchase-token.create': { kind: 'passes-validation', params: () => ({}) },
  'suite.seen-wc-connection-modal.update': { params: () => ({}) },
  'suite.licensing.error.update': { params: (_t, ctx) => ({ error: typeof ctx.before?.body === 'string' ? ctx.before.body : '' }) },
  'suite.licensing.attach-licenses.update': { params: () => ({ licenses: [] }) },
  // Every valid licence is stored and the notice cannot be shown again: no harmless valid request.
  'suite.licensing.set-license.update': { control: 'names-param', params: () => ({ license: 'cmsc-no-such-license' }) },
  'suite.licensing.user.activation-notice-dismiss.update': { control: 'names-param', params: () => ({ last_detached_count: 0 }) },
};

// ---------------------------------------------------------------------------------------------
// the behaviours
// ---------------------------------------------------------------------------------------------

const ok = (res: Response) => res.status >= 200 && res.status < 300;

/** An anonymous answer: accepted is a leak, a server error is no refusal, no route is no route. */
function expectAnonymousRefused(t: BehaviourContext, res: Response, what: string, write: boolean, params: readonly string[], existence?: string): void {
  if (existence && isNoRoute(res)) t.skip(`depends on ${existence}: ${what} answered ${brief(res)}, the route does not exist on the target`);
  if (ok(res)) t.fail(`${what} without credentials was ${write ? 'accepted' : 'answered'} (${res.status})${write ? '' : `: ${show(res.body)}`}`);
  if (isNoRoute(res)) t.fail(`${what} without credentials answered ${brief(res)}: the documented route does not take ${what.split(' ')[0]}`);
  if (res.status >= 500) t.fail(`${what} without credentials answered a server error ${brief(res)}, not a refusal`);
  // The reference implementation refuses for want of credentials (401/403), after checking the
  // parameters (a parameter error comes first there). Any other refusal was made after the
  // request was let through: the answer of a server that processed it as anyone's.
  if (!forbidden(res) && !isValidationError(res, params))
    t.fail(`${what} without credentials answered ${brief(res)}: not a refusal for want of credentials (401/403) nor of its parameters, so the request was processed without them`);
}

/** Send `params` without or with the configured credentials; `omitted`: the required arguments left out on purpose (a route without a harmless valid value). */
function send(t: BehaviourContext, method: Method, path: string, params: Params, anonymous: boolean, omitted: string[] = []): Promise<Response> {
  const inQuery = method === 'GET' || method === 'DELETE';
  return t.client.request(method, path, { ...(inQuery ? { query: params as Record<string, never> } : { body: params }), ...(anonymous ? { auth: 'none' as const } : {}), ...(omitted.length ? { invalid: omitted } : {}) });
}

/** The documented required arguments `params` leaves out. */
const omittedOf = (endpoint: EndpointSpec, params: Params): string[] =>
  endpoint.args === 'not-shown' ? [] : Object.entries(endpoint.args).filter(([n, a]) => a.required === true && !(n in params)).map(([n]) => n);

/** The route's path with harmless samples for its segments (support.ts sampleSegment; else a value of the documented pattern, or '1'). */
const concretePath = (t: BehaviourContext, route: RouteSpec): string =>
  Object.entries(route.params ?? {}).reduce((p, [param, spec]) => p.replace(`<${param}>`, sampleSegment(t, route, param, spec.pattern ? segmentSamples(spec.pattern).accept[0]! : '1')), route.path);

const routes = catalog.routes.filter((r) => NAMESPACES.includes(r.namespace));

for (const route of routes) {
  const read = route.endpoints.find((e) => e.methods.includes('GET'));
  for (const endpoint of route.endpoints) {
    const access = extensionAnonymousAccess[endpoint.id];
    if (!access || access.public) continue;
    const plan = PLANS[endpoint.id] ?? {};
    const isRead = endpoint.methods.includes('GET');
    const ns = route.namespace.split('/')[0]!;
    const methods = endpoint.methods as Method[];
    behaviour(
      extDecl(`${ns}.security.${endpoint.id.slice(ns.length + 1)}`, {
        level: 'SECURITY',
        namespace: route.namespace,
        route: route.path,
        title: isRead
          ? `GET ${route.path} without credentials is refused (the reference implementation refuses it) and serves nothing`
          : `${methods.join(', ')} ${route.path} without credentials ${methods.length > 1 ? 'are' : 'is'} refused and change${methods.length > 1 ? '' : 's'} nothing`,
        spec: SPEC,
        covers: [`endpoint:${endpoint.id}`],
      }),
      async (t) => {
        t.requireNamespace(route.namespace);
        t.requireCredentials();
        if (!isRead) t.requireWrites();
        const path = plan.path ? await plan.path(t) : concretePath(t, route);
        // The one credentialed read: the state before, and the control of the route's GET.
        const before = read && (!isRead || plan.control === 'read') ? await t.client.get(path, { query: requiredQuery(t, read.args) as Record<string, never> }) : undefined;
        const ctx: Ctx = { path, before, params: {} };
        ctx.params = isRead ? requiredQuery(t, endpoint.args) : plan.params ? await plan.params(t, ctx) : {};
        const anonymous: Response[] = [];
        for (const method of methods) {
          const res = await send(t, method, path, ctx.params, true, omittedOf(endpoint, ctx.params));
          anonymous.push(res);
          if (ok(res)) t.counterexample({ method, path, params: ctx.params, auth: 'none', status: res.status });
          // A read that fails with a server error for everyone shows nothing about who may read it
          // (its own read check judges the error): the same read with credentials, compared.
          if (isRead && res.status >= 500) skipIfAlike(t, `${method} ${path}`, ctx.before ?? (ctx.before = await t.client.get(path, { query: ctx.params as Record<string, never> })), [res]);
          expectAnonymousRefused(t, res, `${method} ${path}${Object.keys(ctx.params).length ? ` ${show(ctx.params)}` : ''}`, !isRead, Object.keys(ctx.params), plan.existence);
        }
        const changed = plan.verify ? await plan.verify(t, ctx) : await readBack(t, route, read, ctx);
        if (changed) t.fail(`after the refused anonymous ${methods.join(', ')} ${path}: ${changed}`);
        await control(t, { route, endpoint, plan, ctx, anonymous, read });
      },
      { concurrent: true },
    );
  }
}

/**
 * The values sent without credentials read back with credentials: unchanged. Only where the route
 * has a GET whose answer carries what was sent (the spec does not show the bodies); those values
 * were the target's own, so a change shows a write that was applied.
 */
async function readBack(t: BehaviourContext, _route: RouteSpec, read: EndpointSpec | undefined, ctx: Ctx): Promise<string | undefined> {
  if (!read || !ctx.before || !answered(ctx.before)) return undefined;
  const after = await t.client.get(ctx.path, { query: requiredQuery(t, read.args) as Record<string, never> });
  if (!answered(after)) return undefined;
  if (isObject(ctx.before.body) && isObject(after.body)) {
    const diff = Object.keys(ctx.params).filter((k) => k in (ctx.before!.body as object) && JSON.stringify((ctx.before!.body as Params)[k]) !== JSON.stringify((after.body as Params)[k]));
    if (diff.length) return `GET ${ctx.path} now reads ${diff.map((k) => `${k} = ${show((after.body as Params)[k])} (was ${show((ctx.before!.body as Params)[k])})`).join(', ')}`;
  }
  return undefined;
}

/**
 * A refusal (or an error) that answers exactly like the request with credentials shows nothing
 * about anonymous access: the route refuses or fails everyone alike here (the credentials are
 * refused too, or the valid request is refused as invalid), so nothing was served to anyone; a
 * skip, not a security failure (the route's own checks judge the refusal or the error).
 */
function skipIfAlike(t: BehaviourContext, what: string, res: Response, anonymous: Response[]): void {
  // A validation error alike too: the valid request with credentials refused as the anonymous one
  // was, so the route refuses every request (its own method and parameter checks say so).
  const same = anonymous.find((a) => a.status === res.status && !isNoRoute(res) && brief(a) === brief(res));
  if (same && !answered(res)) t.skip(`without credentials ${what} was answered exactly as with the configured credentials (${brief(res)}): the route refuses both alike, so the refusal of anonymous access cannot be told from a route that refuses everyone`);
}

async function control(
  t: BehaviourContext,
  c: { route: RouteSpec; endpoint: EndpointSpec; plan: Plan; ctx: Ctx; anonymous: Response[]; read: EndpointSpec | undefined },
): Promise<void> {
  const { route, endpoint, plan, ctx, anonymous, read } = c;
  const method = endpoint.methods[0] as Method;
  if (plan.control === 'names-param') {
    const required = Object.keys(ctx.params);
    const res = await send(t, method, ctx.path, {}, false, omittedOf(endpoint, {})); // the required arguments left out on purpose
    if (isNoRoute(res)) t.fail(`${method} ${ctx.path} {} with credentials answered ${brief(res)}: the route does not exist`);
    if (!(isValidationError(res, required) && required.every((p) => namesParam(res, p))))
      t.skip(`${method} ${ctx.path} without credentials was refused (${anonymous.map(brief).join('; ')}), but every valid request to this route changes the site for good, and the request without ${required.join(', ')} with credentials answered ${brief(res)}, not a refusal naming it: the refusal cannot be told from a route that refuses everything`);
    return;
  }
  if (plan.control === 'read' && read) {
    const res = ctx.before ?? (await t.client.get(ctx.path));
    skipIfAlike(t, `GET ${ctx.path}`, res, anonymous);
    expectControl(t, { what: `GET ${ctx.path} with the configured credentials`, res, refusals: anonymous });
    return;
  }
  const params = plan.controlParams ? plan.controlParams(t, ctx) : ctx.params;
  const res = await send(t, method, ctx.path, params, false);
  if (answered(res)) await plan.cleanup?.(t, res);
  // Should a server install the junk helper script after all, it is removed at once.
  if (endpoint.id === 'suite.backup-helper-script.create' && answered(res) && typeof res.body?.path === 'string') await t.client.request('DELETE', ctx.path, { query: { path: res.body.path } });
  const what = `${method} ${ctx.path}${Object.keys(params).length ? ` ${show(params)}` : ''} with the configured credentials`;
  // A refusal that answers exactly like the request with credentials shows nothing about anonymous
  // access: the route refuses everyone alike here (the credentials are refused too), so nothing was
  // served to anyone; a skip, not a security failure (and the route's own checks judge the refusal).
  skipIfAlike(t, `${method} ${ctx.path}`, res, anonymous);
  if (!answered(res)) {
    skipIfForbidden(t, res, what);
    // A request that names nothing passes when refused for another reason than its parameters (expectControl), the missing service included.
    if (route.namespace === SUITE && plan.kind !== 'passes-validation') await skipIfRemoteUnavailable(t, route.id, res, what);
    if (res.status === 404 && !isNoRoute(res) && plan.kind !== 'passes-validation' && !plan.path && Object.keys(route.params ?? {}).length)
      t.skip(`${what} answered ${brief(res)} for a path segment not known to name anything on the target (the route's members are not shown); the anonymous request was refused (${anonymous.map(brief).join('; ')})`);
  }
  expectControl(t, { what, res, refusals: anonymous, kind: plan.kind, open: plan.open });
}
