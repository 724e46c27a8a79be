/**
 * How the extension suites (spamfilter/v1, contactform/v1, suite/v4) read an answer: answered,
 * refused, forbidden, no route, a refusal of the parameters (and which), the evidence that an
 * external service is missing; and the positive control every refusal check needs. Restoring what a
 * behaviour changed is restore.ts; the suite's external service and module hints suite-service.ts;
 * values of a documented type schemas/values.ts.
 *
 * Errors are "not shown" in the spec (core part 7), so "refused" means a 4xx answer: the server
 * turned the request down as a client error. A 5xx is a server failure, never a refusal.
 */
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Response } from '../../../src/sdk/http.ts';
import { isValidationError, namesParam, noRoute, wpErrorCode } from '../../../src/sdk/controls.ts';

export const SPAMFILTER = 'spamfilter/v1';
export const CONTACTFORM = 'contactform/v1';
export const SUITE = 'suite/v4';

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
