/**
 * Turns vitest's test cases into the behaviour results of a run (`results.json`).
 * A reporter never touches the network: everything it writes comes from test results and
 * the metadata behaviours attached to themselves.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import type { BehaviourMeta, Level } from '../src/behaviour.ts';
import type { Advertised } from './advertised.ts';
import type { BaselineOutcome } from './baseline.ts';
import { computeCoverage, type Coverage } from './coverage.ts';

export type Status = 'passed' | 'failed' | 'skipped';

export interface BehaviourResult extends Omit<BehaviourMeta, 'spec'> {
  spec: string;
  specRef: BehaviourMeta['spec'];
  status: Status;
  reason?: string;
  /** The complete failure message when it says more than `reason` (truncated). */
  message?: string;
  /** Expected/actual diff of a failed assertion (truncated). */
  diff?: string;
  /** Structured details a check attached to its failure (t.fail(message, details)). */
  details?: unknown;
  durationMs: number;
  file: string;
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

export interface Results {
  schemaVersion: 1;
  tool: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  target: { url: string; profile: string; profileReason: string; embedded: unknown };
  seed: number;
  config: Record<string, unknown>;
  summary: Counts & { byLevel: Record<Level, Counts>; byNamespace: Record<string, Counts> };
  requests: { count: number; latencyMs: number };
  behaviours: BehaviourResult[];
  /** Harness problems (a suite file that failed to load, an error outside any behaviour). */
  errors: { message: string; file?: string }[];
  /** Catalog coverage of the executed behaviours (reporters/coverage.ts). */
  coverage?: Coverage;
  /** What the target advertises (spec names), for comparing two runs; null when the index was not usable. */
  advertised?: Advertised | null;
  /** The outcome against --baseline, when one was given. */
  baseline?: BaselineOutcome;
}

export interface RunHeader {
  tool: Results['tool'];
  target: Results['target'];
  seed: number;
  config: Record<string, unknown>;
  startedAt: Date;
  /** Requests the CLI itself made before the suites (index fetch). */
  setupRequests?: { count: number; latencyMs: number };
  advertised?: Advertised | null;
}

const emptyCounts = (): Counts => ({ passed: 0, failed: 0, skipped: 0, total: 0 });
const specString = (s: BehaviourMeta['spec']) => `${s.doc === 'core' ? 'core-routes.md' : 'extension-namespaces.md'} § ${s.section}`;

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

/** Pure: behaviour results from finished test cases. Tests filtered out by --only are not results. */
export function behaviourResults(cases: Iterable<TestCase>, errorsOut: Results['errors']): BehaviourResult[] {
  const out: BehaviourResult[] = [];
  for (const tc of cases) {
    const result = tc.result();
    if (result.state === 'skipped' && tc.options.mode !== 'run') continue; // not selected
    if (result.state === 'pending') continue;
    const meta = tc.meta().behaviour;
    const file = tc.module.relativeModuleId;
    if (!meta) {
      errorsOut.push({ message: `test "${tc.name}" is not declared with behaviour()`, file });
      continue;
    }
    let status: Status;
    let reason: string | undefined;
    let extras: ReturnType<typeof failureExtras> = {};
    if (result.state === 'passed') status = 'passed';
    else if (result.state === 'skipped') {
      status = 'skipped';
      reason = result.note;
      if (!reason) errorsOut.push({ message: `behaviour ${meta.id} was skipped without a reason`, file });
    } else {
      status = 'failed';
      const err = result.errors[0];
      reason = err ? firstLine(err.message ?? String(err)) : 'failed';
      extras = failureExtras(err);
      if (meta.failureKind === 'harness') reason = `harness error (a bug in cms-conformance, not the target): ${reason}`;
      else if (meta.failureKind === 'target') reason = `target error: ${reason}`;
      if (!meta.failureKind) meta.failureKind = /timed out/i.test(reason) ? 'target' : 'harness';
    }
    const { spec, ...rest } = meta;
    out.push({
      ...rest,
      spec: specString(spec),
      specRef: spec,
      status,
      ...(reason !== undefined ? { reason } : {}),
      ...extras,
      durationMs: Math.round(tc.diagnostic()?.duration ?? 0),
      file,
    });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

export function summarize(behaviours: BehaviourResult[]): Results['summary'] {
  const summary = { ...emptyCounts(), byLevel: { MUST: emptyCounts(), SHOULD: emptyCounts() }, byNamespace: {} as Record<string, Counts> };
  for (const b of behaviours) {
    const ns = (summary.byNamespace[b.namespace || '(site)'] ??= emptyCounts());
    for (const c of [summary, summary.byLevel[b.level], ns]) {
      c[b.status]++;
      c.total++;
    }
  }
  return summary;
}

export function buildResults(header: RunHeader, modules: readonly TestModule[], unhandled: readonly SerializedError[], finishedAt = new Date()): Results {
  const errors: Results['errors'] = [];
  const cases: TestCase[] = [];
  for (const m of modules) {
    for (const e of m.errors()) errors.push({ message: firstLine(e.message ?? String(e)), file: m.relativeModuleId });
    for (const tc of m.children.allTests()) cases.push(tc);
  }
  for (const e of unhandled) errors.push({ message: firstLine(e.message ?? String(e)) });
  const behaviours = behaviourResults(cases, errors);
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
    summary: summarize(behaviours),
    requests: { count: requests.count, latencyMs: Math.round(requests.latencyMs) },
    behaviours,
    errors,
    coverage: computeCoverage(behaviours),
    ...(header.advertised !== undefined ? { advertised: header.advertised } : {}),
  };
}

/** Failures that gate the exit code: of a gating level and not listed in the baseline (if any). */
export function gatingFailures(results: Results, failOn: 'must' | 'should'): BehaviourResult[] {
  const known = new Set((results.baseline?.known ?? []).map((k) => k.id));
  return results.behaviours.filter((b) => b.status === 'failed' && (b.level === 'MUST' || failOn === 'should') && !known.has(b.id));
}

/** Exit code of a run: 1 when a gating behaviour failed (not in the baseline) or the harness broke, else 0. */
export function exitCodeFor(results: Results, failOn: 'must' | 'should'): 0 | 1 {
  if (results.errors.length > 0) return 1;
  return gatingFailures(results, failOn).length > 0 ? 1 : 0;
}

export function writeResults(path: string, results: Results): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(results, null, 2) + '\n');
}

/** The vitest reporter: collects the run's results; the CLI writes and gates on them. */
export class ResultsReporter implements Reporter {
  results?: Results;
  constructor(private readonly header: RunHeader) {}
  onTestRunEnd(modules: readonly TestModule[], errors: readonly SerializedError[]): void {
    this.results = buildResults(this.header, modules, errors);
  }
}
