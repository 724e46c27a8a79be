/**
 * `cms-conformance merge DIR...`: any number of shard outputs (folders with shard.json, written by
 * `run --targets`) and single runs (folders with results.json, e.g. behaviour shards of one big
 * site: `run --target URL --shard i/n`) into one fleet report (results/fleet-matrix.ts): fleet.json,
 * fleet.html and fleet.md.
 *
 * The parts of one site (behaviour shards, or the same site found twice) are merged into that
 * site's results (every behaviour at the worst of its statuses) and written with its own report
 * under `sites/<id>/` of the fleet report; a site that came whole links to its report where it is.
 * Inputs are read one site at a time, so memory stays at the matrix, whatever the number of sites.
 */
import { groupDeviations } from '../../results/deviations.ts';
import { readinessOf } from '../../results/clients.ts';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { applyBaseline, loadBaseline } from '../run/baseline.ts';
import { UsageError } from '../core/errors.ts';
import { SHARD_FILE, SITES_DIR, siteIdFor, type ShardFile } from './fleet.ts';
import { shardLabel } from '../core/shard.ts';
import { TOOL } from '../core/paths.ts';
import { computeCoverage } from '../../results/coverage.ts';
import { countsOf, emptyCounts, summarize, worstStatus, type BaselineFile, type BehaviourResult, type Counts, type FailOn, type ReportFormat, type Results, type ShardInfo } from '../../results/results.ts';
import { FleetBuilder, type FleetInput, type FleetReport } from '../../results/fleet-matrix.ts';
import { renderFleetHtml } from '../../reporters/fleet-html.ts';
import { renderFleetMarkdown } from '../../reporters/fleet-markdown.ts';
import { REPORT_FILES, writeReports } from '../../reporters/index.ts';
import { reconcileDependencies } from '../../results/dependencies.ts';
import { EXIT } from '../../results/verdict.ts';

export const FLEET_FILES = { json: 'fleet.json', html: 'fleet.html', md: 'fleet.md' } as const;

/** One site's part in one input. */
interface Part {
  site: string;
  url: string;
  /** results.json of the part (absent when the site could not be run). */
  resultsPath?: string;
  shard?: ShardInfo;
  notRun?: { error: string; exitCode: number };
}

interface Found {
  inputs: FleetInput[];
  parts: Part[];
  shardFiles: { path: string; doc: ShardFile }[];
  warnings: string[];
}

const readJson = (path: string): any => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
};

const isResults = (r: any): r is Results => r?.schemaVersion === 1 && Array.isArray(r?.behaviours) && typeof r?.target?.url === 'string';
const posix = (p: string) => p.split(sep).join('/');
const sumCounts = (list: readonly (Partial<Counts> | undefined)[]): Counts =>
  list.reduce<Counts>((acc, c) => {
    const x = countsOf(c);
    return { passed: acc.passed + x.passed, failed: acc.failed + x.failed, skipped: acc.skipped + x.skipped, error: acc.error + x.error, total: acc.total + x.total };
  }, emptyCounts());

