/**
 * Issue 25's acceptance measurement: every named fault (faults/index.ts) against the real
 * WordPress 7.1 + plugins site (boot.sh), and for each the behaviours it newly fails and the
 * number of deviations (results.deviations) those failures form.
 *
 *   npx tsx bench/fault-deviations.ts [--port 8600 | --target URL --user U --app-password P]
 *        [--work DIR] [--faults REGEX] [--out FILE.md] [--full REGEX]
 *
 * 1. Baseline: one full run (seed 1, --fresh-site) through a proxy that changes nothing and
 *    records every exchange whole (request and answer), plus the run's events.ndjson (which
 *    behaviour sent which request). Kept in --work, so later invocations (one chunk of faults
 *    each, --faults) reuse it.
 * 2. Touch: each fault's request()/response() hooks are replayed offline over the recorded
 *    exchanges, in the order they arrived (state a fault keeps per proxy is kept per replay). An
 *    exchange is touched when the fault would answer it itself, change the request it forwards
 *    (method, route, query, body, headers), or change the answer (status, headers, body); a hook
 *    that throws counts as touching. Touched exchanges are mapped to the behaviours that sent them
 *    (events.ndjson, matched on method, route, query and body; identical requests of several
 *    behaviours count for all of them).
 * 3. Scope (--only of the fault's run): every behaviour of every suite file one of the touched
 *    behaviours is declared in (fixtures and prerequisites are per suite file: whatever shares a
 *    touched behaviour's fixture or prerequisite is in its file). Touched exchanges sent outside a
 *    behaviour:
 *    - `setup`: the index (GET /) and the fresh-site snapshot (GET /suite/v4/settings), read once
 *      before the behaviours. The fault's answer to the index is compared with the real one: the
 *      discovery files, the files that read a changed top-level field (core/*, suite.routes,
 *      suite.params) and the files that exercise a changed route family are added, among the files
 *      that read the index at all (indexReaders: their source, or a suite file they import, names
 *      t.index, info.index, info.freshSite or siteAddress). Elsewhere the index only decides
 *      whether a namespace is advertised (requireNamespace), which can make a behaviour skip but
 *      not fail. A touched snapshot adds the readers of the snapshot (suite.fresh) and of its route;
 *    - `fixtures`, `sweep` and the other helpers, and touched writes to shared state (any write
 *      outside a cms/v2 item or collection): every file with a behaviour that used the same route
 *      family (namespace and first segment, /suite/v4/settings), since whatever that state is read
 *      by may read it there.
 *    Why it cannot hide a new failure: a behaviour whose exchanges the fault does not touch sends
 *    and receives exactly what it did in the baseline unless something it reads was changed
 *    earlier: its fixture or prerequisite (same file), shared site state written through a touched
 *    exchange (same route family), or the index (its readers). Where it could: a behaviour that
 *    reads state written by a touched exchange through a different route family (a post created
 *    through cms/v2 read back in oembed), a behaviour that only in the fault run sends a request the
 *    fault would change (a path the baseline never took, other than in its own file), and an index
 *    part read by a file that does not exercise that route family. `--full REGEX` runs the faults
 *    it matches unrestricted as well, to compare.
 *    A fault that touches nothing cannot change the run (same seed, same requests, same answers):
 *    it is reported as not caught without a run.
 * 4. Runs: faults whose scopes share no suite file run together (one proxy run with all of them);
 *    a fault's verdicts are those of its scope's behaviours. Its new failures: behaviours of its
 *    scope failed in its run and not failed in the baseline. Its deviations: groupDeviations() of
 *    the baseline's results with its scope's verdicts put in (a full run's results as they would
 *    be), counting only the deviations that hold a new failure.
 *
 * Results are appended to <work>/faults.ndjson as each round ends (a chunk can be stopped and
 * resumed: faults already there are skipped); the Markdown table is written to --out.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { safeBody } from '../src/http/events.ts';
import { Client } from '../src/http/client.ts';
import { restoreSiteState, snapshotSiteState } from '../src/run/site-state.ts';
import type { BehaviourResult, Results } from '../results/results.ts';
import { groupDeviations } from '../results/deviations.ts';
import { getProfile } from '../schemas/profiles.ts';
import { allFaults } from '../faults/index.ts';
import { family, indexReaders, keyOf, planFor, recorder, touches, type Baseline, type Plan, type Recorded } from './fault-scope.ts';
import { matchesCaughtBy } from '../faults/proxy.ts';
import { bootTarget, type Target } from '../src/run/target.ts';
import { InProcessRunner, onlyFor, type ProofTarget } from '../src/proof/proof.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    target: { type: 'string' },
    user: { type: 'string' },
    'app-password': { type: 'string' },
    work: { type: 'string', default: '/tmp/cmsc-fault-deviations' },
    faults: { type: 'string' },
    out: { type: 'string' },
    full: { type: 'string' },
    'plan-only': { type: 'boolean' },
    redo: { type: 'boolean' },
    regroup: { type: 'boolean' },
    /** With --regroup: `cms-conformance list --json` output whose declared covers are added to every behaviour's (covers changed since the runs). */
    covers: { type: 'string' },
  },
});
const work = values.work!;
mkdirSync(work, { recursive: true });
const profile = getProfile('wordpress');

