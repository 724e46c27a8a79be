/**
 * The `cms-conformance` command line. Every error a user can cause ends in one line on
 * stderr and a documented exit code, never a stack trace.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { normalizeBaseUrl, optionsHelp, parseFlags, resolveConfig, type RunConfig } from './config.ts';
import { EXIT, UnreachableError, UsageError } from './errors.ts';
import { TOOL, listBehaviours, runConformance, type EmbeddedVersion } from './runner.ts';
import { LEVELS, type Results } from '../schemas/results.ts';
import { compareExitCode, compareResults, renderCompareHtml, renderCompareMarkdown, GROUPS, GROUP_TITLE } from '../reporters/compare.ts';
import { DEFAULT_REPORTS_ROOT, timestampedDir, updateLatest } from '../reporters/index.ts';

/** Exit code for a bug in cms-conformance itself. */
export const EXIT_INTERNAL = 4;

const USAGE = `Usage: cms-conformance <command> [options]

Commands:
  run        Run the conformance suite against a target (default command).
             Without --target, boots the embedded local WordPress and runs against it.
  list       List the behaviours (ID, level, spec section) without running them.
             Takes --only and --json.
  compare <A> <B>
             Compare two instances side by side. Each side is a base URL (run now),
             wordpress@6.5.5 or wordpress@6.1.9 (boot the embedded WordPress of that
             version and run), or an existing results.json (or the report directory
             holding it). Both runs use the same seed, --only and --runs (taken from a
             results file side when not given). Credentials per side:
             --a-user/--a-app-password/--a-auth-header and --b-user/--b-app-password/
             --b-auth-header; without them a URL side uses --user/--app-password
             (TARGET_USER/TARGET_APP_PASSWORD). --a-profile/--b-profile set a side's
             profile. Writes compare.html, compare.md and compare.json (and each run's
             full reports in a/ and b/) to --report-dir, default reports/compare/<timestamp>/
             (reports/compare/latest points to it).
  selftest   Prove the suite: run it against a healthy host, then once per named fault
             through a fault-injecting proxy, and report the mutation score (which faults
             were caught by which behaviours, which were missed). Takes --host reference
             (default, fast) or --host wordpress (the embedded WordPress), --faults PATTERN
             (regular expression on fault IDs), --seed, --report-dir (default
             reports/selftest). Writes selftest.json and selftest.md. Exit 0 when every
             fault was caught, 1 when one was missed.
  merge DIR...
             Merge shard outputs (run --targets ... --shard i/n) and single runs (e.g.
             behaviour shards of one site) into one fleet report: fleet.json, fleet.html
             and fleet.md with the sites x behaviours matrix, written to --report-dir
             (default reports/fleet/<timestamp>/). Takes --baseline (for every site),
             --fail-on and --report. Exit 1 when a site has a gating failure not in its
             baseline, 3 when a site or shard is missing or could not be checked.
  serve      Start the reference server (the documented interface, in memory).
             Takes --port N (default 8080) and --host H (default 127.0.0.1);
             prints the URL and an administrator application password.

Options:
${optionsHelp()}
  --help                            Show this help.
  --version                         Print the version.

Precedence: flags, then environment variables, then a .env file in the current folder.

Reports (run): results.json, report.html, report.md, junit.xml and events.ndjson in
reports/<timestamp>/ (reports/latest points to the newest), or exactly in --report-dir.

Exit codes (run):
  0  no gating behaviour failed (MUST, or MUST and SHOULD with --fail-on should),
     apart from failures listed in --baseline
  1  a gating behaviour failed that the baseline does not list, or a suite could not run
  2  usage or configuration error (including an unreadable --baseline)
  3  the target cannot be reached (or the embedded target cannot boot)
  4  internal error in cms-conformance (rerun with CMSC_DEBUG=1 for details)
Exit codes (compare): 0 nothing gating fails on B that does not fail on A;
  1 a gating behaviour fails only on B (B regresses against A), or a side's suite
  could not run; 2, 3, 4 as for run.`;

