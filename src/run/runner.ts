/**
 * A conformance run: prepare the target (boot the embedded one if asked), fetch its index
 * once, choose the profile, run the suites through vitest's Node API, write results.json.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Client } from '../http/client.ts';
import { clientFor } from '../http/run-client.ts';
import { PKG_ROOT } from '../core/paths.ts';
import { isLoopback, redactConfig, type RunConfig } from '../core/config.ts';
import { TargetError, UnreachableError, UsageError } from '../core/errors.ts';
import { bootTarget, type EmbeddedVersion } from './target.ts';
export type { EmbeddedVersion };
import { DEFAULT_SWEEP_AFTER_MS, sweep, tagFor, type SweepOutcome } from '../sdk/fixtures.ts';
import { freshness, snapshotFreshSite, type FreshSite } from '../core/fresh-site.ts';
import { describeRestored, restoreSiteState, snapshotSiteState, type SiteState } from './site-state.ts';
import { parseShard, type ShardInfo } from '../core/shard.ts';
import { detectProfile, getProfile, normalizeIndex, type ProfileName } from '../../schemas/profiles.ts';
import type { RunInfo } from '../core/run-info.ts';
import { NO_SUCH_ROUTE, type NoRouteAnswer } from '../core/no-route.ts';
import { SuiteEngine } from '../engine/suite-engine.ts';
import { assertSelects, resolveSelection, type Selection } from '../engine/selection.ts';
import type { Exchange } from '../http/client.ts';
import { runExitCode, type Results } from '../../results/results.ts';
import { buildResults, type RunHeader } from '../engine/collect.ts';
import { STOP_SIGNALS, TargetWatch, markStopRequested, parentGone, signalExitCode, type StopCause, type StopSignal } from './stop.ts';
import { digestIndex } from '../../reporters/advertised.ts';
import { applyBaseline, loadBaseline, writeBaselineFile, type BaselineFile } from './baseline.ts';
import { eventWriter } from '../http/events.ts';
import { DEFAULT_REPORTS_ROOT, REPORT_FILES, timestampedDir, updateLatest, writeReports } from '../../reporters/index.ts';
import { catalogueTotals, totalsByNamespace } from '../engine/declared.ts';
import { ProgressReporter, type ProgressOptions } from './progress.ts';

export { PKG_ROOT, SuiteEngine };
export const TOOL = {
  name: 'cms-conformance',
  version: (JSON.parse(readFileSync(join(PKG_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
};

export interface PreparedTarget {
  url: string;
  credentials?: { user: string; appPassword: string };
  embedded: RunInfo['embedded'];
  stop?: () => Promise<void>;
  /** A booted site's own setup, run after the fresh site's state was read (src/core/fresh-site.ts). */
  setUp?: () => void;
}

export type Log = (line: string) => void;

/** After a stop, how long the cleanup hooks of the running suite files may take before the run is given up (the sweep by tag then deletes what it can). */
export const STOP_GRACE_MS = 4000;
/** After a stop, how long the sweep by tag may take. */
const SWEEP_GRACE_MS = 2000;
/** --unreachable-after by default. */
export const DEFAULT_UNREACHABLE_AFTER_MS = 30_000;

/** Boot the embedded target when no --target is given (WordPress 6.5.5 unless `version` says otherwise). */
export async function prepareTarget(cfg: RunConfig, log: Log, version?: EmbeddedVersion): Promise<PreparedTarget> {
  if (cfg.target && cfg.target !== 'reference') return { url: cfg.target, embedded: null };
  const t = await bootTarget(cfg.target === 'reference' ? 'reference' : 'wordpress', { fresh: true, log, ...(version ? { version } : {}) });
  return { url: t.url, credentials: { user: t.user, appPassword: t.appPassword }, embedded: t.embedded, stop: () => t.stop(), ...(t.setUp ? { setUp: t.setUp } : {}) };
}

