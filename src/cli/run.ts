/**
 * `cms-conformance run` (the default command): its help, and one run against a target with the
 * summary it prints (src/run/pipeline.ts does the run).
 */
import { helpRows, optionRows, parseFlags, resolveConfig } from '../core/config.ts';
import { UsageError } from '../core/errors.ts';
import { runConformance } from '../run/pipeline.ts';
import { stopRequested, watchParent } from '../run/stop.ts';
import { deviationSummary } from '../../results/deviations.ts';
import { readinessLines } from '../../reporters/clients.ts';
import { LEVELS, describeNetwork } from '../../results/results.ts';
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

${para('Reports: results.json, report.html, report.md, junit.xml and events.ndjson in reports/<timestamp>/ (reports/latest points to the newest), or exactly in --report-dir.')}

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
  const s = results.summary;
  const byLevel = LEVELS.filter((l) => s.byLevel[l]?.total).map((l) => `${l} ${s.byLevel[l]!.failed} failed of ${s.byLevel[l]!.total}`);
  // Deviations first (one line each), then the behaviours' counts.
  out.write(`\n${deviationSummary(results).map((l) => `${l}\n`).join('')}${s.total} behaviours: ${s.passed} passed, ${s.failed} failed, ${s.error ?? 0} could not be checked, ${s.skipped} skipped (${byLevel.join('; ')})\n`);
  for (const l of readinessLines(results.clients)) out.write(`${l}\n`);
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
  out.write(`reports: ${shownPath(outcome.reportDir)}${outcome.latest ? ` (also ${shownPath(outcome.latest)})` : ''}\n`);
  for (const f of outcome.files) out.write(`  ${shownPath(f)}\n`);
  return exitCode;
}
