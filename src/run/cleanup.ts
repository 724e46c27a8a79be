/**
 * A run's cleanup, around the suites (which delete their own fixtures after each file): before
 * them, the tagged leftovers of earlier runs are swept and the site's settings read
 * (src/run/site-state.ts); on a stop, the sweep by this run's tag starts at once, beside the cleanup
 * hooks of the running suite files; after them, the settings are written back where they differ
 * and this run's tagged items swept. Only where the run may write and has credentials.
 */
import { authorizationHeader, type Client } from '../http/client.ts';
import { eventWriter } from '../http/events.ts';
import { clientFor } from '../http/run-client.ts';
import { DEFAULT_SWEEP_AFTER_MS, sweep, tagFor, type SweepOutcome } from '../sdk/fixtures.ts';
import { getProfile } from '../../schemas/profiles.ts';
import type { Log, Plan } from './plan.ts';
import type { Session } from './session.ts';
import { describeRestored, restoreSiteState, snapshotSiteState, type SiteState } from './site-state.ts';
import type { RunStop } from './stop.ts';

/** After a stop, how long the sweep by tag may take. */
const SWEEP_GRACE_MS = 2000;

export class Cleanup {
  /** The sweep by tag started at once by a stop (both it and the cleanup hooks delete; an item already gone counts as deleted). */
  private stopSweep?: Promise<SweepOutcome | undefined>;
  private readonly offStop: () => void;

  private constructor(
    private readonly sweeper: Client,
    private readonly tag: string,
    private readonly stop: RunStop,
    private readonly log: Log,
    private siteState?: SiteState,
  ) {
    this.offStop = stop.onStop(() => void (this.stopSweep ??= sweep(sweeper, { tag }).catch(() => undefined)));
  }

  /** The cleanup of a run that may write (and has credentials); undefined for one that may not. */
  static async open(plan: Plan, session: Session, stop: RunStop, log: Log): Promise<Cleanup | undefined> {
    const { info } = session;
    if (!info.writes.allowed || authorizationHeader(info.config) === undefined) return undefined;
    const names = getProfile(info.profile);
    const sweeper = clientFor(info.targetUrl, info.config, { mapRoute: (r) => names.toTargetRoute(r), ...(info.eventLog ? { onExchange: eventWriter(info.eventLog, 'sweep') } : {}) });
    const cleanup = new Cleanup(sweeper, tagFor(info.runId), stop, log);
    // A site this run booted has no leftovers of earlier runs.
    if (!info.embedded) {
      // Leftovers of earlier runs, but never the items of a run that may still be going (another
      // shard against the same site): only runs that started longer ago than --sweep-after.
      const r = await sweep(sweeper, { olderThanMs: plan.config.sweepAfterMs ?? DEFAULT_SWEEP_AFTER_MS }).catch(() => undefined);
      reportSweep(log, 'leftovers of earlier runs', r);
    }
    // The settings as found, written back after the run where they differ (src/run/site-state.ts): not on
    // a site this run booted (it is thrown away), nor in a behaviour shard (others may be writing).
    if (!info.embedded && plan.shard?.by !== 'behaviour' && !stop.cause)
      cleanup.siteState = await snapshotSiteState(sweeper, session.advertises, { '/suite/v4/settings': info.freshSite.suiteSettings });
    return cleanup;
  }

  /** After the suites: the settings written back, this run's items swept. After a stop the target may not answer at all: a few seconds, not --timeout per request. */
  async close(): Promise<void> {
    this.offStop();
    const stopped = !!this.stop.cause;
    const until = Date.now() + SWEEP_GRACE_MS;
    if (this.siteState) {
      const restored = await (stopped ? within(restoreSiteState(this.sweeper, this.siteState), SWEEP_GRACE_MS) : restoreSiteState(this.sweeper, this.siteState));
      const line = restored && describeRestored(restored);
      if (line) this.log(line);
    }
    const early = this.stopSweep ? await within(this.stopSweep, SWEEP_GRACE_MS) : undefined;
    const swept = sweep(this.sweeper, { tag: this.tag }).catch(() => undefined);
    const last = await (stopped ? within(swept, Math.max(1000, until - Date.now())) : swept);
    reportSweep(this.log, 'items of this run', early && last ? { ...last, deleted: early.deleted + last.deleted, failed: last.failed } : (last ?? early));
    await (stopped ? within(this.sweeper.close(), 500) : this.sweeper.close());
  }
}

function reportSweep(log: Log, what: string, r: SweepOutcome | undefined): void {
  if (!r) log(`sweep of ${what}: the target did not answer the listing; nothing deleted`);
  else if (r.deleted || r.failed) log(`sweep of ${what}: deleted ${r.deleted}${r.failed ? `, could not delete ${r.failed}` : ''}`);
  if (r?.spared) log(`sweep of ${what}: left ${r.spared} tagged item(s) of runs that started less than --sweep-after ago alone (they may still be going)`);
}

/** `p`, or undefined when it has not settled within `ms`. */
export function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p.catch(() => undefined), new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)))]).finally(() => clearTimeout(timer));
}
