/**
 * The default checks of site state (suite.settings.default.*, suite.modules.default.*): only on a
 * fresh site (--fresh-site, or a target the suite boots); against the reference server they pass,
 * but for the one setting it is set up with; elsewhere they skip saying why; and a site whose
 * settings are not their defaults makes them fail (the fresh-site rounds of plan.ts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../results/results.ts';
import { NOT_FRESH } from '../../src/core/fresh-site.ts';
import { startReferenceServer, type ReferenceServer } from '../../targets/reference/index.ts';
import { runCli } from '../helpers/cli.ts';
import { runSuite, type Target } from '../helpers/harness.ts';
import { FRESH_SITE_ROUNDS } from './plan.ts';
import { proveRoundWith } from './rounds.ts';

const DEFAULTS = '^suite\\.(settings|modules)\\.default\\.';
const SET_UP = 'suite.settings.default.cloud-newsletter-categories';
const target = (s: ReferenceServer): Target => ({ url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' });

describe('defaults of site state', () => {
  let server: ReferenceServer;
  let baseline: Results;

  beforeAll(async () => {
    server = await startReferenceServer({ port: 0 });
    baseline = (await runSuite(target(server), { only: DEFAULTS, args: ['--fresh-site'] })).results();
  }, 120_000);
  afterAll(() => server?.stop());

  it('pass on the reference server, but for the setting it is set up with (a newsletter category): through a URL it is a set-up site', () => {
    expect(baseline.errors).toEqual([]);
    expect(baseline.config.freshSite).toBe(true);
    const notPassed = baseline.behaviours.filter((b) => b.status !== 'passed');
    expect(notPassed.map((b) => `${b.id} ${b.status}`)).toEqual([`${SET_UP} failed`]);
    expect(notPassed[0]!.reason).toMatch(/cloud_newsletter_categories = \[1\]/);
    expect(baseline.behaviours.length).toBeGreaterThan(140);
    for (const b of baseline.behaviours) expect([b.requests, b.setupAnswer], b.id).toEqual([0, true]);
  });

  it('skip on a site not known to be fresh, saying why', async () => {
    const run = (await runSuite(target(server), { only: DEFAULTS })).results();
    expect(new Set(run.behaviours.map((b) => b.status))).toEqual(new Set(['skipped']));
    for (const b of run.behaviours) expect(b.reason).toBe(NOT_FRESH);
  });

  it('take the reference server the suite boots as fresh: its settings are read before it is set up, and all pass', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cmsc-fresh-site-'));
    const r = await runCli(['run', '--target', 'reference', '--only', DEFAULTS, '--report', 'json', '--report-dir', dir]);
    expect(r.code).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
    expect(results.behaviours.filter((b) => b.status !== 'passed').map((b) => `${b.id} ${b.status}: ${b.reason}`)).toEqual([]);
    expect(results.behaviours.length).toBeGreaterThan(140);
  });

  for (const [i, ids] of FRESH_SITE_ROUNDS.entries()) {
    it(`fresh-site round ${i + 1}: catches ${ids.join(', ')}`, async () => {
      const fresh = await startReferenceServer({ port: 0 });
      try {
        await proveRoundWith(target(fresh), ids, baseline, ['--fresh-site']);
      } finally {
        await fresh.stop();
      }
    });
  }
});
