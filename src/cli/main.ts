/**
 * The `cms-conformance` command line. Every error a user can cause ends in one line on
 * stderr and a documented exit code, never a stack trace.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { HELP_WIDTH, OPTIONS, helpRows, joinNegativeValues, optionRows, parseArgsMessage, parseFlags, resolveConfig, wrap, type RunConfig } from '../core/config.ts';
import { UnreachableError, UsageError } from '../core/errors.ts';
import { TOOL } from '../core/paths.ts';
import { runConformance } from '../run/pipeline.ts';
import { listBehaviours } from '../engine/list.ts';
import { declaredTotal, noneSelected } from '../engine/selection.ts';
import { compareFlags, runCompare } from './compare.ts';
import { stopRequested, watchParent } from '../run/stop.ts';
import { deviationSummary } from '../../results/deviations.ts';

export { stopRequested } from '../run/stop.ts';
import { LEVELS, describeNetwork } from '../../results/results.ts';
import { EXIT, EXIT_CODE_MEANINGS } from '../../results/verdict.ts';
import { DEFAULT_REPORTS_ROOT, timestampedDir, updateLatest } from '../../reporters/index.ts';

/** The exit codes of run (results/verdict.ts), for help texts. */
const EXIT_ROWS: [string, string][] = EXIT_CODE_MEANINGS.map(([code, meaning]) => [String(code), meaning]);

const RESULTS_NOTE = `Each behaviour has a level (SECURITY: who may do what without credentials; MUST: stated by the specification; SHOULD: what the reference implementation does where the specification is silent) and a status: passed, failed, skipped (always with its reason) or error (the check could not be made: the target did not answer usably, or cms-conformance broke; never a failure).`;

const para = (text: string, indent = '') => wrap(text, HELP_WIDTH - indent.length).map((l) => `${indent}${l}`).join('\n');

const GLOBAL_ROWS: [string, string][] = [
  ['--help', 'Show this help (cms-conformance <command> --help: the help of one command).'],
  ['--version', 'Print the version.'],
];

const COMMAND_ROWS: [string, string][] = [
  ['run', 'Run the conformance suite against a target (the default command).'],
  ['list', 'List the behaviours (ID, level, title, spec section) without running them.'],
  ['compare <A> <B>', 'Run (or read) two instances with the same seed and inputs and show where they differ.'],
  ['selftest', 'Prove the suite: run it once per named fault through a fault-injecting proxy; report the mutation score.'],
  ['merge DIR...', 'Merge shard outputs (run --targets ... --shard i/n) and single runs into one fleet report.'],
  ['serve', 'Start the reference server (the documented interface, in memory) for trying clients.'],
  ['openapi', 'Print the documented interface as an OpenAPI 3.1 document (for Prism, Schemathesis, ...).'],
];

const RUN_HELP = `Usage: cms-conformance run [options]

${para('Runs every documented behaviour (or those --only selects) against the target and writes the reports. Without --target it boots the embedded local WordPress 6.5.5 (needs PHP); --target reference runs against the in-memory reference server, where every behaviour passes.')}

Examples:
  npx cms-conformance run --target reference
  npx cms-conformance run --target https://site.example --user admin --app-password "xxxx xxxx xxxx xxxx xxxx xxxx"
  npx cms-conformance run --target http://127.0.0.1:8080 --only '^disc\\.args\\.cms'
  npx cms-conformance run --targets sites.txt --shard 2/8      a fleet: this runner's share of the sites

Options:
${helpRows([...optionRows(), ['--help', 'Show this help.']])}

${para('Precedence: flags, then environment variables, then a .env file in the current folder.')}

${para('While it runs: one live progress line on a terminal (a line every few seconds otherwise) with behaviours done of the total per namespace, requests, elapsed time and an estimate, and each failure as it happens; --quiet leaves them out. Then a summary.')}

${para('Reports: results.json, report.html, report.md, junit.xml and events.ndjson in reports/<timestamp>/ (reports/latest points to the newest), or exactly in --report-dir.')}

${para(RESULTS_NOTE)}

Exit codes:
${helpRows(EXIT_ROWS, 5)}`;