export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === '--version' || first === '-v') {
      out.write(`${TOOL.version}\n`);
      return EXIT.ok;
    }
    if (first === undefined || first.startsWith('-')) return await run(argv, out, err);
    if (first === 'help') {
      out.write(`${USAGE}\n`);
      return EXIT.ok;
    }
    if (first === 'run') return await run(rest, out, err);
    if (first === 'list') return await list(rest, out);
    if (first === 'serve') return await serve(rest, out, err);
    if (first === 'compare') return await compare(rest, out, err);
    if (first === 'selftest') return await selftest(rest, out, err);
    if (first === 'merge') return await merge(rest, out, err);
    throw new UsageError(`unknown command "${first}" (commands: run, list, compare, merge, selftest, serve; see cms-conformance --help)`);
  } catch (e) {
    if (e instanceof UsageError || e instanceof UnreachableError) {
      err.write(`cms-conformance: ${e.message}\n`);
      return e.exitCode;
    }
    err.write(`cms-conformance: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    if (process.env.CMSC_DEBUG) err.write(`${(e as Error)?.stack ?? ''}\n`);
    else err.write('(this is a bug in cms-conformance; rerun with CMSC_DEBUG=1 to see where)\n');
    return EXIT_INTERNAL;
  }
}

async function run(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv);
  if (values.help) {
    out.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance --help)`);
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>);
  if (cfg.targets) return await runTargets(cfg, out, err);
  const outcome = await runConformance(cfg, (l) => err.write(`${l}\n`));
  const { results, exitCode } = outcome;
  const s = results.summary;
  const byLevel = LEVELS.filter((l) => s.byLevel[l]?.total).map((l) => `${l} ${s.byLevel[l]!.failed} failed of ${s.byLevel[l]!.total}`);
  out.write(`\n${s.total} behaviours: ${s.passed} passed, ${s.failed} failed, ${s.error ?? 0} could not be checked, ${s.skipped} skipped (${byLevel.join('; ')})\n`);
  for (const e of results.errors) out.write(`${e.kind === 'target' ? 'target' : 'harness'} error${e.file ? ` in ${e.file}` : ''}: ${e.message}\n`);
  const bl = results.baseline;
  if (bl) {
    out.write(`baseline ${bl.file}: ${bl.known.length} known failure(s) still fail, ${bl.newFailures.length} new failure(s), ${bl.nowPassing.length} entr${bl.nowPassing.length === 1 ? 'y now passes' : 'ies now pass'}${bl.notRun.length ? `, ${bl.notRun.length} not run` : ''}\n`);
    for (const f of bl.newFailures) out.write(`  new failure: ${f}\n`);
    for (const p of bl.nowPassing) out.write(`  now passes (remove it from the baseline): ${p.id}\n`);
  }
  if (outcome.baselineWritten) out.write(`baseline written: ${outcome.baselineWritten} (${s.failed} failure(s); edit each reason)\n`);
  const cov = results.coverage;
  if (cov)
    out.write(
      `${cov.behavioural ? `behavioural coverage: ${cov.behavioural.percent} % (${cov.behavioural.covered} of ${cov.items} items exercised by a request); ` : ''}` +
        `with discovery: ${cov.percent} % (${cov.covered})\n`,
    );
  out.write(`seed ${results.seed}; ${results.requests.count} requests\n`);
  const shown = (p: string) => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p) || '.');
  out.write(`reports: ${shown(outcome.reportDir)}${outcome.latest ? ` (also ${shown(outcome.latest)})` : ''}\n`);
  for (const f of outcome.files) out.write(`  ${shown(f)}\n`);
  return exitCode;
}

// ---------------------------------------------------------------- compare

type Side = { kind: 'url'; url: string } | { kind: 'embedded'; version: EmbeddedVersion } | { kind: 'file'; path: string; results: Results };

const SIDE_FLAGS = ['user', 'app-password', 'auth-header', 'profile'] as const;

function parseSide(arg: string, name: 'A' | 'B'): Side {
  if (/^https?:\/\//i.test(arg)) return { kind: 'url', url: normalizeBaseUrl(arg) };
  const emb = /^(?:embedded|wordpress)(?:@(.+))?$/.exec(arg);
  if (emb) {
    const v = emb[1] ?? '6.5.5';
    if (v !== '6.5.5' && v !== '6.1.9') throw new UsageError(`${name}: the embedded WordPress is available as 6.5.5 or 6.1.9, not ${v}`);
    return { kind: 'embedded', version: v };
  }
  let path = resolve(arg);
  if (!existsSync(path)) throw new UsageError(`${name} "${arg}" is neither a URL (http://...), an embedded target (wordpress@6.5.5, wordpress@6.1.9) nor an existing results file`);
  if (statSync(path).isDirectory()) path = join(path, 'results.json');
  let results: Results;
  try {
    results = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`${name}: cannot read ${path} as results.json: ${(e as Error).message}`);
  }
  if (results?.schemaVersion !== 1 || !Array.isArray(results.behaviours)) throw new UsageError(`${name}: ${path} is not a cms-conformance results.json`);
  return { kind: 'file', path, results };
}

