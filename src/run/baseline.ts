/**
 * Baselines: known failures a release accepts. A run given `--baseline FILE` fails only on
 * failures the file does not list, and reports the entries that now pass (so the file shrinks).
 * `--write-baseline FILE` records the run's failures (keeping the reason and link of entries the
 * file already had).
 *
 * File format (JSON):
 *   { "schemaVersion": 1,
 *     "failures": [ { "id": "disc.args.cms.pages.collection.list",
 *                     "reason": "search_semantics arrives in a later release",
 *                     "link": "https://tracker.example/123" } ] }
 * `reason` is required; `link`, `level`, `message` and `recorded` are optional. A written baseline
 * leads with `deviations` (the failures grouped by the documented item that broke, for readers:
 * which broken things the release accepts); gating reads `failures` only.
 *
 * Deprecation path of split behaviours: an entry naming a behaviour ID that was split into
 * several (`disc.args.<endpoint>` into `disc.args.<endpoint>.<arg>`, `disc.index.routes.entries`
 * into one per route; src/sdk/discovery.ts `splitBehaviourIds`) covers each of its parts: their
 * failures are known, and the entry now passes only when every part passes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BaselineEntry, BaselineFile, BaselineOutcome, Results, Status } from '../../results/results.ts';
import { deviationsOf } from '../../results/deviations.ts';
import { formerBehaviourId } from '../sdk/discovery.ts';
import { UsageError } from '../core/errors.ts';

export type { BaselineEntry, BaselineFile, BaselineOutcome };

export function parseBaseline(text: string, file: string): BaselineFile {
  let data: any;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--baseline ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const list = Array.isArray(data) ? data : data?.failures;
  if (!Array.isArray(list)) throw new UsageError(`--baseline ${file}: expected {"failures": [{"id": ..., "reason": ...}]}`);
  const seen = new Set<string>();
  const failures: BaselineEntry[] = list.map((e: any, i: number) => {
    if (typeof e?.id !== 'string' || !e.id) throw new UsageError(`--baseline ${file}: entry ${i + 1} has no "id"`);
    if (typeof e.reason !== 'string' || !e.reason.trim()) throw new UsageError(`--baseline ${file}: entry ${e.id} has no "reason" (say why the failure is accepted)`);
    if (e.link !== undefined && typeof e.link !== 'string') throw new UsageError(`--baseline ${file}: entry ${e.id}: "link" must be a string`);
    if (seen.has(e.id)) throw new UsageError(`--baseline ${file}: entry ${e.id} is listed twice`);
    seen.add(e.id);
    return e as BaselineEntry;
  });
  return { schemaVersion: 1, ...(typeof data?.description === 'string' ? { description: data.description } : {}), failures };
}

export function loadBaseline(file: string): BaselineFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --baseline ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseBaseline(text, file);
}

export function applyBaseline(results: Pick<Results, 'behaviours'> & Partial<Pick<Results, 'deviations' | 'target'>>, baseline: BaselineFile, file: string): BaselineOutcome {
  const entries = new Map(baseline.failures.map((e) => [e.id, e]));
  const status = new Map(results.behaviours.map((b) => [b.id, b.status]));
  const pick = (e: BaselineEntry) => ({ id: e.id, reason: e.reason, ...(e.link ? { link: e.link } : {}) });
  const outcome: BaselineOutcome = { file, entries: baseline.failures.length, known: [], newFailures: [], nowPassing: [], notRun: [] };
  /** Statuses of the parts of each split ID that the baseline names (old ID → statuses). */
  const parts = new Map<string, Status[]>();
  for (const b of results.behaviours) {
    const former = formerBehaviourId(b.id);
    if (former && entries.has(former)) parts.set(former, [...(parts.get(former) ?? []), b.status]);
  }
  for (const b of results.behaviours) {
    if (b.status !== 'failed') continue;
    const e = entries.get(b.id);
    const former = e ? undefined : entries.get(formerBehaviourId(b.id) ?? '');
    // A part of a split behaviour is known under the old entry's reason (reported under its own ID, which gates).
    if (e) outcome.known.push(pick(e));
    else if (former) outcome.known.push({ ...pick(former), id: b.id });
    else outcome.newFailures.push(b.id);
  }
  for (const e of baseline.failures) {
    const own = status.get(e.id);
    const split = parts.get(e.id);
    // A split entry: passing when every part passed; not run when none failed and some did not run.
    const s: Status | undefined =
      own ?? (split ? (split.includes('failed') ? 'failed' : split.every((x) => x === 'passed') ? 'passed' : split.includes('error') ? 'error' : 'skipped') : undefined);
    if (s === 'passed') outcome.nowPassing.push(pick(e));
    else if (s === undefined) outcome.notRun.push({ id: e.id, status: 'not run' });
    else if (s === 'skipped' || s === 'error') outcome.notRun.push({ id: e.id, status: s });
  }
  // The new failures by deviation: one broken thing with twenty new failures is one line to triage.
  const fresh = new Set(outcome.newFailures);
  outcome.newDeviations = deviationsOf(results)
    .map((d) => ({ key: d.key, item: d.item, level: d.level, newFailures: d.behaviours.filter((id) => fresh.has(id)) }))
    .filter((d) => d.newFailures.length > 0);
  return outcome;
}

/** A baseline listing the run's failures; reasons and links of `previous` entries are kept. */
export function baselineFromResults(results: Pick<Results, 'behaviours' | 'finishedAt' | 'target'> & Partial<Pick<Results, 'deviations'>>, previous?: BaselineFile): BaselineFile {
  const old = new Map((previous?.failures ?? []).map((e) => [e.id, e]));
  const day = results.finishedAt.slice(0, 10);
  const e = results.target.embedded as { kind?: string; version?: string } | null;
  const target = e ? `the embedded ${e.kind === 'wordpress' ? 'WordPress' : e.kind}${e.version ? ` ${e.version}` : ''}` : results.target.url;
  const failures = results.behaviours
    .filter((b) => b.status === 'failed')
    .map((b): BaselineEntry => {
      // A part of a split behaviour keeps the reason and link of the old entry.
      const e = old.get(b.id) ?? old.get(formerBehaviourId(b.id) ?? '');
      return {
        id: b.id,
        reason: e?.reason ?? b.reason ?? 'failed',
        ...(e?.link ? { link: e.link } : {}),
        level: b.level,
        ...(b.reason && b.reason !== (e?.reason ?? b.reason) ? { message: b.reason } : {}),
        recorded: e?.recorded ?? day,
      };
    });
  const reasonOf = new Map(failures.map((f) => [f.id, f.reason]));
  const deviations = deviationsOf(results).map((d) => ({ key: d.key, item: d.item, level: d.level, reason: reasonOf.get(d.behaviours[0]!) ?? d.message, behaviours: d.behaviours }));
  return {
    schemaVersion: 1,
    description:
      previous?.description ??
      `Known failures of ${target} recorded by cms-conformance on ${day}. Edit each "reason" to say why the failure is accepted; add a "link" to its ticket.`,
    ...(deviations.length ? { deviations } : {}),
    failures,
  };
}

export function writeBaselineFile(file: string, results: Pick<Results, 'behaviours' | 'finishedAt' | 'target'> & Partial<Pick<Results, 'deviations'>>): BaselineFile {
  let previous: BaselineFile | undefined;
  if (existsSync(file)) {
    try {
      previous = parseBaseline(readFileSync(file, 'utf8'), file);
    } catch {
      previous = undefined; // an unreadable old file is replaced
    }
  }
  const data = baselineFromResults(results, previous);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return data;
}
