/**
 * Comparing two runs (two instances, or two versions of one): first the deviations (failing
 * behaviours grouped by the documented item that broke) only on A, only on B and on both; then
 * each behaviour's status on A and on B, grouped as only-A-fails, only-B-fails, both-fail,
 * both-pass (and not compared: skipped or absent on a side, with no failure), plus the
 * differences in what each advertises (discovery).
 * Pure: works from two results objects; the CLI produces them by running or by reading files, and
 * reporters/compare.ts renders what this returns.
 */
import { diffAdvertised, type AdvertisedDiff } from './advertised.ts';
import { deviationsOf } from './deviations.ts';
import { clientReadiness, readinessChanges, type ClientReadiness, type ReadinessChange } from './clients.ts';
import type { FailOnClients } from './verdict.ts';
import { LEVELS, countsOf, gatingLevels, type BehaviourResult, type Counts, type FailOn, type Results, type Status } from './results.ts';

export const GROUPS = ['only-a-fails', 'only-b-fails', 'both-fail', 'both-pass', 'not-compared'] as const;
export type Group = (typeof GROUPS)[number];

export interface SideInfo {
  /** How the side was given: a URL, an embedded target, or a results file. */
  source: string;
  url: string;
  /** e.g. "WordPress 6.1.9 (embedded)" or the URL. */
  label: string;
  profile: string;
  seed: number;
  tool: string;
  startedAt: string;
  summary: Counts;
  errors: number;
  /** Report directory of the side's run (when the comparison ran it). */
  reportDir?: string;
}

export interface ComparedBehaviour {
  id: string;
  title: string;
  level: BehaviourResult['level'];
  namespace: string;
  route?: string;
  a?: Status;
  b?: Status;
  aReason?: string;
  bReason?: string;
  group: Group;
}

/** One deviation (failing behaviours grouped by the documented item that broke) on A, B or both. */
export interface ComparedDeviation {
  key: string;
  item: string;
  level: BehaviourResult['level'];
  /** Its failing behaviours on each side (absent: the side does not deviate there). */
  a?: string[];
  b?: string[];
  /** A representative message (B's when B deviates). */
  message: string;
  group: 'only-a' | 'only-b' | 'both';
}

export interface Comparison {
  schemaVersion: 1;
  a: SideInfo;
  b: SideInfo;
  /** Notes a reader must know (different seeds, missing advertised data ...). */
  warnings: string[];
  counts: Record<Group, number>;
  /** The deviations of both sides by key: only on A, only on B, on both (worst level first). Reports lead with them. */
  deviations: ComparedDeviation[];
  behaviours: ComparedBehaviour[];
  /** Differences in advertised namespaces, routes and args (A → B); null when a side did not record them. */
  advertised: AdvertisedDiff | null;
  /**
   * The real clients whose readiness differs between A and B ("api-fetch: ready → not ready"),
   * regressions first: reports show them with the deviations. Absent when a side ran no CLIENT behaviour.
   */
  clients?: ReadinessChange[];
  /** Each client's readiness on A and on B (absent when a side ran no CLIENT behaviour). */
  readiness?: { a: ClientReadiness[]; b: ClientReadiness[] };
}

export function sideInfo(r: Results, source: string, reportDir?: string): SideInfo {
  const e = r.target.embedded as { kind?: string; version?: string } | null;
  const label = e ? `${e.kind === 'wordpress' ? 'WordPress' : e.kind}${e.version ? ` ${e.version}` : ''} (embedded)` : r.target.url;
  return {
    source,
    url: r.target.url,
    label,
    profile: r.target.profile,
    seed: r.seed,
    tool: `${r.tool.name} ${r.tool.version}`,
    startedAt: r.startedAt,
    summary: countsOf({ passed: r.summary.passed, failed: r.summary.failed, skipped: r.summary.skipped, error: r.summary.error, total: r.summary.total }),
    errors: r.errors.length,
    ...(reportDir ? { reportDir } : {}),
  };
}

export function groupOf(a: Status | undefined, b: Status | undefined): Group {
  const fa = a === 'failed';
  const fb = b === 'failed';
  if (fa && fb) return 'both-fail';
  if (fa) return 'only-a-fails';
  if (fb) return 'only-b-fails';
  if (a === 'passed' && b === 'passed') return 'both-pass';
  return 'not-compared';
}

