/**
 * A lock on one piece of site state shared by behaviours of different suite files (which run in
 * different worker threads): the spam filter's key is written by spamfilter.spec.ts and, without
 * credentials, by security.spec.ts, whose read-back would see the other file's write as its own.
 * A directory made atomically in the temporary folder, named by the run, is the lock; it is
 * removed when `fn` ends however it ends (a worker that dies leaves one behind, named by its run
 * only, so no later run ever waits on it).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
