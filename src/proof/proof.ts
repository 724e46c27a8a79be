/**
 * The one fault-proof engine (used by `selftest`, the project's fault tests and the benchmark):
 * a baseline run of the behaviours under test against a healthy target, then one run per round
 * (a group of faults that cannot disturb each other) through the fault-injecting proxy, `--only`
 * the behaviours the round needs, and for every fault its outcome against the baseline: which
 * named behaviours passed without it and failed with it (caught), which still passed (a gap),
 * which could not show anything (skipped or failing already in the baseline).
 *
 * A round's run is the CLI in a child process by default (as a user runs it); rounds can be
 * spread over several targets (lanes) when the target cannot be shared by concurrent runs.
 */
import type { Results } from '../../results/results.ts';
import type { Target } from '../run/target.ts';
import { matchesCaughtBy, startFaultProxy, type Fault, type ProxyStats } from '../../faults/proxy.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliRun } from './cli-process.ts';
import { DEFAULTS, parseFlags, resolveConfig } from '../core/config.ts';
import { exitCodeOfError } from '../../results/verdict.ts';
import { runConformance } from '../run/pipeline.ts';
import { SuiteEngine } from '../engine/suite-engine.ts';
import { resolveSelection } from '../engine/selection.ts';

/** What a proof needs of a target (src/run/target.ts): its URL and names, and its credentials when it has them. */
export type ProofTarget = Pick<Target, 'url' | 'profile'> & Partial<Pick<Target, 'user' | 'appPassword'>>;

export interface SuiteRun extends CliRun {
  stats?: ProxyStats;
}

export interface SuiteRunOptions {
  only?: string;
  faults?: Fault[];
  args?: string[];
  env?: Record<string, string>;
  seed?: number;
  timeoutMs?: number;
  /** Delete the run's report folder once its results are read (many runs that keep only the results). */
  removeReport?: boolean;
}

