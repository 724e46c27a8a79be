/**
 * Positive controls for refusal checks. A check that a server refuses an invalid request
 * means something only when the same route accepts the nearest valid request: a route that
 * refuses everything, or does not exist (404 rest_no_route), would "refuse" the invalid one
 * too. Every refusal check sends its control and fails, saying why, when the control is not
 * accepted.
 */
import type { BehaviourContext } from './behaviour.ts';
import { gatewayTrouble, type Response } from '../http/client.ts';
import { TargetError } from '../core/errors.ts';
import { noRouteAnswer } from '../core/no-route.ts';
import { noteJudged } from './failure-message.ts';

const ok = (status: number) => status >= 200 && status <= 299;

/** The error code of WordPress's error body (`{code, message, data}`), when the answer has one. */
export function wpErrorCode(res: Pick<Response, 'body'>): string | undefined {
  const b = res.body;
  return b && typeof b === 'object' && !Array.isArray(b) && typeof b.code === 'string' ? b.code : undefined;
}


const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text.trim();
  }
};

/**
 * Does the answer say the route does not exist? WordPress answers 404 rest_no_route, and a 404
 * with another code is the route's own answer about a member (`rest_post_invalid_id`). Part 7 shows
 * no error body, though: where the target's errors carry no such code, a 404 is the answer to a
 * missing route when it is the answer the target gives a route that surely does not exist (asked
 * once in the run's setup), else the route's own answer. Without that answer, any 404 without a
 * code (a 404 page that is not a JSON error of the route at all) is a missing route.
 */
export function noRoute(res: Pick<Response, 'status' | 'body'> & { text?: string }): boolean {
  if (res.status !== 404) return false;
  const code = wpErrorCode(res);
  if (code !== undefined) return code === 'rest_no_route';
  const known = noRouteAnswer();
  if (!known || wpErrorCode({ body: parsed(known.text) }) !== undefined) return true;
  return res.status === known.status && JSON.stringify(parsed(res.text ?? JSON.stringify(res.body ?? ''))) === JSON.stringify(parsed(known.text));
}

/** "404 rest_no_route" / "400 rest_invalid_param" / "500": the status and the error code, if any. The answer is noted as one the check judges. */
export function answerOf(res: Pick<Response, 'status' | 'body'> & { exchange?: Response['exchange'] }): string {
  noteJudged(res);
  return answerText(res);
}

/** The status and error code of an answer, without noting it as judged. */
function answerText(res: Pick<Response, 'status' | 'body'>): string {
  const code = res.body && typeof res.body === 'object' && !Array.isArray(res.body) && typeof res.body.code === 'string' ? ` ${res.body.code}` : '';
  return `${res.status}${code}`;
}

/**
 * Why a valid request was not accepted, in words a user can act on: the documented route does
 * not exist, or it refuses a valid request (so its refusals say nothing).
 */
export function whyNotAccepted(res: Pick<Response, 'status' | 'body' | 'text'> & { headers?: Response['headers']; exchange?: Response['exchange'] }, what: string): string {
  notGatewayTrouble(res, what);
  noteJudged(res);
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
 * compares the answer to an invalid request with the answer to a valid one. The same status and
 * error code (WordPress's); where the answers carry no code, the same status and body.
 */
export function sameRefusal(a: Pick<Response, 'status' | 'body'>, b: Pick<Response, 'status' | 'body'>): boolean {
  if (ok(a.status) || answerText(a) !== answerText(b)) return false;
  return wpErrorCode(a) !== undefined || JSON.stringify(a.body) === JSON.stringify(b.body);
}

const refusal4xx = (res: Pick<Response, 'status'>) => res.status >= 400 && res.status < 500;

/** The string values of an answer's body (its message, wherever the body puts it), or its text. */
function bodyWords(res: Pick<Response, 'body'> & { text?: string }): string {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  if (res.body === undefined) return res.text ?? '';
  walk(res.body);
  return out.join('\n');
}

/** Does the text of an answer name `param` (as a word of its own)? */
const textNames = (res: Pick<Response, 'body'> & { text?: string }, param: string): boolean =>
  new RegExp(`(^|[^A-Za-z0-9_-])${param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_-])`).test(bodyWords(res));

/**
 * A refusal of the request's parameters as such. WordPress's validation errors
 * (wordpress-behaviour.md §2) by their code, with any 4xx status (WordPress answers 400; part 7
 * shows no status codes, a server may answer 422). Part 7 shows no error body either: given the
 * request's parameters, a 4xx that is neither a permission refusal nor a missing route and whose
 * body names one of them (its message: "helper is required") is one too.
 */
export function isValidationError(res: Response, params: readonly string[] = []): boolean {
  const code = wpErrorCode(res);
  if (code !== undefined) return refusal4xx(res) && (code === 'rest_invalid_param' || code === 'rest_missing_callback_param');
  if (!refusal4xx(res) || res.status === 401 || res.status === 403 || noRoute(res)) return false;
  return params.some((p) => textNames(res, p));
}

/**
 * Does a refusal name `param`? WordPress's validation errors in `data.params` (a list for missing,
 * an object for invalid); an error without WordPress's code in its text.
 */
export function namesParam(res: Response, param: string): boolean {
  if (wpErrorCode(res) === undefined) return textNames(res, param);
  const params = res.body?.data?.params;
  if (Array.isArray(params)) return params.includes(param);
  return !!params && typeof params === 'object' && Object.prototype.hasOwnProperty.call(params, param);
}
