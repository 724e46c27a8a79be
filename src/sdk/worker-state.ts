/**
 * What a suite worker thread keeps across its suite files for one run (the modules of
 * cms-conformance are evaluated afresh for each suite file: src/engine/fresh-modules.ts), on the
 * worker's global object, keyed by the run's id: its share of the --max-rps pace and the target's
 * index in spec names.
 */
import { deepFreeze } from '../../schemas/freeze.ts';
import { normalizeIndex, type Profile } from '../../schemas/profiles.ts';
import { RateLimiter } from '../http/client.ts';
import type { RunInfo } from '../core/run-info.ts';

/** The --max-rps pace of this worker for run `runId`, kept across its suite files. */
export function workerRate(runId: string, rps: number): RateLimiter {
  const g = globalThis as { __cmscRate?: { runId: string; rate: RateLimiter } };
  if (g.__cmscRate?.runId !== runId) g.__cmscRate = { runId, rate: new RateLimiter(rps) };
  return g.__cmscRate.rate;
}

/**
 * The target's index in spec names, made once per worker for a run (its id, target and profile) and kept across its suite
 * files (structuredClone and renaming of a 300 KB index took about 0.1 s per suite file). Frozen:
 * every suite file reads the same object.
 */
export function workerIndex(info: RunInfo, profile: Profile): unknown {
  const g = globalThis as { __cmscIndex?: { key: string; index: unknown } };
  const key = `${info.runId} ${info.targetUrl} ${info.profile}`;
  if (g.__cmscIndex?.key !== key) g.__cmscIndex = { key, index: deepFreeze(normalizeIndex(info.index, profile)) };
  return g.__cmscIndex.index;
}