/** A run of the suite (seed 1 unless told) against `target`, through a proxy with `faults` when given. */
export async function runSuite(target: ProofTarget, opts: SuiteRunOptions = {}): Promise<SuiteRun> {
  const proxy = opts.faults ? await startFaultProxy(target.url, opts.faults, { profile: target.profile }) : undefined;
  try {
    const run = await runCli(runArgs(target, proxy?.url ?? target.url, opts), { env: opts.env, removeReport: opts.removeReport ?? false, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
    return Object.assign(run, { stats: proxy?.stats });
  } finally {
    await proxy?.close();
  }
}

/** The arguments of `cms-conformance run` for a suite run against `url`. */
function runArgs(target: ProofTarget, url: string, opts: SuiteRunOptions): string[] {
  const args = ['run', '--target', url, '--profile', target.profile, '--seed', String(opts.seed ?? 1)];
  if (target.user && target.appPassword) args.push('--user', target.user, '--app-password', target.appPassword);
  if (opts.only) args.push('--only', opts.only);
  // A report folder deleted once its results are read needs results.json alone: the other reports
  // (events.ndjson above all: a line written per request) cost about a fifth of a run's CPU.
  if (opts.removeReport && !opts.args?.includes('--report')) args.push('--report', 'json');
  return [...args, ...(opts.args ?? [])];
}

export type SuiteRunner = (target: ProofTarget, opts: SuiteRunOptions) => Promise<SuiteRun>;

/**
 * Suite runs in this process on one engine (vitest started once, every suite file loaded once
 * per run that selects it), each run with the same arguments as the CLI's: for the proofs whose
 * runs only read what the target advertises (discovery), where a child process per run would cost
 * more than the run itself. `close()` when done.
 */
export class InProcessRunner {
  private constructor(private readonly engine: SuiteEngine) {}

  static async open(): Promise<InProcessRunner> {
    return new InProcessRunner(await SuiteEngine.create(await resolveSelection(undefined), { concurrency: DEFAULTS.concurrency, shard: undefined, target: null }, { perRunOnly: true, keepWorkers: true }));
  }

  readonly run: SuiteRunner = async (target, opts) => {
    const proxy = opts.faults ? await startFaultProxy(target.url, opts.faults, { profile: target.profile }) : undefined;
    const reportDir = mkdtempSync(join(tmpdir(), 'cmsc-report-'));
    let stderr = '';
    try {
      const { values } = parseFlags([...runArgs(target, proxy?.url ?? target.url, opts).slice(1), '--report-dir', reportDir, '--quiet']);
      // The environment a CLI child would get (no .env file: the report folder holds none).
      const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, { ...process.env, ...opts.env }, reportDir);
      let code: number;
      let results: Results | undefined;
      try {
        const outcome = await runConformance(cfg, (l) => (stderr += `${l}\n`), { engine: this.engine, noLatest: true });
        code = outcome.exitCode;
        results = outcome.results;
      } catch (e) {
        stderr += `${(e as Error).message}\n`;
        code = exitCodeOfError(e);
      }
      return {
        code,
        signal: null,
        stdout: '',
        stderr,
        reportDir,
        ...(proxy ? { stats: proxy.stats } : {}),
        results: () => {
          if (!results) throw new Error(`run exited ${code} without results: ${stderr.trim().split('\n').pop() ?? ''}`);
          return results;
        },
      };
    } finally {
      await proxy?.close();
      if (opts.removeReport) rmSync(reportDir, { recursive: true, force: true });
    }
  };

  close(): Promise<void> {
    return this.engine.close();
  }
}

/** A regular expression selecting exactly the behaviours the faults name (for --only). */
export function onlyFor(caughtBy: string[]): string {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `^(${caughtBy.map((c) => (c.endsWith('*') ? `${esc(c.slice(0, -1))}\\S*` : esc(c))).join('|')}) `;
}

/** The behaviour areas a fault concerns: the first segment of each behaviour it names. */
export function scopeFor(fault: Fault): string {
  const areas = [...new Set(fault.caughtBy.map((id) => id.split('.')[0]!))];
  return `^(${areas.join('|')})\\.`;
}

export interface FaultOutcome {
  id: string;
  title: string;
  caught: boolean;
  /** Behaviours that passed in the baseline and failed with the fault. */
  caughtBy: string[];
  /** Behaviours the fault names that did not fail (a gap, or a behaviour that cannot run here). */
  expectedButPassed: string[];
  /** Named behaviours that could not show anything: skipped or failing already in the baseline. */
  notApplicable: string[];
  /** The suite's scope for this fault (--only). */
  scope: string;
  durationMs: number;
  error?: string;
}

export function outcome(fault: Fault, baseline: Results, faulty: Results, scope: string, durationMs: number): FaultOutcome {
  const base = new Map(baseline.behaviours.map((b) => [b.id, b.status]));
  const caughtBy = faulty.behaviours.filter((b) => b.status === 'failed' && base.get(b.id) === 'passed').map((b) => b.id);
  const named = faulty.behaviours.filter((b) => matchesCaughtBy(fault, b.id));
  const applicable = named.filter((b) => base.get(b.id) === 'passed');
  return {
    id: fault.id,
    title: fault.title,
    caught: caughtBy.length > 0,
    caughtBy,
    expectedButPassed: applicable.filter((b) => b.status === 'passed').map((b) => b.id),
    notApplicable: named.filter((b) => base.get(b.id) !== 'passed').map((b) => b.id),
    scope,
    durationMs,
  };
}

/** One round: its faults, the run through the proxy (or why it could not be made), what `after` found. */
export interface ProofRound<X = undefined> {
  faults: Fault[];
  scope: string;
  run?: SuiteRun;
  error?: Error;
  after?: X;
  durationMs: number;
}

export interface ProofPlan<X = undefined> {
  /** --only of the baseline run (undefined: every behaviour); or a baseline already run. */
  baseline?: string | BaselineRun;
  /** Rounds of faults (one proxy run each). */
  rounds: Fault[][];
  /** --only of a round (default: exactly the behaviours its faults name). */
  scope?: (faults: Fault[]) => string;
  /** Extra CLI arguments of the baseline and of the rounds. */
  baselineArgs?: string[];
  roundArgs?: string[];
  seed?: number;
  timeoutMs?: number;
  /** Further targets (same kind, same state) the rounds are spread over, beside the first. */
  lanes?: ProofTarget[];
  /** A fresh target per round (then `lanes` is not used); stopped after the round. */
  freshTarget?: () => Promise<ProofTarget & { stop(): Promise<void> }>;
  /** A check after the baseline and after each round, on the target the run used (e.g. nothing left behind). */
  after?: (target: ProofTarget) => Promise<X>;
  /** How a run is made (default: the CLI in a child process, runSuite). */
  runner?: SuiteRunner;
  /** Make the runs in this process (InProcessRunner), one engine per lane, closed at the end. */
  inProcess?: boolean;
  /** Called when the baseline ends, and when a round ends (progress). */
  onBaseline?: (baseline: BaselineRun) => void;
  onRound?: (round: ProofRound<X>, baseline: BaselineRun) => void;
}

/** What the engine needs of a baseline run made elsewhere. */
export interface BaselineRun {
  code: number | null;
  stderr: string;
  results(): Results;
}

export interface Proof<X = undefined> {
  baseline: BaselineRun;
  /** What `after` found after the baseline. */
  baselineAfter?: X;
  rounds: ProofRound<X>[];
  /** Every fault's round. */
  roundOf: Map<string, ProofRound<X>>;
}

/** The outcome of each fault of a round (an error when the run could not be made or wrote no results). */
export function roundOutcomes(round: ProofRound<unknown>, baseline: Results): FaultOutcome[] {
  let faulty: Results | undefined;
  let error = round.error?.message;
  try {
    faulty = round.run?.results();
  } catch (e) {
    error ??= (e as Error).message;
  }
  return round.faults.map((f) =>
    faulty && !error
      ? outcome(f, baseline, faulty, round.scope, round.durationMs)
      : { id: f.id, title: f.title, caught: false, caughtBy: [], expectedButPassed: [], notApplicable: [], scope: round.scope, durationMs: round.durationMs, error: error ?? 'no run' },
  );
}

/** Run the baseline, then every round; never throws for a round (its error is kept in the round). */
export async function proveFaults<X = undefined>(target: ProofTarget, plan: ProofPlan<X>): Promise<Proof<X>> {
  const runOpts = (only: string | undefined, args: string[] | undefined) => ({
    ...(only !== undefined ? { only } : {}),
    args: args ?? [],
    removeReport: true,
    ...(plan.seed !== undefined ? { seed: plan.seed } : {}),
    ...(plan.timeoutMs ? { timeoutMs: plan.timeoutMs } : {}),
  });
  const scope = plan.scope ?? ((faults: Fault[]) => onlyFor(faults.flatMap((f) => f.caughtBy)));
  const queue = [...plan.rounds];
  const rounds: ProofRound<X>[] = [];
  const roundOf = new Map<string, ProofRound<X>>();

  const engines: InProcessRunner[] = [];
  const runnerForLane = async (): Promise<SuiteRunner> => {
    if (!plan.inProcess) return plan.runner ?? runSuite;
    const r = await InProcessRunner.open();
    engines.push(r);
    return r.run;
  };

  const prove = async (on: ProofTarget, faults: Fault[], run: SuiteRunner) => {
    const started = Date.now();
    const round: ProofRound<X> = { faults, scope: scope(faults), durationMs: 0 };
    try {
      round.run = await run(on, { ...runOpts(round.scope, plan.roundArgs), faults });
      if (plan.after) round.after = await plan.after(on);
    } catch (e) {
      round.error = e as Error;
    }
    round.durationMs = Date.now() - started;
    rounds.push(round);
    for (const f of faults) roundOf.set(f.id, round);
    plan.onRound?.(round, baseline);
  };
  const lane = async (on: ProofTarget, run: SuiteRunner | Promise<SuiteRunner>) => {
    const runner = await run;
    for (let faults = queue.shift(); faults; faults = queue.shift()) {
      if (!plan.freshTarget) {
        await prove(on, faults, runner);
        continue;
      }
      const fresh = await plan.freshTarget();
      try {
        await prove(fresh, faults, runner);
      } finally {
        await fresh.stop();
      }
    }
  };

  // The baseline runs on the first target while the other lanes start on the rounds.
  let baseline!: BaselineRun;
  let baselineAfter: X | undefined;
  try {
    const firstRunner = runnerForLane();
    const first = async () => {
      if (typeof plan.baseline === 'object') baseline = plan.baseline;
      else {
        baseline = await (await firstRunner)(target, runOpts(plan.baseline, plan.baselineArgs));
        if (plan.after) baselineAfter = await plan.after(target);
      }
      plan.onBaseline?.(baseline);
    };
    const baselineDone = first();
    const others = plan.freshTarget ? [] : (plan.lanes ?? []).map(async (l) => lane(l, runnerForLane()));
    await baselineDone;
    await Promise.all([lane(target, firstRunner), ...others]);
  } finally {
    await Promise.all(engines.map((e) => e.close()));
  }
  // Rounds in the order they were planned, whatever lane ran them.
  const order = new Map(plan.rounds.map((r, i) => [r, i]));
  rounds.sort((a, b) => order.get(a.faults)! - order.get(b.faults)!);
  return { baseline, ...(plan.after && typeof plan.baseline !== 'object' ? { baselineAfter } : {}), rounds, roundOf };
}
