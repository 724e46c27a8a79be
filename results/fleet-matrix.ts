/**
 * The fleet report: many sites' results as one sites × behaviours matrix, led by the deviations
 * by documented item the sites share ("412 sites: interval (arg of GET /spamfilter/v1/stats)",
 * results.json `deviations`), with the failing behaviours the sites share ("412 sites fail
 * spamfilter.stats.path") and the sites grouped by the set of
 * deviations they have. Built from results alone (results/results.ts), one site at a time, so
 * that merging thousands of sites keeps only a compact matrix in memory; `cms-conformance merge`
 * (src/fleet/merge.ts) finds the shard outputs, merges the parts of each site and writes what
 * this builds (fleet.json, and fleet.html / fleet.md rendered from it by reporters/fleet-html.ts and
 * reporters/fleet-markdown.ts).
 */
import {
  LEVELS,
  countsOf,
  emptyCounts,
  exitCodeFor,
  gatingLevels,
  type BaselineFile,
  type Counts,
  type FailOn,
  type Level,
  type Results,
  type ShardInfo,
  type Status,
} from './results.ts';
import { deviationsOf } from './deviations.ts';

// ---------------------------------------------------------------- the fleet report

/** One character per status in the matrix; '.' = the behaviour was not run on that site. */
export const STATUS_CODE: Record<Status, string> = { passed: 'p', failed: 'f', skipped: 's', error: 'e' };
export const CODE_STATUS: Record<string, Status> = { p: 'passed', f: 'failed', s: 'skipped', e: 'error' };

export interface FleetSiteRow {
  id: string;
  url: string;
  /** 'run': results exist; 'not-run': the site could not be run (see error). */
  state: 'run' | 'not-run';
  error?: string;
  /** The site's own report.html and results.json, relative to the fleet report. */
  report?: string;
  results?: string;
  /** The shards its results came from ("site 2/4", "behaviour 1/2"). */
  shards: string[];
  seed?: number;
  tool?: string;
  profile?: string;
  durationMs?: number;
  counts: Counts;
  /** Failures of a gating level that no baseline lists: they make the exit code 1. */
  gating: string[];
  /** Failures a baseline lists. */
  known: number;
  exitCode: number;
}

export interface FleetBehaviour {
  id: string;
  level: Level;
  namespace: string;
  title: string;
  spec: string;
  /** Statuses over the sites. */
  counts: Counts;
}

export interface Deviation {
  /** Index into behaviours. */
  behaviour: number;
  failed: number;
  error: number;
  /** Sites (indexes) where it failed, then where it could not be checked. */
  failedSites: number[];
  errorSites: number[];
  /** The most common reasons: index into reasons, and on how many sites. */
  reasons: { reason: number; sites: number }[];
}

/** A deviation by documented item (results.json `deviations`) and the sites that have it. */
export interface FleetItemDeviation {
  key: string;
  item: string;
  level: Level;
  /** Sites (indexes into sites) that have it. */
  sites: number[];
  /** Its failing behaviours, over every site that has it. */
  behaviours: string[];
  /** A representative message (of the first site that has it). */
  message: string;
}

export interface FleetGroup {
  /** Behaviour indexes that fail on every site of the group, and on no other site of it: the group's signature. */
  failed: number[];
  sites: number[];
  /** Whether any of the failures gates (a gating level, not in the site's baseline) on some site of the group. */
  gating: boolean;
}

export interface FleetInput {
  /** The input's path relative to the fleet report. */
  path: string;
  kind: 'shard' | 'run';
  shard?: ShardInfo;
  seed: number;
  tool: string;
  sites: number;
  /** The sum of the counts of its results. */
  counts: Counts;
}

