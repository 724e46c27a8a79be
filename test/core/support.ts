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
import type { Results } from '../../results/results.ts';
import { bootTarget, type Target } from '../../src/run/target.ts';
import { proveFaults, type Proof } from '../../src/proof/proof.ts';
import { expectCaught } from '../helpers/harness.ts';

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
    const wps: Target[] = [];
    let baseline: Results;
    let proof: Proof;

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
      wps.push(...(await Promise.all(Array.from({ length: lanes }, () => bootTarget(opts.target ?? 'wordpress')))));
      // In this process (one suite engine per lane): no CLI start per run.
      proof = await proveFaults(wps[0]!, { baseline: opts.only, rounds: groups, roundArgs: ['--fail-on', 'should'], lanes: wps.slice(1), inProcess: true });
      expect(proof.baseline.stderr).not.toMatch(/internal error/);
      baseline = proof.baseline.results();
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
        const round = proof.roundOf.get(fault.id);
        expect(round, `fault ${fault.id} did not run`).toBeDefined();
        if (round!.error) throw round!.error;
        expect(round!.run!.code, round!.run!.stderr.slice(-2000)).toBe(1);
        expectCaught(fault, round!.run!.results(), baseline);
      });
    }
  });
}