const LIST_HELP = `Usage: cms-conformance list [--only PATTERN] [--json]

${para('Lists the declared behaviours without a target: ID, level, title, spec section and where each is declared.')}

Options:
${helpRows([...optionRows(['only']), ['--json', 'Print JSON (with the catalog items each behaviour covers).'], ['--help', 'Show this help.']])}

${para('Exit codes: 0 listed; 1 a suite file could not be loaded; 2 usage error (an --only that selects nothing).')}`;

const COMPARE_HELP = `Usage: cms-conformance compare <A> <B> [options]

${para('Compares two instances side by side. Each side is a base URL (run now), wordpress@6.5.5 or wordpress@6.1.9 (boot the embedded WordPress of that version and run), or an existing results.json (or the report directory holding it). Both runs use the same seed, --only and --runs (taken from a results file side when not given). Writes compare.html, compare.md and compare.json (and each run\'s full reports in a/ and b/) to --report-dir, default reports/compare/<timestamp>/ (reports/compare/latest points to it).')}

Examples:
  npx cms-conformance compare https://staging.example https://www.example --a-user me --a-app-password "$A_PW" --b-user me --b-app-password "$B_PW"
  npx cms-conformance compare wordpress@6.1.9 wordpress@6.5.5
  npx cms-conformance compare reports/old/results.json reports/latest

Options of each side (the same with --b-… for side B):
${helpRows([
  ['--a-user NAME', 'User of side A (with --a-app-password).'],
  ['--a-app-password PASSWORD', 'Application password of --a-user.'],
  ['--a-auth-header VALUE', 'A complete Authorization header for side A.'],
  ['--a-profile auto|spec|wordpress', 'The names side A uses.'],
])}
${para('Without per-side credentials a URL side uses --user/--app-password (TARGET_USER/TARGET_APP_PASSWORD).', '  ')}

Options of both runs (as for run; --baseline and --write-baseline apply to run only):
${helpRows([...optionRows(OPTIONS.map((o) => o.flag).filter((f) => f !== 'baseline' && f !== 'write-baseline' && f !== 'target')), ['--help', 'Show this help.']])}

${para('Exit codes: 0 nothing gating fails on B that does not fail on A; 1 a gating behaviour fails only on B (B regresses against A); 2, 3 and 4 as for run.')}`;

const SELFTEST_HELP = `Usage: cms-conformance selftest [--host reference|wordpress] [--faults PATTERN] [--seed N]
                                [--report-dir DIR]

${para('Proves the suite: runs it against a healthy host, then once per named fault through a fault-injecting proxy, and reports the mutation score (which faults were caught by which behaviours, which were missed). Writes selftest.json and selftest.md.')}

Options:
${helpRows([
  ['--host reference|wordpress', 'The healthy host: the reference server (default, fast) or the embedded WordPress.'],
  ['--faults PATTERN', 'Regular expression on fault IDs (default: every fault).'],
  ['--seed N', 'Seed of generated inputs (default 1).'],
  ['--report-dir DIR', 'Where selftest.json and selftest.md go (default reports/selftest).'],
  ['--help', 'Show this help.'],
])}

${para('Exit codes: 0 every fault was caught; 1 a fault was missed; 2 usage error; 3 the host cannot boot.')}`;

const MERGE_HELP = `Usage: cms-conformance merge DIR... [--report-dir DIR] [--baseline FILE] [--fail-on LEVEL] [--report LIST]

${para('Merges shard outputs (run --targets FILE --shard i/n, one folder each) and single runs (results.json files or report folders, e.g. behaviour shards of one site: run --shard i/n) into one fleet report: fleet.json, fleet.html and fleet.md with the sites x behaviours matrix, the deviations sites share, sites grouped by their failures, and links to each site\'s own report. Counts equal the sum of the shards; a behaviour seen in several shards of one site takes its worst status.')}

Options:
${helpRows([
  ['--report-dir DIR', 'Where the fleet report goes (default reports/fleet/<timestamp>/, reports/fleet/latest points to it).'],
  ['--baseline FILE', 'Known failures for every site (a site of the targets file may name its own too).'],
  ['--fail-on LEVEL', 'security, must (default) or should: the least severe level that gates.'],
  ['--report LIST', 'Formats: html, md, json (default all).'],
  ['--help', 'Show this help.'],
])}

${para('Exit codes: 0 no site has a gating failure outside its baseline; 1 one has; 2 usage error; 3 a site or shard is missing or could not be checked.')}`;

