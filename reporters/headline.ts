/**
 * The head of every report of a run (report.html, report.md and the console's first and last
 * lines), in parts that each say one thing, so that each can be shown alone and new parts slot in
 * beside them:
 *
 *   verdict      PASS / FAIL / … and the one headline count: deviations ("16 known deviations of
 *                WordPress 6.5.5 (the embedded release), 0 new"; "3 deviations");
 *   counts       the behaviours under it ("2119 behaviours: 668 passed, 27 failed (26 MUST, 1 SHOULD) …");
 *   mode         how the run met the target: anonymous or with credentials, read-only or writes;
 *   not checked  what it left unchecked, in a user's words ("113 SECURITY behaviours need
 *                credentials: not checked").
 *
 * A run that checked no SECURITY behaviour never shows a bare PASS. Pure functions of results.json.
 */
import { deviationsOf } from '../results/deviations.ts';
import { LEVELS, countsOf, gatingFailures, gatingLevels, runExitCode, type FailOn, type Level, type Results, type RunMode } from '../results/results.ts';

/** How the verdict looks: pass (green), partial (a pass that left SECURITY unchecked), fail, incomplete. */
export type Tone = 'pass' | 'partial' | 'fail' | 'incomplete';

export interface Verdict {
  tone: Tone;
  /** PASS, "PASS, SECURITY NOT CHECKED", FAIL, INCOMPLETE. */
  word: string;
  /** The headline count: the deviations (known and new against a baseline). */
  count: string;
  exit: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const failOnOf = (r: Pick<Results, 'config'>): FailOn => ((r.config as { failOn?: FailOn }).failOn ?? 'must');

/** Did the run check (pass or fail) any SECURITY behaviour? */
export function securityChecked(r: Pick<Results, 'summary'>): boolean {
  const c = countsOf(r.summary.byLevel.SECURITY);
  return c.passed + c.failed > 0;
}

/** The headline count: deviations; against a baseline, the known ones (of the embedded release, or of the file) and the new ones. */
export function deviationCount(r: Results): string {
  const levels = new Set<Level>(gatingLevels(failOnOf(r)));
  const bl = r.baseline;
  if (bl) {
    const known = bl.knownDeviations?.length ?? 0;
    const fresh = bl.newDeviations ?? [];
    const gating = fresh.filter((d) => levels.has(d.level)).length;
    const whose = bl.source === 'release' && bl.release ? ` of ${bl.release} (the embedded release)` : ` (listed in ${bl.file})`;
    const notGating = fresh.length - gating;
    return `${plural(known, 'known deviation')}${whose}, ${fresh.length} new${notGating ? ` (${notGating} ${notGating === fresh.length ? '' : 'of them '}not gating: ${[...new Set(fresh.filter((d) => !levels.has(d.level)).map((d) => d.level))].join(', ')})` : ''}`;
  }
  const ds = deviationsOf(r);
  if (!ds.length) return 'no deviation';
  const notGating = ds.filter((d) => !levels.has(d.level)).length;
  return `${plural(ds.length, 'deviation')}${notGating ? ` (${notGating === ds.length ? '' : `${notGating} of them `}not gating: SHOULD)` : ''}`;
}

/** The verdict and its headline count. */
export function verdictOf(r: Results): Verdict {
  const failOn = failOnOf(r);
  const exit = runExitCode(r, failOn);
  const gating = gatingFailures(r, failOn).length;
  const count = deviationCount(r);
  if (gating) return { tone: 'fail', word: 'FAIL', count, exit };
  if (r.incomplete || exit !== 0) return { tone: 'incomplete', word: 'INCOMPLETE', count, exit };
  return securityChecked(r) ? { tone: 'pass', word: 'PASS', count, exit } : { tone: 'partial', word: 'PASS, SECURITY NOT CHECKED', count, exit };
}

/** "PASS — 16 known deviations of WordPress 6.5.5 (the embedded release), 0 new": the first line of every report. */
export function verdictLine(r: Results): string {
  const v = verdictOf(r);
  return `${v.word} — ${v.count}`;
}

/** Why an incomplete verdict is incomplete, in one sentence (undefined for a complete run whose checks could all be made). */
export function incompleteWhy(r: Results): string | undefined {
  if (r.incomplete) return `the run stopped before its end: ${r.incomplete.message}; ${plural(r.incomplete.notRun, 'selected behaviour')} did not run`;
  const v = verdictOf(r);
  if (v.tone !== 'incomplete') return undefined;
  const n = (r.summary.error ?? 0) + r.errors.length;
  return `${plural(n, 'check')} could not be made (${v.exit === 4 ? 'a bug in cms-conformance' : 'the target did not answer usably'})`;
}

/** "2119 behaviours: 668 passed, 27 failed (26 MUST, 1 SHOULD), 0 could not be checked, 1424 skipped". */
export function countsLine(r: Pick<Results, 'summary'>): string {
  const s = countsOf(r.summary);
  const byLevel = LEVELS.map((l) => [l, countsOf(r.summary.byLevel[l]).failed] as const).filter(([, n]) => n > 0);
  const levels = byLevel.length ? ` (${byLevel.map(([l, n]) => `${n} ${l}`).join(', ')})` : '';
  return `${s.total} behaviours: ${s.passed} passed, ${s.failed} failed${levels}, ${s.error} could not be checked, ${s.skipped} skipped`;
}

/** How the run met the target, from results.json (`mode`; earlier files: the recorded configuration). */
export function modeOf(r: Pick<Results, 'mode' | 'config'>): (Omit<RunMode, 'writes'> & Partial<Pick<RunMode, 'writes'>>) | undefined {
  if (r.mode) return r.mode;
  const c = r.config as Record<string, unknown>;
  return c.user !== undefined || c.authHeader !== undefined ? { credentials: 'given' } : undefined;
}

/** "checked anonymously (no credentials), read-only (the target is not on loopback …)". */
export function modeLine(r: Pick<Results, 'mode' | 'config'>): string | undefined {
  const m = modeOf(r);
  if (!m) return undefined;
  const who =
    m.credentials === 'none' ? 'anonymously (no credentials)' : m.credentials === 'embedded' ? 'with credentials (the administrator of the target the run booted)' : 'with credentials (--user/--app-password or --auth-header)';
  const writes = !m.writes ? '' : m.writes.allowed ? `, writes allowed (${m.writes.reason})` : `, read-only (${m.writes.reason.replace(/^the target is not on loopback; /, 'the target is not on loopback: ')})`;
  return `checked ${who}${writes}`;
}

const NAMESPACE_SKIP = /^namespace (\S+) is not advertised by the target/;

/**
 * What the run left unchecked, one line per cause, SECURITY first: "113 SECURITY behaviours need
 * credentials: not checked", "1399 behaviours of namespaces the site does not advertise
 * (contactform/v1 44, suite/v4 1355): not checked". Empty when every selected behaviour was checked.
 */
export function notCheckedLines(r: Pick<Results, 'behaviours' | 'summary' | 'mode' | 'config'>): string[] {
  const skipped = r.behaviours.filter((b) => b.status === 'skipped');
  const lines: string[] = [];
  const writes = modeOf(r)?.writes;
  const cause = (reason: string) =>
    /^no credentials/.test(reason) ? 'credentials' : /^writes not allowed/.test(reason) ? 'writes' : NAMESPACE_SKIP.test(reason) ? 'namespace' : /^depends on /.test(reason) ? 'depends' : 'other';
  for (const group of [['SECURITY'], ['MUST', 'SHOULD']] as const) {
    const mine = skipped.filter((b) => (group as readonly string[]).includes(b.level));
    const by = new Map<string, typeof mine>();
    for (const b of mine) by.set(cause(b.reason ?? ''), [...(by.get(cause(b.reason ?? '')) ?? []), b]);
    const what = (n: number) => (group[0] === 'SECURITY' ? plural(n, 'SECURITY behaviour') : plural(n, 'behaviour'));
    /** "113 SECURITY behaviours need", "1 behaviour needs". */
    const verb = (n: number, many: string) => `${what(n)} ${n === 1 ? many.replace(/^(\w+)/, '$1s') : many}`;
    const c = by.get('credentials');
    if (c) lines.push(`${verb(c.length, 'need credentials')}: not checked (give --user and --app-password)`);
    const w = by.get('writes');
    if (w) lines.push(`${verb(w.length, 'write')}, and the run was read-only${writes && !writes.allowed ? ` (${writes.reason.replace(/; pass --allow-writes.*$/, '')})` : ''}: not checked`);
    const ns = by.get('namespace');
    if (ns) {
      const per = new Map<string, number>();
      for (const b of ns) {
        const name = NAMESPACE_SKIP.exec(b.reason ?? '')![1]!;
        per.set(name, (per.get(name) ?? 0) + 1);
      }
      lines.push(`${what(ns.length)} of namespaces the target does not advertise (${[...per].map(([n, k]) => `${n} ${k}`).join(', ')}): not checked`);
    }
    const rest = [...(by.get('depends') ?? []), ...(by.get('other') ?? [])];
    if (rest.length) lines.push(`${what(rest.length)} skipped, each for a reason the report names (what the target lacks, or a check it depends on that failed): not checked`);
  }
  const sec = countsOf(r.summary.byLevel.SECURITY);
  if (!securityChecked(r) && sec.total === 0) lines.unshift('no SECURITY behaviour was selected: who may read or write what without credentials was not checked');
  return lines;
}

/**
 * The deviations, one line each, for the console: against a baseline the new ones first (with the
 * failure's message), then the known ones (with the baseline's reason); else every deviation with
 * its message. At most `max` lines (the reports list all).
 */
export function deviationLines(r: Results, width = 160, max = 40): string[] {
  const clip = (t: string) => (t.length > width ? `${t.slice(0, width - 1)}…` : t);
  const all = deviationsOf(r);
  const byKey = new Map(all.map((d) => [d.key, d]));
  const head = (d: { level: Level; item: string; behaviours: string[] }) => `${d.level.padEnd(8)} ${d.item}${d.behaviours.length > 1 ? ` (${d.behaviours.length} behaviours)` : ` (${d.behaviours[0]})`}`;
  const lines: string[] = [];
  const bl = r.baseline;
  if (bl?.knownDeviations) {
    for (const n of bl.newDeviations ?? []) {
      const d = byKey.get(n.key);
      lines.push(clip(`  new    ${head({ ...n, behaviours: n.newFailures })}: ${(d?.message ?? '').split('\n')[0]}`));
    }
    for (const k of bl.knownDeviations) lines.push(clip(`  known  ${head(k)}: ${k.reason}`));
  } else for (const d of all) lines.push(clip(`  ${head(d)}: ${d.message.split('\n')[0]}`));
  return lines.length > max ? [...lines.slice(0, max), `  … and ${lines.length - max} more (every deviation is in the report)`] : lines;
}
