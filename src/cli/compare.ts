/**
 * `cms-conformance compare A B`: two sides (a base URL, the embedded WordPress, or a
 * results file) run or read with the same seed and inputs, compared by results/compare.ts,
 * written as compare.html/md/json.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { OPTIONS, helpRows, normalizeBaseUrl, optionRows, parseFlags, resolveConfig, type RunConfig } from '../core/config.ts';
import { UsageError } from '../core/errors.ts';
import { runConformance } from '../run/pipeline.ts';
import type { EmbeddedVersion } from '../run/target.ts';
import { assertSelects, resolveSelection } from '../engine/selection.ts';
import type { Results } from '../../results/results.ts';
import { compareExitCode, compareResults, GROUPS } from '../../results/compare.ts';
import { readinessChangeLines } from '../../reporters/clients.ts';
import { renderCompareHtml, renderCompareMarkdown, deviationCounts } from '../../reporters/compare.ts';
import { DEFAULT_REPORTS_ROOT, timestampedDir, updateLatest } from '../../reporters/index.ts';
import { EXIT } from '../../results/verdict.ts';
import { para, shownPath } from './text.ts';

export const COMPARE_HELP = `Usage: cms-conformance compare <A> <B> [options]

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
${helpRows([...optionRows(OPTIONS.map((o) => o.flag).filter((f) => f !== 'baseline' && f !== 'no-baseline' && f !== 'write-baseline' && f !== 'target')), ['--help', 'Show this help.']])}

${para('Exit codes: 0 nothing gating fails on B that does not fail on A; 1 a gating behaviour fails only on B (B regresses against A); 2, 3 and 4 as for run.')}`;

export async function compareCommand(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv, compareFlags(), 'compare');
  if (values.help) {
    out.write(`${COMPARE_HELP}\n`);
    return EXIT.ok;
  }
  return runCompare(values, positionals, out, err);
}

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

/** The per-side flags of compare (--a-user, --b-profile, ...), for parseFlags. */
export function compareFlags(): Record<string, { type: 'string' }> {
  const extra: Record<string, { type: 'string' }> = {};
  for (const side of ['a', 'b']) for (const f of SIDE_FLAGS) extra[`${side}-${f}`] = { type: 'string' };
  return extra;
}

/**
 * `compare A B` once its flags are parsed: resolve both sides (URL, embedded WordPress, results
 * file), run the sides that are not files with the same seed and inputs, write compare.html/md/json
 * and print the summary. Returns the exit code (compareExitCode).
 */
export async function runCompare(values: Record<string, unknown>, positionals: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  if (positionals.length !== 2) throw new UsageError(`compare takes two sides, A and B (URLs, wordpress@VERSION or results files), got ${positionals.length} (see cms-conformance compare --help)`);
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
  // Both sides run the same selection, resolved once (an --only that selects nothing is a usage error before either runs).
  const selection = await resolveSelection(shared.only);
  await assertSelects(selection);
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
      // Each side as it is: not judged against the known deviations of an embedded release.
      noBaseline: true,
      writeBaseline: undefined,
    };
    err.write(`\n== side ${name}: ${side.kind === 'url' ? side.url : `embedded WordPress ${side.version}`} (seed ${cfg.seed}) ==\n`);
    const outcome = await runConformance(cfg, (l) => err.write(`${l}\n`), { selection, ...(side.kind === 'embedded' ? { wordpressVersion: side.version } : {}), progress: { stream: err, quiet: cfg.quiet } });
    results.push(outcome.results);
    dirs.push(key);
  }
  const label = (s: Side, i: number) => (s.kind === 'url' ? s.url : s.kind === 'embedded' ? `wordpress@${s.version}` : relative(process.cwd(), s.path) || s.path) || `side ${i}`;
  const cmp = compareResults(results[0]!, results[1]!, { a: label(sides[0], 0), b: label(sides[1], 1), aDir: dirs[0], bDir: dirs[1] });
  const formats = shared.report;
  const files: string[] = [];
  if (formats.includes('html')) writeFileSync(join(outDir, 'compare.html'), renderCompareHtml(cmp, shared.failOn, shared.failOnClient)), files.push(join(outDir, 'compare.html'));
  if (formats.includes('md')) writeFileSync(join(outDir, 'compare.md'), renderCompareMarkdown(cmp, shared.failOn, shared.failOnClient)), files.push(join(outDir, 'compare.md'));
  if (formats.includes('json')) writeFileSync(join(outDir, 'compare.json'), `${JSON.stringify(cmp, null, 2)}\n`), files.push(join(outDir, 'compare.json'));
  const latest = shared.reportDir ? undefined : updateLatest(resolve(DEFAULT_REPORTS_ROOT, 'compare'), outDir);

  const sum = (x: { summary: { passed: number; failed: number; skipped: number } }) => `${x.summary.passed} passed, ${x.summary.failed} failed, ${x.summary.skipped} skipped`;
  out.write(`\nA: ${cmp.a.label} (${cmp.a.source}) — ${sum(cmp.a)}\n`);
  out.write(`B: ${cmp.b.label} (${cmp.b.source}) — ${sum(cmp.b)}\n`);
  for (const l of readinessChangeLines(cmp.clients)) out.write(`client readiness changed: ${l}\n`);
  out.write(`${deviationCounts(cmp)}\n`);
  for (const d of cmp.deviations.filter((x) => x.group === 'only-b')) out.write(`  only B deviates: ${d.level} ${d.item} (${d.b?.length ?? 0} behaviour(s)): ${d.message.split('\n')[0]!.slice(0, 160)}\n`);
  out.write(`${GROUPS.map((g) => `${g}: ${cmp.counts[g]}`).join(' · ')}\n`);
  for (const x of cmp.behaviours.filter((b) => b.group === 'only-b-fails')) out.write(`  only B fails: ${x.id} (${x.level}) ${x.bReason ?? ''}\n`);
  if (cmp.advertised) out.write(`advertised differences: ${cmp.advertised.routes.length} route(s), ${cmp.advertised.argChanges} arg change(s), ${cmp.advertised.namespaces.onlyA.length + cmp.advertised.namespaces.onlyB.length} namespace(s)\n`);
  for (const w of cmp.warnings) out.write(`warning: ${w}\n`);
  out.write(`comparison: ${shownPath(outDir)}${latest ? ` (also ${shownPath(latest)})` : ''}\n`);
  for (const f of files) out.write(`  ${shownPath(f)}\n`);
  return compareExitCode(cmp, shared.failOn, shared.failOnClient);
}
