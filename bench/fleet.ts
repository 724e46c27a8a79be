/**
 * Fleet benchmark: a simulated fleet of N reference sites (bench/fleet-sim.ts: one port, each site
 * with its own state, some with named deviations) run read-only as k shards in parallel
 * processes (`run --targets --shard i/k`), merged (`merge`), and the fleet report opened in
 * Chromium. Prints sites per minute, the CPU per site, the merge's time and memory, the report's
 * load time and the time of a filter click; checks that the merged counts equal the sum of the
 * shards. `--merge-sites 1000,10000` also merges that many sites made of copies of the sites
 * that ran (the same result files under other site IDs), to measure the merge and the report at
 * those sizes. `--from DIR` skips running: it merges the shard outputs in DIR (the sites that
 * finished) and the copies.
 *
 *   npm run bench:fleet -- [--sites 1000] [--shards 4] [--merge-sites 10000] [--write] [--keep] [--dir DIR]
 *   npm run bench:fleet -- --from DIR --merge-sites 1000,10000
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ShardFile } from '../src/fleet/fleet.ts';
import type { Counts } from '../results/results.ts';
import type { FleetReport } from '../results/fleet-matrix.ts';
import { PKG_ROOT } from '../src/core/paths.ts';
import { startSimulatedFleet } from './fleet-sim.ts';
import { timedCli, type Measured } from './measure.ts';

const { values } = parseArgs({
  options: {
    sites: { type: 'string', default: '1000' },
    shards: { type: 'string', default: '4' },
    'merge-sites': { type: 'string', default: '' },
    from: { type: 'string' },
    seed: { type: 'string', default: '1' },
    write: { type: 'boolean' },
    keep: { type: 'boolean' },
    dir: { type: 'string' },
  },
});
const N = Number(values.sites);
const K = Number(values.shards);
/** Also merge this many sites (copies of the sites run, under other IDs): e.g. 1000,10000. */
const MERGE_SITES = values['merge-sites'] ? values['merge-sites'].split(',').map(Number) : [];
const dir = values.from ?? values.dir ?? mkdtempSync(join(tmpdir(), 'cmsc-bench-fleet-'));
mkdirSync(dir, { recursive: true });

/** Run the CLI in a child process (under /usr/bin/time when there is one). */
const cli = (args: string[], env: Record<string, string> = {}): Promise<Measured> => timedCli(args, { env, cwd: process.cwd() });