export function compareResults(a: Results, b: Results, sources: { a: string; b: string; aDir?: string; bDir?: string } = { a: 'A', b: 'B' }): Comparison {
  const ma = new Map(a.behaviours.map((x) => [x.id, x]));
  const mb = new Map(b.behaviours.map((x) => [x.id, x]));
  const ids = [...new Set([...ma.keys(), ...mb.keys()])].sort();
  const behaviours: ComparedBehaviour[] = ids.map((id) => {
    const x = ma.get(id);
    const y = mb.get(id);
    const d = (x ?? y)!;
    return {
      id,
      title: d.title,
      level: d.level,
      namespace: d.namespace,
      ...(d.route ? { route: d.route } : {}),
      ...(x ? { a: x.status } : {}),
      ...(y ? { b: y.status } : {}),
      ...(x?.reason ? { aReason: x.reason } : {}),
      ...(y?.reason ? { bReason: y.reason } : {}),
      group: groupOf(x?.status, y?.status),
    };
  });
  const countsBy = Object.fromEntries(GROUPS.map((g) => [g, behaviours.filter((x) => x.group === g).length])) as Record<Group, number>;
  const warnings: string[] = [];
  if (a.seed !== b.seed) warnings.push(`the runs used different seeds (A ${a.seed}, B ${b.seed}): generated inputs differ`);
  const only = (r: Results) => (r.config as { only?: string }).only;
  if (only(a) !== only(b)) warnings.push(`the runs selected different behaviours (--only ${only(a) ?? '(all)'} on A, ${only(b) ?? '(all)'} on B)`);
  if (a.errors.length || b.errors.length) warnings.push(`suite errors: ${a.errors.length} on A, ${b.errors.length} on B — statuses may be incomplete`);
  let advertised: AdvertisedDiff | null = null;
  if (a.advertised && b.advertised) advertised = diffAdvertised(a.advertised, b.advertised);
  else warnings.push(`advertised args not compared: ${!a.advertised ? 'A' : 'B'}'s results do not record what the target advertises (made by an older cms-conformance, or the index was unusable)`);
  const ra = a.clients ?? clientReadiness(a.behaviours);
  const rb = b.clients ?? clientReadiness(b.behaviours);
  const clients = ra.length && rb.length ? { clients: readinessChanges(ra, rb), readiness: { a: ra, b: rb } } : {};
  return { schemaVersion: 1, a: sideInfo(a, sources.a, sources.aDir), b: sideInfo(b, sources.b, sources.bDir), warnings, counts: countsBy, deviations: compareDeviations(a, b), behaviours, advertised, ...clients };
}

/** The deviations of two runs matched by key. */
export function compareDeviations(a: Results, b: Results): ComparedDeviation[] {
  const da = new Map(deviationsOf(a).map((d) => [d.key, d]));
  const db = new Map(deviationsOf(b).map((d) => [d.key, d]));
  const keys = [...new Set([...da.keys(), ...db.keys()])];
  const out = keys.map((key): ComparedDeviation => {
    const x = da.get(key);
    const y = db.get(key);
    const d = (y ?? x)!;
    const level = [x?.level, y?.level].filter((l): l is BehaviourResult['level'] => !!l).sort((p, q) => LEVELS.indexOf(p) - LEVELS.indexOf(q))[0]!;
    return { key, item: d.item, level, ...(x ? { a: x.behaviours } : {}), ...(y ? { b: y.behaviours } : {}), message: d.message, group: x && y ? 'both' : x ? 'only-a' : 'only-b' };
  });
  const order = { 'only-b': 0, 'only-a': 1, both: 2 };
  return out.sort((p, q) => order[p.group] - order[q.group] || LEVELS.indexOf(p.level) - LEVELS.indexOf(q.level) || p.key.localeCompare(q.key));
}

/**
 * Exit code of a comparison: 1 when a gating behaviour (SECURITY and MUST; also SHOULD with
 * failOn should) fails on B but not on A — B regressed against A — or a client whose readiness
 * gates (`clients`) is not ready on B where it was on A (or breaks in more flows); else 0. Errors (checks that
 * could not be made) are warnings, never a regression.
 */
export function compareExitCode(c: Comparison, failOn: FailOn, clients?: FailOnClients): 0 | 1 {
  const levels = new Set(gatingLevels(failOn));
  if (c.behaviours.some((x) => x.group === 'only-b-fails' && levels.has(x.level))) return 1;
  // A client that gates (--fail-on client, --fail-on-client) and is ready on A but not on B.
  const gates = (id: string) => !!clients?.length && (clients.includes('*') || clients.includes(id));
  return (c.clients ?? []).some((x) => gates(x.client) && x.b === 'not ready' && (x.a !== 'not ready' || x.newlyFailing.length > 0)) ? 1 : 0;
}
