/**
 * Site state a behaviour changes: set back afterwards (withRestore), and changed by one behaviour
 * at a time (exclusive, by lock key: in this file, and across the suite files that run meanwhile).
 */
import { runContext } from '../../../src/sdk/behaviour.ts';
import { TargetError } from '../../../src/sdk/http.ts';
import { acrossFiles } from '../../../src/sdk/worker-state.ts';

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
 * The pieces of site state behaviours of several suite files write (or read back after writing),
 * each a lock name. Every writer holds the lock of what it writes, in whichever file it is:
 * - a suite setting: `setting:<name>`, or its module's `module:<slug>` where the target names one
 *   (setting-owner.ts settingLock: settings of a module are stored together); the spam filter's
 *   settings are suite settings of the same name (spamfilter-settings.ts and the suite/v4 checks
 *   of spamfilter_* in spamfilter.spec.ts, the module and settings checks in suite.settings.spec.ts);
 * - the modules' states, stored together: MODULES_LOCK (module toggles, owner activation, the
 *   anonymous writes of /module/all/active and /module/<slug>/active in security.spec.ts);
 * - the spam filter key: KEY_LOCK (spamfilter.spec.ts, security.spec.ts);
 * - a route's own state where several files write it and read it back: routeLock (the suite's
 *   tracking settings, recommendations data and step, licensing error: suite.params.spec.ts,
 *   suite.methods.spec.ts, security.spec.ts).
 * Site-wide reads that are compared with a snapshot (index-defaults, suite.fresh) read the setup's
 * snapshot, taken before any behaviour: they need no lock.
 */
/** The lock of a route's own state (a route the spec gives a GET and a write): `route:<path>`. */
export const routeLock = (path: string) => `route:${path}`;

/**
 * Run `fn` while holding every lock in `keys` (e.g. `setting:lang_id`, `module:carousel`), so that
 * no two behaviours change the same piece of site state at once: those of this file queue on each
 * key in the order they ask, all keys at once, so no two callers wait on each other; then the keys
 * are held across suite files (src/sdk/worker-state.ts acrossFiles, fair, in one order). A holder
 * that takes more keys inside takes only MODULES_LOCK, which no holder of it asks more of.
 */
const tails = new Map<string, Promise<void>>();
export async function exclusive<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  const unique = [...new Set(keys)];
  const waits = unique.map((k) => {
    const prev = tails.get(k) ?? Promise.resolve();
    tails.set(k, prev.then(() => mine));
    return prev;
  });
  await Promise.all(waits);
  try {
    return await acrossFiles(runContext().info.runId, unique, fn);
  } finally {
    release();
  }
}
