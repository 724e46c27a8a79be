/**
 * Shared helpers of the extension suites (spamfilter/v1, contactform/v1, suite/v4): how an answer
 * is classified, restoring what a behaviour changed, and the connection probe that tells whether
 * the suite's external service is reachable. Values of a documented type (valid, and invalid even
 * after the coercion a WordPress-style server applies) are schemas/values.ts.
 *
 * Errors are "not shown" in the spec (core part 7), so "refused" means a 4xx answer: the server
 * turned the request down as a client error. A 5xx is a server failure, never a refusal.
 */
import type { RouteSpec } from '../../schemas/types.ts';
import { runContext, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/http/client.ts';
import { TargetError } from '../../src/core/errors.ts';

export const SPAMFILTER = 'spamfilter/v1';
export const CONTACTFORM = 'contactform/v1';
export const SUITE = 'suite/v4';

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

/** Behaviour IDs allow lowercase letters, digits, '.', '-': a setting name becomes `carousel-background-color`. */
export const idPart = (name: string): string => name.toLowerCase().replace(/[^a-z0-9-]+/g, '-');

export const answered = (res: Response): boolean => res.status >= 200 && res.status < 300;
export const refused = (res: Response): boolean => res.status >= 400 && res.status < 500;
export const forbidden = (res: Response): boolean => res.status === 401 || res.status === 403;

/** "400 rest_invalid_param (Invalid parameter(s): x)"; an error body of another shape by its message ("422 (x is required)"). */
export function brief(res: Response): string {
  const b = res.body;
  const obj = b && typeof b === 'object' && !Array.isArray(b) ? b : undefined;
  const code = typeof obj?.code === 'string' ? ` ${obj.code}` : '';
  const message = [obj?.message, obj?.error?.message, obj?.error].find((m): m is string => typeof m === 'string');
  const msg = message ? ` (${message.slice(0, 120)})` : '';
  return `${res.status}${code}${msg}`;
}

export const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 160 ? `${s.slice(0, 160)}…` : s;
};

/** Skip when the configured credentials may not use the route (which routes need which capability is not shown). */
export function skipIfForbidden(t: BehaviourContext, res: Response, what: string): void {
  if (forbidden(res)) t.skip(`the configured credentials may not ${what} (${brief(res)}); which routes need which capability is not shown`);
}

/** The request must be answered with a 2xx; 401/403 skips (capabilities are not shown). */
export function expectAnswered(t: BehaviourContext, res: Response, what: string): void {
  if (answered(res)) return;
  skipIfForbidden(t, res, what);
  t.fail(`${what}: answered ${brief(res)}, expected a 2xx answer`);
}

/** The request must be refused (4xx). */
export function expectRefused(t: BehaviourContext, res: Response, what: string): void {
  if (refused(res)) return;
  if (answered(res)) t.fail(`${what}: accepted (${res.status}), expected it to be refused`);
  t.fail(`${what}: answered ${brief(res)}, expected a 4xx refusal (a 5xx is a server failure, not a refusal)`);
}

import { isValidationError, namesParam, noRoute, wpErrorCode } from '../../src/sdk/controls.ts';
export { isValidationError, namesParam };

/**
 * The parameters a validation error names: WordPress's data.params (a list for missing ones, an
 * object for invalid ones); an error without WordPress's code names those of `candidates` (the
 * request's parameters) its text names (src/sdk/controls.ts namesParam).
 */
export function namedParams(res: Response, candidates: readonly string[] = []): string[] {
  if (wpErrorCode(res) === undefined) return candidates.filter((p) => namesParam(res, p));
  const params = res.body?.data?.params;
  if (Array.isArray(params)) return params.map(String);
  return params && typeof params === 'object' ? Object.keys(params) : [];
}

/**
 * The route does not exist: 404 `rest_no_route` (the reference implementation's answer for an
 * unknown route or method), or, without such codes, the target's answer to a route that does not
 * exist (src/sdk/controls.ts noRoute). A 404 with another code (`not_found`, `wpcf7_not_found`), or
 * another answer, is the route's own answer about a member.
 */
export const isNoRoute = (res: Response): boolean => noRoute(res);

/** Two refusals are the same: same status, same error code, same parameters named; without error codes, the same status and body. */
export function sameRefusal(a: Response, b: Response): boolean {
  const code = (r: Response) => wpErrorCode(r) ?? '';
  const named = (r: Response) => [...namedParams(r)].sort().join(',');
  if (code(a) === '' && code(b) === '') return a.status === b.status && JSON.stringify(a.body) === JSON.stringify(b.body);
  return a.status === b.status && code(a) === code(b) && named(a) === named(b);
}

/**
 * Words by which an error names an external service the target needs: its connection, its
 * registration, a token or site id it holds from the service, the service itself.
 */
const REMOTE_WORDS = /connect|regist|site[ _-]?id|blog[ _-]?id|token|wordpress\.com|wpcom|outbound|remote|offline|akismet|verif/i;

