/**
 * Collects the results of a run (`Results`, results/results.ts) from vitest's finished test
 * cases: one behaviour result per selected test, its status on the lattice passed / failed /
 * skipped / error, with what the behaviour attached to itself while it ran.
 */
import { groupDeviations } from '../../results/deviations.ts';
import { readinessOf } from '../../results/clients.ts';
import { reconcileDependencies } from '../../results/dependencies.ts';
import { stripVTControlCharacters } from 'node:util';
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import { computeCoverage } from '../../results/coverage.ts';
import { LEVEL_BASIS, specString, summarize, networkSummary, type Advertised, type BehaviourResult, type Incomplete, type Results, type ShardInfo } from '../../results/results.ts';
import { statusOfFailure, type FailureKind, type Status } from '../../results/verdict.ts';
import { failureKindOf } from '../http/failure-kind.ts';

export interface RunHeader {
  tool: Results['tool'];
  target: Results['target'];
  seed: number;
  config: Record<string, unknown>;
  /** With or without credentials, writes or read-only. */
  mode?: Results['mode'];
  startedAt: Date;
  /** Requests the CLI itself made before the suites (index fetch). */
  setupRequests?: { count: number; latencyMs: number };
  advertised?: Advertised | null;
  /** The site's ID in a targets file. */
  site?: string;
  /** The share of a sharded run. */
  shard?: ShardInfo;
  /** How many behaviours the run selected, when known (an incomplete run counts those that did not end). */
  selected?: number;
  /** Set when the run is asked to stop before it is done (src/run/stop.ts): the results are then marked incomplete. */
  incomplete?: Omit<Incomplete, 'notRun'>;
}

/** vitest's note on the tests a cancelled run did not get to (and its error in those it interrupted). */
const ABORTED = 'The test run was aborted by the user.';

/**
 * In a run stopped before it was done: a selected behaviour that did not end before the stop
 * (not run; cut off by it; or still running when it came: the stop deletes the run's items
 * meanwhile, which such a behaviour may find gone, so its verdict would not be its own).
 */
function notRun(tc: TestCase, stopAt: number): boolean {
  const r = tc.result();
  if (r.state === 'pending') return true;
  const d = tc.diagnostic();
  if (d && d.startTime + d.duration > stopAt) return true;
  if (r.state === 'skipped') return r.note === ABORTED;
  return r.state === 'failed' && (r.errors ?? []).some((e) => String(e.message ?? '').includes(ABORTED));
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}

const LONG = 4000;
const cap = (s: string) => (s.length <= LONG ? s : `${s.slice(0, LONG)}… [${s.length - LONG} more characters]`);

/** The parts of a failure worth keeping beyond its first line. */
function failureExtras(err: (SerializedError & { details?: unknown }) | undefined): Pick<BehaviourResult, 'message' | 'diff' | 'details'> {
  if (!err) return {};
  const out: Pick<BehaviourResult, 'message' | 'diff' | 'details'> = {};
  const message = stripVTControlCharacters(String(err.message ?? '')).trim();
  if (message.includes('\n')) out.message = cap(message);
  if (typeof err.diff === 'string' && err.diff.trim()) out.diff = cap(stripVTControlCharacters(err.diff).trim());
  if (err.details !== undefined) {
    const json = JSON.stringify(err.details);
    if (json !== undefined) out.details = json.length <= LONG ? err.details : cap(json);
  }
  return out;
}

/**
 * How a behaviour that ended in a failure failed: as the worker classified it (behaviour() sets
 * `failureKind` from the error's type), else from the type of the error vitest reports (a hook's,
 * the harness guard's timeout): never from its message.
 */
export function failureKindOfCase(tc: TestCase): FailureKind {
  return tc.meta().behaviour?.failureKind ?? failureKindOf(tc.result().errors?.[0]);
}

/** The status of a behaviour that has ended (undefined while it runs): the scale of results/verdict.ts. */
export function statusOfCase(tc: TestCase): Status | undefined {
  const r = tc.result();
  if (r.state === 'passed' || r.state === 'skipped') return r.state;
  return r.state === 'failed' ? statusOfFailure(failureKindOfCase(tc)) : undefined;
}