/** Is the site fresh, and (if so) its suite settings before any behaviour: src/core/fresh-site.ts. */
async function freshSiteSnapshot(cfg: RunConfig, prepared: PreparedTarget, profile: ProfileName, index: any, onExchange: (e: Exchange) => void): Promise<FreshSite> {
  const base = freshness(cfg, prepared.embedded);
  const p = getProfile(profile);
  const advertises = Array.isArray(index?.namespaces) && index.namespaces.includes(p.toTargetNamespace('suite/v4'));
  if (!base.fresh || !advertises) return base;
  const client = setupClient(prepared.url, cfg, onExchange, (r) => p.toTargetRoute(r));
  return snapshotFreshSite(client, base, advertises).finally(() => client.close());
}

/** A client for the run's setup requests (one at a time, not paced: the run's credentials and timeout). */
function setupClient(url: string, cfg: RunConfig, onExchange: (e: Exchange) => void, mapRoute?: (route: string) => string): Client {
  return clientFor(url, cfg, { concurrency: 1, maxRps: 0, ...(mapRoute ? { mapRoute } : {}), onExchange });
}

/** Fetch the site index once; anything but a JSON object is "not a reachable target". */
export async function fetchIndex(client: Client, attempts = 5): Promise<any> {
  let res;
  // The index is setup, not a behaviour under test: a passing 5xx, a garbled answer or a lost
  // connection is tried again (briefly) before the target is declared unusable.
  for (let i = 1; ; i++) {
    try {
      res = await client.get('/', { anyAnswer: true });
    } catch (err) {
      if (!(err instanceof TargetError)) throw err;
      if (i >= attempts) throw new UnreachableError(`cannot reach the target: ${err.message}`);
      await new Promise((r) => setTimeout(r, 300 * i));
      continue;
    }
    const transient = res.status >= 500 || (res.status === 200 && res.body === undefined);
    if (!transient || i >= attempts) break;
    await new Promise((r) => setTimeout(r, 300 * i));
  }
  if (res.status === 401 || res.status === 403)
    throw new UsageError(`the target refused the credentials (${res.status} ${res.body?.code ?? ''} on GET /): check --user/--app-password`.replace(' )', ')'));
  if (res.status !== 200 || typeof res.body !== 'object' || res.body === null || Array.isArray(res.body))
    throw new UnreachableError(
      `${client.url('/')} answered ${res.status}${res.body === undefined ? ' with no JSON' : ''}: is it a Content Site REST Interface server?`,
    );
  return res.body;
}

/** The target's answer to a route that does not exist, or undefined when it gave none (a 5xx, no answer). */
export async function probeNoRoute(client: Client): Promise<NoRouteAnswer | undefined> {
  try {
    const res = await client.get(NO_SUCH_ROUTE, { anyAnswer: true });
    return res.status >= 400 && res.status < 500 ? { status: res.status, text: res.text } : undefined;
  } catch (err) {
    if (err instanceof TargetError) return undefined;
    throw err;
  }
}

export function chooseProfile(cfg: RunConfig, index: unknown): { profile: ProfileName; reason: string } {
  if (cfg.profile !== 'auto') return { profile: cfg.profile, reason: `--profile ${cfg.profile}` };
  const detected = detectProfile(index as { namespaces?: unknown });
  if (detected === 'wordpress') return { profile: 'wordpress', reason: 'auto: the index advertises WordPress namespace names (wp/v2)' };
  if (detected === 'spec') return { profile: 'spec', reason: 'auto: the index advertises the documented namespace names (cms/v2)' };
  return { profile: 'spec', reason: 'auto: the index advertises neither cms/v2 nor wp/v2; using the documented names' };
}

export function writePolicy(cfg: RunConfig, prepared: PreparedTarget): RunInfo['writes'] {
  if (cfg.readOnly) return { allowed: false, reason: '--read-only' };
  if (prepared.embedded) return { allowed: true, reason: 'embedded target' };
  if (cfg.allowWrites) return { allowed: true, reason: '--allow-writes' };
  if (isLoopback(prepared.url)) return { allowed: true, reason: 'loopback target' };
  return { allowed: false, reason: 'the target is not on loopback; pass --allow-writes to allow writes' };
}