async function compare(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const extra: Record<string, { type: 'string' }> = {};
  for (const side of ['a', 'b']) for (const f of SIDE_FLAGS) extra[`${side}-${f}`] = { type: 'string' };
  const { values, positionals } = parseFlags(argv, extra);
  if (values.help) {
    out.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 2) throw new UsageError(`compare takes two sides, A and B (URLs, wordpress@VERSION or results files), got ${positionals.length} (see cms-conformance --help)`);
  if (values.baseline !== undefined || values['write-baseline'] !== undefined) throw new UsageError('--baseline and --write-baseline apply to run, not to compare');
  const sides = [parseSide(positionals[0]!, 'A'), parseSide(positionals[1]!, 'B')] as const;
  const flags = values as Record<string, string | boolean | undefined>;
  const fileSide = sides.find((s): s is Extract<Side, { kind: 'file' }> => s.kind === 'file');
  const fromFile = fileSide ? (fileSide.results.config as Partial<RunConfig>) : undefined;
  // Same inputs on both sides: a results file side fixes the seed, runs and --only unless given here.
  const shared = resolveConfig({
    ...flags,
    ...(flags.seed === undefined && fileSide ? { seed: String(fileSide.results.seed) } : {}),
    ...(flags.runs === undefined && typeof fromFile?.runs === 'number' ? { runs: String(fromFile.runs) } : {}),
    ...(flags.only === undefined && typeof fromFile?.only === 'string' ? { only: fromFile.only } : {}),
  });
  const outDir = shared.reportDir ? resolve(shared.reportDir) : timestampedDir(resolve(DEFAULT_REPORTS_ROOT, 'compare'));
  mkdirSync(outDir, { recursive: true });

  const results: Results[] = [];
  const dirs: (string | undefined)[] = [];
  for (const [i, side] of sides.entries()) {
    const key = i === 0 ? 'a' : 'b';
    const name = key.toUpperCase();
    const sideFlag = (f: (typeof SIDE_FLAGS)[number]) => flags[`${key}-${f}`] as string | undefined;
    if (side.kind === 'file') {
      for (const f of SIDE_FLAGS) if (sideFlag(f) !== undefined) throw new UsageError(`--${key}-${f}: side ${name} is a results file, nothing is run for it`);
      results.push(side.results);
      dirs.push(undefined);
      continue;
    }
    const user = sideFlag('user');
    const appPassword = sideFlag('app-password');
    const authHeader = sideFlag('auth-header');
    if ((user === undefined) !== (appPassword === undefined)) throw new UsageError(`--${key}-user and --${key}-app-password go together`);
    const own = user !== undefined || authHeader !== undefined;
    const profile = sideFlag('profile');
    if (profile !== undefined && !['auto', 'spec', 'wordpress'].includes(profile)) throw new UsageError(`--${key}-profile must be one of auto, spec, wordpress, got "${profile}"`);
    const cfg: RunConfig = {
      ...shared,
      target: side.kind === 'url' ? side.url : null,
      // An embedded side brings its own credentials; the shared ones are for URL sides.
      user: own ? user : side.kind === 'url' ? shared.user : undefined,
      appPassword: own ? appPassword : side.kind === 'url' ? shared.appPassword : undefined,
      authHeader: own ? authHeader : side.kind === 'url' ? shared.authHeader : undefined,
      profile: (profile as RunConfig['profile']) ?? shared.profile,
      reportDir: join(outDir, key),
      baseline: undefined,
      writeBaseline: undefined,
    };
    err.write(`\n== side ${name}: ${side.kind === 'url' ? side.url : `embedded WordPress ${side.version}`} (seed ${cfg.seed}) ==\n`);
    const outcome = await runConformance(cfg, (l) => err.write(`${l}\n`), side.kind === 'embedded' ? { wordpressVersion: side.version } : {});
    results.push(outcome.results);
    dirs.push(key);
  }
  const label = (s: Side, i: number) => (s.kind === 'url' ? s.url : s.kind === 'embedded' ? `wordpress@${s.version}` : relative(process.cwd(), s.path) || s.path) || `side ${i}`;
  const cmp = compareResults(results[0]!, results[1]!, { a: label(sides[0], 0), b: label(sides[1], 1), aDir: dirs[0], bDir: dirs[1] });
  const formats = shared.report;
  const files: string[] = [];
  if (formats.includes('html')) writeFileSync(join(outDir, 'compare.html'), renderCompareHtml(cmp, shared.failOn)), files.push(join(outDir, 'compare.html'));
  if (formats.includes('md')) writeFileSync(join(outDir, 'compare.md'), renderCompareMarkdown(cmp, shared.failOn)), files.push(join(outDir, 'compare.md'));
  if (formats.includes('json')) writeFileSync(join(outDir, 'compare.json'), `${JSON.stringify(cmp, null, 2)}\n`), files.push(join(outDir, 'compare.json'));
  const latest = shared.reportDir ? undefined : updateLatest(resolve(DEFAULT_REPORTS_ROOT, 'compare'), outDir);

  const sum = (x: { summary: { passed: number; failed: number; skipped: number } }) => `${x.summary.passed} passed, ${x.summary.failed} failed, ${x.summary.skipped} skipped`;
  out.write(`\nA: ${cmp.a.label} (${cmp.a.source}) — ${sum(cmp.a)}\n`);
  out.write(`B: ${cmp.b.label} (${cmp.b.source}) — ${sum(cmp.b)}\n`);
  out.write(`${GROUPS.map((g) => `${g}: ${cmp.counts[g]}`).join(' · ')}\n`);
  for (const x of cmp.behaviours.filter((b) => b.group === 'only-b-fails')) out.write(`  only B fails: ${x.id} (${x.level}) ${x.bReason ?? ''}\n`);
  if (cmp.advertised) out.write(`advertised differences: ${cmp.advertised.routes.length} route(s), ${cmp.advertised.argChanges} arg change(s), ${cmp.advertised.namespaces.onlyA.length + cmp.advertised.namespaces.onlyB.length} namespace(s)\n`);
  for (const w of cmp.warnings) out.write(`warning: ${w}\n`);
  const shown = (p: string) => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p));
  out.write(`comparison: ${shown(outDir)}${latest ? ` (also ${shown(latest)})` : ''}\n`);
  for (const f of files) out.write(`  ${shown(f)}\n`);
  return compareExitCode(cmp, shared.failOn);
}