/** Walk the given paths for shard outputs (shard.json) and single runs (results.json); a fleet report's own folder (fleet.json) is not an input. */
export function findOutputs(paths: readonly string[], outDir: string): Found {
  const found: Found = { inputs: [], parts: [], shardFiles: [], warnings: [] };
  const seen = new Set<string>();
  const visit = (dir: string, depth: number) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    if (existsSync(join(dir, FLEET_FILES.json))) return;
    if (existsSync(join(dir, SHARD_FILE))) return addShard(join(dir, SHARD_FILE));
    if (existsSync(join(dir, REPORT_FILES.json))) return addRun(join(dir, REPORT_FILES.json));
    if (depth >= 6) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)))
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') visit(join(dir, e.name), depth + 1);
  };
  const addShard = (path: string) => {
    const doc = readJson(path) as ShardFile;
    if (doc?.kind !== 'cms-conformance-shard' || !Array.isArray(doc.sites)) throw new UsageError(`${path} is not a cms-conformance shard.json`);
    found.shardFiles.push({ path, doc });
    const dir = dirname(path);
    for (const s of doc.sites) {
      const resultsPath = s.dir ? join(dir, s.dir, REPORT_FILES.json) : undefined;
      const has = resultsPath && existsSync(resultsPath);
      found.parts.push({
        site: s.id,
        url: s.url,
        ...(has ? { resultsPath } : {}),
        shard: doc.shard,
        ...(!has ? { notRun: { error: s.state === 'pending' ? `shard ${shardLabel(doc.shard)} stopped before this site ran` : (s.error ?? 'no results'), exitCode: s.exitCode ?? 3 } } : {}),
      });
    }
    found.inputs.push({
      path: posix(relative(outDir, dirname(path)) || '.'),
      kind: 'shard',
      shard: doc.shard,
      seed: doc.seed,
      tool: doc.tool?.version ?? '?',
      sites: doc.sites.length,
      counts: sumCounts(doc.sites.map((s) => s.summary)),
    });
  };
  const addRun = (path: string) => {
    const r = readJson(path);
    if (!isResults(r)) throw new UsageError(`${path} is not a cms-conformance results.json`);
    found.parts.push({ site: r.site ?? siteIdFor(r.target.url), url: r.target.url, resultsPath: path, ...(r.shard ? { shard: r.shard } : {}) });
    found.inputs.push({
      path: posix(relative(outDir, dirname(path)) || '.'),
      kind: 'run',
      ...(r.shard ? { shard: r.shard } : {}),
      seed: r.seed,
      tool: r.tool.version,
      sites: 1,
      counts: countsOf(r.summary),
    });
  };
  for (const p of paths) {
    const abs = resolve(p);
    if (!existsSync(abs)) throw new UsageError(`merge: ${p} does not exist`);
    if (statSync(abs).isDirectory()) visit(abs, 0);
    else if (basename(abs) === SHARD_FILE) addShard(abs);
    else addRun(abs);
  }
  if (!found.parts.length) throw new UsageError(`merge: no shard output (${SHARD_FILE}) or results.json under ${paths.join(', ')}`);
  return found;
}

/**
 * One site's results from several parts (behaviour shards of one run, or the same site found
 * twice): the union of the behaviours, each seen more than once at the worst of its statuses;
 * summary, requests and coverage recomputed; the parts' baseline entries applied to the whole.
 */
export function mergeSiteResults(parts: readonly Results[]): Results {
  if (!parts.length) throw new Error('nothing to merge');
  if (parts.length === 1) return parts[0]!;
  const byId = new Map<string, BehaviourResult>();
  for (const p of parts)
    for (const b of p.behaviours) {
      const seen = byId.get(b.id);
      if (!seen || worstStatus(seen.status, b.status) !== seen.status) byId.set(b.id, b);
    }
  // A skip in one shard whose owner passed in another is a failure of its own, as in one run.
  const behaviours = reconcileDependencies([...byId.values()].sort((a, b) => a.id.localeCompare(b.id)));
  const startedAt = parts.map((p) => p.startedAt).sort()[0]!;
  const finishedAt = parts.map((p) => p.finishedAt).sort().at(-1)!;
  const { shard: _shard, baseline: _baseline, ...first } = parts[0]!;
  const merged: Results = {
    ...first,
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
    summary: summarize(behaviours),
    requests: parts.reduce((r, p) => ({ count: r.count + p.requests.count, latencyMs: r.latencyMs + p.requests.latencyMs }), { count: 0, latencyMs: 0 }),
    behaviours,
    errors: parts.flatMap((p) => p.errors),
    deviations: groupDeviations({ behaviours, target: first.target }),
    ...readinessOf(behaviours),
    coverage: computeCoverage(behaviours),
  };
  // Each part's baseline outcome lists every entry of its baseline once (known, now passing or not run).
  const outcomes = parts.map((p) => p.baseline).filter((b) => !!b);
  if (outcomes.length) {
    const entries = new Map<string, { id: string; reason: string; link?: string }>();
    for (const o of outcomes) {
      for (const e of o.notRun) entries.set(e.id, { id: e.id, reason: '(listed)' });
      for (const e of [...o.known, ...o.nowPassing]) entries.set(e.id, e);
    }
    const file: BaselineFile = { schemaVersion: 1, failures: [...entries.values()] };
    merged.baseline = applyBaseline(merged, file, [...new Set(outcomes.map((o) => o.file))].join(' + '));
  }
  return merged;
}

export interface MergeOptions {
  /** Where the fleet report goes. */
  outDir: string;
  failOn: FailOn;
  /** Applied to every site, on top of its own. */
  baseline?: string;
  formats?: readonly ReportFormat[];
}

export interface MergeOutcome {
  report: FleetReport;
  files: string[];
}