const GLOBAL_HELP = `Usage: cms-conformance <command> [options]
       cms-conformance <command> --help

Commands:
${helpRows(COMMAND_ROWS, 34)}

Try it:
  npx cms-conformance run --target reference     in-memory reference server: every behaviour passes
  npx cms-conformance run                        the embedded WordPress 6.5.5 (needs PHP)
  npx cms-conformance run --target https://site.example --user admin --app-password "xxxx xxxx xxxx xxxx xxxx xxxx"

Options of run (the default command):
${helpRows([...optionRows(), ...GLOBAL_ROWS])}

${para('Precedence: flags, then environment variables, then a .env file in the current folder.')}

${para(RESULTS_NOTE)}

Exit codes (run; compare and selftest say theirs in their help):
${helpRows(EXIT_ROWS, 5)}`;

const OPENAPI_HELP = `Usage: cms-conformance openapi [--profile spec|wordpress] [--format yaml|json] [--out FILE]

${para('Prints the documented interface as an OpenAPI 3.1 document, generated from the catalog: every documented route, method and argument (type, enum, bounds, default, required, format, pattern), the request bodies of the write endpoints, the documented fields as schemas with the contexts they are declared for (x-contexts), application passwords as HTTP Basic security, and for each operation its spec section and the behaviours that check it (x-cms-conformance-spec, x-cms-conformance-behaviours). What the spec does not show is left open and named in x-cms-conformance-not-shown. Paths are relative to the server {base}/wp-json (an OpenAPI path cannot carry ?rest_route=); see the README for Prism and Schemathesis.')}

Examples:
  npx cms-conformance openapi --out openapi.yaml
  npx cms-conformance openapi --profile wordpress --format json --out openapi.json

Options:
${helpRows([
  ['--profile spec|wordpress', "The names: the spec's (cms/v2, spamfilter/v1, suite/v4; default) or a real WordPress site's (wp/v2, akismet/v1, jetpack/v4, Jetpack's setting names)."],
  ['--format yaml|json', 'Output format (default: from the --out extension, .json or .yaml/.yml; otherwise yaml).'],
  ['--out FILE', 'Write the document to FILE instead of standard output.'],
  ['--help', 'Show this help.'],
])}

${para('Exit codes: 0 written; 1 written, but a suite file could not be loaded (its behaviours are not linked); 2 usage error (a bad flag, an --out that cannot be written).')}`;

/** Help of each command (serve has its own, in src/cli/serve.ts). */
export const HELP: Record<'global' | 'run' | 'list' | 'compare' | 'selftest' | 'merge' | 'openapi', string> = {
  global: GLOBAL_HELP,
  openapi: OPENAPI_HELP,
  merge: MERGE_HELP,
  run: RUN_HELP,
  list: LIST_HELP,
  compare: COMPARE_HELP,
  selftest: SELFTEST_HELP,
};