async function list(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } });
  if (values.help) {
    out.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance --help)`);
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, {});
  const { behaviours, errors } = await listBehaviours(cfg.only);
  if (values.json) out.write(`${JSON.stringify({ behaviours, errors }, null, 2)}\n`);
  else {
    for (const b of behaviours) out.write(`${b.id}\t${b.level}\t${b.title}\t(${b.spec})${b.location ? `\t${b.location}` : ''}\n`);
    out.write(`${behaviours.length} behaviours\n`);
    for (const e of errors) out.write(`error: ${e}\n`);
  }
  return errors.length ? 1 : EXIT.ok;
}

async function serve(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { serveMain } = await import('../targets/reference/serve.ts');
  return serveMain(argv, out, err);
}

async function selftest(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { parseArgs } = await import('node:util');
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { host: { type: 'string' }, faults: { type: 'string' }, seed: { type: 'string' }, 'report-dir': { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split('\n')[0]} (see cms-conformance --help)`);
  }
  if (values.help) {
    out.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const host = (values.host as string | undefined) ?? 'reference';
  if (host !== 'reference' && host !== 'wordpress') throw new UsageError(`--host must be reference or wordpress, got "${host}"`);
  let pattern: RegExp | undefined;
  if (values.faults !== undefined) {
    try {
      pattern = new RegExp(values.faults as string);
    } catch {
      throw new UsageError(`--faults is not a valid regular expression: ${values.faults}`);
    }
  }
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`--seed must be a whole number, got "${values.seed}"`);
  const { allFaults } = await import('../faults/index.ts');
  const faults = pattern ? allFaults.filter((f) => pattern!.test(f.id)) : allFaults;
  if (!faults.length) throw new UsageError(`--faults ${values.faults} names no fault`);
  const { bootHost, runSelftest, selftestMarkdown } = await import('./selftest.ts');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { resolve } = await import('node:path');
  const dir = resolve((values['report-dir'] as string | undefined) ?? 'reports/selftest');
  let booted;
  try {
    booted = await bootHost(host);
  } catch (e) {
    throw new UnreachableError(`cannot boot the ${host} host: ${(e as Error).message}`);
  }
  err.write(`self-test of ${faults.length} fault(s) against the ${booted.label}, seed ${seed}\n`);
  try {
    const report = await runSelftest({ host: booted, faults, seed, log: (l) => err.write(`${l}\n`) });
    mkdirSync(dir, { recursive: true });
    writeFileSync(resolve(dir, 'selftest.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(resolve(dir, 'selftest.md'), selftestMarkdown(report));
    out.write(`mutation score ${(report.score * 100).toFixed(1)}%: ${report.caught} of ${report.total} faults caught\n`);
    for (const f of report.faults.filter((x) => !x.caught)) out.write(`  missed: ${f.id}: ${f.title}${f.error ? ` (${f.error})` : ''}\n`);
    out.write(`report: ${resolve(dir, 'selftest.md')}\n`);
    return report.caught === report.total ? EXIT.ok : 1;
  } finally {
    await booted.stop();
  }
}

// ---------------------------------------------------------------- fleets

/** `run --targets FILE [--shard i/n]`: the shard's sites one after the other (src/fleet.ts). */
async function runTargets(cfg: RunConfig, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { runFleet } = await import('./fleet.ts');
  const outcome = await runFleet(cfg, (l) => err.write(`${l}\n`));
  const sites = outcome.shard.sites;
  const done = sites.filter((s) => s.state === 'done');
  const sum = (k: 'passed' | 'failed' | 'skipped' | 'error') => done.reduce((n, s) => n + (s.summary?.[k] ?? 0), 0);
  out.write(`\nshard ${outcome.shard.shard.index}/${outcome.shard.shard.count}: ${sites.length} site(s), ${done.length} run, ${sites.length - done.length} not run; ${sum('passed')} passed, ${sum('failed')} failed, ${sum('error')} could not be checked, ${sum('skipped')} skipped\n`);
  for (const s of sites.filter((x) => x.exitCode)) out.write(`  ${s.id}: exit ${s.exitCode}${s.error ? ` (${s.error})` : ''}\n`);
  out.write(`seed ${outcome.shard.seed}; shard output: ${shownPath(outcome.dir)}${outcome.latest ? ` (also ${shownPath(outcome.latest)})` : ''} (merge with: cms-conformance merge DIR...)\n`);
  return outcome.exitCode;
}

/** `merge DIR...`: shard outputs into one fleet report (src/fleet-merge.ts). */
async function merge(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv);
  if (values.help) {
    out.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (!positionals.length) throw new UsageError('merge takes the folders of the shard outputs (or results files) to merge (see cms-conformance --help)');
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, {});
  const { mergeFleet } = await import('./fleet-merge.ts');
  const outDir = cfg.reportDir ? resolve(cfg.reportDir) : timestampedDir(resolve(DEFAULT_REPORTS_ROOT, 'fleet'));
  const started = performance.now();
  const { report, files } = mergeFleet(positionals, { outDir, failOn: cfg.failOn, ...(cfg.baseline ? { baseline: cfg.baseline } : {}), formats: cfg.report });
  const latest = cfg.reportDir ? undefined : updateLatest(resolve(DEFAULT_REPORTS_ROOT, 'fleet'), outDir);
  const t = report.totals;
  const v = report.verdict;
  out.write(`${report.sites.length} site(s) × ${report.behaviours.length} behaviour(s) from ${report.inputs.length} input(s): ${t.passed} passed, ${t.failed} failed, ${t.error} could not be checked, ${t.skipped} skipped\n`);
  out.write(`${v.gatingSites} site(s) with gating failures not in their baseline; ${report.clean} without any failure; ${v.notRun} not run\n`);
  for (const d of report.deviations.slice(0, 10)) {
    const b = report.behaviours[d.behaviour]!;
    out.write(`  ${d.failed ? `${d.failed} site(s) fail` : `${d.error} site(s) could not check`} ${b.id} (${b.level})\n`);
  }
  for (const w of report.warnings) err.write(`warning: ${w}\n`);
  out.write(`fleet report: ${shownPath(outDir)}${latest ? ` (also ${shownPath(latest)})` : ''} (merged in ${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  for (const f of files) out.write(`  ${shownPath(f)}\n`);
  return report.exitCode;
}

function shownPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r.startsWith('..') ? p : r || '.';
}