export function mergeFleet(paths: readonly string[], opts: MergeOptions): MergeOutcome {
  const outDir = resolve(opts.outDir);
  const found = findOutputs(paths, outDir);
  const warnings = [...found.warnings];
  let incomplete = false;

  // Site shards: every index of each fleet run (same targets file and count) present once.
  const runs = new Map<string, { count: number; indexes: number[]; seeds: Set<number> }>();
  for (const { doc } of found.shardFiles) {
    const key = `${doc.targets?.digest}|${doc.shard.count}`;
    const r = runs.get(key) ?? { count: doc.shard.count, indexes: [], seeds: new Set<number>() };
    r.indexes.push(doc.shard.index);
    r.seeds.add(doc.seed);
    runs.set(key, r);
  }
  if (runs.size > 1) warnings.push(`the shards come from ${runs.size} different fleet runs (targets file or shard count differ)`);
  for (const r of runs.values()) {
    const missing = Array.from({ length: r.count }, (_, i) => i + 1).filter((i) => !r.indexes.includes(i));
    const twice = [...new Set(r.indexes.filter((i, k) => r.indexes.indexOf(i) !== k))];
    if (missing.length) (incomplete = true), warnings.push(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${r.count}`).join(', ')} missing: their sites are not in this report`);
    if (twice.length) warnings.push(`shard${twice.length > 1 ? 's' : ''} ${twice.map((i) => `${i}/${r.count}`).join(', ')} found more than once: each site's behaviours are merged at their worst status`);
    if (r.seeds.size > 1) warnings.push(`the shards of one fleet run used different seeds (${[...r.seeds].join(', ')})`);
  }

  // Parts by site.
  const bySite = new Map<string, Part[]>();
  for (const p of found.parts) bySite.get(p.site)?.push(p) ?? bySite.set(p.site, [p]);

  const baseline = opts.baseline ? { file: opts.baseline, data: loadBaseline(opts.baseline) } : undefined;
  const builder = new FleetBuilder({ failOn: opts.failOn, tool: TOOL, ...(baseline ? { baseline } : {}) });
  mkdirSync(outDir, { recursive: true });
  const link = (path: string) => posix(relative(outDir, path));
  let overlap = 0;
  for (const [site, parts] of [...bySite.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const withResults = parts.filter((p) => p.resultsPath);
    const shards = [...new Set(parts.filter((p) => p.shard).map((p) => `${p.shard!.by} ${shardLabel(p.shard!)}`))];
    if (!withResults.length) {
      const last = parts.at(-1)!;
      builder.addSite({ id: site, url: last.url, shards, notRun: last.notRun ?? { error: 'no results', exitCode: EXIT.unreachable } });
      if (parts.some((p) => p.notRun?.error.includes('stopped before'))) incomplete = true;
      continue;
    }
    const results = withResults.map((p) => readJson(p.resultsPath!) as Results);
    // Behaviour shards of one site: all of them present?
    const bShards = withResults.filter((p) => p.shard?.by === 'behaviour');
    if (bShards.length) {
      const count = bShards[0]!.shard!.count;
      const have = new Set(bShards.map((p) => p.shard!.index));
      const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !have.has(i));
      if (missing.length) (incomplete = true), warnings.push(`site ${site}: behaviour shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing`);
    }
    if (results.length === 1) {
      const dir = dirname(withResults[0]!.resultsPath!);
      const html = join(dir, REPORT_FILES.html);
      builder.addSite({ id: site, url: results[0]!.target.url, results: results[0]!, shards, resultsLink: link(withResults[0]!.resultsPath!), ...(existsSync(html) ? { report: link(html) } : {}) });
      continue;
    }
    const merged = mergeSiteResults(results);
    overlap += results.reduce((n, r) => n + r.behaviours.length, 0) - merged.behaviours.length;
    const siteDir = join(outDir, SITES_DIR, site);
    writeReports(siteDir, merged, ['json', 'html', 'md']);
    builder.addSite({ id: site, url: merged.target.url, results: merged, shards, resultsLink: link(join(siteDir, REPORT_FILES.json)), report: link(join(siteDir, REPORT_FILES.html)) });
  }
  if (overlap) warnings.push(`${overlap} behaviour result(s) were found more than once for the same site: each is counted once, at its worst status`);

  const report = builder.build(found.inputs, warnings, incomplete);
  const formats = opts.formats ?? ['json', 'html', 'md'];
  const files: string[] = [];
  const write = (name: string, text: string) => {
    writeFileSync(join(outDir, name), text);
    files.push(join(outDir, name));
  };
  if (formats.includes('json')) write(FLEET_FILES.json, `${JSON.stringify(report)}\n`);
  if (formats.includes('html')) write(FLEET_FILES.html, renderFleetHtml(report));
  if (formats.includes('md')) write(FLEET_FILES.md, renderFleetMarkdown(report));
  return { report, files };
}
