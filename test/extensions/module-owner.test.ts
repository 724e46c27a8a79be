/**
 * One broken thing is one finding: a setting whose write does not take is looked at again with its
 * module active. When GET /settings does not carry that module's toggle, whether the module is
 * active cannot be told: the setting's round trip skips, depending on the toggle's own check
 * (suite.modules.value.<module>), instead of failing for what may be an inactive module; and so
 * when GET /module/all, which says which module owns the setting, fails (suite.read.module.all).
 */
import { describe, expect, it } from 'vitest';
import { allFaults } from '../../faults/index.ts';
import { json, type Fault } from '../../faults/proxy.ts';
import { startReferenceServer } from '../../targets/reference/index.ts';
import { inProcessRuns } from '../helpers/harness.ts';

const ONLY = '^suite\\.(settings\\.roundtrip\\.monitor-receive-notifications|modules\\.value\\.monitor)$';
/** POST /settings of monitor_receive_notifications answered success, not stored. */
const notStored: Fault = {
  id: 'double.monitor-setting-not-stored',
  title: 'answers success for monitor_receive_notifications without storing it',
  caughtBy: [],
  request(req) {
    if (req.route === '/suite/v4/settings' && req.method === 'POST' && req.json && 'monitor_receive_notifications' in req.json) return json(200, { code: 'success' });
  },
  // Which module owns the setting, as Jetpack says it (the reference server lists no options).
  response(req, res) {
    if (req.route === '/suite/v4/module/all' && req.method === 'GET' && res.json?.monitor) res.json.monitor.options = { monitor_receive_notifications: { type: 'boolean' } };
  },
};

const runSuite = inProcessRuns();

async function run(faults: Fault[]) {
  const s = await startReferenceServer({ port: 0 });
  try {
    const r = (await runSuite({ url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' }, { only: ONLY, faults })).results();
    return Object.fromEntries(r.behaviours.map((b) => [b.id, b]));
  } finally {
    await s.stop();
  }
}

describe('a setting of a module whose toggle GET /settings does not carry', () => {
  it('the write that does not take, the toggle missing: the round trip skips, depending on suite.modules.value.monitor', async () => {
    const b = await run([notStored, allFaults.find((f) => f.id === 'ext.suite.module-toggles-missing')!]);
    expect(b['suite.modules.value.monitor']!.status).toBe('failed');
    expect(b['suite.settings.roundtrip.monitor-receive-notifications']).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^depends on suite\.modules\.value\.monitor: /) });
  });

  it('the write that does not take, the toggle there: the round trip fails (its own finding)', async () => {
    const b = await run([notStored]);
    expect(b['suite.modules.value.monitor']!.status).toBe('passed');
    expect(b['suite.settings.roundtrip.monitor-receive-notifications']!.status).toBe('failed');
  });
});

describe('a setting whose write does not take, when GET /module/all fails', () => {
  it('the round trip skips, depending on suite.read.module.all (which module owns the setting cannot be told)', async () => {
    const moduleAllFails: Fault = {
      id: 'double.module-all-500',
      title: 'a 500 for GET /module/all',
      caughtBy: [],
      request: (req) => (req.route === '/suite/v4/module/all' && req.method === 'GET' ? json(500, { code: 'internal_server_error', message: 'critical error', data: { status: 500 } }) : undefined),
    };
    const s = await startReferenceServer({ port: 0 });
    try {
      const only = '^suite\\.(settings\\.roundtrip\\.monitor-receive-notifications|read\\.module\\.all)$';
      const r = (await runSuite({ url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' }, { only, faults: [notStored, moduleAllFails] })).results();
      const b = Object.fromEntries(r.behaviours.map((x) => [x.id, x]));
      expect(b['suite.read.module.all']!.status).toBe('failed');
      expect(b['suite.settings.roundtrip.monitor-receive-notifications']).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^depends on suite\.read\.module\.all: /) });
    } finally {
      await s.stop();
    }
  });
});
