/**
 * Each kind of discovery check fails when the advertised index deviates: the recorded 7.1
 * index, served as is and then with one named deviation at a time.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryFaults } from '../faults/discovery.ts';
import type { Results } from '../schemas/results.ts';
import { expectCaught, onlyFor, runSuite } from './helpers/harness.ts';
import { serveIndex } from './helpers/index-server.ts';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/wordpress-7.1-index.json', import.meta.url), 'utf8'));

describe('discovery catches deviations of the recorded 7.1 index', () => {
  let server: Awaited<ReturnType<typeof serveIndex>>;
  let baseline: Results;
  beforeAll(async () => {
    server = await serveIndex(fixture);
    const run = await runSuite({ url: server.url, profile: 'wordpress' }, { only: '^disc\\.' });
    expect(run.stderr).not.toMatch(/internal error/);
    baseline = run.results();
  });
  afterAll(() => server?.close());

  it('runs every discovery behaviour on the unmodified index', () => {
    expect(baseline.summary.total).toBeGreaterThan(200);
    expect(baseline.errors).toEqual([]);
    expect(baseline.target.profile).toBe('wordpress');
    // Genuine deviations of real WordPress 7.1 from the spec; everything else passes.
    const failed = baseline.behaviours.filter((b) => b.status === 'failed').map((b) => b.id);
    expect(failed).toEqual(
      expect.arrayContaining(['disc.index.routes.entries', 'disc.param.spamfilter.stats.interval.interval']),
    );
  });

  for (const fault of discoveryFaults) {
    it(`catches ${fault.id}: ${fault.title}`, async () => {
      const run = await runSuite({ url: server.url, profile: 'wordpress' }, { only: onlyFor(fault.caughtBy), faults: [fault] });
      expect(run.code).toBe(1);
      expectCaught(fault, run.results(), baseline);
    });
  }
});
