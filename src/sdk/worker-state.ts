/**
 * What a suite worker thread keeps across its suite files for one run (the modules of
 * cms-conformance are evaluated afresh for each suite file: src/engine/module-isolation.ts), on the
 * worker's global object, keyed by the run's id: its share of the --max-rps pace and the target's
 * index in spec names; and the locks on site state its suite files share with other workers'.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * acrossFiles: a lock on one piece of site state shared by behaviours of different suite files (which run in
 * different worker threads): the spam filter's key is written by spamfilter.spec.ts and, without
 * credentials, by security.spec.ts, whose read-back would see the other file's write as its own.
 * A directory made atomically in the temporary folder, named by the run, is the lock; it is
 * removed when `fn` ends however it ends (a worker that dies leaves one behind, named by its run
 * only, so no later run ever waits on it).
 */
const POLL_MS = 20;
/** Longer than any holder holds it; past it, the waiter goes on (a holder that died). */
const GIVE_UP_MS = 120_000;

export async function acrossFiles<T>(runId: string, key: string, fn: () => Promise<T>): Promise<T> {
  const dir = join(tmpdir(), `cmsc-lock-${runId.replace(/[^\w-]/g, '_')}-${key.replace(/[^\w-]/g, '_')}`);
  const started = Date.now();
  let held = false;
  while (!held) {
    try {
      mkdirSync(dir);
      held = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (Date.now() - started > GIVE_UP_MS) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  try {
    return await fn();
  } finally {
    if (held) rmSync(dir, { recursive: true, force: true });
  }
}
