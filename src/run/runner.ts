/**
 * A conformance run: prepare the target (boot the embedded one if asked), fetch its index
 * once, choose the profile, run the suites through vitest's Node API, write results.json.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, SerializedError, TestCase, TestModule, Vitest } from 'vitest/node';
import { Client } from '../http/client.ts';
import { PKG_ROOT } from '../core/paths.ts';
import { isLoopback, redactConfig, type RunConfig } from '../core/config.ts';
import { TargetError, UnreachableError, UsageError } from '../core/errors.ts';
import { DEFAULT_SWEEP_AFTER_MS, sweep, tagFor, type SweepOutcome } from '../sdk/fixtures.ts';
import { freshness, snapshotFreshSite, type FreshSite } from '../core/fresh-site.ts';
import { describeRestored, restoreSiteState, snapshotSiteState, type SiteState } from './site-state.ts';
import { parseShard, type ShardInfo } from '../core/shard.ts';
import { detectProfile, getProfile, normalizeIndex, type ProfileName } from '../../schemas/profiles.ts';
import type { RunInfo } from '../core/run-info.ts';
import { NO_SUCH_ROUTE, type NoRouteAnswer } from '../core/no-route.ts';
import { MAX_FILE_CONCURRENCY, suiteFiles, workerCount } from '../engine/suite-files.ts';
import type { Exchange } from '../http/client.ts';
import { runExitCode, type Results } from '../../results/results.ts';
import type { SpecRef } from '../../schemas/types.ts';
import { ResultsReporter, buildResults, type RunHeader } from '../engine/collect.ts';
import { STOP_SIGNALS, TargetWatch, markStopRequested, parentGone, signalExitCode, type StopCause, type StopSignal } from './stop.ts';
import { digestIndex } from '../../results/advertised.ts';
import { applyBaseline, loadBaseline, writeBaselineFile, type BaselineFile } from './baseline.ts';
import { eventWriter } from '../core/events.ts';
import { DEFAULT_REPORTS_ROOT, REPORT_FILES, timestampedDir, updateLatest, writeReports } from '../../reporters/index.ts';
import { cachedDeclared, catalogueTotals, expandSuiteGlobs, idsPattern, onlyMatcher, recordDeclared, selectDeclared, totalsByNamespace, type Declared } from '../engine/declared.ts';
import { ProgressReporter, type ProgressOptions } from './progress.ts';
import { KeptThreads } from '../engine/kept-threads.ts';

export { PKG_ROOT };
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

/**
 * A worker runs suite file after suite file without starting a new thread and loading the
 * dependencies again for each (about 1 s of CPU per file); the setup file re-evaluates every
 * module of cms-conformance for each suite file, so no state passes from one file (or one site)
 * to the next, as with vitest's isolation.
 */
const SHARED_WORKERS = { isolate: false, setupFiles: [join(PKG_ROOT, 'src/engine/fresh-modules.ts')] };

/** After a stop, how long the cleanup hooks of the running suite files may take before the run is given up (the sweep by tag then deletes what it can). */
export const STOP_GRACE_MS = 4000;
/** After a stop, how long the sweep by tag may take. */
const SWEEP_GRACE_MS = 2000;
/** --unreachable-after by default. */
export const DEFAULT_UNREACHABLE_AFTER_MS = 30_000;

/** The time limit of a behaviour or hook: not a limit on the target (that is --timeout per request), a guard against a harness hang. */
export const HARNESS_GUARD_MS = 30 * 60_000;

export type EmbeddedVersion = '6.5.5' | '6.1.9';

