/**
 * Site state a behaviour changes: set back afterwards (withRestore), and changed by one behaviour
 * of a file at a time (exclusive, by lock key).
 */
import { TargetError } from '../../../src/sdk/http.ts';

/**
 * Run `fn`, then `restore` — also when `fn` fails or skips. A restore that goes wrong is the
 * target's trouble (or ours), never a conformance failure: it is thrown as a TargetError (status
 * error, failureKind target), unless `fn` already failed, whose error wins.
 */
export async function withRestore<T>(fn: () => Promise<T>, restore: () => Promise<string | undefined>): Promise<T> {
  let failed = false;
  try {
    return await fn();
  } catch (err) {
    // A skip is not a failure: a restore that goes wrong after it is still reported.
    failed = (err as { code?: string })?.code !== 'VITEST_PENDING';
    throw err;
  } finally {
    const problem = await restore().catch((e: unknown) => `restore threw: ${(e as Error).message}`);
    if (problem && !failed) throw new TargetError(`could not restore the target's state: ${problem}`);
  }
}

/** The lock of the site's one spam filter key, across suite files (src/sdk/worker-state.ts acrossFiles). */
export const KEY_LOCK = 'spamfilter-key';

/**
 * Run `fn` while holding every lock in `keys` (e.g. `setting:lang_id`, `module:carousel`), so that
 * concurrent behaviours of one file never change the same piece of site state at once. Callers
 * queue on each key in the order they ask, all keys at once, so no two callers wait on each other.
 */
const tails = new Map<string, Promise<void>>();
export async function exclusive<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  const waits = [...new Set(keys)].map((k) => {
    const prev = tails.get(k) ?? Promise.resolve();
    tails.set(k, prev.then(() => mine));
    return prev;
  });
  await Promise.all(waits);
  try {
    return await fn();
  } finally {
    release();
  }
}
