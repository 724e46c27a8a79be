/**
 * A run's cleanup, around the suites (which delete their own fixtures after each file): before
 * them, the tagged leftovers of earlier runs are swept, the site's settings read
 * (src/run/site-state.ts) and the run's ledger started (src/core/ledger.ts: every item the run
 * creates is written there by id as soon as the run knows it); on a stop, the deletes by the ledger
 * and the sweep by this run's tag start at once, beside the cleanup hooks of the running suite files;
 * after them, the settings are written back where they differ, every item of the ledger not yet
 * deleted is deleted by its id (whatever the listings answer), and this run's tagged items swept (the
 * second net, for creates whose answer was lost). What could not be deleted is named (results.json
 * `leftBehind`, src/run/leftovers.ts), with the command that removes it. Only where the run may write;
 * the sweeps by tag and the settings only with credentials.
 */
import { authorizationHeader, type Client } from '../http/client.ts';
import { eventWriter } from '../http/events.ts';
import { exchangeHooks, ledgerWatch } from '../http/ledger-watch.ts';
import { clientFor } from '../http/run-client.ts';
import { Ledger, pruneLedgers } from '../core/ledger.ts';
import { tagFor } from '../sdk/fixtures.ts';
import { getProfile } from '../../schemas/profiles.ts';
import type { LeftBehind } from '../../results/results.ts';
import { DEFAULT_SWEEP_AFTER_MS, deleteByLedger, leftBehind, sweep, type PassOutcome, type SweepOutcome } from './leftovers.ts';
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
    private readonly ledger: Ledger | undefined,
    /** Sweeps by tag (they read listings with context=edit) need credentials. */
    private readonly credentials: boolean,
    /** Where the leftovers are (undefined: a site this run booted, thrown away after it: nothing to name). */
    private readonly target: string | undefined,
    private siteState?: SiteState,
  ) {
    // The deletes by the ledger wait for the cleanup hooks (they delete the same items by id; the ledger knows what they deleted).
    this.offStop = stop.onStop(() => void (credentials && (this.stopSweep ??= sweep(sweeper, { tag }).catch(() => undefined))));
  }

  /** The cleanup of a run that may write; undefined for one that may not. */
  static async open(plan: Plan, session: Session, stop: RunStop, log: Log): Promise<Cleanup | undefined> {
    const { info } = session;
    if (!info.writes.allowed) return undefined;
    const credentials = authorizationHeader(info.config) !== undefined;
    const names = getProfile(info.profile);
    const tag = tagFor(info.runId);
    pruneLedgers();
    const ledger = info.ledger ? Ledger.start(info.ledger, { tag, target: info.targetUrl, profile: info.profile, startedAt: session.header.startedAt.toISOString() }) : undefined;
    const hooks = exchangeHooks(info.eventLog && eventWriter(info.eventLog, 'sweep'), ledger && ledgerWatch(ledger, (r) => names.toTargetRoute(r)));
    const sweeper = clientFor(info.targetUrl, info.config, { mapRoute: (r) => names.toTargetRoute(r), ...hooks });
    const cleanup = new Cleanup(sweeper, tag, stop, log, ledger, credentials, info.embedded ? undefined : info.targetUrl);
    if (!credentials) return cleanup;
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

  /**
   * After the suites: the settings written back, the items of the ledger deleted by id, this run's
   * items swept by tag; returns what is left (undefined on a site this run booted). After a stop the
   * target may not answer at all: a few seconds, not --timeout per request.
   */
  async close(): Promise<LeftBehind | undefined> {
    this.offStop();
    const stopped = !!this.stop.cause;
    const until = Date.now() + SWEEP_GRACE_MS;
    const rest = () => Math.max(1000, until - Date.now());
    if (this.siteState && this.credentials) {
      const restored = await (stopped ? within(restoreSiteState(this.sweeper, this.siteState), SWEEP_GRACE_MS) : restoreSiteState(this.sweeper, this.siteState));
      const line = restored && describeRestored(restored);
      if (line) this.log(line);
    }
    // By id first: every item of the ledger the suite files did not delete (a check that failed before
    // it tracked its item, a listing that did not answer ...); then by tag, the second net. After a stop,
    // the sweep the stop started is awaited, then both are sent at once, within what is left of the grace.
    const earlySweep = this.stopSweep && (await within(this.stopSweep, SWEEP_GRACE_MS));
    const byLedger = () => (this.ledger ? deleteByLedger(this.sweeper, this.ledger).catch(() => undefined) : Promise.resolve(undefined));
    const byTag = () => (this.credentials ? sweep(this.sweeper, { tag: this.tag }).catch(() => undefined) : Promise.resolve(undefined));
    let passed: PassOutcome | undefined;
    let last: SweepOutcome | undefined;
    if (stopped) {
      const ms = rest();
      [passed, last] = await Promise.all([within(byLedger(), ms), within(byTag(), ms)]);
    } else {
      passed = await byLedger();
      last = await byTag();
    }
    const failed = passed?.failed ?? new Map<string, string>();
    if (passed?.deleted) this.log(`deleted by id: ${passed.deleted} item(s) of this run the suite files had not deleted`);
    if (this.credentials) reportSweep(this.log, 'items of this run', earlySweep && last ? { ...last, deleted: earlySweep.deleted + last.deleted, failed: last.failed } : (last ?? earlySweep));
    const sweeps = [earlySweep, last];
    const notTried = stopped ? `not deleted: the run was stopped (${this.stop.cause!.message}) and its cleanup gave up` : 'not deleted';
    const left = this.ledger && leftBehind(this.ledger, this.tag, this.target ?? '', failed, sweeps, notTried);
    // The ledger is kept while something it names is left (cms-conformance cleanup reads it).
    if (left && (!left.items.length || !this.target)) this.ledger!.remove();
    await (stopped ? within(this.sweeper.close(), 500) : this.sweeper.close());
    return this.target ? left : undefined;
  }
}

function reportSweep(log: Log, what: string, r: SweepOutcome | undefined): void {
  if (!r) log(`sweep of ${what}: the target did not answer the listing; nothing deleted`);
  else if (r.deleted || r.failed) log(`sweep of ${what}: deleted ${r.deleted}${r.failed ? `, could not delete ${r.failed}` : ''}`);
  if (r?.unlisted) log(`sweep of ${what}: the listings of ${r.unlisted.join(', ')} did not answer with a list; their tagged items are not known`);
  if (r?.spared) log(`sweep of ${what}: left ${r.spared} tagged item(s) of runs that started less than --sweep-after ago alone (they may still be going)`);
}

/** `p`, or undefined when it has not settled within `ms`. */
export function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p.catch(() => undefined), new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)))]).finally(() => clearTimeout(timer));
}