export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === '--version' || first === '-v') {
      out.write(`${TOOL.version}\n`);
      return EXIT.ok;
    }
    if (first === '--help' || first === '-h' || (first === 'help' && rest.length === 0)) {
      out.write(`${HELP.global}\n`);
      return EXIT.ok;
    }
    if (first === 'help') return await main([rest[0]!, '--help'], out, err);
    if (first === undefined || first.startsWith('-')) return await run(argv, out, err);
    if (first === 'run') return await run(rest, out, err);
    if (first === 'list') return await list(rest, out);
    if (first === 'serve') return await serve(rest, out, err);
    if (first === 'compare') return await compare(rest, out, err);
    if (first === 'selftest') return await selftest(rest, out, err);
    if (first === 'merge') return await merge(rest, out, err);
    if (first === 'openapi') return await openapi(rest, out, err);
    throw new UsageError(`unknown command "${first}" (commands: run, list, compare, merge, selftest, serve, openapi; see cms-conformance --help)`);
  } catch (e) {
    if (e instanceof UsageError || e instanceof UnreachableError) {
      err.write(`cms-conformance: ${oneLine(e.message)}\n`);
      return e.exitCode;
    }
    err.write(`cms-conformance: internal error: ${oneLine((e as Error)?.message ?? String(e))}\n`);
    if (process.env.CMSC_DEBUG) err.write(`${(e as Error)?.stack ?? ''}\n`);
    else err.write('(this is a bug in cms-conformance; rerun with CMSC_DEBUG=1 to see where)\n');
    return EXIT.internal;
  }
}

/** An error message on one line (the CLI's errors are one line each). */
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

async function run(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv);
  if (values.help) {
    out.write(`${HELP.run}\n`);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance run --help)`);
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>);
  if (cfg.targets) return await runTargets(cfg, out, err);
  // Under `npm run conformance`, npm killed with SIGTERM does not pass it on: its going away is taken as SIGTERM
  // (unless the run is stopping already: Ctrl-C reaches npm and the CLI alike, and npm then goes away first).
  const unwatch = watchParent(() => !stopRequested() && process.kill(process.pid, 'SIGTERM'));
  const outcome = await runConformance(cfg, (l) => err.write(`${l}\n`), { progress: { stream: err, quiet: cfg.quiet } }).finally(unwatch);
  const { results, exitCode } = outcome;
  const s = results.summary;
  const byLevel = LEVELS.filter((l) => s.byLevel[l]?.total).map((l) => `${l} ${s.byLevel[l]!.failed} failed of ${s.byLevel[l]!.total}`);
  // Deviations first (one line each), then the behaviours' counts.
  out.write(`\n${deviationSummary(results).map((l) => `${l}\n`).join('')}${s.total} behaviours: ${s.passed} passed, ${s.failed} failed, ${s.error ?? 0} could not be checked, ${s.skipped} skipped (${byLevel.join('; ')})\n`);
  for (const e of results.errors) out.write(`${e.kind === 'target' ? 'target' : 'harness'} error${e.file ? ` in ${e.file}` : ''}: ${e.message}\n`);
  const network = describeNetwork(results.network);
  if (network) out.write(`${network}\n`);
  const bl = results.baseline;
  if (bl) {
    out.write(`baseline ${bl.file}: ${bl.known.length} known failure(s) still fail, ${bl.newFailures.length} new failure(s), ${bl.nowPassing.length} entr${bl.nowPassing.length === 1 ? 'y now passes' : 'ies now pass'}${bl.notRun.length ? `, ${bl.notRun.length} not run` : ''}\n`);
    for (const d of bl.newDeviations ?? []) out.write(`  new deviation: ${d.level} ${d.item} (${d.newFailures.length} new failure(s): ${d.newFailures.slice(0, 5).join(', ')}${d.newFailures.length > 5 ? ', …' : ''})\n`);
    if (!bl.newDeviations) for (const f of bl.newFailures) out.write(`  new failure: ${f}\n`);
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
  if (results.incomplete) out.write(`INCOMPLETE: ${results.incomplete.message}; ${results.incomplete.notRun} selected behaviour(s) did not run (exit code ${exitCode})\n`);
  const shown = (p: string) => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p) || '.');
  out.write(`reports: ${shown(outcome.reportDir)}${outcome.latest ? ` (also ${shown(outcome.latest)})` : ''}\n`);
  for (const f of outcome.files) out.write(`  ${shown(f)}\n`);
  return exitCode;
}

// ---------------------------------------------------------------- compare

async function compare(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv, compareFlags(), 'compare');
  if (values.help) {
    out.write(`${HELP.compare}\n`);
    return EXIT.ok;
  }
  return runCompare(values, positionals, out, err);
}

async function list(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } }, 'list');
  if (values.help) {
    out.write(`${HELP.list}\n`);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance list --help)`);
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, {});
  const { behaviours, errors } = await listBehaviours(cfg.only);
  if (cfg.only !== undefined && !behaviours.length && !errors.length) throw new UsageError(noneSelected(cfg.only, await declaredTotal()));
  if (values.json) out.write(`${JSON.stringify({ behaviours, errors }, null, 2)}\n`);
  else {
    for (const b of behaviours) out.write(`${b.id}\t${b.level}\t${b.title}\t(${b.spec})${b.location ? `\t${b.location}` : ''}\n`);
    out.write(`${behaviours.length} behaviours\n`);
    for (const e of errors) out.write(`error: ${e}\n`);
  }
  return errors.length ? EXIT.failed : EXIT.ok;
}

