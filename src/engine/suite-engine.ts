/**
 * The vitest engine of a run: the suites loaded into vitest (Node API) and run against one target
 * at a time; the per-target data reaches the suite workers through provide/inject.
 */
import { join } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, Vitest } from 'vitest/node';
import type { RunConfig } from '../core/config.ts';
import { PKG_ROOT } from '../core/paths.ts';
import type { RunInfo } from '../core/run-info.ts';
import { parseShard } from '../core/shard.ts';
import type { Results } from '../../results/results.ts';
import { ResultsReporter, buildResults, type RunHeader } from './collect.ts';
import { recordDeclared } from './declared.ts';
import { KeptThreads } from './kept-threads.ts';
import type { Selection } from './selection.ts';
import { MAX_FILE_CONCURRENCY, SHARED_WORKERS, moduleCache, workerCount } from './suite-files.ts';

/** The time limit of a behaviour or hook: not a limit on the target (that is --timeout per request), a guard against a harness hang. */
export const HARNESS_GUARD_MS = 30 * 60_000;

/**
 * The suites, loaded once into vitest and run against one site at a time: a fleet shard runs
 * site after site on one engine, so it pays vitest's start (config, Vite server, pool) once.
 * The per-site data (target, credentials, profile, write policy) travels to the workers through
 * provide/inject at the start of every run.
 */
export class SuiteEngine {
  private running = false;
  private started = false;
  /** Each run selects its own behaviours (its own Selection) among every suite file loaded. */
  private perRunOnly = false;
  /** A signal arrived: the current run is cancelled and no further run starts. */
  cancelled = false;

  private constructor(
    private readonly vitest: Vitest,
    private readonly reporter: SwitchingReporter,
    private readonly workers: number,
    /** What the engine loads; what each run selects unless it brings its own (perRunOnly). */
    private readonly selection: Selection,
    /** The worker threads kept from one run to the next (keepWorkers). */
    private readonly kept?: KeptThreads,
  ) {}

  /**
   * `selection`: what every run of the engine selects (with `perRunOnly`, what it loads: each run
   * then selects its own among those files).
   * `reporters`: what else listens to every run (the progress line of a single run; a fleet prints one line per site instead).
   * `keepWorkers`: the worker threads are kept from one run (site) to the next (src/engine/kept-threads.ts),
   * for an engine that runs many sites (a fleet shard); a single run ends its threads with its run anyway.
   */
  static async create(
    selection: Selection,
    cfg: Pick<RunConfig, 'concurrency' | 'shard' | 'target'>,
    opts: { reporters?: Reporter[]; perRunOnly?: boolean; keepWorkers?: boolean } = {},
  ): Promise<SuiteEngine> {
    const { createVitest } = await import('vitest/node');
    const shard = cfg.shard ? parseShard(cfg.shard) : undefined;
    // Only the suite files that declare a selected behaviour (not under --shard: its share is by path
    // among every file), and no more workers than files (each worker's share of --concurrency is a
    // share of the whole: an idle worker would hold some back).
    const exact = shard ? undefined : selection.exact;
    const workers = Math.min(workerCount(cfg.concurrency, { inProcessTarget: cfg.target === 'reference' }), exact?.length ?? Infinity);
    const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const reporter = new SwitchingReporter();
    const kept = opts.keepWorkers ? new KeptThreads() : undefined;
    const vitest = await createVitest(
      'test',
      {
        root: PKG_ROOT,
        config: false,
        include: exact ?? selection.files,
        watch: false,
        // Our own progress (src/run/progress.ts) instead of vitest's output; the summary is the CLI's.
        reporters: [reporter, ...(opts.reporters ?? []), { onTestRunEnd: (modules, _errors, reason) => void (reason !== 'interrupted' && recordDeclared(modules)) }],
        testNamePattern: selection.testNamePattern,
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
        ...moduleCache(),
      },
      { cacheDir: join(PKG_ROOT, 'node_modules/.vite') },
    );
    // vitest's logger exits the process on SIGINT/SIGTERM (after 1 ms), before the fixtures are
    // deleted and the tag swept: keep only our handler, which cancels the run and lets cleanup run.
    for (const sig of ['SIGINT', 'SIGTERM'] as const)
      for (const l of process.listeners(sig)) if (!signalListeners[sig].includes(l)) process.off(sig, l as (...a: unknown[]) => void);
    const engine = new SuiteEngine(vitest, reporter, workers, selection, kept);
    engine.perRunOnly = opts.perRunOnly === true && selection.only === undefined && !shard;
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

  /**
   * Run the suites against the target `info` describes; `header` goes into its results; `watch`
   * sees each behaviour end; `selection`: what this run selects (an engine made with `perRunOnly`;
   * the others run what they were made with).
   */
  async run(info: RunInfo, header: RunHeader, opts: { selection?: Selection; watch?: Reporter } = {}): Promise<Results> {
    const { watch } = opts;
    if (this.cancelled) throw new Error('the run was cancelled');
    this.reporter.next(header, watch);
    this.vitest.provide('run', { ...info, workers: this.workers });
    this.running = true;
    try {
      if (this.perRunOnly) {
        // The suite files the run's selection can select, and the behaviours it selects in them.
        const selection = opts.selection ?? this.selection;
        if (selection.testNamePattern !== undefined) this.vitest.setGlobalTestNamePattern(selection.testNamePattern);
        else this.vitest.resetGlobalTestNamePattern();
        const dirs = selection.folders.map((d) => join(PKG_ROOT, d));
        const exact = selection.exact?.map((f) => join(PKG_ROOT, f));
        const specs = (await this.vitest.globTestSpecifications()).filter((s) => (exact ? exact.includes(s.moduleId) : dirs.some((d) => s.moduleId.startsWith(d))));
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