/** Pure: behaviour results from finished test cases. Tests filtered out by --only are not results. */
export function behaviourResults(cases: Iterable<TestCase>, errorsOut: Results['errors']): BehaviourResult[] {
  const out: BehaviourResult[] = [];
  for (const tc of cases) {
    const result = tc.result();
    if (result.state === 'skipped' && tc.options.mode !== 'run') continue; // not selected
    if (result.state === 'pending' && tc.options.mode !== 'run') continue; // not selected
    const meta = tc.meta().behaviour;
    const file = tc.module.relativeModuleId;
    if (!meta) {
      errorsOut.push({ message: `test "${tc.name}" is not declared with behaviour()`, file, kind: 'harness' });
      continue;
    }
    let status: Status;
    let reason: string | undefined;
    let extras: ReturnType<typeof failureExtras> = {};
    if (result.state === 'pending') {
      // Selected, but the run ended before it reported: never silently absent from the results.
      status = 'error';
      meta.failureKind ??= 'harness';
      reason = 'harness error (a bug in cms-conformance, not the target): the behaviour was selected but the run ended before it reported a result';
    } else if (result.state === 'passed') status = 'passed';
    else if (result.state === 'skipped') {
      status = 'skipped';
      reason = result.note;
      if (!reason) errorsOut.push({ message: `behaviour ${meta.id} was skipped without a reason`, file, kind: 'harness' });
    } else {
      const err = result.errors[0];
      reason = err ? firstLine(err.message ?? String(err)) : 'failed';
      extras = failureExtras(err);
      meta.failureKind = failureKindOfCase(tc);
      status = statusOfFailure(meta.failureKind);
      if (status === 'error') reason = meta.failureKind === 'harness' ? `harness error (a bug in cms-conformance, not the target): ${reason}` : `target error: ${reason}`;
    }
    const { spec, ...rest } = meta;
    out.push({
      ...rest,
      spec: specString(spec),
      basis: LEVEL_BASIS[meta.level],
      specRef: spec,
      status,
      ...(reason !== undefined ? { reason } : {}),
      ...extras,
      durationMs: Math.round(tc.diagnostic()?.duration ?? 0),
      file,
    });
  }
  return out.sort((a, b) => byId.compare(a.id, b.id));
}

/** The order of String.prototype.localeCompare (the default locale), without making a collator for every comparison. */
const byId = new Intl.Collator();

export function buildResults(header: RunHeader, modules: readonly TestModule[], unhandled: readonly SerializedError[], finishedAt = new Date()): Results {
  const errors: Results['errors'] = [];
  const cases: TestCase[] = [];
  for (const m of modules) {
    for (const e of m.errors()) {
      errors.push({ message: firstLine(e.message ?? String(e)), file: m.relativeModuleId, kind: failureKindOf(e) });
    }
    for (const tc of m.children.allTests()) cases.push(tc);
  }
  // A stopped run reports what ended; the behaviours it did not get to are counted, not listed as errors.
  let dropped = 0;
  if (header.incomplete) {
    const stopAt = Date.parse(header.incomplete.at);
    const ran = cases.filter((tc) => !(tc.options.mode === 'run' && notRun(tc, stopAt)));
    dropped = cases.length - ran.length;
    cases.splice(0, cases.length, ...ran);
  }
  for (const e of unhandled) {
    errors.push({ message: firstLine(e.message ?? String(e)), kind: failureKindOf(e) });
  }
  const behaviours = reconcileDependencies(behaviourResults(cases, errors));
  const requests = { count: header.setupRequests?.count ?? 0, latencyMs: header.setupRequests?.latencyMs ?? 0 };
  for (const b of behaviours) {
    requests.count += b.requests;
    requests.latencyMs += b.latencyMs ?? 0;
  }
  return {
    schemaVersion: 1,
    tool: header.tool,
    startedAt: header.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - header.startedAt.getTime(),
    target: header.target,
    seed: header.seed,
    config: header.config,
    ...(header.mode ? { mode: header.mode } : {}),
    summary: summarize(behaviours),
    requests: { count: requests.count, latencyMs: Math.round(requests.latencyMs) },
    behaviours,
    errors,
    deviations: groupDeviations({ behaviours, target: header.target }),
    ...readinessOf(behaviours),
    coverage: computeCoverage(behaviours),
    network: networkSummary(behaviours),
    ...(header.advertised !== undefined ? { advertised: header.advertised } : {}),
    ...(header.site !== undefined ? { site: header.site } : {}),
    ...(header.shard ? { shard: header.shard } : {}),
    ...(header.incomplete
      ? { incomplete: { ...header.incomplete, notRun: Math.max(dropped, header.selected !== undefined ? header.selected - behaviours.length : 0) } }
      : {}),
  };
}

/** The vitest reporter: collects the run's results; the CLI writes and gates on them. */
export class ResultsReporter implements Reporter {
  results?: Results;
  constructor(private readonly header: RunHeader) {}
  onTestRunEnd(modules: readonly TestModule[], errors: readonly SerializedError[]): void {
    this.results = buildResults(this.header, modules, errors);
  }
}