// ---------------------------------------------------------------- baseline


async function loadOrRunBaseline(target: ProofTarget, runner: InProcessRunner): Promise<Baseline> {
  const file = join(work, 'baseline.json');
  let results: Results;
  let recorded: Recorded[];
  let events: string;
  if (existsSync(file)) {
    ({ results, recorded, events } = JSON.parse(readFileSync(file, 'utf8')));
  } else {
    recorded = [];
    const t0 = Date.now();
    const run = await runner.run(target, { faults: [recorder(recorded)], args: ['--fresh-site'], seed: 1 });
    results = run.results();
    events = readFileSync(join(run.reportDir!, 'events.ndjson'), 'utf8');
    writeFileSync(file, JSON.stringify({ results, recorded, events }));
    console.error(`baseline: ${results.summary.passed} passed, ${results.summary.failed} failed, ${results.summary.skipped} skipped, ${recorded.length} exchanges, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  const senders = new Map<string, Set<string>>();
  for (const line of events.split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { behaviour: string; method: string; url: string; requestBody?: string };
    const u = new URL(e.url);
    const rr = u.searchParams.get('rest_route');
    if (rr === null) continue;
    const key = keyOf(e.method, profile.toSpecRoute(rr || '/'), u.searchParams, e.requestBody);
    let s = senders.get(key);
    if (!s) senders.set(key, (s = new Set()));
    s.add(e.behaviour);
  }
  return { results, recorded, senders };
}

// ---------------------------------------------------------------- outcome

interface FaultRow {
  id: string;
  touchedExchanges: number;
  scopeBehaviours: number;
  scopeFiles: number | 'all';
  caught: boolean;
  /** New failures the fault names in caughtBy. */
  caughtByNamed: number;
  newFailures: string[];
  deviations: { key: string; item: string; behaviours: string[] }[];
  /** New failures not named by the fault's caughtBy. */
  unnamed: string[];
  why: string[];
  runMs: number;
  error?: string;
  full?: boolean;
}

function rowFor(plan: Plan, base: Results, run: Results | undefined, runMs: number, error?: string, full = false): FaultRow {
  const inScope = (b: BehaviourResult) => plan.files === null || plan.files.has(b.file);
  const scoped = base.behaviours.filter(inScope);
  const common = {
    id: plan.fault.id,
    touchedExchanges: plan.touchedExchanges,
    scopeBehaviours: scoped.length,
    scopeFiles: plan.files === null ? ('all' as const) : plan.files.size,
    why: plan.why,
    runMs,
    ...(full ? { full } : {}),
  };
  if (!run) return { ...common, caught: false, caughtByNamed: 0, newFailures: [], deviations: [], unnamed: [], ...(error ? { error } : {}) };
  const before = new Map(base.behaviours.map((b) => [b.id, b]));
  const after = new Map(run.behaviours.filter((b) => inScope(before.get(b.id) ?? b)).map((b) => [b.id, b]));
  const newFailures = [...after.values()].filter((b) => b.status === 'failed' && before.get(b.id)?.status !== 'failed').map((b) => b.id).sort();
  const merged = base.behaviours.map((b) => after.get(b.id) ?? b);
  const fresh = new Set(newFailures);
  const deviations = groupDeviations({ behaviours: merged, target: base.target })
    .filter((d) => d.behaviours.some((id) => fresh.has(id)))
    .map((d) => ({ key: d.key, item: d.item, behaviours: d.behaviours.filter((id) => fresh.has(id)) }));
  const unnamed = newFailures.filter((id) => !matchesCaughtBy(plan.fault, id));
  // The scope's verdicts, so that the grouping can be made again offline (--regroup).
  mkdirSync(join(work, 'runs'), { recursive: true });
  writeFileSync(join(work, 'runs', `${plan.fault.id}${full ? '#full' : ''}.json`), JSON.stringify([...after.values()].filter((b) => b.status === 'failed' || before.get(b.id)?.status !== b.status)));
  return { ...common, caught: newFailures.length > 0, caughtByNamed: newFailures.length - unnamed.length, newFailures, deviations, unnamed };
}

// ---------------------------------------------------------------- main

const resultsFile = join(work, 'faults.ndjson');
const done = new Map<string, FaultRow>();
if (existsSync(resultsFile)) for (const l of readFileSync(resultsFile, 'utf8').split('\n')) if (l) done.set((JSON.parse(l) as FaultRow).id + ((JSON.parse(l) as FaultRow).full ? '#full' : ''), JSON.parse(l));
const record = (row: FaultRow) => {
  appendFileSync(resultsFile, `${JSON.stringify(row)}\n`);
  done.set(row.id + (row.full ? '#full' : ''), row);
  const d = row.deviations.length;
  console.error(`${row.id}${row.full ? ' (full)' : ''}: ${row.error ? `ERROR ${row.error}` : `${row.newFailures.length} new failures, ${d} deviation(s)${d > 2 ? ' >2' : ''}${row.unnamed.length ? `, ${row.unnamed.length} not named` : ''}`} [scope ${row.scopeBehaviours}, ${(row.runMs / 1000).toFixed(0)} s]`);
};

if (values.regroup) {
  // The deviations of every fault whose scope verdicts were kept, grouped again with the current
  // results/deviations.ts (no site): the kept verdicts put into the baseline's results.
  const base = (JSON.parse(readFileSync(join(work, 'baseline.json'), 'utf8')) as { results: Results }).results;
  const declared = new Map<string, string[]>(values.covers ? (JSON.parse(readFileSync(values.covers, 'utf8')) as { behaviours: { id: string; covers?: string[] }[] }).behaviours.map((b) => [b.id, b.covers ?? []]) : []);
  const withCovers = (b: BehaviourResult): BehaviourResult => (declared.has(b.id) ? { ...b, covers: [...new Set([...(b.covers ?? []), ...declared.get(b.id)!])] } : b);
  base.behaviours = base.behaviours.map(withCovers);
  const rows = [...done.values()];
  for (const row of rows) {
    const file = join(work, 'runs', `${row.id}${row.full ? '#full' : ''}.json`);
    if (!existsSync(file)) continue;
    const changed = new Map((JSON.parse(readFileSync(file, 'utf8')) as BehaviourResult[]).map((b) => [b.id, withCovers(b)]));
    const fresh = new Set(row.newFailures);
    row.deviations = groupDeviations({ behaviours: base.behaviours.map((b) => changed.get(b.id) ?? b), target: base.target })
      .filter((d) => d.behaviours.some((id) => fresh.has(id)))
      .map((d) => ({ key: d.key, item: d.item, behaviours: d.behaviours.filter((id) => fresh.has(id)) }));
  }
  writeFileSync(join(work, 'regrouped.ndjson'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  if (values.out) writeFileSync(values.out, table(rows));
  console.error(`regrouped ${rows.length} faults into ${join(work, 'regrouped.ndjson')}`);
  process.exit(0);
}

const selected = allFaults.filter((f) => !values.faults || new RegExp(values.faults).test(f.id));
let host: Target | undefined;
let target: ProofTarget;
if (values.target) target = { url: values.target, user: values.user!, appPassword: values['app-password']!, profile: 'wordpress' };
else {
  host = await bootTarget('plugins', values.port ? { port: Number(values.port) } : {});
  target = { url: host.url, user: host.user, appPassword: host.appPassword, profile: 'wordpress' };
}
const runner = await InProcessRunner.open();
try {
  const base = await loadOrRunBaseline(target, runner);
  const fileOf = new Map(base.results.behaviours.map((b) => [b.id, b.file]));
  const filesByFamily = new Map<string, Set<string>>();
  for (const r of base.recorded) {
    const tags = base.senders.get(keyOf(r.method, r.route, new URLSearchParams(r.query), safeBody(r.raw))) ?? new Set<string>();
    for (const t of tags) {
      const f = fileOf.get(t);
      if (!f) continue;
      let s = filesByFamily.get(family(r.route));
      if (!s) filesByFamily.set(family(r.route), (s = new Set()));
      s.add(f);
    }
  }
  const unmatched = base.recorded.filter((r) => !base.senders.has(keyOf(r.method, r.route, new URLSearchParams(r.query), safeBody(r.raw)))).length;
  console.error(`${base.recorded.length} exchanges recorded, ${unmatched} not matched to a sender`);

  const readers = indexReaders([...new Set(fileOf.values())]);
  console.error(`files that read the index or the fresh-site snapshot: ${[...readers].join(', ')}`);
  const plans: Plan[] = [];
  // What each fault touches depends only on the fault and the baseline: kept in <work>/touches/.
  mkdirSync(join(work, 'touches'), { recursive: true });
  for (const f of selected) {
    const file = join(work, 'touches', `${f.id}.json`);
    const touched = existsSync(file) ? new Map<number, unknown>(JSON.parse(readFileSync(file, 'utf8'))) : await touches(f, base.recorded);
    if (!existsSync(file)) writeFileSync(file, JSON.stringify([...touched]));
    plans.push(planFor(f, touched, base, fileOf, filesByFamily, readers));
  }
  const idsIn = (p: Plan) => base.results.behaviours.filter((b) => p.files === null || p.files.has(b.file)).map((b) => b.id);
  for (const p of plans) console.error(`plan ${p.fault.id}: ${p.touchedExchanges} exchanges, ${p.touchedBehaviours.length} behaviours, scope ${p.files === null ? 'all' : `${p.files.size} files, ${idsIn(p).length} behaviours`}${p.why.length ? ` (${p.why.join('; ')})` : ''}`);
  if (values['plan-only']) process.exit(0);

  // Faults that touch nothing: nothing to run.
  for (const p of plans) if (p.touchedExchanges === 0 && !done.has(p.fault.id)) record(rowFor({ ...p, files: new Set() }, base.results, { ...base.results }, 0));
  // Rounds: faults whose scopes share no file.
  const todo = plans.filter((p) => p.touchedExchanges > 0 && (values.redo || !done.has(p.fault.id)));
  const rounds: Plan[][] = [];
  for (const p of todo.sort((a, b) => (b.files?.size ?? 1e9) - (a.files?.size ?? 1e9))) {
    const fits = (r: Plan[]) => p.files !== null && r.every((q) => q.files !== null && ![...p.files!].some((f) => q.files!.has(f)));
    const r = rounds.find(fits);
    if (r) r.push(p);
    else rounds.push([p]);
  }
  const size = (r: Plan[]) => r.reduce((m, p) => m + idsIn(p).length, 0);
  rounds.sort((a, b) => size(a) - size(b));
  const total = rounds.reduce((n, r) => n + r.reduce((m, p) => m + idsIn(p).length, 0), 0);
  console.error(`${todo.length} faults to run in ${rounds.length} rounds, ${total} behaviour runs (a full run is ${base.results.behaviours.length})`);
  // A run writes back the settings it found, read through the fault proxy: a fault that changes
  // what GET /settings answers makes it "restore" values the site never had, and every later round
  // would start from them. The site's own settings, read directly now, are written back directly
  // after every round.
  const profile = getProfile('wordpress');
  const direct = new Client({ baseUrl: target.url, credentials: { user: target.user!, appPassword: target.appPassword! }, mapRoute: (r) => profile.toTargetRoute(r) });
  const siteState = await snapshotSiteState(direct, () => true);
  const restoreDirectly = async () => {
    const restored = await restoreSiteState(direct, siteState);
    if (restored.restored.length || restored.failed.length) console.error(`  site state: ${restored.restored.length} settings written back directly${restored.failed.length ? `, ${restored.failed.length} could not be` : ''}`);
  };
  for (const r of rounds) {
    // A chunk can be ended between rounds: touch <work>/STOP.
    if (existsSync(join(work, 'STOP'))) break;
    const ids = [...new Set(r.flatMap(idsIn))];
    const t0 = Date.now();
    let run: Results | undefined;
    let error: string | undefined;
    try {
      const res = await runner.run(target, { only: onlyFor(ids), faults: r.map((p) => p.fault), args: ['--fresh-site'], seed: 1, removeReport: true });
      run = res.results();
    } catch (e) {
      error = (e as Error).message;
    }
    for (const p of r) record(rowFor(p, base.results, run, Date.now() - t0, error));
    await restoreDirectly();
  }
  // Unrestricted runs of some faults, to compare with their restricted ones.
  if (values.full)
    for (const p of plans.filter((x) => new RegExp(values.full!).test(x.fault.id) && !done.has(`${x.fault.id}#full`))) {
      const t0 = Date.now();
      let run: Results | undefined;
      let error: string | undefined;
      try {
        run = (await runner.run(target, { faults: [p.fault], args: ['--fresh-site'], seed: 1, removeReport: true })).results();
      } catch (e) {
        error = (e as Error).message;
      }
      record(rowFor({ ...p, files: null }, base.results, run, Date.now() - t0, error, true));
      await restoreDirectly();
    }
} finally {
  await runner.close();
  await host?.stop();
}

if (values.out) writeFileSync(values.out, table([...done.values()]));

/** Why a fault made no new failure: its named behaviours did not pass in the baseline (they cannot show it on this site), or they passed with it (a gap). */
function uncaughtWhy(row: FaultRow): string {
  const base = (JSON.parse(readFileSync(join(work, 'baseline.json'), 'utf8')) as { results: Results }).results;
  const fault = allFaults.find((f) => f.id === row.id);
  if (!fault) return '';
  const named = base.behaviours.filter((b) => matchesCaughtBy(fault, b.id));
  const notPassing = named.filter((b) => b.status !== 'passed');
  if (named.length && notPassing.length === named.length) return `its named behaviours do not pass on this site (${notPassing.map((b) => `${b.id} ${b.status}`).join(', ')})`;
  return `missed: ${named.length - notPassing.length} named behaviour(s) passed with the fault${notPassing.length ? `, ${notPassing.length} do not pass on this site` : ''}`;
}

function table(rows: FaultRow[]): string {
  const restricted = rows.filter((r) => !r.full && !r.error);
  const n = (k: (d: number) => boolean) => restricted.filter((r) => k(r.deviations.length)).length;
  const lines = [
    `${restricted.length} faults: ${n((d) => d === 0)} with no new failure, ${n((d) => d === 1)} in one deviation, ${n((d) => d === 2)} in two, ${n((d) => d > 2)} in more; ${rows.filter((r) => r.error).length} errors.`,
    '',
    '| fault | new failures | deviations | not named by caughtBy | scope (behaviours) |',
    '|---|---:|---:|---:|---:|',
    ...rows
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((r) => `| \`${r.id}\`${r.full ? ' (full run)' : ''} | ${r.error ? `error: ${r.error.slice(0, 80)}` : r.newFailures.length} | ${r.deviations.length}${r.deviations.length > 2 ? ` (${r.deviations.map((d) => d.key).join(', ')})` : ''} | ${r.unnamed.length} | ${r.touchedExchanges === 0 ? 'touches nothing' : r.scopeBehaviours} |`),
  ];
  const uncaught = restricted.filter((r) => r.newFailures.length === 0);
  if (uncaught.length) lines.push('', 'Faults with no new failure:', '', ...uncaught.map((r) => `- \`${r.id}\`: ${r.touchedExchanges === 0 ? 'it changes no exchange of the baseline run; ' : ''}${uncaughtWhy(r)}`));
  const many = restricted.filter((r) => r.deviations.length > 1);
  if (many.length) lines.push('', 'Faults with more than one deviation:', '', ...many.map((r) => `- \`${r.id}\`: ${r.deviations.map((d) => `${d.key} (${d.behaviours.join(', ')})`).join('; ')}`));
  return lines.join('\n') + '\n';
}