export interface RunOutcome {
  results: Results;
  /** results.json (written when the json format is chosen). */
  resultsPath: string;
  reportDir: string;
  /** Every report file written. */
  files: string[];
  /** reports/latest, when the default report directory was used. */
  latest?: string;
  /** The baseline file written (--write-baseline). */
  baselineWritten?: string;
  /** 0, 1, 3, 4 (exitCodeFor); 128 + the signal's number for a run a signal stopped (130 SIGINT, 143 SIGTERM, 129 SIGHUP). */
  exitCode: number;
}

export interface RunOptions {
  /** Version of the embedded WordPress to boot when cfg.target is null. */
  wordpressVersion?: EmbeddedVersion;
  /**
   * Run on this engine (kept open by the caller, reused for many sites) instead of starting
   * vitest for this run alone.
   */
  engine?: SuiteEngine;
  /** Baseline already loaded by the caller (a fleet site's own baseline merged with --baseline). */
  baseline?: { file: string; data: BaselineFile };
  /** Which part of a fleet this run is (site shard): written to results.json. */
  shard?: ShardInfo;
  /** The site's ID in a fleet (targets file). */
  site?: string;
  /** Do not update reports/latest (a fleet writes many runs at once). */
  noLatest?: boolean;
  /** What the run selects, when the caller resolved it already (a fleet: once for every site). */
  selection?: Selection;
  /** Where progress goes while the suites run (default: nothing is shown). */
  progress?: Omit<ProgressOptions, 'totals'>;
}

/** A folder that is (or can be made) writable: else a usage error naming the flag. Creates nothing. */
export function assertWritable(dir: string, what: string): void {
  let p = dir;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  const why = !statSync(p).isDirectory() ? `${p} is not a folder` : !canWrite(p) ? `${p} is not writable` : undefined;
  if (why) throw new UsageError(`${what}: cannot write to ${dir}: ${why}`);
}

