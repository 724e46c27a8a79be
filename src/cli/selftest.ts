/**
 * `cms-conformance selftest`: self-test by fault injection. Run the suite against a healthy host
 * once (the baseline), then once per named fault through the fault-injecting proxy, and report
 * which faults were caught by which behaviours (the mutation score). A missed fault is a gap in the suite.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { helpRows, joinNegativeValues, parseArgsMessage } from '../core/config.ts';
import type { Results } from '../../results/results.ts';
import { allFaults } from '../../faults/index.ts';
import type { Fault } from '../../faults/proxy.ts';
import { UnreachableError, UsageError } from '../core/errors.ts';
import { para } from './text.ts';
import { EXIT } from '../../results/verdict.ts';
import { NON_GMT_TIMEZONE, bootTarget, type Target } from '../run/target.ts';
import { outcome, proveFaults, roundOutcomes, scopeFor, type FaultOutcome } from '../proof/proof.ts';

export { bootTarget, outcome, scopeFor, type FaultOutcome, type Target };

export const SELFTEST_HELP = `Usage: cms-conformance selftest [--host reference|wordpress] [--faults PATTERN] [--seed N]
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

/** `selftest [flags]`: the flags checked (every bad value a usage error), then selftestCommand. */
export async function selftestMain(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
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
    out.write(`${SELFTEST_HELP}\n`);
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
  const faults = pattern ? allFaults.filter((f) => pattern!.test(f.id)) : allFaults;
  if (!faults.length) throw new UsageError(`--faults ${values.faults} names no fault`);
  return selftestCommand({ host, faults, seed, dir: (values['report-dir'] as string | undefined) ?? 'reports/selftest' }, out, err);
}


export interface SelftestReport {
  host: string;
  startedAt: string;
  baseline: { passed: number; failed: number; skipped: number; total: number };
  faults: FaultOutcome[];
  caught: number;
  total: number;
  /** caught ÷ total */
  score: number;
}

export async function runSelftest(opts: {
  host: Target;
  faults?: Fault[];
  seed?: number;
  log?: (line: string) => void;
}): Promise<SelftestReport> {
  const { host } = opts;
  const faults = opts.faults ?? allFaults;
  const log = opts.log ?? (() => {});
  const startedAt = new Date().toISOString();
  log(`baseline: full run against the ${host.label} ...`);
  let baseline: Results | undefined;
  const results: FaultOutcome[] = [];
  // One fault per round, each run over the areas its behaviours belong to.
  await proveFaults(host, {
    rounds: faults.map((f) => [f]),
    scope: (fs) => scopeFor(fs[0]!),
    seed: opts.seed ?? 1,
    // The self-test boots its host itself (and every run restores what it changes): a fresh site.
    baselineArgs: ['--fresh-site'],
    roundArgs: ['--fresh-site'],
    // Every run in this process on one suite engine (no CLI start per fault).
    inProcess: true,
    onBaseline: (run) => {
      baseline = run.results();
      const b = baseline.summary;
      log(`baseline: ${b.passed} passed, ${b.failed} failed, ${b.skipped} skipped`);
    },
    onRound: (round) => {
      for (const o of roundOutcomes(round, baseline!)) {
        results.push(o);
        if (o.error) log(`ERROR ${o.id}: ${o.error}`);
        else log(`${o.caught ? 'caught' : 'MISSED'} ${o.id}${o.caught ? ` by ${o.caughtBy.slice(0, 3).join(', ')}${o.caughtBy.length > 3 ? ` (+${o.caughtBy.length - 3})` : ''}` : ''}`);
      }
    },
  });
  const b = baseline!.summary;
  const caught = results.filter((r) => r.caught).length;
  return {
    host: host.label,
    startedAt,
    baseline: { passed: b.passed, failed: b.failed, skipped: b.skipped, total: b.total },
    faults: results,
    caught,
    total: results.length,
    score: results.length ? caught / results.length : 0,
  };
}

export function selftestMarkdown(r: SelftestReport): string {
  const lines = [
    `# Self-test: mutation score ${(r.score * 100).toFixed(1)}% (${r.caught} of ${r.total} faults caught)`,
    '',
    `Host: ${r.host}. Baseline: ${r.baseline.passed} passed, ${r.baseline.failed} failed, ${r.baseline.skipped} skipped.`,
    '',
    '| fault | what the broken server does | caught | by |',
    '|---|---|---|---|',
    ...r.faults.map(
      (f) =>
        `| \`${f.id}\` | ${f.title.replace(/\|/g, '\\|')} | ${f.caught ? 'yes' : '**no**'} | ${f.error ? `error: ${f.error}` : f.caughtBy.slice(0, 4).join(', ')}${f.caughtBy.length > 4 ? ` (+${f.caughtBy.length - 4})` : ''} |`,
    ),
  ];
  const missed = r.faults.filter((f) => !f.caught);
  if (missed.length) lines.push('', '## Missed faults (gaps to close)', '', ...missed.map((f) => `- \`${f.id}\`: ${f.title}${f.notApplicable.length ? ` (named behaviours not applicable on this host: ${f.notApplicable.join(', ')})` : ''}`));
  return lines.join('\n') + '\n';
}

/**
 * `selftest` once its flags are checked: boot the host, run the suite once healthy and once per
 * fault through the proxy, write selftest.json and selftest.md to `dir`, print the mutation score.
 * Returns the exit code (0 when every fault was caught).
 */
export async function selftestCommand(
  opts: { host: 'reference' | 'wordpress'; faults: Fault[]; seed: number; dir: string },
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const dir = resolve(opts.dir);
  const { host, faults, seed } = opts;
  let booted;
  try {
    // Every run of the self-test passes --fresh-site: a host that stays fresh; the reference server
    // in a timezone that is not GMT (dates show the offset).
    booted = await bootTarget(host, { fresh: true, ...(host === 'reference' ? { timezone: NON_GMT_TIMEZONE } : {}) });
  } catch (e) {
    throw e instanceof UnreachableError ? e : new UnreachableError(`cannot boot the ${host} host: ${(e as Error).message}`);
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
    return report.caught === report.total ? EXIT.ok : EXIT.failed;
  } finally {
    await booted.stop();
  }
}
