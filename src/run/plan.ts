/**
 * The first phase of a run: its plan, resolved once before any target boots. The configuration
 * and what results.json records of it, the selection (`--only`), the baseline, where the reports
 * go and which share of a sharded run this is. Every usage error of a run (an unwritable report
 * folder, an unreadable baseline, an --only that selects nothing) is found here.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { redactConfig, type RunConfig } from '../core/config.ts';
import { UsageError } from '../core/errors.ts';
import { parseShard, type ShardInfo } from '../core/shard.ts';
import { assertSelects, resolveSelection, type Selection } from '../engine/selection.ts';
import type { SuiteEngine } from '../engine/suite-engine.ts';
import { DEFAULT_REPORTS_ROOT } from '../../reporters/index.ts';
import { loadBaseline, type BaselineFile } from './baseline.ts';
import { knownDeviationsFile } from '../../targets/wordpress/expectations.ts';
import { PKG_ROOT } from '../core/paths.ts';
import type { ProgressOptions } from './progress.ts';
import { DEFAULT_WORDPRESS_VERSION, type EmbeddedVersion, type Target } from './target.ts';

export type Log = (line: string) => void;

export interface RunOptions {
  /** Version of the embedded WordPress to boot when cfg.target is null. */
  wordpressVersion?: EmbeddedVersion;
  /**
   * Run on this engine (kept open by the caller, reused for many sites) instead of starting
   * vitest for this run alone.
   */
  engine?: SuiteEngine;
  /** What the run selects, when the caller resolved it already (a fleet: once for every site; compare: once for both sides). */
  selection?: Selection;
  /** Baseline already loaded by the caller (a fleet site's own baseline merged with --baseline). */
  baseline?: PlanBaseline;
  /** Which part of a fleet this run is (site shard): written to results.json. */
  shard?: ShardInfo;
  /** The site's ID in a fleet (targets file). */
  site?: string;
  /** Do not update reports/latest (a fleet writes many runs at once). */
  noLatest?: boolean;
  /** Where progress goes while the suites run (default: nothing is shown). */
  progress?: Omit<ProgressOptions, 'totals'>;
}

/** A baseline a run is judged against: a file given, or the shipped known deviations of the embedded release (`release`). */
export interface PlanBaseline {
  file: string;
  data: BaselineFile;
  /** "WordPress 6.5.5": the baseline is the known deviations of this embedded release (no --baseline given). */
  release?: string;
}

export interface Plan {
  /** The configuration as resolved (flags > environment > .env > defaults). */
  config: RunConfig;
  /** The same as results.json records it: what the user gave, secrets redacted. */
  recorded: Record<string, unknown>;
  selection: Selection;
  /** The known failures the exit code is judged against. */
  baseline?: PlanBaseline;
  /** Exactly --report-dir; undefined: a new reports/<timestamp>/ when the session opens. */
  reportDir?: string;
  /** Whether reports/latest follows the run's report folder. */
  latest: boolean;
  /** The share of a sharded run: of the sites of a fleet, or of the behaviours (suite files) of one target. */
  shard?: ShardInfo;
  /** The site's ID in a fleet. */
  site?: string;
  wordpressVersion?: EmbeddedVersion;
}

export async function resolvePlan(cfg: RunConfig, opts: RunOptions = {}): Promise<Plan> {
  const baseline = opts.baseline ?? (cfg.baseline ? { file: cfg.baseline, data: loadBaseline(cfg.baseline) } : cfg.noBaseline ? undefined : releaseBaseline(cfg, opts.wordpressVersion));
  // Where reports and a baseline go must be writable before anything runs, not found out after it.
  assertWritable(cfg.reportDir ? resolve(cfg.reportDir) : resolve(DEFAULT_REPORTS_ROOT), cfg.reportDir ? '--report-dir' : 'the reports folder (reports/ here; or give --report-dir)');
  if (cfg.writeBaseline) assertWritable(dirname(resolve(cfg.writeBaseline)), '--write-baseline');
  // A typo in --only is a usage error before any target boots (and before any report is written).
  const selection = opts.selection ?? (await resolveSelection(cfg.only));
  await assertSelects(selection);
  const shard = opts.shard ?? (cfg.shard ? { ...parseShard(cfg.shard), by: 'behaviour' as const } : undefined);
  return {
    config: cfg,
    recorded: redactConfig(cfg),
    selection,
    ...(baseline ? { baseline } : {}),
    ...(cfg.reportDir ? { reportDir: resolve(cfg.reportDir) } : {}),
    latest: !cfg.reportDir && !opts.noLatest,
    ...(shard ? { shard } : {}),
    ...(opts.site ? { site: opts.site } : {}),
    ...(opts.wordpressVersion ? { wordpressVersion: opts.wordpressVersion } : {}),
  };
}

/**
 * Without --baseline, a run against the embedded WordPress (no --target) is judged against the
 * known deviations of its release, shipped with the package (targets/wordpress/expectations/):
 * the first run says what it found ("16 known deviations of WordPress 6.5.5 …, 0 new") and exits 0
 * when nothing new fails. --no-baseline gives the plain verdict.
 */
export function releaseBaseline(cfg: Pick<RunConfig, 'target'>, version: EmbeddedVersion = DEFAULT_WORDPRESS_VERSION): PlanBaseline | undefined {
  if (cfg.target !== null) return undefined;
  const file = knownDeviationsFile(version);
  return file ? { file: relative(PKG_ROOT, file), data: loadBaseline(file), release: `WordPress ${version}` } : undefined;
}

/**
 * The configuration the suite workers run with: the plan's, with the booted target's credentials where
 * the user gave none. A target the CLI started itself (on this machine's loopback) is reached directly,
 * never through --proxy, and with at least the timeout it asks for (PHP-in-WebAssembly).
 */
export function workerConfig(plan: Plan, booted: Target | undefined): RunConfig {
  const cfg = plan.config;
  const own = booted ? { proxy: undefined, timeoutMs: Math.max(cfg.timeoutMs, booted.requestTimeoutMs ?? 0) } : {};
  return { ...cfg, ...own, ...(booted && !cfg.user && !cfg.authHeader ? { user: booted.user, appPassword: booted.appPassword } : {}) };
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