async function serve(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { serveMain } = await import('./serve.ts');
  return serveMain(argv, out, err);
}

async function selftest(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { parseArgs } = await import('node:util');
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: joinNegativeValues(argv, new Set(['host', 'faults', 'seed', 'report-dir'])),
      options: { host: { type: 'string' }, faults: { type: 'string' }, seed: { type: 'string' }, 'report-dir': { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (e) {
    throw new UsageError(`${parseArgsMessage(e)} (see cms-conformance selftest --help)`);
  }
  if (values.help) {
    out.write(`${HELP.selftest}\n`);
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
  if (values.seed !== undefined && !/^\d+$/.test(String(values.seed).trim())) throw new UsageError(`--seed must be a whole number, got "${values.seed}"`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  const { allFaults } = await import('../../faults/index.ts');
  const faults = pattern ? allFaults.filter((f) => pattern!.test(f.id)) : allFaults;
  if (!faults.length) throw new UsageError(`--faults ${values.faults} names no fault`);
  const { selftestCommand } = await import('./selftest.ts');
  return selftestCommand({ host, faults, seed, dir: (values['report-dir'] as string | undefined) ?? 'reports/selftest' }, out, err);
}

async function openapi(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { openapiCommand } = await import('./openapi.ts');
  return openapiCommand(argv, out, err, HELP.openapi);
}

// ---------------------------------------------------------------- fleets

/** `run --targets FILE [--shard i/n]`: the shard's sites one after the other (src/fleet/fleet.ts). */
async function runTargets(cfg: RunConfig, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { runFleet } = await import('../fleet/fleet.ts');
  const outcome = await runFleet(cfg, (l) => err.write(`${l}\n`));
  const sites = outcome.shard.sites;
  const done = sites.filter((s) => s.state === 'done');
  const sum = (k: 'passed' | 'failed' | 'skipped' | 'error') => done.reduce((n, s) => n + (s.summary?.[k] ?? 0), 0);
  out.write(`\nshard ${outcome.shard.shard.index}/${outcome.shard.shard.count}: ${sites.length} site(s), ${done.length} run, ${sites.length - done.length} not run; ${sum('passed')} passed, ${sum('failed')} failed, ${sum('error')} could not be checked, ${sum('skipped')} skipped\n`);
  for (const s of sites.filter((x) => x.exitCode)) out.write(`  ${s.id}: exit ${s.exitCode}${s.error ? ` (${s.error})` : ''}\n`);
  out.write(`seed ${outcome.shard.seed}; shard output: ${shownPath(outcome.dir)}${outcome.latest ? ` (also ${shownPath(outcome.latest)})` : ''} (merge with: cms-conformance merge DIR...)\n`);
  return outcome.exitCode;
}

/** `merge DIR...`: shard outputs into one fleet report (src/fleet/merge.ts). */
async function merge(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv);
  if (values.help) {
    out.write(`${HELP.merge}\n`);
    return EXIT.ok;
  }
  if (!positionals.length) throw new UsageError('merge takes the folders of the shard outputs (or results files) to merge (see cms-conformance --help)');
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, {});
  const { mergeFleet } = await import('../fleet/merge.ts');
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
