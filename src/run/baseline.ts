/**
 * Baselines: known failures a release accepts. A run given `--baseline FILE` fails only on
 * failures the file does not list, and reports the entries that now pass (so the file shrinks).
 * A run against the embedded WordPress without `--baseline` takes the shipped known deviations
 * of its release (targets/wordpress/expectations/) as its baseline, unless `--no-baseline`.
 * `--write-baseline FILE` records the run's failures (keeping the reasons and links the file had).
 *
 * File format (JSON), as written:
 *   { "schemaVersion": 1,
 *     "deviations": [ { "key": "arg:cms.posts.collection.list.search_semantics",
 *                       "item": "search_semantics (arg of GET /cms/v2/posts)", "level": "MUST",
 *                       "reason": "search_semantics arrives in a later release",   <- the one reason to edit
 *                       "link": "https://tracker.example/123",
 *                       "behaviours": ["cms.posts.query.search_semantics.values", ...] } ],
 *     "failures": [ { "id": "cms.posts.query.search_semantics.values", "level": "MUST",
 *                     "deviation": "arg:cms.posts.collection.list.search_semantics", "recorded": "2026-12-07" } ] }
 * A failure takes the reason of the deviation that lists it unless it gives its own `reason`;
 * files of earlier versions (a `reason` on every failure, or a bare list of failures) read as
 * before, and a file of `deviations` alone lists their behaviours as its failures. Gating reads
 * the failures, by behaviour ID.
 *
 * Deprecation path of split behaviours: an entry naming a behaviour ID that was split into
 * several (`disc.args.<endpoint>` into `disc.args.<endpoint>.<arg>`, `disc.index.routes.entries`
 * into one per route; src/sdk/discovery.ts `splitBehaviourIds`) covers each of its parts: their
 * failures are known, and the entry now passes only when every part passes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BaselineDeviation, BaselineEntry, BaselineFile, BaselineFileOnDisk, BaselineOutcome, Results, Status } from '../../results/results.ts';
import { deviationsOf } from '../../results/deviations.ts';
import { formerBehaviourId } from '../sdk/discovery.ts';
import { UsageError } from '../core/errors.ts';
import { stableReason } from './stable-reason.ts';

export type { BaselineEntry, BaselineFile, BaselineOutcome };

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function parseBaseline(text: string, file: string): BaselineFile {
  let data: any;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--baseline ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const deviations: unknown = Array.isArray(data) ? undefined : data?.deviations;
  if (deviations !== undefined && !Array.isArray(deviations)) throw new UsageError(`--baseline ${file}: "deviations" must be a list`);
  const list = Array.isArray(data) ? data : (data?.failures ?? (deviations ? [] : undefined));
  if (!Array.isArray(list)) throw new UsageError(`--baseline ${file}: expected {"deviations": [{"key", "reason", "behaviours": [...]}], "failures": [{"id": ..., "reason"?: ...}]}`);
  const devs = ((deviations as any[]) ?? []).map((d: any, i: number): BaselineDeviation => {
    if (!isText(d?.key)) throw new UsageError(`--baseline ${file}: deviation ${i + 1} has no "key"`);
    if (!Array.isArray(d.behaviours) || d.behaviours.some((b: unknown) => !isText(b))) throw new UsageError(`--baseline ${file}: deviation ${d.key}: "behaviours" must be a list of behaviour IDs`);
    if (d.reason !== undefined && typeof d.reason !== 'string') throw new UsageError(`--baseline ${file}: deviation ${d.key}: "reason" must be a string`);
    return d as BaselineDeviation;
  });
  const seen = new Set<string>();
  for (const [i, e] of list.entries()) {
    if (!isText(e?.id)) throw new UsageError(`--baseline ${file}: entry ${i + 1} has no "id"`);
    if (e.link !== undefined && typeof e.link !== 'string') throw new UsageError(`--baseline ${file}: entry ${e.id}: "link" must be a string`);
    if (seen.has(e.id)) throw new UsageError(`--baseline ${file}: entry ${e.id} is listed twice`);
    seen.add(e.id);
  }
  const resolved = resolveBaseline({ schemaVersion: 1, ...(devs.length ? { deviations: devs } : {}), failures: list }, file);
  return { ...(typeof data?.description === 'string' ? { description: data.description } : {}), ...resolved };
}

/**
 * Every failure of a baseline with its reason: its own, else that of the deviation that lists it
 * (by its `deviation` key or in the deviation's `behaviours`); a behaviour a deviation lists that
 * has no entry of its own is a failure of the baseline too. A failure without either is a usage error.
 */