export interface FleetReport {
  schemaVersion: 1;
  kind: 'cms-conformance-fleet';
  generatedAt: string;
  tool: { name: string; version: string };
  failOn: FailOn;
  /** --baseline of the merge, applied to every site on top of each site's own. */
  baseline?: string;
  seeds: number[];
  toolVersions: string[];
  inputs: FleetInput[];
  /** Counts over every site and behaviour: the sum of the sites' counts (so of the shards'). */
  totals: Counts & { byLevel: Record<Level, Counts>; byNamespace: Record<string, Counts> };
  sites: FleetSiteRow[];
  behaviours: FleetBehaviour[];
  /** One string per site (same order as sites), one character per behaviour (same order as behaviours): p f s e, or . when not run. */
  matrix: string[];
  /** Reasons of failures and errors, each once; failures: [site, behaviour, reason] for every failed or errored cell. */
  reasons: string[];
  failures: [number, number, number][];
  deviations: Deviation[];
  /** The sites' deviations by documented item (one broken thing is one line however many behaviours it fails), the most sites first; absent in fleet reports of earlier versions. */
  itemDeviations?: FleetItemDeviation[];
  groups: FleetGroup[];
  /** Sites without any failure. */
  clean: number;
  warnings: string[];
  /** Sites with a gating failure not in their baseline, with a harness error, with target trouble, not run. */
  verdict: { gatingSites: number; harnessSites: number; troubleSites: number; notRun: number; incomplete: boolean };
  exitCode: number;
}

const REASON_MAX = 300;
const capReason = (s: string) => (s.length <= REASON_MAX ? s : `${s.slice(0, REASON_MAX)}…`);

export interface SiteInput {
  id: string;
  url: string;
  results?: Results;
  report?: string;
  resultsLink?: string;
  shards: string[];
  notRun?: { error: string; exitCode: number };
}

/**
 * Builds the fleet report one site at a time: each site's results are reduced to a row of the
 * matrix and its failure reasons, then let go.
 */
export class FleetBuilder {
  private readonly behaviourIndex = new Map<string, number>();
  private readonly behaviours: { id: string; level: Level; namespace: string; title: string; spec: string }[] = [];
  private readonly rows: { row: FleetSiteRow; codes: string[] }[] = [];
  private readonly reasonIndex = new Map<string, number>();
  private readonly reasons: string[] = [];
  /** [site, behaviour (insertion index), reason] */
  private readonly failures: [number, number, number][] = [];
  /** Per site, the IDs of its failed behaviours (for the groups). */
  private readonly failedSets: Set<string>[] = [];
  /** Deviations by key: the sites (insertion indexes) and behaviours. */
  private readonly items = new Map<string, { key: string; item: string; level: Level; sites: number[]; behaviours: Set<string>; message: string }>();
  private readonly seeds = new Set<number>();
  private readonly versions = new Set<string>();
  private readonly known: Set<string>;

  constructor(
    private readonly opts: { failOn: FailOn; baseline?: { file: string; data: BaselineFile }; tool: { name: string; version: string } },
  ) {
    this.known = new Set(opts.baseline?.data.failures.map((f) => f.id) ?? []);
  }

  private reason(s: string): number {
    const r = capReason(s);
    let i = this.reasonIndex.get(r);
    if (i === undefined) this.reasonIndex.set(r, (i = this.reasons.push(r) - 1));
    return i;
  }

