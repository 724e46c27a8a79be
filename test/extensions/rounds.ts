/**
 * Proving faults in rounds: one CLI run through the fault proxy per round, with several faults
 * at once when they cannot disturb each other — each fault breaks requests that only the
 * behaviours it names send, and no other fault of the round touches those requests. Which faults
 * share a round is decided by hand, in the test files, with the reason next to it.
 */
import { expect } from 'vitest';
import { allFaults } from '../../faults/index.ts';
import type { Fault } from '../../faults/proxy.ts';
import type { Results } from '../../results/results.ts';
import { proveFaults } from '../../src/proof/proof.ts';
import { expectCaught, type Target } from '../helpers/harness.ts';

/** The extension behaviours (and the other extension namespaces') but the defaults of site state, which need a fresh site (fresh-site.test.ts). */
export const EXTENSION_BEHAVIOURS = '^(?!suite\\.(settings|modules)\\.default\\.)(spamfilter|contactform|suite|namespaces)\\.';

export function fault(id: string): Fault {
  const f = allFaults.find((x) => x.id === id);
  if (!f) throw new Error(`no fault ${id}`);
  return f;
}

/** Run the named behaviours of `faults` through one proxy; each fault's behaviours must fail (and pass in `baseline`). */
export async function proveRound(target: Target, ids: string[], baseline: Results): Promise<void> {
  return proveRoundWith(target, ids, baseline, []);
}

/** proveRound with extra CLI arguments (e.g. --fresh-site). */
export async function proveRoundWith(target: Target, ids: string[], baseline: Results, args: string[]): Promise<void> {
  const faults = ids.map(fault);
  const { rounds } = await proveFaults(target, { baseline: { code: null, stderr: '', results: () => baseline }, rounds: [faults], roundArgs: args, inProcess: true });
  if (rounds[0]!.error) throw rounds[0]!.error;
  const run = rounds[0]!.run!;
  expect(run.stderr).not.toMatch(/internal error/i);
  const results = run.results();
  for (const f of faults) expectCaught(f, results, baseline);
}

/** "status id: reason" lines of the behaviours that did not pass, for readable assertion messages. */
export function notPassed(results: Results): string[] {
  return results.behaviours.filter((b) => b.status !== 'passed').map((b) => `${b.status} ${b.id}: ${b.reason ?? ''}`);
}
