/**
 * suite/v4 as a target serves it: harmless samples for the path segments of its routes, whether
 * the target is connected to the suite's external service (and which routes need it), and what GET
 * /module/all tells about the modules (which module owns which setting, which can be activated).
 */
import type { RouteSpec } from '../../../schemas/types.ts';
import { runContext, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Response } from '../../../src/sdk/http.ts';
import { answered, brief, isNoRoute, isValidationError, remoteEvidence } from './support.ts';

/** The spam filter's service name on the target (the first segment of its namespace): the <service> of the suite's key check. */
export const spamService = (t: BehaviourContext): string => t.run.profile.toTargetNamespace('spamfilter/v1').split('/')[0]!;

/**
 * A harmless sample for a suite path segment whose accepted values are not stated: it names
 * nothing real (a module the suite has, the spam filter's service for the key check, a plugin
 * and a service that do not exist); `fallback` for any other segment.
 */
export function sampleSegment(t: BehaviourContext, route: RouteSpec, param: string, fallback: string): string {
  if (route.id === 'suite.module.key.check') return spamService(t);
  if (param === 'slug') return t.run.profile.toTargetModule('stats');
  // A plugin file takes a slash where the segment's documented pattern admits one (`/plugin/<plugin>`);
  // `/plugins/<plugin>` states no pattern, so one segment (which WordPress's pattern admits too).
  if (param === 'plugin') return route.params?.plugin?.pattern?.includes('/') ? 'cmsc-none/cmsc-none' : 'cmsc-none';
  if (param === 'service') return 'google';
  return fallback;
}

/** The route's path with every segment filled by sampleSegment (members need not exist: the requests change nothing). */
export function concrete(t: BehaviourContext, route: RouteSpec): string {
  let path = route.path;
  for (const param of Object.keys(route.params ?? {})) path = path.replace(`<${param}>`, sampleSegment(t, route, param, 'cmsc'));
  return path;
}


// ---------------------------------------------------------------- the external service

/**
 * Routes whose answer comes from the suite's external service (WordPress.com in the reference
 * implementation: wordpress-behaviour.md §12 "Routes that need WordPress.com fail on an
 * unconnected site", and the Jetpack endpoints that proxy WordPress.com, need its blog-token
 * signature, or register the site): catalog route IDs.
 */
export const REMOTE_ROUTES = new Set([
  'suite.site',
  'suite.site.features',
  'suite.site.products',
  'suite.site.purchases',
  'suite.site.benefits',
  'suite.site.activity',
  'suite.site.discount',
  'suite.site.backup.undo-event',
  'suite.site.backup.preflight',
  'suite.plans',
  'suite.products',
  'suite.connection.test',
  'suite.connection.test-wpcom',
  'suite.connection.url',
  'suite.rewind',
  'suite.scan',
  'suite.recommendations.product-suggestions',
  'suite.recommendations.upsell',
  'suite.intro-offers',
  'suite.licensing.user.licenses',
  'suite.licensing.user.counts',
  'suite.comments.backup',
  'suite.posts.backup',
  'suite.terms.backup',
  'suite.users.backup',
  'suite.orders.backup',
  'suite.database-object.backup',
  'suite.options.backup',
  'suite.verify-site.item',
  'suite.verify-site.keyring-id',
  'suite.purchase-token',
  'suite.subscribers.auth',
  'suite.module.key.check',
  'suite.module.data',
]);

export interface Connection {
  /** connected: a route that needs the service answered; disconnected: an answer names the missing service; unknown: neither. */
  state: 'connected' | 'disconnected' | 'unknown';
  detail: string;
}

let connection: Promise<Connection> | undefined;

/**
 * Is the target connected to the suite's external service? Decided once per worker by two
 * documented routes that need it: `GET /suite/v4/connection/test`, else `GET /suite/v4/site`.
 * Either answering 2xx means connected; the target reports it is not connected only when an
 * answer names the service or the connection (remoteEvidence). Anything else (no route, a
 * parameter error, a bare 500) tells nothing.
 */