  addSite(s: SiteInput): void {
    const siteIdx = this.rows.length;
    if (!s.results) {
      this.rows.push({
        row: { id: s.id, url: s.url, state: 'not-run', error: s.notRun?.error ?? 'no results', shards: s.shards, counts: emptyCounts(), gating: [], known: 0, exitCode: s.notRun?.exitCode ?? 3 },
        codes: [],
      });
      this.failedSets.push(new Set());
      return;
    }
    const r = s.results;
    this.seeds.add(r.seed);
    this.versions.add(r.tool.version);
    const codes: string[] = [];
    const levels = new Set(gatingLevels(this.opts.failOn));
    const known = new Set([...(r.baseline?.known ?? []).map((k) => k.id), ...this.known]);
    const gating: string[] = [];
    for (const b of r.behaviours) {
      let i = this.behaviourIndex.get(b.id);
      if (i === undefined) {
        this.behaviourIndex.set(b.id, (i = this.behaviours.length));
        this.behaviours.push({ id: b.id, level: b.level, namespace: b.namespace, title: b.title, spec: b.spec });
      }
      codes[i] = STATUS_CODE[b.status] ?? 'e';
      if (b.status === 'failed' || b.status === 'error') this.failures.push([siteIdx, i, this.reason(b.reason ?? b.status)]);
      if (b.status === 'failed' && levels.has(b.level) && !known.has(b.id)) gating.push(b.id);
    }
    const knownCount = r.behaviours.filter((b) => b.status === 'failed' && known.has(b.id)).length;
    const baselineForExit = { ...(r.baseline ?? { file: '', entries: 0, newFailures: [], nowPassing: [], notRun: [] }), known: [...known].map((id) => ({ id, reason: '' })) };
    this.rows.push({
      row: {
        id: s.id,
        url: s.url,
        state: 'run',
        ...(s.report ? { report: s.report } : {}),
        ...(s.resultsLink ? { results: s.resultsLink } : {}),
        shards: s.shards,
        seed: r.seed,
        tool: r.tool.version,
        profile: r.target.profile,
        durationMs: r.durationMs,
        counts: countsOf({ passed: r.summary.passed, failed: r.summary.failed, skipped: r.summary.skipped, error: r.summary.error, total: r.summary.total }),
        gating,
        known: knownCount,
        exitCode: exitCodeFor({ behaviours: r.behaviours, errors: r.errors, baseline: baselineForExit }, this.opts.failOn),
      },
      codes,
    });
    this.failedSets.push(new Set(r.behaviours.filter((b) => b.status === 'failed').map((b) => b.id)));
    for (const d of deviationsOf(r)) {
      let x = this.items.get(d.key);
      if (!x) this.items.set(d.key, (x = { key: d.key, item: d.item, level: d.level, sites: [], behaviours: new Set(), message: capReason(d.message) }));
      x.sites.push(siteIdx);
      for (const id of d.behaviours) x.behaviours.add(id);
      if (LEVELS.indexOf(d.level) < LEVELS.indexOf(x.level)) x.level = d.level;
    }
  }