function canWrite(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export async function runConformance(cfg: RunConfig, log: Log = (l) => process.stderr.write(`${l}\n`), opts: RunOptions = {}): Promise<RunOutcome> {
  const startedAt = new Date();
  const baselineFile = opts.baseline?.file ?? cfg.baseline;
  const baseline: BaselineFile | undefined = opts.baseline?.data ?? (cfg.baseline ? loadBaseline(cfg.baseline) : undefined);
  const formats = cfg.report;
  // Where reports and a baseline go must be writable before anything runs, not found out after it.
  assertWritable(cfg.reportDir ? resolve(cfg.reportDir) : resolve(DEFAULT_REPORTS_ROOT), cfg.reportDir ? '--report-dir' : 'the reports folder (reports/ here; or give --report-dir)');
  if (cfg.writeBaseline) assertWritable(dirname(resolve(cfg.writeBaseline)), '--write-baseline');
  // A typo in --only is a usage error before any target boots (and before any report is written).
  const selection = opts.selection ?? (await resolveSelection(cfg.only));
  await assertSelects(selection);
  const declared = selection.declared;
  const progress = new ProgressReporter({ stream: { write: () => true }, quiet: true, ...opts.progress, ...(declared ? { totals: totalsByNamespace(declared.selected) } : cfg.only === undefined ? { expected: catalogueTotals() } : {}) });
  // Vitest starts (about half a second of CPU) while the target boots and its index is read.
  const ownEngine = !opts.engine;
  const starting = ownEngine ? SuiteEngine.create(selection, cfg, { reporters: [progress] }) : undefined;
  // An engine that started but is not used (the target could not be prepared) is closed.
  const closeUnused = () => starting?.then((e) => e.close()).catch(() => undefined);
  let prepared: PreparedTarget;
  try {
    prepared = await prepareTarget(cfg, log, opts.wordpressVersion);
  } catch (error) {
    await closeUnused();
    throw error;
  }
  const stopTarget = once(async () => prepared.stop?.());
  let engine: SuiteEngine | undefined = opts.engine;
  // A stop (a signal, or the target gone for good): the run is cancelled, its cleanup hooks and the
  // sweep by tag delete what they still can, the reports are written with what ended (marked
  // incomplete), the embedded target is stopped; cleanup that has not ended after STOP_GRACE_MS is given up.
  let stopCause: StopCause | undefined;
  let header: RunHeader | undefined;
  let giveUp!: () => void;
  const gaveUp = new Promise<undefined>((r) => (giveUp = () => r(undefined)));
  let graceTimer: NodeJS.Timeout | undefined;
  /** Set once the run's sweeper exists: on a stop, the sweep by tag starts at once, beside the cleanup hooks. */
  let sweepOnStop: (() => void) | undefined;
  const requestStop = (cause: StopCause, what: string) => {
    if (stopCause) return;
    stopCause = cause;
    sweepOnStop?.();
    markStopRequested();
    if (header) header.incomplete = cause;
    progress.clear();
    log(`\n${what}: stopping (cleanup runs first) ...`);
    // A fleet's engine goes on with the next site when this one is unreachable; a signal stops it all (src/fleet/fleet.ts).
    if (ownEngine) engine?.cancel();
    else engine?.cancelRun();
    graceTimer = setTimeout(giveUp, STOP_GRACE_MS);
  };
  const onSignal = (sig: StopSignal) => {
    if (stopCause) {
      log(`${sig} again: exiting now, without waiting for the cleanup`);
      process.exit(signalExitCode(sig));
    }
    const gone = parentGone();
    requestStop({ reason: 'signal', signal: sig, message: gone ? `${gone} (taken as ${sig})` : `stopped by ${sig}`, at: new Date().toISOString() }, `${sig}${gone ? ` (${gone})` : ''}`);
  };
  if (ownEngine) for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
  const watch =
    cfg.unreachableAfterMs === 0
      ? undefined
      : new TargetWatch(cfg.unreachableAfterMs ?? DEFAULT_UNREACHABLE_AFTER_MS, (message) =>
          requestStop({ reason: 'target-unreachable', message, at: new Date().toISOString() }, message),
        );
  try {
    const effective: RunConfig = { ...cfg, ...(prepared.credentials && !cfg.user && !cfg.authHeader ? prepared.credentials : {}) };
    const setupExchanges: Exchange[] = [];
    const indexClient = setupClient(prepared.url, effective, (e) => setupExchanges.push(e));
    const index = await fetchIndex(indexClient);
    // How the target answers a route that does not exist (src/core/no-route.ts): one request.
    const noRoute = await probeNoRoute(indexClient).finally(() => indexClient.close());
    const { profile, reason } = chooseProfile(cfg, index);
    if (Array.isArray(index?.namespaces)) progress.advertised((ns) => index.namespaces.includes(getProfile(profile).toTargetNamespace(ns)));
    // Defaults of site state: read before any behaviour runs, on a fresh site only (src/core/fresh-site.ts).
    const freshSite = await freshSiteSnapshot(effective, prepared, profile, index, (e) => setupExchanges.push(e));
    prepared.setUp?.();

    // Reports: exactly --report-dir, or a new reports/<timestamp>/ (reports/latest follows it after the run).
    const reportDir = cfg.reportDir ? resolve(cfg.reportDir) : timestampedDir(resolve(DEFAULT_REPORTS_ROOT));
    mkdirSync(reportDir, { recursive: true });
    // A reused --report-dir keeps no report of an earlier run (a stale file would pass for this run's).
    for (const file of Object.values(REPORT_FILES)) rmSync(join(reportDir, file), { force: true });
    const eventLog = formats.includes('events') ? join(reportDir, REPORT_FILES.events) : undefined;
    if (eventLog) {
      const write = eventWriter(eventLog, 'setup');
      for (const e of setupExchanges) write(e);
    }
    let advertised: Results['advertised'] = null;
    try {
      advertised = digestIndex(normalizeIndex(index, getProfile(profile)));
    } catch {
      advertised = null; // an index the digest cannot read is reported by the discovery behaviours
    }
    const info: RunInfo = {
      runId: newRunId(),
      config: effective,
      targetUrl: prepared.url,
      embedded: prepared.embedded,
      profile,
      profileReason: reason,
      index,
      ...(noRoute ? { noRoute } : {}),
      writes: writePolicy(cfg, prepared),
      freshSite,
      ...(eventLog ? { eventLog } : {}),
    };
    const what = prepared.embedded ? ` (embedded ${prepared.embedded.kind}${prepared.embedded.version ? ` ${prepared.embedded.version}` : ''})` : '';
    log(`${TOOL.name} ${TOOL.version}: target ${prepared.url}${what}`);
    log(`profile ${profile} (${reason}); seed ${cfg.seed}; writes ${info.writes.allowed ? 'allowed' : 'not allowed'} (${info.writes.reason})`);

    const shard = opts.shard ?? (cfg.shard ? { ...parseShard(cfg.shard), by: 'behaviour' as const } : undefined);
    header = {
      tool: TOOL,
      target: { url: prepared.url, profile, profileReason: reason, embedded: prepared.embedded },
      seed: cfg.seed,
      config: redactConfig(cfg),
      startedAt,
      setupRequests: { count: indexClient.totals.requests, latencyMs: indexClient.totals.latencyMs },
      advertised,
      ...(shard ? { shard } : {}),
      ...(opts.site ? { site: opts.site } : {}),
      ...(declared && !shard ? { selected: declared.selected.length } : {}),
      ...(stopCause ? { incomplete: stopCause } : {}),
    };
    engine ??= await starting!;
    const sweeper = info.writes.allowed && indexClient.hasCredentials ? sweepClient(prepared.url, effective, profile, eventLog) : undefined;
    let results: Results | undefined;
    let abandoned = false;
    // On a stop the sweep by tag starts at once, beside the cleanup hooks of the running suite files
    // (both delete; an item already gone counts as deleted); the behaviours still running then are
    // not reported (src/engine/collect.ts): they may find their items gone.
    let stopSweep: Promise<SweepOutcome | undefined> | undefined;
    let siteState: SiteState | undefined;
    if (sweeper) {
      sweepOnStop = () => void (stopSweep ??= sweep(sweeper, { tag: tagFor(info.runId) }).catch(() => undefined));
      if (stopCause) sweepOnStop();
    }
    try {
      // A site this run booted has no leftovers of earlier runs.
      if (sweeper && !prepared.embedded) {
        // Leftovers of earlier runs, but never the items of a run that may still be going (another
        // shard against the same site): only runs that started longer ago than --sweep-after.
        const r = await sweep(sweeper, { olderThanMs: cfg.sweepAfterMs ?? DEFAULT_SWEEP_AFTER_MS }).catch(() => undefined);
        await reportSweep(log, 'leftovers of earlier runs', r);
      }
      // The settings as found, written back after the run where they differ (src/run/site-state.ts): not on
      // a site this run booted (it is thrown away), nor in a behaviour shard (others may be writing).
      if (sweeper && !prepared.embedded && shard?.by !== 'behaviour' && !stopCause) {
        const p = getProfile(profile);
        siteState = await snapshotSiteState(sweeper, (ns) => Array.isArray(index?.namespaces) && index.namespaces.includes(p.toTargetNamespace(ns)), { '/suite/v4/settings': freshSite.suiteSettings });
      }
      if (stopCause) {
        results = buildResults(header, [], []); // stopped before any behaviour ran
      } else {
        watch?.start();
        const ran = engine.run(info, header, { selection, ...(watch ? { watch } : {}) });
        ran.catch(() => undefined); // given up on: its end no longer matters
        results = await Promise.race([ran, gaveUp]);
        if (!results) {
          abandoned = true;
          log(`the cleanup did not end within ${STOP_GRACE_MS / 1000} s of the stop: given up; the sweep by tag deletes what it still can`);
          results = engine.snapshot(header);
        }
      }
    } finally {
      watch?.stop();
      clearTimeout(graceTimer);
      // A run given up on may hold a worker that does not end: do not wait for it long (the CLI exits anyway).
      if (ownEngine) await (abandoned ? within(engine.close(), 1000) : engine.close());
      sweepOnStop = undefined;
      if (sweeper) {
        // After a stop the target may not answer at all: the sweeps get a few seconds, not --timeout per request.
        const until = Date.now() + SWEEP_GRACE_MS;
        if (siteState) {
          const restored = await (stopCause ? within(restoreSiteState(sweeper, siteState), SWEEP_GRACE_MS) : restoreSiteState(sweeper, siteState));
          const line = restored && describeRestored(restored);
          if (line) log(line);
        }
        const early = stopSweep ? await within(stopSweep, SWEEP_GRACE_MS) : undefined;
        const swept = sweep(sweeper, { tag: tagFor(info.runId) }).catch(() => undefined);
        const last = await (stopCause ? within(swept, Math.max(1000, until - Date.now())) : swept);
        await reportSweep(log, 'items of this run', early && last ? { ...last, deleted: early.deleted + last.deleted, failed: last.failed } : (last ?? early));
        await (stopCause ? within(sweeper.close(), 500) : sweeper.close());
      }
    }
    // The target is not needed for the reports: it stops while they are written.
    stopTarget().catch(() => undefined); // (its failure surfaces where it is awaited, below)
    if (stopCause) {
      const i = results.incomplete;
      log(i ? `run incomplete: ${i.message}; ${i.notRun} selected behaviour(s) did not run` : `the run had ended: its results are complete`);
    }
    if (baseline) results.baseline = applyBaseline(results, baseline, baselineFile!);
    const files = writeReports(reportDir, results, formats);
    const latest = cfg.reportDir || opts.noLatest ? undefined : updateLatest(dirname(reportDir), reportDir);
    let baselineWritten: string | undefined;
    if (cfg.writeBaseline) {
      baselineWritten = resolve(cfg.writeBaseline);
      writeBaselineFile(baselineWritten, results);
    }
    return {
      results,
      resultsPath: join(reportDir, REPORT_FILES.json),
      reportDir,
      files,
      ...(latest ? { latest } : {}),
      ...(baselineWritten ? { baselineWritten } : {}),
      exitCode: runExitCode(results, cfg.failOn),
    };
  } finally {
    watch?.stop();
    clearTimeout(graceTimer);
    if (ownEngine) {
      for (const sig of STOP_SIGNALS) process.off(sig, onSignal);
      // Failed before the engine was taken into use (index, profile, fresh site): close it.
      if (!engine) await closeUnused();
    }
    await stopTarget();
  }
}

/** A run's ID: its start time (8 base-36 digits) and 4 random hex digits. The run tag `cmsc-<ID>` carries it, so a sweep can tell old runs from live ones. */
export function newRunId(now = Date.now()): string {
  return `cmsc${now.toString(36).padStart(8, '0')}${randomBytes(2).toString('hex')}`;
}

function sweepClient(url: string, cfg: RunConfig, profile: ProfileName, eventLog?: string): Client {
  const p = getProfile(profile);
  return clientFor(url, cfg, { mapRoute: (r) => p.toTargetRoute(r), ...(eventLog ? { onExchange: eventWriter(eventLog, 'sweep') } : {}) });
}

async function reportSweep(log: Log, what: string, r: SweepOutcome | undefined): Promise<void> {
  if (!r) log(`sweep of ${what}: the target did not answer the listing; nothing deleted`);
  else if (r.deleted || r.failed) log(`sweep of ${what}: deleted ${r.deleted}${r.failed ? `, could not delete ${r.failed}` : ''}`);
  if (r?.spared) log(`sweep of ${what}: left ${r.spared} tagged item(s) of runs that started less than --sweep-after ago alone (they may still be going)`);
}

/** `p`, or undefined when it has not settled within `ms`. */
function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p.catch(() => undefined), new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)))]).finally(() => clearTimeout(timer));
}

function once<T>(fn: () => Promise<T>): () => Promise<T | undefined> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}