export function suiteConnection(): Promise<Connection> {
  connection ??= (async () => {
    const client = runContext().client.fork('suite-connection-probe');
    const test = await client.get('/suite/v4/connection/test');
    if (answered(test)) return { state: 'connected', detail: `GET /suite/v4/connection/test answered ${test.status}` };
    const site = await client.get('/suite/v4/site');
    const detail = `GET /suite/v4/connection/test answered ${brief(test)}; GET /suite/v4/site answered ${brief(site)}`;
    if (answered(site)) return { state: 'connected', detail };
    return { state: remoteEvidence(test) || remoteEvidence(site) ? 'disconnected' : 'unknown', detail };
  })();
  return connection;
}

/**
 * Skip when the answer shows that the suite's external service is missing: the answer names it,
 * or the route is one whose answer comes from the service and the target reports it is not
 * connected. Never for a route that does not exist (404 rest_no_route), and never for a refusal
 * of the request's parameters: those are the route's own answers.
 */
export async function skipIfRemoteUnavailable(t: BehaviourContext, routeId: string, res: Response, what: string): Promise<void> {
  if (answered(res) || isNoRoute(res) || isValidationError(res)) return;
  const named = remoteEvidence(res);
  if (named) t.skip(`${what} answered ${named}: the answer names the suite's external service (or the connection to it), which this target is missing`);
  if (!REMOTE_ROUTES.has(routeId)) return;
  const c = await suiteConnection();
  if (c.state === 'disconnected')
    t.skip(`${what} answered ${brief(res)}; its answer comes from the suite's external service, which this target reports it is not connected to (${c.detail})`);
}

// ---------------------------------------------------------------- what the target tells about its modules (GET /module/all)

export interface ModuleHint {
  /** `requires_connection` as the target reports it (the reference implementation's field). */
  requiresConnection?: boolean;
  activated?: boolean;
}

export interface ModuleHints {
  /** Spec module slug -> what the target says about it. */
  modules: Map<string, ModuleHint>;
  /** Spec setting name -> spec slug of the module whose options hold it. */
  owners: Map<string, string>;
  detail: string;
  /** GET /module/all answered 2xx (else nothing is known of which module owns what). */
  answered: boolean;
}

let hints: Promise<ModuleHints> | undefined;

/**
 * GET /suite/v4/module/all, read once per worker. Its body is not shown; the reference
 * implementation answers an object keyed by module slug, each with `requires_connection`,
 * `activated` and (for modules with settings) `options` keyed by setting. Used only as hints:
 * which module owns a setting (settings of one module are stored together, so they are written
 * one at a time), and whether a module can be activated on this target. Empty when the answer
 * is not of that shape.
 */
export function moduleHints(): Promise<ModuleHints> {
  hints ??= (async () => {
    const run = runContext();
    const res = await run.client.fork('suite-module-hints').get('/suite/v4/module/all');
    const out: ModuleHints = { modules: new Map(), owners: new Map(), detail: `GET /suite/v4/module/all answered ${brief(res)}`, answered: answered(res) };
    const body = res.body;
    if (!answered(res) || !body || typeof body !== 'object' || Array.isArray(body)) return out;
    for (const [key, info] of Object.entries(body as Record<string, any>)) {
      if (!info || typeof info !== 'object') continue;
      const slug = run.profile.toSpecModule(key);
      out.modules.set(slug, {
        ...(typeof info.requires_connection === 'boolean' ? { requiresConnection: info.requires_connection } : {}),
        ...(typeof info.activated === 'boolean' ? { activated: info.activated } : {}),
      });
      if (info.options && typeof info.options === 'object' && !Array.isArray(info.options))
        for (const option of Object.keys(info.options)) out.owners.set(run.profile.toSpecSetting(option), slug);
    }
    return out;
  })();
  return hints;
}

/**
 * Why `slug` cannot be activated on this target, by the target's own evidence (GET /module/all
 * says it requires a connection and the target reports it is not connected), else undefined.
 */
export async function cannotActivate(slug: string): Promise<string | undefined> {
  const h = (await moduleHints()).modules.get(slug);
  if (h?.requiresConnection !== true) return undefined;
  const c = await suiteConnection();
  if (c.state !== 'disconnected') return undefined;
  return `GET /suite/v4/module/all reports that module ${slug} requires a connection to the suite's external service, and the target reports it is not connected (${c.detail})`;
}
