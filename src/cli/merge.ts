/** `cms-conformance merge DIR...`: its help, and shard outputs and single runs merged into one fleet report (src/fleet/merge.ts). */
import { resolve } from 'node:path';
import { helpRows, parseFlags, resolveConfig } from '../core/config.ts';
import { UsageError } from '../core/errors.ts';
import { mergeFleet } from '../fleet/merge.ts';
import { EXIT } from '../../results/verdict.ts';
import { DEFAULT_REPORTS_ROOT, timestampedDir, updateLatest } from '../../reporters/index.ts';
import { para, shownPath } from './text.ts';

export const MERGE_HELP = `Usage: cms-conformance merge DIR... [--report-dir DIR] [--baseline FILE] [--fail-on LEVEL] [--report LIST]

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

/** `merge DIR...`: shard outputs into one fleet report (src/fleet/merge.ts). */
export async function mergeCommand(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv);
  if (values.help) {
    out.write(`${MERGE_HELP}\n`);
    return EXIT.ok;
  }
  if (!positionals.length) throw new UsageError('merge takes the folders of the shard outputs (or results files) to merge (see cms-conformance --help)');
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, {});
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