export function resolveBaseline(baseline: BaselineFile | BaselineFileOnDisk, file = 'baseline'): BaselineFile {
  const devs = baseline.deviations ?? [];
  const byKey = new Map(devs.map((d) => [d.key, d]));
  const holder = new Map<string, BaselineDeviation>();
  for (const d of devs) for (const id of d.behaviours) if (!holder.has(id)) holder.set(id, d);
  const failures: BaselineEntry[] = baseline.failures.map((e) => {
    const d = (e.deviation ? byKey.get(e.deviation) : undefined) ?? holder.get(e.id);
    const reason = isText(e.reason) ? e.reason : d?.reason;
    if (!isText(reason)) throw new UsageError(`--baseline ${file}: entry ${e.id} has no "reason" (say why the failure is accepted, in the entry or in the deviation that lists it)`);
    const link = e.link ?? d?.link;
    return { ...e, reason, ...(link ? { link } : {}) };
  });
  const listed = new Set(failures.map((f) => f.id));
  for (const d of devs) {
    for (const id of d.behaviours) {
      if (listed.has(id)) continue;
      if (!isText(d.reason)) throw new UsageError(`--baseline ${file}: deviation ${d.key} has no "reason" (say why it is accepted)`);
      listed.add(id);
      failures.push({ id, reason: d.reason, deviation: d.key, ...(d.level ? { level: d.level } : {}), ...(d.link ? { link: d.link } : {}) });
    }
  }
  return { ...baseline, failures } as BaselineFile;
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

export function applyBaseline(
  results: Pick<Results, 'behaviours'> & Partial<Pick<Results, 'deviations' | 'target'>>,
  given: BaselineFile | BaselineFileOnDisk,
  file: string,
  from: { source?: BaselineOutcome['source']; release?: string } = {},
): BaselineOutcome {
  const baseline = resolveBaseline(given, file);
  const entries = new Map(baseline.failures.map((e) => [e.id, e]));
  const status = new Map(results.behaviours.map((b) => [b.id, b.status]));
  const pick = (e: BaselineEntry) => ({ id: e.id, reason: e.reason, ...(e.link ? { link: e.link } : {}) });
  const outcome: BaselineOutcome = { file, entries: baseline.failures.length, known: [], newFailures: [], nowPassing: [], notRun: [], ...(from.source ? { source: from.source } : {}), ...(from.release ? { release: from.release } : {}) };
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
  const runDeviations = deviationsOf(results);
  outcome.newDeviations = runDeviations
    .map((d) => ({ key: d.key, item: d.item, level: d.level, newFailures: d.behaviours.filter((id) => fresh.has(id)) }))
    .filter((d) => d.newFailures.length > 0);
  // The run's deviations the baseline accepts whole, with its reason (the deviation's own, else its first failure's).
  const reasonOf = new Map(outcome.known.map((k) => [k.id, k]));
  const devReason = new Map((baseline.deviations ?? []).map((d) => [d.key, d]));
  outcome.knownDeviations = runDeviations
    .filter((d) => d.behaviours.every((id) => !fresh.has(id)))
    .map((d) => {
      const own = devReason.get(d.key);
      const first = reasonOf.get(d.behaviours.find((id) => reasonOf.has(id)) ?? '');
      const reason = (isText(own?.reason) ? own.reason : first?.reason) ?? '';
      const link = own?.link ?? first?.link;
      return { key: d.key, item: d.item, level: d.level, reason, ...(link ? { link } : {}), behaviours: d.behaviours };
    });
  return outcome;
}

/**
 * A baseline listing the run's failures, grouped in its deviations: each deviation carries the one
 * reason to edit (kept from `previous`: its deviation's reason, else the reason of a failure it
 * holds; else the failure message without what differs from run to run: ports, item IDs, tokens),
 * and each failure names its deviation (a reason of its own only where `previous` gave it one that
 * differs). Links and recording dates of `previous` entries are kept.
 */
export function baselineFromResults(results: Pick<Results, 'behaviours' | 'finishedAt' | 'target'> & Partial<Pick<Results, 'deviations'>>, given?: BaselineFile | BaselineFileOnDisk): BaselineFileOnDisk {
  const previous = given ? resolveBaseline(given) : undefined;
  const old = new Map((previous?.failures ?? []).map((e) => [e.id, e]));
  const oldDeviation = new Map((previous?.deviations ?? []).map((d) => [d.key, d]));
  /** A failure's entry of `previous` (a part of a split behaviour: the old entry's). */
  const entryOf = (id: string) => old.get(id) ?? old.get(formerBehaviourId(id) ?? '');
  const day = results.finishedAt.slice(0, 10);
  const e = results.target.embedded as { kind?: string; version?: string } | null;
  const target = e ? `the embedded ${e.kind === 'wordpress' ? 'WordPress' : e.kind}${e.version ? ` ${e.version}` : ''}` : results.target.url;
  const failed = results.behaviours.filter((b) => b.status === 'failed');
  const message = new Map(failed.map((b) => [b.id, b.reason]));
  const deviations: BaselineDeviation[] = deviationsOf(results).map((d) => {
    const was = oldDeviation.get(d.key);
    const heldReason = d.behaviours.map(entryOf).find((x) => x)?.reason;
    const link = was?.link ?? d.behaviours.map(entryOf).find((x) => x?.link)?.link;
    const reason = was?.reason ?? heldReason ?? stableReason(message.get(d.behaviours[0]!) ?? d.message);
    return { key: d.key, item: d.item, level: d.level, reason, ...(link ? { link } : {}), behaviours: d.behaviours };
  });
  const holder = new Map(deviations.flatMap((d) => d.behaviours.map((id) => [id, d] as const)));
  const failures = failed.map((b) => {
    const prev = entryOf(b.id);
    const d = holder.get(b.id);
    const own = prev?.reason && prev.reason !== d?.reason ? prev.reason : d ? undefined : stableReason(b.reason ?? 'failed');
    return {
      id: b.id,
      level: b.level,
      ...(d ? { deviation: d.key } : {}),
      ...(own ? { reason: own } : {}),
      ...(prev?.link && prev.link !== d?.link ? { link: prev.link } : {}),
      recorded: prev?.recorded ?? day,
    };
  });
  return {
    schemaVersion: 1,
    description:
      previous?.description ??
      `Known failures of ${target} recorded by cms-conformance on ${day}, grouped by the documented item that broke. Edit the "reason" of each deviation to say why it is accepted (its failures take it); add a "link" to its ticket.`,
    ...(deviations.length ? { deviations } : {}),
    failures,
  };
}

export function writeBaselineFile(file: string, results: Pick<Results, 'behaviours' | 'finishedAt' | 'target'> & Partial<Pick<Results, 'deviations'>>): BaselineFileOnDisk {
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
