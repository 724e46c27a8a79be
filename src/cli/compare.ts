/**
 * The `compare` command's orchestration: two sides (a base URL, the embedded WordPress, or a
 * results file) run or read with the same seed and inputs, compared by results/compare.ts,
 * written as compare.html/md/json. The CLI parses the flags and calls runCompare.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { normalizeBaseUrl, resolveConfig, type RunConfig } from '../core/config.ts';
import { UsageError } from '../core/errors.ts';
import { assertSelects, declaredFor, runConformance, type EmbeddedVersion } from '../run/runner.ts';
import type { Results } from '../../results/results.ts';
import { compareExitCode, compareResults, GROUPS } from '../../results/compare.ts';
import { renderCompareHtml, renderCompareMarkdown, deviationCounts } from '../../reporters/compare.ts';
import { DEFAULT_REPORTS_ROOT, timestampedDir, updateLatest } from '../../reporters/index.ts';

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
  if (shared.only !== undefined) {
    await assertSelects(shared.only, await declaredFor(shared.only, true));
  }
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
    const outcome = await runConformance(cfg, (l) => err.write(`${l}\n`), { ...(side.kind === 'embedded' ? { wordpressVersion: side.version } : {}), progress: { stream: err, quiet: cfg.quiet } });
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
  out.write(`${deviationCounts(cmp)}\n`);
  for (const d of cmp.deviations.filter((x) => x.group === 'only-b')) out.write(`  only B deviates: ${d.level} ${d.item} (${d.b?.length ?? 0} behaviour(s)): ${d.message.split('\n')[0]!.slice(0, 160)}\n`);
  out.write(`${GROUPS.map((g) => `${g}: ${cmp.counts[g]}`).join(' · ')}\n`);
  for (const x of cmp.behaviours.filter((b) => b.group === 'only-b-fails')) out.write(`  only B fails: ${x.id} (${x.level}) ${x.bReason ?? ''}\n`);
  if (cmp.advertised) out.write(`advertised differences: ${cmp.advertised.routes.length} route(s), ${cmp.advertised.argChanges} arg change(s), ${cmp.advertised.namespaces.onlyA.length + cmp.advertised.namespaces.onlyB.length} namespace(s)\n`);
  for (const w of cmp.warnings) out.write(`warning: ${w}\n`);
  const shown = (p: string) => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p));
  out.write(`comparison: ${shown(outDir)}${latest ? ` (also ${shown(latest)})` : ''}\n`);
  for (const f of files) out.write(`  ${shown(f)}\n`);
  return compareExitCode(cmp, shared.failOn);
}
