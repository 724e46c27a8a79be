/**
 * One broken thing is one finding: a route that answers everyone alike (a server error for every
 * read, a refusal of every write as invalid) shows nothing about who may use it without credentials, so its
 * security check skips saying so and the route's own checks fail; a route that fails only the
 * anonymous request still fails its security check.
 */
import { describe, expect, it } from 'vitest';
import { json, type Fault } from '../../faults/proxy.ts';
import { startReferenceServer } from '../../targets/reference/index.ts';
import { inProcessRuns } from '../helpers/harness.ts';

const BACKUP = /^\/suite\/v4\/comments\/[^/]+\/backup$/;
const error500 = () => json(500, { code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 500 } });
const ATTACH = '/suite/v4/licensing/attach-licenses';
const ONLY = '^suite\\.(security|read)\\.comments\\.backup|^suite\\.(security|methods)\\.licensing\\.attach-licenses\\.update$';

const runSuite = inProcessRuns();

async function run(fault: Fault) {
  const server = await startReferenceServer({ port: 0 });
  try {
    const r = (await runSuite({ url: server.url, user: server.user, appPassword: server.appPassword, profile: 'spec' }, { only: ONLY, faults: [fault] })).results();
    return Object.fromEntries(r.behaviours.map((b) => [b.id, b]));
  } finally {
    await server.stop();
  }
}

describe('security checks of a route that answers everyone alike', () => {
  it('a server error for every read: the security check skips, the read check fails', async () => {
    const b = await run({
      id: 'double.alike',
      title: 'a 500 for every GET of /comments/<id>/backup',
      caughtBy: [],
      request(req) {
        if (req.method === 'GET' && BACKUP.test(req.route)) return error500();
      },
    });
    expect(b['suite.security.comments.backup.read']).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/answered exactly as with the configured credentials \(500 /) });
    expect(b['suite.read.comments.backup']!.status).toBe('failed');
  });

  it('a write route that refuses every request as invalid, with credentials or not: the security check skips, the route\'s method check fails', async () => {
    const b = await run({
      id: 'double.write-refuse-all',
      title: 'refuses every POST of /licensing/attach-licenses (400 rest_invalid_param), valid or not',
      caughtBy: [],
      request(req) {
        if (req.method === 'POST' && req.route === ATTACH) return json(400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): x', data: { status: 400, params: { x: 'Invalid parameter.' } } });
      },
    });
    expect(b['suite.security.licensing.attach-licenses.update']).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/answered exactly as with the configured credentials \(400 rest_invalid_param/) });
    expect(b['suite.methods.licensing.attach-licenses.update']!.status).toBe('failed');
  });

  it('a server error only without credentials: the security check fails, the route check passes', async () => {
    const b = await run({
      id: 'double.anonymous-500',
      title: 'a 500 for GET of /comments/<id>/backup without credentials',
      caughtBy: [],
      request(req) {
        if (req.method === 'GET' && BACKUP.test(req.route) && !req.authenticated) return error500();
      },
    });
    expect(b['suite.security.comments.backup.read']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/server error 500/) });
    expect(b['suite.read.comments.backup']!.status).toBe('passed');
  });

  it('the healthy reference server: the security checks pass', async () => {
    const b = await run({ id: 'double.none', title: 'changes nothing', caughtBy: [] });
    expect(b['suite.security.comments.backup.read']!.status).toBe('passed');
    expect(b['suite.security.licensing.attach-licenses.update']!.status).toBe('passed');
    expect(b['suite.methods.licensing.attach-licenses.update']!.status).toBe('passed');
  });
});
