/**
 * What a suite worker thread keeps across its suite files for one run (the modules of
 * cms-conformance are evaluated afresh for each suite file: src/engine/module-isolation.ts), on the
 * worker's global object, keyed by the run's id: its share of the --max-rps pace and the target's
 * index in spec names; and the locks on site state its suite files share with other workers'.
 */
import { appendFileSync, mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
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
 * acrossFiles: locks on pieces of site state shared by behaviours of different suite files (which
 * run in different worker threads): the spam filter's key (spamfilter.spec.ts, and without
 * credentials security.spec.ts, whose read-back would see the other file's write as its own), a
 * setting or a module's settings (written through the spam filter's route and the suite's, by the
 * settings, module and security files), the modules' states (stored together), a route's own state
 * (the suite's tracking settings, recommendations, licensing error). The name of each lock is the
 * piece of state (suites/extensions/lib/restore.ts says which).
 *
 * A directory made atomically in the temporary folder, named by the run and the key, is the lock;
 * it is removed when `fn` ends however it ends (a worker that dies leaves one behind, named by its
 * run only, so no later run ever waits on it). Fair: a waiter leaves a ticket (a file in the key's
 * queue folder, named by when it came) and takes the lock only when no earlier ticket waits, so a
 * file that takes the same lock again and again (the module toggles, one after the other) never
 * starves another file's waiter. Several keys are taken in one order (sorted), each fairly, so two
 * holders never wait on each other; a holder that takes a further lock while holding some takes only
 * one that no holder of it ever asks more of (the modules' lock: restore.ts).
 */
const POLL_MS = 20;
/** Longer than any holder holds it; past it, the waiter goes on (a holder that died), and a ticket that old is ignored. */
const GIVE_UP_MS = 120_000;

let ticketSeq = 0;
const lockPath = (runId: string, key: string) => join(tmpdir(), `cmsc-lock-${runId.replace(/[^\w-]/g, '_')}-${key.replace(/[^\w-]/g, '_')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The tickets waiting for a lock, oldest first (those older than GIVE_UP_MS left out: their waiter went on or died). */
function waiting(queue: string, now: number): string[] {
  let names: string[];
  try {
    names = readdirSync(queue);
  } catch {
    return [];
  }
  return names.filter((n) => now - Number(n.split('-')[0]) < GIVE_UP_MS).sort();
}

/** Take one lock, fairly; resolves true when held, false when given up (a holder that died). */
async function take(runId: string, key: string): Promise<boolean> {
  const dir = lockPath(runId, key);
  const queue = `${dir}.q`;
  const started = Date.now();
  let ticket: string | undefined;
  try {
    for (;;) {
      const now = Date.now();
      const ahead = waiting(queue, now);
      if (ahead.length === 0 || ahead[0] === ticket) {
        try {
          mkdirSync(dir);
          return true;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
      }
      if (now - started > GIVE_UP_MS) return false;
      if (!ticket) {
        // Milliseconds of the wall clock, zero-padded, then a counter of this thread: sorted by arrival.
        ticket = `${String(now).padStart(15, '0')}-${String(process.hrtime.bigint() % 1_000_000_000n).padStart(9, '0')}-${threadId}-${ticketSeq++}`;
        // The queue folder may be removed by the last waiter meanwhile (below): made again.
        for (let made = false; !made; ) {
          mkdirSync(queue, { recursive: true });
          try {
            writeFileSync(join(queue, ticket), '');
            made = true;
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          }
        }
      }
      await sleep(POLL_MS);
    }
  } finally {
    if (ticket) {
      rmSync(join(queue, ticket), { force: true });
      // The last waiter removes the queue folder (not empty: another one waits).
      try {
        rmdirSync(queue);
      } catch {
        /* another waiter's ticket is in it, or it is gone */
      }
    }
  }
}

/** Hold the locks of `keys` (one key, or several: taken in sorted order) across suite files while `fn` runs. */
export async function acrossFiles<T>(runId: string, keys: string | readonly string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(typeof keys === 'string' ? [keys] : keys)].sort();
  const held: string[] = [];
  const waitStart = performance.now();
  try {
    for (const key of sorted) if (await take(runId, key)) held.push(key);
    const heldStart = performance.now();
    try {
      return await fn();
    } finally {
      if (LOCK_LOG) appendFileSync(LOCK_LOG, `${sorted.join(',')}\t${Math.round(heldStart - waitStart)}\t${Math.round(performance.now() - heldStart)}\n`);
    }
  } finally {
    // The lock is an empty folder: rmdir, not a recursive rm (which reads it first; a file-system
    // call costs up to a millisecond on a sandboxed machine, and a run releases hundreds of locks).
    for (const key of held.reverse()) {
      try {
        rmdirSync(lockPath(runId, key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }
}

/** CMSC_LOCK_LOG=FILE: one line per holding (keys, ms waited, ms held), to measure what the locks cost (BENCHMARKS.md). */
const LOCK_LOG = process.env.CMSC_LOCK_LOG;