  build(inputs: FleetInput[], warnings: string[], incomplete: boolean): FleetReport {
    // Behaviours in ID order; the matrix and failures follow that order.
    const order = this.behaviours.map((b, i) => ({ b, i })).sort((x, y) => x.b.id.localeCompare(y.b.id));
    const remap = new Array<number>(this.behaviours.length);
    order.forEach(({ i }, pos) => (remap[i] = pos));
    // Sites: the ones that need attention first (gating failures, then trouble), then by ID.
    const rank = (r: FleetSiteRow) => (r.gating.length ? 0 : r.state === 'not-run' || r.exitCode >= 2 ? 1 : r.counts.failed ? 2 : 3);
    const siteOrder = this.rows.map((x, i) => ({ x, i })).sort((a, b) => rank(a.x.row) - rank(b.x.row) || b.x.row.gating.length - a.x.row.gating.length || a.x.row.id.localeCompare(b.x.row.id, 'en', { numeric: true }));
    const siteRemap = new Array<number>(this.rows.length);
    siteOrder.forEach(({ i }, pos) => (siteRemap[i] = pos));

    const behaviours: FleetBehaviour[] = order.map(({ b }) => ({ ...b, counts: emptyCounts() }));
    const matrix = siteOrder.map(({ x }) => {
      const chars = new Array<string>(order.length);
      for (let pos = 0; pos < order.length; pos++) {
        const c = x.codes[order[pos]!.i] ?? '.';
        chars[pos] = c;
        const st = CODE_STATUS[c];
        if (st) {
          const bc = behaviours[pos]!.counts;
          bc[st]++;
          bc.total++;
        }
      }
      return chars.join('');
    });
    const failures = this.failures.map(([s, b, r]) => [siteRemap[s]!, remap[b]!, r] as [number, number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);

    // Totals: the sum of the sites' counts.
    const totals = { ...emptyCounts(), byLevel: Object.fromEntries(LEVELS.map((l) => [l, emptyCounts()])) as Record<Level, Counts>, byNamespace: {} as Record<string, Counts> };
    matrix.forEach((row) => {
      for (let pos = 0; pos < row.length; pos++) {
        const st = CODE_STATUS[row[pos]!];
        if (!st) continue;
        const b = behaviours[pos]!;
        for (const c of [totals, totals.byLevel[b.level], (totals.byNamespace[b.namespace || '(site)'] ??= emptyCounts())]) {
          c[st]++;
          c.total++;
        }
      }
    });

    // Deviations: behaviours that fail (or could not be checked) somewhere, by how many sites.
    const dev = new Map<number, Deviation & { reasonCount: Map<number, number> }>();
    for (const [s, b, r] of failures) {
      let d = dev.get(b);
      if (!d) dev.set(b, (d = { behaviour: b, failed: 0, error: 0, failedSites: [], errorSites: [], reasons: [], reasonCount: new Map() }));
      if (matrix[s]![b] === 'f') d.failed++, d.failedSites.push(s);
      else d.error++, d.errorSites.push(s);
      d.reasonCount.set(r, (d.reasonCount.get(r) ?? 0) + 1);
    }
    const levelRank = (l: Level) => LEVELS.indexOf(l);
    const deviations = [...dev.values()]
      .map(({ reasonCount, ...d }) => ({
        ...d,
        reasons: [...reasonCount.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([reason, sites]) => ({ reason, sites })),
      }))
      .sort((a, b) => b.failed - a.failed || b.error - a.error || levelRank(behaviours[a.behaviour]!.level) - levelRank(behaviours[b.behaviour]!.level) || behaviours[a.behaviour]!.id.localeCompare(behaviours[b.behaviour]!.id));

    // Groups: sites with the same set of failed behaviours.
    const bySig = new Map<string, FleetGroup>();
    let clean = 0;
    siteOrder.forEach(({ i }, pos) => {
      const row = this.rows[i]!.row;
      if (row.state !== 'run') return;
      const failed = [...this.failedSets[i]!].map((id) => remap[this.behaviourIndex.get(id)!]!).sort((a, b) => a - b);
      if (!failed.length) return void clean++;
      const sig = failed.join(',');
      let g = bySig.get(sig);
      if (!g) bySig.set(sig, (g = { failed, sites: [], gating: false }));
      g.sites.push(pos);
      if (row.gating.length) g.gating = true;
    });
    const groups = [...bySig.values()].sort((a, b) => b.sites.length - a.sites.length || a.failed.length - b.failed.length);

    const itemDeviations: FleetItemDeviation[] = [...this.items.values()]
      .map((x) => ({ key: x.key, item: x.item, level: x.level, sites: x.sites.map((i) => siteRemap[i]!).sort((a, b) => a - b), behaviours: [...x.behaviours].sort(), message: x.message }))
      .sort((a, b) => b.sites.length - a.sites.length || levelRank(a.level) - levelRank(b.level) || a.key.localeCompare(b.key));
    const sites = siteOrder.map(({ x }) => x.row);
    const verdict = {
      gatingSites: sites.filter((s) => s.gating.length).length,
      harnessSites: sites.filter((s) => s.exitCode === 4).length,
      troubleSites: sites.filter((s) => s.state === 'run' && s.exitCode === 3).length,
      notRun: sites.filter((s) => s.state === 'not-run').length,
      incomplete,
    };
    const exitCode = verdict.gatingSites ? 1 : verdict.harnessSites ? 4 : verdict.troubleSites || verdict.notRun || incomplete ? 3 : 0;
    return {
      schemaVersion: 1,
      kind: 'cms-conformance-fleet',
      generatedAt: new Date().toISOString(),
      tool: this.opts.tool,
      failOn: this.opts.failOn,
      ...(this.opts.baseline ? { baseline: this.opts.baseline.file } : {}),
      seeds: [...this.seeds].sort((a, b) => a - b),
      toolVersions: [...this.versions].sort(),
      inputs,
      totals,
      sites,
      behaviours,
      matrix,
      reasons: this.reasons,
      failures,
      deviations,
      itemDeviations,
      groups,
      clean,
      warnings,
      verdict,
      exitCode,
    };
  }
}
