/**
 * `cms-conformance run` (the default command): its help, and one run against a target with the
 * summary it prints (src/run/pipeline.ts does the run).
 */
import { helpRows, optionRows, parseFlags, resolveConfig } from '../core/config.ts';
import { UsageError } from '../core/errors.ts';
import { runConformance } from '../run/pipeline.ts';
import { stopRequested, watchParent } from '../run/stop.ts';
import { describeNetwork, leftBehindLines, type Results } from '../../results/results.ts';
import { countsLine, deviationLines, incompleteWhy, modeLine, notCheckedLines, verdictLine } from '../../reporters/headline.ts';
import type { RunOutcome } from '../run/finish.ts';
import { readinessLines } from '../../reporters/clients.ts';
import { EXIT, EXIT_CODE_MEANINGS } from '../../results/verdict.ts';
import { para, shownPath } from './text.ts';

export const RESULTS_NOTE = `Each behaviour has a level (SECURITY: who may do what without credentials; MUST: stated by the specification; SHOULD: what the reference implementation does where the specification is silent) and a status: passed, failed, skipped (always with its reason) or error (the check could not be made: the target did not answer usably, or cms-conformance broke; never a failure).`;

/** The exit codes of run (results/verdict.ts), for help texts. */
export const EXIT_ROWS: [string, string][] = EXIT_CODE_MEANINGS.map(([code, meaning]) => [String(code), meaning]);

export const RUN_HELP = `Usage: cms-conformance run [options]

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

${para('Reports: results.json, report.html, report.md, junit.xml and events.ndjson in reports/<timestamp>/ (reports/latest points to the newest run, reports/latest-<target> to the newest against that target: latest-wordpress-6.5.5, latest-reference, latest-127.0.0.1-8080), or exactly in --report-dir.')}

${para(RESULTS_NOTE)}

Exit codes:
${helpRows(EXIT_ROWS, 5)}`;

/** `run [options]`: one target, or the sites of a targets file (src/cli/targets.ts). */
export async function runCommand(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv);
  if (values.help) {
    out.write(`${RUN_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance run --help)`);
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>);
  if (cfg.targets) return (await import('./targets.ts')).runTargets(cfg, out, err);
  // Under `npm run conformance`, npm killed with SIGTERM does not pass it on: its going away is taken as SIGTERM
  // (unless the run is stopping already: Ctrl-C reaches npm and the CLI alike, and npm then goes away first).
  const unwatch = watchParent(() => !stopRequested() && process.kill(process.pid, 'SIGTERM'));
  const outcome = await runConformance(cfg, (l) => err.write(`${l}\n`), { progress: { stream: err, quiet: cfg.quiet } }).finally(unwatch);
  const { results, exitCode } = outcome;
  for (const line of summaryLines(outcome)) out.write(`${line}\n`);
  return exitCode;
}

/**
 * The summary a run prints, in blocks (each a function, so that new blocks slot in): it leads with
 * the verdict and the deviations (new ones first), then the behaviours' counts and what the run
 * met; its last lines say how the target was checked, what was left unchecked and the verdict
 * again, then where the reports are.
 */
export function summaryLines(outcome: RunOutcome, width = 160): string[] {
  const r = outcome.results;
  return [
    '',
    verdictLine(r),
    ...deviationLines(r, width),
    countsLine(r),
    ...readinessLines(r.clients),
    ...errorLines(r),
    ...(describeNetwork(r.network) ? [describeNetwork(r.network)!] : []),
    ...baselineLines(outcome),
    ...coverageLines(r),
    `seed ${r.seed}; ${r.requests.count} requests`,
    ...checkedLines(r),
    ...closingLines(outcome),
    // Last: what the run created and could not delete, and the command that removes it (results/left-behind.ts).
    ...leftBehindLines(r.leftBehind),
  ];
}

function errorLines(r: Results): string[] {
  return r.errors.map((e) => `${e.kind === 'target' ? 'target' : 'harness'} error${e.file ? ` in ${e.file}` : ''}: ${e.message}`);
}

/** The baseline's outcome beyond the deviations: the entries that now pass (to remove), the file written. */
function baselineLines(outcome: RunOutcome): string[] {
  const bl = outcome.results.baseline;
  const lines: string[] = [];
  if (bl) {
    const what = bl.source === 'release' ? `known deviations of ${bl.release} (${bl.file}; --no-baseline for the plain verdict)` : `baseline ${bl.file}`;
    // CLIENT findings are readiness (their lines above), not failures a baseline accepts or lacks.
    const client = new Set(outcome.results.behaviours.filter((b) => b.level === 'CLIENT').map((b) => b.id));
    const fresh = bl.newFailures.filter((id) => !client.has(id));
    const readiness = bl.newFailures.length - fresh.length;
    lines.push(`${what}: ${bl.known.length} known failure(s) still fail, ${fresh.length} new failure(s)${readiness ? ` (and ${readiness} CLIENT finding(s), readiness)` : ''}, ${bl.nowPassing.length} entr${bl.nowPassing.length === 1 ? 'y now passes' : 'ies now pass'}${bl.notRun.length ? `, ${bl.notRun.length} not run` : ''}`);
    if (!bl.newDeviations) for (const f of fresh) lines.push(`  new failure: ${f}`);
    for (const p of bl.nowPassing) lines.push(`  now passes${bl.source === 'release' ? '' : ' (remove it from the baseline)'}: ${p.id}`);
  }
  if (outcome.baselineWritten) lines.push(`baseline written: ${outcome.baselineWritten} (${outcome.results.summary.failed} failure(s) in ${outcome.results.deviations?.length ?? 0} deviation(s); edit the "reason" of each deviation)`);
  return lines;
}

function coverageLines(r: Results): string[] {
  const cov = r.coverage;
  if (!cov) return [];
  return [
    `${cov.behavioural ? `behavioural coverage: ${cov.behavioural.percent} % (${cov.behavioural.covered} of ${cov.items} items exercised by a request); ` : ''}with discovery: ${cov.percent} % (${cov.covered})`,
  ];
}

/** How the target was checked and what was left unchecked. */
function checkedLines(r: Results): string[] {
  const mode = modeLine(r);
  return [...(mode ? [mode] : []), ...notCheckedLines(r)];
}

/** The verdict again (with the exit code), and where the reports are. */
function closingLines(outcome: RunOutcome): string[] {
  const r = outcome.results;
  const why = incompleteWhy(r);
  return [
    ...(r.incomplete ? [`INCOMPLETE: ${r.incomplete.message}; ${r.incomplete.notRun} selected behaviour(s) did not run (exit code ${outcome.exitCode})`] : []),
    `${verdictLine(r)}${why ? `: ${why}` : ''} (exit code ${outcome.exitCode})`,
    `reports: ${shownPath(outcome.reportDir)}${outcome.latest ? ` (also ${shownPath(outcome.latest)}, the newest run${outcome.latestOfTarget ? `, and ${shownPath(outcome.latestOfTarget)}, the newest against this target` : ''})` : ''}`,
    ...outcome.files.map((f) => `  ${shownPath(f)}`),
  ];
}
