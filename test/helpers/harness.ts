/**
 * Running the suite against a target, optionally through the fault-injecting proxy, from the
 * project's own tests — the way a user runs it (the real CLI in a child process).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { matchesCaughtBy, type Fault } from '../../faults/proxy.ts';
import type { Results } from '../../results/results.ts';
import { bootTarget, type Target as Booted } from '../../src/run/target.ts';
import { InProcessRunner, type ProofTarget, type SuiteRunner } from '../../src/proof/proof.ts';

export { onlyFor, runSuite, type SuiteRun } from '../../src/proof/proof.ts';
export type Target = ProofTarget;

/**
 * Suite runs in this process on one suite engine for the file (or describe block) that calls it:
 * the CLI's own flags, config and pipeline, no process started per run. For the proofs of the
 * verdicts and messages in results.json; the proofs of the CLI process itself use runSuite.
 */
export function inProcessRuns(): SuiteRunner {
  let runner: InProcessRunner | undefined;
  beforeAll(async () => {
    runner = await InProcessRunner.open();
  });
  afterAll(async () => runner?.close());
  return (target, opts) => runner!.run(target, { removeReport: true, ...opts });
}

export function statuses(results: Results): Record<string, string> {
  return Object.fromEntries(results.behaviours.map((b) => [b.id, b.status]));
}

/**
 * Assert a fault is caught: every behaviour it names ran and failed as a conformance failure
 * (not a harness error), and the same behaviours pass without the fault (`baseline`).
 */
export function expectCaught(fault: Fault, faulty: Results, baseline: Results): void {
  const named = faulty.behaviours.filter((b) => matchesCaughtBy(fault, b.id));
  expect(named.length, `fault ${fault.id}: no behaviour named by caughtBy ran`).toBeGreaterThan(0);
  const base = statuses(baseline);
  for (const b of named) {
    expect(base[b.id], `fault ${fault.id}: ${b.id} must pass without the fault`).toBe('passed');
    expect(b.status, `fault ${fault.id}: ${b.id} should fail (${b.reason ?? ''})`).toBe('failed');
    expect(b.failureKind, `fault ${fault.id}: ${b.id} failed as ${b.failureKind}: ${b.reason}`).toBe('conformance');
  }
  expect(faulty.errors).toEqual([]);
}

/** Boot the embedded WordPress once for a test file. */
export function sharedWordPress(): () => Booted {
  let wp: Booted | undefined;
  beforeAll(async () => {
    wp = await bootTarget('wordpress');
  }, 300_000);
  afterAll(async () => wp?.stop());
  return () => {
    if (!wp) throw new Error('WordPress did not boot');
    return wp;
  };
}