/**
 * The answer shows that an external service is missing: an error (4xx/5xx, not "no route", not a
 * parameter error, not a permission error) whose code or message names the service, the
 * connection, a registration or token. Returns the answer in brief, or undefined.
 */
export function remoteEvidence(res: Response): string | undefined {
  if (res.status < 400 || isNoRoute(res) || isValidationError(res) || forbidden(res)) return undefined;
  const b = res.body && typeof res.body === 'object' && !Array.isArray(res.body) ? res.body : {};
  return REMOTE_WORDS.test(`${b.code ?? ''} ${b.message ?? ''}`) ? brief(res) : undefined;
}

/**
 * What a positive control is:
 * - `accepted`: the nearest valid request; it must be accepted (2xx).
 * - `passes-validation`: where no valid request is harmless (installing a plugin, writing a
 *   script...), a request valid in every documented parameter but naming nothing that exists; it
 *   passes when it is accepted, or refused for another reason than its parameters (not a
 *   parameter error, unlike the refusals): either way the parameters were checked and passed.
 */
export type ControlKind = 'accepted' | 'passes-validation';

export interface Control {
  what: string;
  res: Response;
  /** The answers to the invalid requests, compared with the control's. */
  refusals: Response[];
  kind?: ControlKind;
  /** Parameters whose valid values the spec leaves open: the target refusing our value for them is not a failure. */
  open?: readonly string[];
  /** Where the failure of the valid request itself is reported (a behaviour ID), for the skip message. */
  see?: string;
}

/**
 * The positive control of a refusal check: a refusal only shows that a parameter is checked when
 * the nearest valid request on the same route is accepted. A route that does not exist, or that
 * refuses the valid request the same way as the invalid ones, fails (the refusals show nothing);
 * a valid request refused because an external service is missing, or because a value the spec
 * leaves open is not one the target takes, skips with that evidence.
 */
export function expectControl(t: BehaviourContext, c: Control): void {
  const res = c.res;
  if (answered(res)) return;
  skipIfForbidden(t, res, c.what);
  if (isNoRoute(res)) t.fail(`${c.what} answered ${brief(res)}: the route does not exist, so its refusals show nothing`);
  const named = namedParams(res, c.open);
  if (isValidationError(res, c.open) && named.length && named.every((p) => c.open?.includes(p)))
    t.skip(`the valid ${c.what} was refused for ${named.join(', ')} (${brief(res)}), whose valid values the spec leaves open: the target does not take the value sent, so the refusal cannot be checked`);
  const remote = remoteEvidence(res);
  if (remote && c.kind !== 'passes-validation')
    t.skip(`the refusal cannot be told apart from a route that refuses everything: the valid ${c.what} was refused too (${remote}), an answer that names a service the target is missing`);
  if (c.refusals.length && c.refusals.every((r) => sameRefusal(r, res)))
    t.fail(`the route refuses every request: the valid ${c.what} was refused the same way (${brief(res)}) as the invalid one${c.refusals.length > 1 ? 's' : ''}`);
  if (c.kind === 'passes-validation' && !isValidationError(res)) return;
  if (isValidationError(res)) t.fail(`the valid ${c.what} was refused as invalid (${brief(res)}): the route refuses the documented values too, so its refusal is no check of the parameter`);
  t.skip(
    `the refusal cannot be told apart from a route that refuses everything: the valid ${c.what} was refused too (${brief(res)}), differently from the invalid request${c.see ? ` (see ${c.see})` : ''}`,
  );
}

/**
 * Run `fn`, then `restore` — also when `fn` fails or skips. A restore that goes wrong is the
 * target's trouble (or ours), never a conformance failure: it is thrown as a TargetError (status
 * error, failureKind target), unless `fn` already failed, whose error wins.
 */
export async function withRestore<T>(fn: () => Promise<T>, restore: () => Promise<string | undefined>): Promise<T> {
  let failed = false;
  try {
    return await fn();
  } catch (err) {
    // A skip is not a failure: a restore that goes wrong after it is still reported.
    failed = (err as { code?: string })?.code !== 'VITEST_PENDING';
    throw err;
  } finally {
    const problem = await restore().catch((e: unknown) => `restore threw: ${(e as Error).message}`);
    if (problem && !failed) throw new TargetError(`could not restore the target's state: ${problem}`);
  }
}

/**
 * Run `fn` while holding every lock in `keys` (e.g. `setting:lang_id`, `module:carousel`), so that
 * concurrent behaviours of one file never change the same piece of site state at once. Callers
 * queue on each key in the order they ask, all keys at once, so no two callers wait on each other.
 */
const tails = new Map<string, Promise<void>>();
export async function exclusive<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  const waits = [...new Set(keys)].map((k) => {
    const prev = tails.get(k) ?? Promise.resolve();
    tails.set(k, prev.then(() => mine));
    return prev;
  });
  await Promise.all(waits);
  try {
    return await fn();
  } finally {
    release();
  }
}

// ---------------------------------------------------------------------------
// suite/v4: the external service
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// suite/v4: what the target tells about its modules (GET /module/all)
// ---------------------------------------------------------------------------

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
