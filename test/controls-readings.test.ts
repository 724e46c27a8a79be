/**
 * How the refusal checks read an answer whatever the target's error body and status codes (core
 * part 7: "Error response body, status codes and error codes: not shown"): WordPress's codes where
 * the answer has them, with any 4xx status; otherwise the parameters its text names, and a missing
 * route by the target's own answer to a route that does not exist (asked once in the setup).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Response } from '../src/http/client.ts';
import { isValidationError, namesParam, noRoute, sameRefusal } from '../src/sdk/controls.ts';
import { setNoRouteAnswer } from '../src/core/no-route.ts';
import { isApplicationError } from '../src/http/transient.ts';
import { namedParams } from '../suites/extensions/lib/support.ts';

const res = (status: number, body?: unknown): Response => ({ status, headers: {}, body, text: JSON.stringify(body ?? null), durationMs: 1, exchange: {} as Response['exchange'] });
const wp = (status: number, code: string, params?: unknown) => res(status, { code, message: 'm', data: { status, ...(params ? { params } : {}) } });
const plain = (status: number, message: string) => res(status, { error: { message } });

afterEach(() => setNoRouteAnswer(undefined));

describe("WordPress's validation errors", () => {
  it('are told by their code, with any 4xx status', () => {
    for (const status of [400, 422]) {
      expect(isValidationError(wp(status, 'rest_invalid_param', { a: 'x' }))).toBe(true);
      expect(isValidationError(wp(status, 'rest_missing_callback_param', ['a']))).toBe(true);
    }
    expect(isValidationError(wp(500, 'rest_invalid_param'))).toBe(false);
    expect(isValidationError(wp(409, 'inactive'), ['a'])).toBe(false);
    expect(namesParam(wp(422, 'rest_invalid_param', { a: 'x' }), 'a')).toBe(true);
    expect(namesParam(wp(422, 'rest_invalid_param', { a: 'x' }), 'b')).toBe(false);
  });
});

describe('errors of another shape', () => {
  it("are refusals of the request's parameters when their text names one of them", () => {
    const missing = plain(422, 'Missing parameter(s): helper');
    expect(isValidationError(missing, ['helper'])).toBe(true);
    expect(isValidationError(missing)).toBe(false);
    expect(isValidationError(plain(400, 'helpers are offline'), ['helper'])).toBe(false);
    expect(isValidationError(plain(403, 'helper: not allowed'), ['helper'])).toBe(false);
    expect(namesParam(missing, 'helper')).toBe(true);
    expect(namedParams(res(400, { error: 'bad: last_detached_count, data' }), ['last_detached_count', 'data', 'path'])).toEqual(['last_detached_count', 'data']);
    // Keys are not words of the message.
    expect(namesParam(res(400, { error: { message: 'bad request' }, data: {} }), 'data')).toBe(false);
  });
  it('are the same refusal when status and body are the same', () => {
    expect(sameRefusal(plain(400, 'x is invalid'), plain(400, 'x is invalid'))).toBe(true);
    expect(sameRefusal(plain(400, 'x is invalid'), plain(400, 'the module is not active'))).toBe(false);
    expect(sameRefusal(wp(400, 'rest_invalid_param', { x: 1 }), wp(400, 'rest_invalid_param', { x: 1 }))).toBe(true);
  });
  it("are the application's answer in a 500 or 501, not a gateway's", () => {
    const body = JSON.stringify({ error: { message: 'revisions have no trash' } });
    expect(isApplicationError(body, 501, 'application/json; charset=UTF-8')).toBe(true);
    expect(isApplicationError(body, 502, 'application/json')).toBe(false);
    expect(isApplicationError(body)).toBe(false);
    expect(isApplicationError('<html>500</html>', 500, 'text/html')).toBe(false);
    expect(isApplicationError(JSON.stringify({ code: 'x', message: 'y' }), 502)).toBe(true);
  });
});

describe('a missing route', () => {
  it("is WordPress's rest_no_route; a 404 with another code is the route's own answer", () => {
    expect(noRoute(wp(404, 'rest_no_route'))).toBe(true);
    expect(noRoute(wp(404, 'rest_post_invalid_id'))).toBe(false);
    expect(noRoute(res(404, undefined))).toBe(true);
  });
  it("without codes, is the target's answer to a route that does not exist", () => {
    const missing = plain(404, 'No route was found matching the URL and request method.');
    setNoRouteAnswer({ status: 404, text: missing.text });
    expect(noRoute(missing)).toBe(true);
    expect(noRoute(plain(404, 'The notice cmsc does not exist.'))).toBe(false);
    expect(isValidationError(missing, ['route'])).toBe(false);
    // A target that answers WordPress's codes: a 404 without one is still no route (a 404 page).
    setNoRouteAnswer({ status: 404, text: wp(404, 'rest_no_route').text });
    expect(noRoute(plain(404, 'not found'))).toBe(true);
  });
});
