/**
 * Running an async fast-check property inside a behaviour.
 *
 * Boundary examples run first, then random values from the run's `--seed` (mixed with the
 * behaviour ID, so two behaviours do not draw the same sequence) up to `--runs` inputs in all
 * (fast-check's numRuns; every boundary value runs even when there are more of them). A failing input is
 * shrunk (within a request budget), recorded with `t.counterexample(...)`, replayed once so
 * that the behaviour's last exchange (kept with a curl command, credentials redacted) is the
 * counterexample's, and the behaviour fails with a message that names it.
 *
 * The check throws a ConformanceFailure (t.fail) or an AssertionError for a counterexample.
 * Any other error (the target is unreachable, a bug in the suite) stops the property at once
 * and is rethrown as is, so it is reported as a target error or a harness error.
 *
 * A failure that met the target's trouble (a 5xx, a 429, no answer, malformed JSON) and does not
 * fail again when its input is replayed was transient, not a deviation: the property is checked
 * once more from the start; when it passes then, it passes; when the trouble comes back without
 * replaying again, the behaviour ends as a target error that says so, never as a failure.
 */
import fc from 'fast-check';
import { targetTrouble, type BehaviourContext } from '../src/sdk/behaviour.ts';
import { TargetError } from '../src/sdk/http.ts';
import { mixSeed, propertyParams } from './index.ts';

export interface PropertyOptions<T> {
  /** Values tried before the random ones (boundary values). */
  examples?: T[];
  /** How the counterexample is recorded and printed (default: the value itself). */
  describe?: (value: T) => unknown;
  /** Checks spent on shrinking after the first failure (each is usually one request). Default 40. */
  shrinkBudget?: number;
  /**
   * Random values after the examples. Default: fill up to `--runs` inputs in all (every example
   * runs even when there are more of them).
   */
  randomRuns?: number;
  /** Salt of the per-behaviour seed (default: the behaviour ID): behaviours that must draw the same values share one. */
  seedSalt?: string;
  /**
   * Start from this fast-check run path (e.g. the index of a run found failing before) and shrink
   * from there, instead of running from the first value; no other value is tried.
   */
  path?: string;
  /** Report the (replayed) counterexample yourself instead of the default message; must throw (t.fail). */
  report?: (value: T, failure: { message: string; reproduced: boolean; numRuns: number; numShrinks: number; seed: number }) => never;
}

export interface CheckContext {
  /** true for the final replay of the shrunk counterexample (do not answer from a cache). */
  replay: boolean;
}

function isConformanceError(err: unknown): boolean {
  const name = (err as Error)?.name;
  return name === 'ConformanceFailure' || name === 'AssertionError';
}

function messageOf(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}

export async function checkProperty<T>(
  t: BehaviourContext,
  arb: fc.Arbitrary<T>,
  check: (value: T, ctx: CheckContext) => Promise<void>,
  opts: PropertyOptions<T> = {},
): Promise<void> {
  const { seed, numRuns } = propertyParams(t.run.info);
  const budget = opts.shrinkBudget ?? 40;
  /** The target's trouble met by a failing check, when it was the trouble that failed it. */
  let transient: string | undefined;

  for (let round = 1; ; round++) {
    transient = undefined;
    let fatal: unknown;
    let failures = 0;
    let afterFailure = 0;
    let calls = 0;

    const property = fc.asyncProperty(arb, async (value) => {
      if (fatal !== undefined) return true;
      // From a path: only that value (and its shrinks) is checked.
      if (opts.path !== undefined && calls++ > 0 && failures === 0) return true;
      if (failures > 0 && afterFailure++ >= budget) return true; // shrinking budget spent: keep the smallest so far
      const before = t.client?.requests ?? 0;
      try {
        await check(value, { replay: false });
        return true;
      } catch (err) {
        if (!isConformanceError(err)) {
          fatal = err;
          return true;
        }
        failures++;
        const sent = (t.client?.requests ?? 0) - before;
        const trouble = sent > 0 ? targetTrouble(t.client.log.slice(-Math.min(sent, t.client.log.length))) : undefined;
        if (trouble && transient === undefined) transient = trouble;
        throw err;
      }
    });

    const details = await fc.check(property, {
      seed: mixSeed(seed, opts.seedSalt ?? t.decl.id),
      ...(opts.path !== undefined ? { path: opts.path } : {}),
      // Examples count towards numRuns in fast-check: every boundary value runs, then the random values.
      numRuns: opts.randomRuns !== undefined ? (opts.examples?.length ?? 0) + opts.randomRuns : Math.max(numRuns, opts.examples?.length ?? 0),
      examples: (opts.examples ?? []).map((v) => [v] as [T]),
    });
    if (fatal !== undefined) throw fatal;
    if (!details.failed) return;
    if (!details.counterexample) throw new Error(`property of ${t.decl.id} failed without a counterexample: ${messageOf(details.errorInstance)}`);

    const [value] = details.counterexample;
    const shown = opts.describe ? opts.describe(value) : value;
    let message = messageOf(details.errorInstance);
    let reproduced = false;
    try {
      await check(value, { replay: true });
      message += ' (did not fail again when replayed)';
    } catch (err) {
      if (!isConformanceError(err)) throw err;
      message = messageOf(err);
      reproduced = true;
    }
    if (!reproduced && transient !== undefined) {
      // The target's passing trouble, not a deviation: check the property again from the start (once).
      if (round < 2) continue;
      throw new TargetError(
        `${transient} while checking ${JSON.stringify(shown)}, which did not fail again when replayed, twice: transient trouble of the target, not a deviation (${message})`,
        'TRANSIENT',
      );
    }
    t.counterexample(shown);
    if (opts.report) opts.report(value, { message, reproduced, numRuns: details.numRuns, numShrinks: details.numShrinks, seed });
    t.fail(`${message} — counterexample ${JSON.stringify(shown)} (after ${details.numRuns} runs and ${details.numShrinks} shrinks; --seed ${seed})`);
  }
}
