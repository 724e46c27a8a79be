/**
 * The positive control of a refusal check (support.ts expectControl) and restoring what a check
 * changed (withRestore), on canned answers: a route that does not exist or refuses every request
 * fails; a valid request refused because a service is missing, or for a value the spec leaves
 * open, skips; a harmless request that passes the parameter check passes; a restore that goes
 * wrong is the target's error, never a conformance failure.
 */
import { describe, expect, it } from 'vitest';
import type { BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/http/client.ts';
import { ConformanceFailure } from '../../src/core/errors.ts';
import { expectControl, remoteEvidence, type Control } from '../../suites/extensions/lib/support.ts';
import { withRestore } from '../../suites/extensions/lib/restore.ts';

const res = (status: number, body?: unknown): Response => ({ status, headers: {}, body, text: JSON.stringify(body ?? null), durationMs: 1, exchange: {} as Response['exchange'] });
const invalid = (param: string) => res(400, { code: 'rest_invalid_param', message: `Invalid parameter(s): ${param}`, data: { status: 400, params: { [param]: 'Invalid parameter.' } } });

class Skipped extends Error {}
const t = {
  fail(message: string): never {
    throw new ConformanceFailure(message);
  },
  skip(reason: string): never {
    throw new Skipped(reason);
  },
} as unknown as BehaviourContext;

/** 'pass', 'fail: …' or 'skip: …' */
function verdict(c: Omit<Control, 'what'>): string {
  try {
    expectControl(t, { what: 'POST /x {a: 1}', ...c });
    return 'pass';
  } catch (e) {
    return `${e instanceof Skipped ? 'skip' : 'fail'}: ${(e as Error).message}`;
  }
}

describe('expectControl', () => {
  it('passes when the valid request is accepted', () => {
    expect(verdict({ res: res(200, { code: 'success' }), refusals: [invalid('a')] })).toBe('pass');
  });
  it('fails when the route does not exist', () => {
    expect(verdict({ res: res(404, { code: 'rest_no_route', message: 'No route' }), refusals: [res(404, { code: 'rest_no_route' })] })).toMatch(/^fail: .*does not exist/);
  });
  it('fails when the valid request is refused the same way as the invalid one', () => {
    expect(verdict({ res: invalid('x'), refusals: [invalid('x'), invalid('x')] })).toMatch(/^fail: the route refuses every request/);
  });
  it('fails when the valid request is refused as invalid in a documented parameter', () => {
    expect(verdict({ res: invalid('a'), refusals: [res(400, { code: 'rest_missing_callback_param', data: { status: 400, params: ['a'] } })] })).toMatch(/^fail: .*refused as invalid/);
  });
  it('skips when the valid request is refused for a parameter whose values the spec leaves open', () => {
    expect(verdict({ res: invalid('object_type'), refusals: [invalid('object_type')], open: ['object_type'] })).toMatch(/^skip: .*leaves open/);
  });
  it('skips when the answer names a missing service, also when the invalid requests got the same', () => {
    const key = res(400, { code: 'invalid_key', message: 'The value provided is not a valid and registered API key.' });
    expect(verdict({ res: key, refusals: [key] })).toMatch(/^skip: .*names a service/);
  });
  it('skips when it cannot tell (the valid request is refused for another reason, without evidence)', () => {
    expect(verdict({ res: res(400, { code: 'some_updated', message: '' }), refusals: [invalid('a')] })).toMatch(/^skip: .*cannot be told apart/);
  });
  it('a harmless request that passes the parameter check (refused for another reason) passes, unless refused like the invalid one', () => {
    const notFound = res(404, { code: 'plugin_not_found', message: 'Plugin x is not installed.' });
    expect(verdict({ res: notFound, refusals: [invalid('status')], kind: 'passes-validation' })).toBe('pass');
    expect(verdict({ res: invalid('status'), refusals: [invalid('status')], kind: 'passes-validation' })).toMatch(/^fail: the route refuses every request/);
    expect(verdict({ res: res(404, { code: 'rest_no_route' }), refusals: [invalid('status')], kind: 'passes-validation' })).toMatch(/^fail: .*does not exist/);
  });
  it('a permission refusal skips (which routes need which capability is not shown)', () => {
    expect(verdict({ res: res(403, { code: 'rest_forbidden' }), refusals: [invalid('a')] })).toMatch(/^skip: the configured credentials may not/);
  });
});

describe('remoteEvidence', () => {
  it('names the service, the connection, a registration or token; never for a parameter error or a missing route', () => {
    expect(remoteEvidence(res(400, { code: 'site_id_missing', message: 'Site ID is missing.' }))).toBeDefined();
    expect(remoteEvidence(res(500, { code: 'failed_test__outbound_http', message: 'Your server did not successfully connect to WordPress.com using HTTP.' }))).toBeDefined();
    expect(remoteEvidence(res(500, { code: 'site_not_registered', message: 'Site not registered.' }))).toBeDefined();
    expect(remoteEvidence(invalid('x'))).toBeUndefined();
    expect(remoteEvidence(res(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.' }))).toBeUndefined();
    expect(remoteEvidence(res(500, { code: 'internal_server_error', message: 'There has been a critical error on this website.' }))).toBeUndefined();
  });
});

describe('withRestore', () => {
  it('a restore that goes wrong is a target error, never a conformance failure', async () => {
    const err = await withRestore(async () => 1, async () => 'POST /x answered 400').catch((e: Error) => e);
    expect(err).toMatchObject({ name: 'TargetError', message: "could not restore the target's state: POST /x answered 400" });
  });
  it('the check\'s own failure wins over a restore problem', async () => {
    const err = await withRestore(async () => t.fail('the check failed'), async () => 'POST /x answered 400').catch((e: Error) => e);
    expect(err).toMatchObject({ name: 'ConformanceFailure', message: 'the check failed' });
  });
});
