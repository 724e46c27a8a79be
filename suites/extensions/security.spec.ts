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
import type { EndpointSpec, RouteSpec } from '../../schemas/types.ts';
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Method, Response } from '../../src/sdk/http.ts';
import { isObject, segmentSamples } from '../../src/sdk/discovery.ts';
import { acrossFiles } from '../../src/sdk/worker-state.ts';
import { extDecl } from './lib/declare.ts';
import { routeLock } from './lib/restore.ts';
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
} from './lib/support.ts';
import { sampleSegment, skipIfRemoteUnavailable } from './lib/suite-service.ts';

const SPEC = catalog.authentication.spec;
const NAMESPACES = [SPAMFILTER, CONTACTFORM, SUITE];

import { PLANS, requiredQuery, type Ctx, type Params, type Plan } from './security-plans.ts';

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
        // A write holds what it may change across suite files (restore.ts): its plan's lock, else the
        // state of its route where the route has a GET that other files' checks write and read back.
        const lock = plan.lock ?? (!isRead && read ? routeLock(route.path) : undefined);
        if (lock) await acrossFiles(t.run.info.runId, lock, () => check(t));
        else await check(t);
      },
      { concurrent: true },
    );
    async function check(t: BehaviourContext): Promise<void> {
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
    }
  }
}

/**
 * The values sent without credentials read back with credentials: unchanged. Only where the route
 * has a GET whose answer carries what was sent (the spec does not show the bodies). A value that
 * changed to the one sent shows the write was applied; one that changed to anything else is another
 * behaviour writing the same setting meanwhile, not this request's effect.
 */
async function readBack(t: BehaviourContext, _route: RouteSpec, read: EndpointSpec | undefined, ctx: Ctx): Promise<string | undefined> {
  if (!read || !ctx.before || !answered(ctx.before)) return undefined;
  const after = await t.client.get(ctx.path, { query: requiredQuery(t, read.args) as Record<string, never> });
  if (!answered(after)) return undefined;
  if (isObject(ctx.before.body) && isObject(after.body)) {
    // Changed, and to the value sent without credentials: the anonymous write's own effect (a
    // change to anything else is another behaviour writing the setting meanwhile).
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const diff = Object.keys(ctx.params).filter(
      (k) => k in (ctx.before!.body as object) && !same((ctx.before!.body as Params)[k], (after.body as Params)[k]) && same((after.body as Params)[k], ctx.params[k]),
    );
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
