/**
 * The extension behaviours against the reference server (all three namespaces, spec names): all
 * pass, the target's settings, key, module toggles and forms are as before the run, and every
 * fault not proven on WordPress makes the behaviours it names fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionFaults } from '../../faults/extensions/index.ts';
import { matchesCaughtBy } from '../../faults/proxy.ts';
import type { Results } from '../../results/results.ts';
import { startReferenceServer, type ReferenceServer } from '../../targets/reference/index.ts';
import { runSuite, type Target } from '../helpers/harness.ts';
import { FRESH_SITE_ROUNDS, REFERENCE_ROUNDS, WORDPRESS_ROUNDS } from './plan.ts';
import { EXTENSION_BEHAVIOURS, notPassed, proveRound } from './rounds.ts';

const target = (s: ReferenceServer): Target => ({ url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' });

async function siteState(s: ReferenceServer): Promise<Record<string, unknown>> {
  const get = async (route: string) => {
    const res = await fetch(`${s.url}/index.php?rest_route=${route}`, { headers: { authorization: `Basic ${Buffer.from(`${s.user}:${s.appPassword}`).toString('base64')}` } });
    return res.json();
  };
  return {
    key: await get('/spamfilter/v1/key'),
    spamSettings: await get('/spamfilter/v1/settings'),
    suiteSettings: await get('/suite/v4/settings'),
    forms: await get('/contactform/v1/contact-forms'),
    tracking: await get('/suite/v4/tracking/settings'),
    step: await get('/suite/v4/recommendations/step'),
    data: await get('/suite/v4/recommendations/data'),
    licensingError: await get('/suite/v4/licensing/error'),
  };
}

describe('extension behaviours against the reference server', () => {
  let server: ReferenceServer;
  let baseline: Results;

  beforeAll(async () => {
    server = await startReferenceServer({ port: 0 });
    const before = await siteState(server);
    const run = await runSuite(target(server), { only: EXTENSION_BEHAVIOURS });
    expect(run.stderr).not.toMatch(/internal error/i);
    baseline = run.results();
    expect(await siteState(server), 'site state as before the run').toEqual(before);
  }, 120_000);
  afterAll(() => server?.stop());

  it('passes every MUST and SHOULD behaviour of the three namespaces', () => {
    expect(baseline.errors).toEqual([]);
    expect(notPassed(baseline)).toEqual([]);
    expect(baseline.summary.total).toBeGreaterThan(350);
  });

  it('names at least one fault for every behaviour, and proves every fault in exactly one round', () => {
    const unnamed = baseline.behaviours.filter((b) => !extensionFaults.some((f) => matchesCaughtBy(f, b.id))).map((b) => b.id);
    expect(unnamed).toEqual([]);
    const planned = [...WORDPRESS_ROUNDS, ...REFERENCE_ROUNDS, ...FRESH_SITE_ROUNDS].flat();
    expect([...planned].sort()).toEqual(extensionFaults.map((f) => f.id).sort());
    expect(new Set(planned).size).toBe(planned.length);
  });

  for (const [i, ids] of REFERENCE_ROUNDS.entries()) {
    it(`round ${i + 1}: catches ${ids.join(', ')}`, async () => {
      const fresh = await startReferenceServer({ port: 0 });
      try {
        await proveRound(target(fresh), ids, baseline);
      } finally {
        await fresh.stop();
      }
    });
  }
});
