/**
 * The last phase of a run: its results judged against the baseline, the reports written (and
 * reports/latest pointed at them), the baseline file written when asked, and the exit code.
 */
import { dirname, join, resolve } from 'node:path';
import type { Results } from '../../results/results.ts';
import { runExitCode } from '../../results/verdict.ts';
import { REPORT_FILES, latestNameFor, updateLatest, writeReports } from '../../reporters/index.ts';
import { applyBaseline, writeBaselineFile } from './baseline.ts';
import type { Log, Plan } from './plan.ts';
import type { Session } from './session.ts';
import type { StopCause } from './stop.ts';

export interface RunOutcome {
  results: Results;
  /** results.json (written when the json format is chosen). */
  resultsPath: string;
  reportDir: string;
  /** Every report file written. */
  files: string[];
  /** reports/latest, when the default report directory was used. */
  latest?: string;
  /** reports/latest-<target> (latestNameFor): the newest run against this target, when the default report directory was used. */
  latestOfTarget?: string;
  /** The baseline file written (--write-baseline). */
  baselineWritten?: string;
  /** 0, 1, 3, 4 (exitCodeFor); 128 + the signal's number for a run a signal stopped (130 SIGINT, 143 SIGTERM, 129 SIGHUP). */
  exitCode: number;
}

export function finish(plan: Plan, session: Session, results: Results, stopped: StopCause | undefined, log: Log): RunOutcome {
  if (stopped) {
    const i = results.incomplete;
    log(i ? `run incomplete: ${i.message}; ${i.notRun} selected behaviour(s) did not run` : `the run had ended: its results are complete`);
  }
  const bl = plan.baseline;
  if (bl) results.baseline = applyBaseline(results, bl.data, bl.file, bl.release ? { source: 'release', release: bl.release } : { source: 'file' });
  const { reportDir } = session;
  const files = writeReports(reportDir, results, plan.config.report);
  const latest = plan.latest ? updateLatest(dirname(reportDir), reportDir) : undefined;
  const latestOfTarget = plan.latest ? updateLatest(dirname(reportDir), reportDir, latestNameFor(results.target)) : undefined;
  const baselineWritten = plan.config.writeBaseline ? resolve(plan.config.writeBaseline) : undefined;
  if (baselineWritten) writeBaselineFile(baselineWritten, results);
  return {
    results,
    resultsPath: join(reportDir, REPORT_FILES.json),
    reportDir,
    files,
    ...(latest ? { latest } : {}),
    ...(latestOfTarget ? { latestOfTarget } : {}),
    ...(baselineWritten ? { baselineWritten } : {}),
    exitCode: runExitCode(results, plan.config.failOn, plan.config.failOnClient),
  };
}
