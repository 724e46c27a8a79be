/**
 * Fault runs for the core suites: a baseline run of one behaviour prefix against the embedded
 * WordPress, then CLI runs through the fault-injecting proxy (`--only` the behaviours the
 * faults name), and one `it` per fault asserting it was caught (tests/helpers/harness.ts
 * `expectCaught`).
 *
 * Cost: one CLI run costs several CPU-seconds (vitest collects every suite file), so faults
 * are run in GROUPS: the faults of a group go through one proxy together. A group is only
 * sound if no fault of it changes what the behaviours named by another fault of it observe;
 * each test file states its groups with that reasoning, and `CMSC_ISOLATED_FAULTS=1` runs
 * every fault alone instead (the slow, unconditional check of the same claims).
 *
 * The runs are spread over `lanes` WordPress instances run side by side: concurrent runs
 * cannot share one instance, because every run starts by sweeping the tagged leftovers of
 * other runs (which would delete a concurrent run's fixtures).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fault } from '../../faults/proxy.ts';
import type { Results } from '../../schemas/results.ts';
import { expectCaught, onlyFor, runSuite, type SuiteRun, type Target } from '../helpers/harness.ts';

interface Booted extends Target {
  stop(): Promise<void>;
}

async function boot(kind: 'wordpress' | 'reference'): Promise<Booted> {
  if (kind === 'reference') {
    const { startReferenceServer } = await import('../../targets/reference/index.ts');
    const ref = await startReferenceServer({ port: 0 });
    return { url: ref.url, user: ref.user, appPassword: ref.appPassword, profile: 'spec', stop: () => ref.stop() };
  }
  const { bootWordPress } = await import('../../targets/wordpress/index.ts');
  const wp = await bootWordPress();
  return { url: wp.url, user: wp.user, appPassword: wp.appPassword, profile: 'wordpress', stop: () => wp.stop() };
}

export interface FaultSuiteOptions {
  /** `--only` pattern of the baseline run (the behaviours of the suite). */
  only: string;
  faults: Fault[];
  /** Fault IDs run together in one proxy run; every fault in exactly one group. Default: each alone. */
  groups?: string[][];
  /**
   * Behaviours that fail against WordPress 6.5.5 because WordPress genuinely deviates from the
   * spec: the baseline must fail exactly these, as conformance failures (WordPress is then
   * itself a double those behaviours are shown to catch).
   */
  genuine?: Record<string, string>;
  /** Target instances to spread the fault runs over. */
  lanes?: number;
  /** The target: the embedded WordPress 6.5.5 (default) or the in-process reference server. */
  target?: 'wordpress' | 'reference';
}

export function faultSuite(name: string, opts: FaultSuiteOptions): void {
  const byId = new Map(opts.faults.map((f) => [f.id, f]));
  const isolated = process.env.CMSC_ISOLATED_FAULTS === '1';
  const groups: Fault[][] = isolated || !opts.groups ? opts.faults.map((f) => [f]) : opts.groups.map((g) => g.map((id) => byId.get(id)!));

  describe(name, () => {
    const wps: Booted[] = [];
    let baseline: Results;
    const runs = new Map<string, SuiteRun | Error>();

    it('groups: every fault is in exactly one group, and the faults of a group name disjoint behaviours', () => {
      if (!opts.groups) return;
      const listed = opts.groups.flat();
      expect([...listed].sort()).toEqual(opts.faults.map((f) => f.id).sort());
      for (const g of opts.groups) {
        const named = g.flatMap((id) => byId.get(id)!.caughtBy);
        expect(new Set(named).size, `group ${g.join(', ')} names a behaviour twice`).toBe(named.length);
      }
    });

    beforeAll(async () => {
      const lanes = Math.max(1, Math.min(opts.lanes ?? 1, groups.length));
      wps.push(...(await Promise.all(Array.from({ length: lanes }, () => boot(opts.target ?? 'wordpress')))));
      const queue = [...groups];
      const lane = async (wp: Booted, first?: () => Promise<void>) => {
        await first?.();
        for (let g = queue.shift(); g; g = queue.shift()) {
          const faults = g;
          const run = await runSuite(wp, { only: onlyFor(faults.flatMap((f) => f.caughtBy)), faults, args: ['--fail-on', 'should'] }).catch((e: Error) => e);
          for (const f of faults) runs.set(f.id, run);
        }
      };
      await Promise.all(
        wps.map((wp, i) =>
          lane(
            wp,
            i === 0
              ? async () => {
                  const run = await runSuite(wp, { only: opts.only });
                  expect(run.stderr).not.toMatch(/internal error/);
                  baseline = run.results();
                }
              : undefined,
          ),
        ),
      );
    }, 600_000);
    afterAll(async () => {
      await Promise.all(wps.map((w) => w.stop()));
    });

    it(`baseline: every behaviour passes on ${opts.target === 'reference' ? 'the reference server' : 'WordPress 6.5.5 except its genuine deviations'}`, () => {
      expect(baseline.errors).toEqual([]);
      expect(baseline.behaviours.length).toBeGreaterThan(0);
      const notPassed = baseline.behaviours.filter((b) => b.status !== 'passed');
      const expected = Object.keys(opts.genuine ?? {});
      const describe = notPassed.map((b) => `${b.id}: ${b.status} ${b.failureKind ?? ''} ${b.reason ?? ''}`).join('\n');
      expect(notPassed.map((b) => b.id).sort(), describe).toEqual([...expected].sort());
      for (const b of notPassed) expect(b.failureKind, `${b.id} must fail as a conformance failure: ${b.reason}`).toBe('conformance');
    });

    for (const fault of opts.faults) {
      it(`catches ${fault.id}: ${fault.title}`, () => {
        const run = runs.get(fault.id);
        if (run instanceof Error) throw run;
        expect(run, `fault ${fault.id} did not run`).toBeDefined();
        expect(run!.code, run!.stderr.slice(-2000)).toBe(1);
        expectCaught(fault, run!.results(), baseline);
      });
    }
  });
}