/** Boot the embedded target when no --target is given (WordPress 6.5.5 unless `version` says otherwise). */
export async function prepareTarget(cfg: RunConfig, log: Log, version?: EmbeddedVersion): Promise<PreparedTarget> {
  if (cfg.target && cfg.target !== 'reference') return { url: cfg.target, embedded: null };
  if (cfg.target === 'reference') {
    const { startReferenceServer } = await import('../../targets/reference/index.ts').catch(() => {
      throw new UsageError('--target reference: the reference server is not available in this version');
    });
    const srv = await startReferenceServer({ port: 0, deferSiteSetup: true });
    return {
      url: srv.url,
      credentials: { user: srv.user, appPassword: srv.appPassword },
      embedded: { kind: 'reference' },
      stop: () => srv.stop(),
      ...(srv.setUpSite ? { setUp: srv.setUpSite } : {}),
    };
  }
  const { bootWordPress, TargetBootError } = await import('../../targets/wordpress/index.ts');
  try {
    log('booting the embedded WordPress (first run downloads it once) ...');
    const wp = await bootWordPress({ log, ...(version ? { version } : {}) });
    return {
      url: wp.url,
      credentials: { user: wp.user, appPassword: wp.appPassword },
      embedded: { kind: 'wordpress', version: wp.version, plugins: wp.plugins },
      stop: () => wp.stop(),
    };
  } catch (err) {
    if (err instanceof TargetBootError) throw new UnreachableError(`cannot boot the embedded WordPress: ${err.message}`);
    throw err;
  }
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

/** A client for the run's setup requests (one at a time, the run's credentials and timeout). */
function setupClient(url: string, cfg: RunConfig, onExchange: (e: Exchange) => void, mapRoute?: (route: string) => string): Client {
  return new Client({
    baseUrl: url,
    credentials: { user: cfg.user, appPassword: cfg.appPassword, authHeader: cfg.authHeader },
    timeoutMs: cfg.timeoutMs,
    retries: cfg.retries,
    maxBodyBytes: cfg.maxBodyBytes,
    concurrency: 1,
    ...(mapRoute ? { mapRoute } : {}),
    onExchange,
  });
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

/** The usage error of an --only pattern that selects no behaviour; `of`: how many behaviours the suites declare in all (declaredTotal). */
export function noneSelected(only: string, of?: number): string {
  return `--only ${JSON.stringify(only)} selects none of the ${of === undefined ? 'declared' : of.toLocaleString('en-US')} behaviours (it is matched against each behaviour's ID and against "<id> <title>"; see them with: cms-conformance list)`;
}

/**
 * How many behaviours the suites declare in all (every suite file, whatever --only narrows the
 * loading to): from the cache of declarations, else by collecting every suite file (seconds; only
 * asked for in the message of an --only that selects nothing). undefined when a suite file does not load.
 */
export async function declaredTotal(): Promise<number | undefined> {
  const files = expandSuiteGlobs(suiteFiles(undefined));
  const cached = files && cachedDeclared(files);
  if (cached) return cached.length;
  const { behaviours, errors } = await listBehaviours();
  return errors.length ? undefined : behaviours.length;
}

/** The usage error of an --only that selects nothing, if it does (with the count of what exists). */
export async function assertSelects(only: string | undefined, declared: { selected: Declared[] } | undefined): Promise<void> {
  if (only !== undefined && declared && !declared.selected.length) throw new UsageError(noneSelected(only, await declaredTotal()));
}

/**
 * The test name pattern vitest runs a run's --only with: exactly the IDs the pattern selects
 * (declared.ts, onlyMatcher: the ID alone or "<id> <title>"); the pattern itself when the
 * declarations are not known (a suite file that does not load).
 */
export async function testNamePatternFor(only: string | undefined): Promise<string | undefined> {
  if (only === undefined) return undefined;
  const declared = await declaredFor(only, true);
  return declared ? idsPattern(declared.selected) : only;
}

/**
 * The behaviours a run will select, known before it starts: from the cache of declarations
 * (src/engine/declared.ts), else, when `collect` is set, by collecting the suite files (seconds).
 * undefined when not known (not cached and not collected, or a suite file does not load).
 */
export async function declaredFor(only: string | undefined, collect: boolean): Promise<{ selected: Declared[]; of: number } | undefined> {
  const files = expandSuiteGlobs(suiteFiles(only));
  let all = files && cachedDeclared(files);
  if (!all && collect) {
    const { errors } = await listBehaviours(only);
    if (errors.length) return undefined;
    all = files && cachedDeclared(files);
  }
  return all ? { selected: selectDeclared(all, only), of: all.length } : undefined;
}

/**
 * The suites, loaded once into vitest and run against one site at a time: a fleet shard runs
 * site after site on one engine, so it pays vitest's start (config, Vite server, pool) once.
 * The per-site data (target, credentials, profile, write policy) travels to the workers through
 * provide/inject at the start of every run.
 */
export class SuiteEngine {
  private running = false;
  private started = false;
  /** Each run selects its own behaviours (its config's --only) among every suite file loaded. */
  private perRunOnly = false;
  /** A signal arrived: the current run is cancelled and no further run starts. */
  cancelled = false;

  private constructor(
    private readonly vitest: Vitest,
    private readonly reporter: SwitchingReporter,
    private readonly workers: number,
    /** The worker threads kept from one run to the next (keepWorkers). */
    private readonly kept?: KeptThreads,
  ) {}

  /**
   * `reporters`: what else listens to every run (the progress line of a single run; a fleet prints one line per site instead).
   * `keepWorkers`: the worker threads are kept from one run (site) to the next (src/engine/kept-threads.ts),
   * for an engine that runs many sites (a fleet shard); a single run ends its threads with its run anyway.
   */
  static async create(cfg: Pick<RunConfig, 'only' | 'concurrency' | 'shard' | 'target'>, opts: { reporters?: Reporter[]; perRunOnly?: boolean; keepWorkers?: boolean } = {}): Promise<SuiteEngine> {
    const { createVitest } = await import('vitest/node');
    const workers = workerCount(cfg.concurrency, { inProcessTarget: cfg.target === 'reference' });
    const shard = cfg.shard ? parseShard(cfg.shard) : undefined;
    const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const reporter = new SwitchingReporter();
    const kept = opts.keepWorkers ? new KeptThreads() : undefined;
    const vitest = await createVitest(
      'test',
      {
        root: PKG_ROOT,
        config: false,
        include: suiteFiles(cfg.only),
        watch: false,
        // Our own progress (src/run/progress.ts) instead of vitest's output; the summary is the CLI's.
        reporters: [reporter, ...(opts.reporters ?? []), { onTestRunEnd: (modules, _errors, reason) => void (reason !== 'interrupted' && recordDeclared(modules)) }],
        testNamePattern: await testNamePatternFor(cfg.only),
        passWithNoTests: true,
        pool: kept ? kept.initializer : 'threads',
        maxWorkers: workers,
        ...SHARED_WORKERS,
        // A behaviour shard runs its share of the suite files (vitest's own file sharding: stable by path).
        ...(shard ? { shard: `${shard.index}/${shard.count}` } : {}),
        // Every request has its own limit (--timeout), so a behaviour or a fixture hook always ends
        // however slow the target is; these only guard against a hang of cms-conformance itself.
        testTimeout: HARNESS_GUARD_MS,
        hookTimeout: HARNESS_GUARD_MS,
        teardownTimeout: 30_000,
        // Each file's own limit is kept by behaviour() (vitest's default 5, or what the file asks for).
        maxConcurrency: MAX_FILE_CONCURRENCY,
      },
      { cacheDir: join(PKG_ROOT, 'node_modules/.vite') },
    );
    // vitest's logger exits the process on SIGINT/SIGTERM (after 1 ms), before the fixtures are
    // deleted and the tag swept: keep only our handler, which cancels the run and lets cleanup run.
    for (const sig of ['SIGINT', 'SIGTERM'] as const)
      for (const l of process.listeners(sig)) if (!signalListeners[sig].includes(l)) process.off(sig, l as (...a: unknown[]) => void);
    const engine = new SuiteEngine(vitest, reporter, workers, kept);
    engine.perRunOnly = opts.perRunOnly === true && !cfg.only && !shard;
    return engine;
  }

  /** Stop the current run (cleanup hooks still run) and refuse further runs. */
  cancel(): void {
    this.cancelled = true;
    this.cancelRun();
  }

  /** Stop the current run only (cleanup hooks still run); a fleet goes on with its next site. */
  cancelRun(): void {
    if (!this.running) return;
    // The threads of a cancelled run are not kept for the next one.
    void this.kept?.retire();
    // vitest forgets a cancel that lands before its run has scheduled its files: asked again as each file starts.
    this.reporter.onModuleStart = () => void this.vitest.cancelCurrentRun('keyboard-input');
    void this.vitest.cancelCurrentRun('keyboard-input');
  }

  /**
   * The results so far of a run that is not over (a stop whose cleanup did not end in time):
   * the behaviours that ended; the header says the run is incomplete.
   */
  snapshot(header: RunHeader): Results {
    return buildResults(header, this.vitest.state.getTestModules(), []);
  }

  /** Run the suites against the site `info` describes; `header` goes into its results; `watch` sees each behaviour end. */
  async run(info: RunInfo, header: RunHeader, watch?: Reporter): Promise<Results> {
    if (this.cancelled) throw new Error('the run was cancelled');
    this.reporter.next(header, watch);
    this.vitest.provide('run', { ...info, workers: this.workers });
    this.running = true;
    try {
      if (this.perRunOnly) {
        // The suite files the run's --only can select, and the behaviours it selects in them.
        const only = info.config.only;
        if (only) this.vitest.setGlobalTestNamePattern((await testNamePatternFor(only))!);
        else this.vitest.resetGlobalTestNamePattern();
        const dirs = suiteFiles(only).map((g) => join(PKG_ROOT, g.replace(/\*\*\/\*\.spec\.ts$/, '')));
        const specs = (await this.vitest.globTestSpecifications()).filter((s) => dirs.some((d) => s.moduleId.startsWith(d)));
        this.started = true;
        await this.vitest.runTestSpecifications(specs, true);
      } else if (!this.started) {
        this.started = true;
        await this.vitest.start();
      } else {
        const specs = await this.vitest.getRelevantTestSpecifications();
        await this.vitest.runTestSpecifications(specs, true);
      }
    } finally {
      this.running = false;
      this.reporter.onModuleStart = undefined;
    }
    const results = this.reporter.take();
    if (!results) throw new Error('the run ended without results');
    return results;
  }

  /** How many worker threads the engine started, and how many runs took a kept one. */
  get threadStats(): { started: number; reused: number } | undefined {
    return this.kept && { ...this.kept.stats };
  }

  async close(): Promise<void> {
    try {
      await this.vitest.close();
    } finally {
      await this.kept?.close();
    }
  }
}

/** A results reporter whose run header changes from one run (site) to the next. */
class SwitchingReporter implements Reporter {
  private current?: ResultsReporter;
  private watch?: Reporter;
  onModuleStart?: () => void;
  next(header: RunHeader, watch?: Reporter): void {
    this.current = new ResultsReporter(header);
    this.watch = watch;
  }
  take(): Results | undefined {
    const r = this.current?.results;
    this.current = undefined;
    this.watch = undefined;
    return r;
  }
  onTestModuleQueued(): void {
    this.onModuleStart?.();
  }
  onTestModuleStart(): void {
    this.onModuleStart?.();
  }
  onTestCaseResult(tc: TestCase): void {
    this.watch?.onTestCaseResult?.(tc);
  }
  onTestRunEnd(modules: readonly TestModule[], errors: readonly SerializedError[]): void {
    this.current?.onTestRunEnd(modules, errors);
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
  const declared = await declaredFor(cfg.only, cfg.only !== undefined);
  await assertSelects(cfg.only, declared);
  const progress = new ProgressReporter({ stream: { write: () => true }, quiet: true, ...opts.progress, ...(declared ? { totals: totalsByNamespace(declared.selected) } : cfg.only === undefined ? { expected: catalogueTotals() } : {}) });
  // Vitest starts (about half a second of CPU) while the target boots and its index is read.
  const ownEngine = !opts.engine;
  const starting = ownEngine ? SuiteEngine.create(cfg, { reporters: [progress] }) : undefined;
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
        const ran = engine.run(info, header, watch);
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
  return new Client({
    baseUrl: url,
    credentials: { user: cfg.user, appPassword: cfg.appPassword, authHeader: cfg.authHeader },
    timeoutMs: cfg.timeoutMs,
    retries: cfg.retries,
    maxBodyBytes: cfg.maxBodyBytes,
    concurrency: cfg.concurrency,
    maxRps: cfg.maxRps || undefined,
    mapRoute: (r) => p.toTargetRoute(r),
    ...(eventLog ? { onExchange: eventWriter(eventLog, 'sweep') } : {}),
  });
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

export interface ListedBehaviour {
  id: string;
  level: string;
  namespace: string;
  title: string;
  spec: string;
  specRef: SpecRef;
  /** The spec sentence the behaviour checks, when the declaration gives it. */
  sentence?: string;
  /** The suite file that declares it (loaded by the runner). */
  file: string;
  /** Where behaviour() is called: "suites/extensions/suite-settings.ts:140". */
  location?: string;
  covers: string[];
}

/** Collect the declared behaviours without running them (no target needed). */
export async function listBehaviours(only?: string): Promise<{ behaviours: ListedBehaviour[]; errors: string[] }> {
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest(
    'test',
    { root: PKG_ROOT, config: false, include: suiteFiles(only), watch: false, reporters: [], pool: 'threads', ...SHARED_WORKERS },
    { cacheDir: join(PKG_ROOT, 'node_modules/.vite') },
  );
  const selects = only === undefined ? () => true : onlyMatcher(only);
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    recordDeclared(testModules);
    const errors = unhandledErrors.map((e) => String((e as Error).message ?? e));
    const behaviours: ListedBehaviour[] = [];
    for (const m of testModules) {
      for (const e of m.errors()) errors.push(`${m.relativeModuleId}: ${e.message}`);
      for (const tc of m.children.allTests()) {
        const b = tc.meta().behaviour;
        if (!b) {
          errors.push(`${m.relativeModuleId}: test "${tc.name}" is not declared with behaviour()`);
          continue;
        }
        if (!selects({ id: b.id, name: tc.name })) continue;
        behaviours.push({
          id: b.id,
          level: b.level,
          namespace: b.namespace,
          title: b.title,
          spec: `${b.spec.doc} § ${b.spec.section}`,
          specRef: b.spec,
          ...(b.sentence ? { sentence: b.sentence } : {}),
          file: m.relativeModuleId,
          ...(b.location ? { location: b.location } : {}),
          covers: b.covers ?? [],
        });
      }
    }
    return { behaviours: behaviours.sort((a, b) => a.id.localeCompare(b.id)), errors };
  } finally {
    await vitest.close();
  }
}

