/**
 * Stable verdicts under load: added latency (the fault proxy's chaos latency) does not change a
 * single verdict of the revision and autosave behaviours (they share fixtures and state; no
 * assertion depends on timing); and a target too slow to answer within --timeout is reported as
 * such (status error, failureKind target), never as non-conformance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type Fault } from '../../faults/proxy.ts';
import type { Results } from '../../results/results.ts';
import { runCli } from '../helpers/cli.ts';
import { statuses } from '../helpers/harness.ts';

const ONLY = '^cms\\.(posts|pages)\\.(revisions|autosaves)\\.';

describe('latency (reference server)', () => {
  let ref: { url: string; user: string; appPassword: string; stop(): Promise<void> };
  /** With `beyondIndex`, only requests other than the site index are delayed (the CLI reads the index before the suites). */
  let slowInFlight = 0;
  const run = async (latencyMs: number, timeout: string, beyondIndex = false): Promise<Results> => {
    const slowRoutes: Fault = { id: 'latency.beyond-index', title: `answers every request but the index ${latencyMs} ms late`, caughtBy: [], request: async (req) => void (req.route !== '/' && (await new Promise((r) => setTimeout(r, latencyMs)))) };
    const proxy = !latencyMs ? undefined : beyondIndex ? await startFaultProxy(ref.url, [slowRoutes], { profile: 'spec' }) : await startFaultProxy(ref.url, [], { profile: 'spec', chaos: { latencyMs } });
    try {
      const r = await runCli(['run', '--target', proxy?.url ?? ref.url, '--profile', 'spec', '--user', ref.user, '--app-password', ref.appPassword, '--seed', '1', '--runs', '4', '--timeout', timeout, '--only', ONLY], { timeoutMs: 300_000 });
      expect(r.stderr).not.toMatch(/internal error/);
      if (latencyMs && !beyondIndex) slowInFlight = proxy!.stats.maxInFlight;
      return r.results();
    } finally {
      await proxy?.close();
    }
  };
  let plain: Results;
  let slow: Results;
  let tooSlow: Results;
  beforeAll(async () => {
    const { startReferenceServer } = await import('../../targets/reference/index.ts');
    ref = await startReferenceServer({ port: 0 });
    plain = await run(0, '10s');
    slow = await run(100, '10s');
    tooSlow = await run(600, '300ms', true);
  }, 900_000);
  afterAll(async () => ref?.stop());

  it('--concurrency (default 4) holds for the whole run, however many suite workers share it', () => {
    // Every answer 100 ms late: requests overlap, up to the limit and never beyond it.
    expect(slowInFlight).toBeGreaterThanOrEqual(3);
    expect(slowInFlight).toBeLessThanOrEqual(4);
  });

  it('added latency changes no verdict', () => {
    expect(plain.behaviours.length).toBeGreaterThan(20);
    expect(statuses(slow)).toEqual(statuses(plain));
  });

  it('a target slower than --timeout: errors of kind target, never failures', () => {
    const b = tooSlow.behaviours;
    expect(b.filter((x) => x.status === 'failed').map((x) => `${x.id}: ${x.reason}`)).toEqual([]);
    expect(b.filter((x) => x.status === 'passed').map((x) => x.id)).toEqual([]);
    const errors = b.filter((x) => x.status === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const x of errors) expect(x.failureKind, `${x.id}: ${x.reason}`).toBe('target');
  });
});
