/**
 * Failure isolation: a behaviour fails only because of its own documented item. Against the
 * reference server with one module missing (latex: no toggle on GET /settings, 404 on its routes)
 * and one setting read with the wrong type (carousel_background_color answered as a number), the
 * whole extension run fails exactly the checks that own those items; the checks that need them
 * skip naming the owner; everything else passes.
 */
import { expect, it } from 'vitest';
import { faultById } from '../../faults/index.ts';
import { json, type Fault } from '../../faults/proxy.ts';
import { startReferenceServer } from '../../targets/reference/index.ts';
import { runSuite } from '../helpers/harness.ts';
import { EXTENSION_BEHAVIOURS } from './rounds.ts';

const wrongType: Fault = {
  id: 'test.suite.setting-read-wrong-type',
  title: 'answers carousel_background_color on GET /settings as a number',
  caughtBy: [],
  response(req, res) {
    if (req.route === '/suite/v4/settings' && req.method === 'GET' && res.json) res.json.carousel_background_color = 5;
  },
};

it('one missing module and one wrong-typed setting are a few failures, never a cascade', async () => {
  const server = await startReferenceServer({ port: 0 });
  try {
    const run = await runSuite(
      { url: server.url, user: server.user, appPassword: server.appPassword, profile: 'spec' },
      { only: EXTENSION_BEHAVIOURS, faults: [faultById('ext.suite.module-unknown'), wrongType] },
    );
    const results = run.results();
    expect(results.errors).toEqual([]);
    const by = (status: string) => results.behaviours.filter((b) => b.status === status).map((b) => b.id).sort();
    expect(by('failed')).toEqual(['suite.modules.value.latex', 'suite.read.module.item', 'suite.settings.value.carousel-background-color']);
    expect(by('error')).toEqual([]);
    const skipped = results.behaviours.filter((b) => b.status === 'skipped');
    expect(skipped.map((b) => b.id).sort()).toEqual([
      'suite.modules.toggle-type.latex',
      'suite.modules.toggle.latex',
      'suite.settings.enum.carousel-background-color',
      'suite.settings.module-route.carousel-background-color',
      'suite.settings.module-values.carousel-background-color',
      'suite.settings.per-module-values.carousel-background-color',
      'suite.settings.roundtrip.carousel-background-color',
      'suite.settings.type.carousel-background-color',
    ]);
    for (const b of skipped) expect(b.reason).toMatch(/^depends on suite\.(modules\.value\.latex|settings\.value\.carousel-background-color), which failed/);
    expect(by('passed').length).toBeGreaterThan(500);
  } finally {
    await server.stop();
  }
});