/** Open a fleet report in Chromium: load time, and the time of filter changes (in the page: event to matrix redrawn and painted). */
async function browse(file: string): Promise<{ loadMs: number; filters: { what: string; ms: number; shown: string }[] } | undefined> {
  const chromium = process.env.CMSC_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) return undefined;
  const { chromium: pw } = await import('playwright-core');
  const browser = await pw.launch({ executablePath: chromium, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const t0 = performance.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await page.waitForFunction(() => (document.getElementById('fm-shown')?.textContent ?? '') !== '');
    const loadMs = performance.now() - t0;
    const filters: { what: string; ms: number; shown: string }[] = [];
    const act = async (what: string, fn: string) => {
      const r = await page.evaluate(
        (code) =>
          new Promise<{ ms: number; shown: string }>((done) => {
            const t = performance.now();
            new Function(code)();
            // After the change handler ran, wait for the next paint.
            requestAnimationFrame(() => setTimeout(() => done({ ms: performance.now() - t, shown: document.getElementById('fm-shown')!.textContent! }), 0));
          }),
        fn,
      );
      filters.push({ what, ...r });
    };
    await act('status: also skipped', `document.querySelector('#ff input[data-st="s"]').click()`);
    await act('namespace: spamfilter/v1', `const s = document.getElementById('f-ns'); s.value = 'spamfilter/v1'; s.dispatchEvent(new Event('change'))`);
    await act('reset', `document.getElementById('f-reset').click()`);
    await act('group 1', `const s = document.getElementById('f-group'); s.value = '0'; s.dispatchEvent(new Event('change'))`);
    return { loadMs, filters };
  } finally {
    await browser.close();
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface RunPhase {
  shardRuns: Measured[];
  wallMs: number;
  serverRss: number;
  madeSites: number;
}

let run: RunPhase | undefined;
if (!values.from) {
  console.log(`fleet benchmark: ${N} sites, ${K} shards (parallel processes), read-only, seed ${values.seed}; output in ${dir}`);
  const sim = await startSimulatedFleet({ count: N, targetsFile: join(dir, 'sites.txt') });
  const started = performance.now();
  let serverRss = 0;
  let madeSites = 0;
  let shardRuns: Measured[];
  try {
    shardRuns = await Promise.all(
      Array.from({ length: K }, (_, i) =>
        cli(['run', '--targets', sim.targetsFile, '--shard', `${i + 1}/${K}`, '--seed', String(values.seed), '--read-only', '--report', 'json,html', '--report-dir', join(dir, `shard-${i + 1}`)], sim.env),
      ),
    );
  } finally {
    serverRss = process.memoryUsage().rss;
    madeSites = sim.sites.made();
    await sim.stop();
  }
  for (const [i, r] of shardRuns.entries()) if (r.code !== 0 && r.code !== 1) throw new Error(`shard ${i + 1} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  run = { shardRuns, wallMs: performance.now() - started, serverRss, madeSites };
} else console.log(`fleet benchmark: the shard outputs in ${dir}`);

const shardDirs = readdirSync(dir)
  .filter((d) => /^shard-\d+$/.test(d))
  .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)))
  .map((d) => join(dir, d));
const shards: ShardFile[] = shardDirs.map((d) => JSON.parse(readFileSync(join(d, 'shard.json'), 'utf8')));
const done = shards.flatMap((s, i) => s.sites.filter((x) => x.state === 'done').map((x) => ({ ...x, shardDir: shardDirs[i]! })));

/** Merge, check that the counts equal the sum of the inputs, open the report. */
async function mergeAndBrowse(inputs: string[], outDir: string, sum: Record<'passed' | 'failed' | 'skipped' | 'error' | 'total', number>) {
  const m = await cli(['merge', ...inputs, '--report-dir', outDir]);
  if (m.code !== 0 && m.code !== 1 && m.code !== 3) throw new Error(`merge exited ${m.code}: ${m.stderr}`);
  const fleet: FleetReport = JSON.parse(readFileSync(join(outDir, 'fleet.json'), 'utf8'));
  const equal = (Object.keys(sum) as (keyof typeof sum)[]).every((k) => fleet.totals[k] === sum[k]);
  if (!equal) throw new Error(`merged counts ${JSON.stringify(fleet.totals)} differ from the sum of the shards ${JSON.stringify(sum)}`);
  return {
    merge: m,
    fleet,
    jsonBytes: statSync(join(outDir, 'fleet.json')).size,
    htmlBytes: statSync(join(outDir, 'fleet.html')).size,
    browsed: await browse(join(outDir, 'fleet.html')),
  };
}
const sumOf = (sites: { summary?: Counts }[]) => {
  const sum = { passed: 0, failed: 0, skipped: 0, error: 0, total: 0 };
  for (const x of sites) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += x.summary?.[k] ?? 0;
  return sum;
};

const real = await mergeAndBrowse(shardDirs, join(dir, 'fleet'), sumOf(shards.flatMap((s) => s.sites)));
const fleet = real.fleet;

// Larger fleets: copies of the sites that ran (their result files, under other IDs), in K shards.
const scaled: { sites: number; r: Awaited<ReturnType<typeof mergeAndBrowse>> }[] = [];
for (const size of MERGE_SITES) {
  const copies = join(dir, `copies-${size}`);
  rmSync(copies, { recursive: true, force: true });
  const per = Math.ceil(size / K);
  const picked: (typeof done)[number][][] = Array.from({ length: K }, () => []);
  for (let n = 0; n < size; n++) picked[Math.floor(n / per)]!.push({ ...done[n % done.length]!, id: `copy-${n + 1}` });
  for (const [k, sites] of picked.entries()) {
    const copyDir = join(copies, `shard-${k + 1}`);
    mkdirSync(copyDir, { recursive: true });
    const doc: ShardFile = {
      ...shards[0]!,
      shard: { index: k + 1, count: K, by: 'site' },
      targets: { ...shards[0]!.targets, digest: `copies-${size}`, sites: size },
      sites: sites.map(({ shardDir, ...x }) => ({ ...x, dir: relative(copyDir, join(shardDir, x.dir!)) })),
    };
    writeFileSync(join(copyDir, 'shard.json'), JSON.stringify(doc));
  }
  scaled.push({ sites: size, r: await mergeAndBrowse([copies], join(dir, `fleet-${size}`), sumOf(picked.flat())) });
}

const mergeRow = (m: Measured, r: { jsonBytes: number; htmlBytes: number }) =>
  `${sec(m.wallMs)} wall${m.cpuS !== undefined ? `, ${m.cpuS.toFixed(1)} s CPU, peak ${Math.round(m.maxRssKiB! / 1024)} MiB` : ''}; fleet.json ${mb(r.jsonBytes)}, fleet.html ${mb(r.htmlBytes)}`;
const browseRows = (label: string, b: Awaited<ReturnType<typeof browse>>): [string, string][] =>
  b ? [[`${label}: fleet.html in Chromium, load`, sec(b.loadMs)], ...b.filters.map((f) => [`${label}: filter click, ${f.what}`, `${f.ms.toFixed(0)} ms (${f.shown})`] as [string, string])] : [];
const cpuShards = run?.shardRuns.every((r) => r.cpuS !== undefined) ? run.shardRuns.reduce((n, r) => n + r.cpuS!, 0) : undefined;
const rows: [string, string][] = [
  ['sites × behaviours run', `${done.length} × ${fleet.behaviours.length} (${shards.reduce((n, s) => n + s.sites.length, 0)} in the shards; ${fleet.totals.total} results: ${fleet.totals.passed} passed, ${fleet.totals.failed} failed, ${fleet.totals.skipped} skipped, ${fleet.totals.error} could not be checked)`],
  ['shards', `${shards.length}: ${shards.map((s) => `${s.sites.filter((x) => x.state === 'done').length}/${s.sites.length}`).join(' · ')} sites done`],
  ...(run
    ? ([
        ['wall, all shards in parallel', `${sec(run.wallMs)} → ${((done.length / run.wallMs) * 60_000).toFixed(0)} sites/minute; shard walls ${run.shardRuns.map((r) => sec(r.wallMs)).join(' / ')}`],
        ...(cpuShards !== undefined ? ([['CPU of the shard processes', `${cpuShards.toFixed(0)} s, ${(cpuShards / done.length).toFixed(2)} s per site; peak memory per shard ${run.shardRuns.map((r) => Math.round(r.maxRssKiB! / 1024)).join(' / ')} MiB`]] as [string, string][]) : []),
        ['reference server (one process, all sites)', `${run.madeSites} sites made, ${mb(run.serverRss)} resident (bench process)`],
      ] as [string, string][])
    : []),
  [`merge of the shards (${fleet.sites.length} sites)`, mergeRow(real.merge, real)],
  ['merged counts = sum of the shards', `yes (${fleet.totals.total}); deviations ${fleet.deviations.length}, groups ${fleet.groups.length}, gating sites ${fleet.verdict.gatingSites}; merge exit ${real.merge.code}`],
  ...browseRows(`${fleet.sites.length} sites`, real.browsed),
  ...scaled.flatMap(({ sites, r }) => [[`merge of ${sites} sites (copies)`, mergeRow(r.merge, r)] as [string, string], ...browseRows(`${sites} sites`, r.browsed)]),
];
const table = ['| what | measured |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
console.log(table);
if (values.write) {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  appendFileSync(join(PKG_ROOT, 'BENCHMARKS.md'), `\n### Fleet: ${done.length} sites, ${shards.length} shards — ${new Date().toISOString().slice(0, 10)}, ${machine}\n\n\`npm run bench:fleet -- ${values.from ? '--from DIR' : `--sites ${N} --shards ${K}`}${MERGE_SITES.length ? ` --merge-sites ${MERGE_SITES.join(',')}` : ''}\`\n\n${table}\n`);
  console.log('appended to BENCHMARKS.md');
}
if (!values.keep && !values.dir && !values.from) rmSync(dir, { recursive: true, force: true });
