/**
 * A conformance run, as a pipeline of named phases over one plan:
 *
 *   plan      the configuration and the selection resolved once (src/run/plan.ts): usage errors
 *             come out before any target boots;
 *   target    booted unless --target names a URL (src/run/target.ts);
 *   session   the index, the profile, the write policy, the no-route probe, the fresh site's
 *             settings and the report folder (src/run/session.ts);
 *   execute   the suites on the vitest engine (src/engine/), between the two halves of the
 *             cleanup (src/run/cleanup.ts), until they end or a stop gives up on them (src/run/stop.ts);
 *   finish    the baseline, the reports and the exit code (src/run/finish.ts).
 */
import type { RunConfig } from '../core/config.ts';
import { buildResults } from '../engine/collect.ts';
import { SuiteEngine } from '../engine/suite-engine.ts';
import type { Results } from '../../results/results.ts';
import { Cleanup, within } from './cleanup.ts';
import { finish, type RunOutcome } from './finish.ts';
import { resolvePlan, type Log, type Plan, type RunOptions } from './plan.ts';
import { progressFor } from './progress.ts';
import { openSession, type Session } from './session.ts';
import { RunStop, STOP_GRACE_MS } from './stop.ts';
import { prepareTarget } from './target.ts';

export type { Log, RunOptions, RunOutcome };

const toStderr: Log = (line) => process.stderr.write(`${line}\n`);

export async function runConformance(cfg: RunConfig, log: Log = toStderr, opts: RunOptions = {}): Promise<RunOutcome> {
  const startedAt = new Date();
  const plan = await resolvePlan(cfg, opts);
  const progress = progressFor(plan.selection, opts.progress);
  // A run's own engine starts (about half a second of CPU) while the target boots and its index is read.
  const starting = opts.engine ? undefined : SuiteEngine.create(plan.selection, cfg, { reporters: [progress] });
  // An engine that started but is not used (the target could not be prepared, the session failed) is closed.
  const closeUnused = () => starting?.then((e) => e.close()).catch(() => undefined);
  const booted = await prepareTarget(cfg, log, plan.wordpressVersion).catch(async (error: unknown) => {
    await closeUnused();
    throw error;
  });
  let stopping: Promise<void> | undefined;
  const stopTarget = () => (stopping ??= booted?.stop() ?? Promise.resolve());
  let engine = opts.engine;
  const stop = new RunStop(log, cfg, !opts.engine);
  try {
    const session = await openSession(plan, booted, { log, progress, stop, startedAt });
    engine ??= await starting!;
    // A fleet's engine goes on with the next site when this one is unreachable; a signal stops it all (src/fleet/fleet.ts).
    const running = engine;
    stop.onStop(() => {
      progress.clear();
      if (starting) running.cancel();
      else running.cancelRun();
    });
    const cleanup = await Cleanup.open(plan, session, stop, log);
    let ran: { results: Results; abandoned: boolean } | undefined;
    let left: Results['leftBehind'];
    try {
      ran = await execute(engine, plan, session, stop, log);
    } finally {
      stop.settle();
      // A run given up on may hold a worker that does not end: do not wait for it long (the CLI exits anyway).
      if (starting) await (ran?.abandoned ? within(engine.close(), 1000) : engine.close());
      left = await cleanup?.close();
    }
    // What the run created and could not delete, named (src/run/leftovers.ts).
    if (left) ran.results.leftBehind = left;
    // The target is not needed for the reports: it stops while they are written (its failure surfaces below).
    stopTarget().catch(() => undefined);
    return finish(plan, session, ran.results, stop.cause, log);
  } finally {
    stop.dispose();
    // Failed before the engine was taken into use (index, profile, fresh site): close it.
    if (starting && !engine) await closeUnused();
    await stopTarget();
  }
}

/**
 * The suites against the session's target, until they end, or until a stop gives up on their
 * cleanup hooks (STOP_GRACE_MS): the results are then those of the behaviours that ended.
 */
async function execute(engine: SuiteEngine, plan: Plan, session: Session, stop: RunStop, log: Log): Promise<{ results: Results; abandoned: boolean }> {
  if (stop.cause) return { results: buildResults(session.header, [], []), abandoned: false }; // stopped before any behaviour ran
  stop.watch?.start();
  const ran = engine.run(session.info, session.header, { selection: plan.selection, ...(stop.watch ? { watch: stop.watch } : {}) });
  ran.catch(() => undefined); // given up on: its end no longer matters
  const results = await Promise.race([ran, stop.gaveUp]);
  if (results) return { results, abandoned: false };
  log(`the cleanup did not end within ${STOP_GRACE_MS / 1000} s of the stop: given up; the sweep by tag deletes what it still can`);
  return { results: engine.snapshot(session.header), abandoned: true };
}
