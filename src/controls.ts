/**
 * Positive controls for refusal checks. A check that a server refuses an invalid request
 * means something only when the same route accepts the nearest valid request: a route that
 * refuses everything, or does not exist (404 rest_no_route), would "refuse" the invalid one
 * too. Every refusal check sends its control and fails, saying why, when the control is not
 * accepted.
 */
import type { BehaviourContext } from './behaviour.ts';
import { gatewayTrouble, type Response } from './client.ts';
import { TargetError } from './errors.ts';

const ok = (status: number) => status >= 200 && status <= 299;

/** Does the answer say the route does not exist (WordPress: 404 rest_no_route)? */
export function noRoute(res: Pick<Response, 'status' | 'body'>): boolean {
  return res.status === 404 && (res.body?.code === 'rest_no_route' || res.body?.code === undefined);
}

/** "404 rest_no_route" / "400 rest_invalid_param" / "500": the status and the error code, if any. */
export function answerOf(res: Pick<Response, 'status' | 'body'>): string {
  const code = res.body && typeof res.body === 'object' && !Array.isArray(res.body) && typeof res.body.code === 'string' ? ` ${res.body.code}` : '';
  return `${res.status}${code}`;
}

/**
 * Why a valid request was not accepted, in words a user can act on: the documented route does
 * not exist, or it refuses a valid request (so its refusals say nothing).
 */
export function whyNotAccepted(res: Pick<Response, 'status' | 'body' | 'text'> & { headers?: Response['headers'] }, what: string): string {
  notGatewayTrouble(res, what);
  if (noRoute(res)) return `${what} answered ${answerOf(res)}: the documented route does not exist on the target`;
  if (res.status === 0) return `${what} got no answer`;
  return `${what} answered ${answerOf(res)}: the route refuses a valid request ${res.text ? `(${res.text.slice(0, 160)})` : ''}`.trim();
}

/**
 * A control (or read-back) that met the trouble of something between us and the application (a
 * gateway's 5xx page, a 429, an HTML page for JSON) says nothing about the route: the check cannot
 * be made (a target error), never "the route refuses a valid request". The client throws these
 * itself after its retries; this guards answers obtained some other way (`anyAnswer`, a replay).
 */
export function notGatewayTrouble(res: Pick<Response, 'status' | 'text'> & { headers?: Response['headers'] }, what: string): void {
  if (res.status === 0) return;
  const trouble = gatewayTrouble('GET', res.status, res.headers ?? {}, res.text);
  if (trouble) throw new TargetError(`${what} ${trouble}: the check could not be made`, `HTTP_${res.status}`);
}

/**
 * The positive control of a refusal check: `res` answers the nearest valid request and must be
 * accepted (2xx). `refusal` names what the behaviour checks is refused, for the message.
 */
export function expectControlAccepted(t: Pick<BehaviourContext, 'fail'>, res: Response, what: string, refusal?: string): void {
  if (ok(res.status)) return;
  const tail = refusal ? `; so the refusal of ${refusal} shows nothing` : '';
  t.fail(`positive control: ${whyNotAccepted(res, what)}${tail}`);
}

/**
 * A refusal that answers exactly like the control's refusal is no evidence: used where a check
 * compares the answer to an invalid request with the answer to a valid one.
 */
export function sameRefusal(a: Pick<Response, 'status' | 'body'>, b: Pick<Response, 'status' | 'body'>): boolean {
  return !ok(a.status) && answerOf(a) === answerOf(b);
}

/** WordPress's validation errors (wordpress-behaviour.md §2): the request's parameters were rejected as such. */
export function isValidationError(res: Response): boolean {
  const code = res.body?.code;
  return res.status === 400 && (code === 'rest_invalid_param' || code === 'rest_missing_callback_param');
}

/** Does a validation error name `param` (data.params is a list for missing, an object for invalid)? */
export function namesParam(res: Response, param: string): boolean {
  const params = res.body?.data?.params;
  if (Array.isArray(params)) return params.includes(param);
  return !!params && typeof params === 'object' && Object.prototype.hasOwnProperty.call(params, param);
}
