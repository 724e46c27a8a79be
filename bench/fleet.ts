/**
 * Fleet benchmark: a simulated fleet of N reference sites (bench/fleet-sim.ts: one port, each site
 * with its own state, some with named deviations) run read-only as k shards in parallel
 * processes (`run --targets --shard i/k`), merged (`merge`), and the fleet report opened in
 * Chromium. Prints sites per minute, the CPU per site, the merge's time and memory, the report's
 * load time and the time of a filter click; checks that the merged counts equal the sum of the
 * shards. `--scale-merge F` also merges F copies of every shard (F × N sites, the same result
 * files under other site IDs) to measure the merge and the report at F times the size.
 *
 *   npm run bench:fleet -- [--sites 1000] [--shards 4] [--scale-merge 10] [--write] [--keep] [--dir DIR]
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ShardFile } from '../src/fleet.ts';
import type { FleetReport } from '../reporters/fleet.ts';
import { PKG_ROOT } from '../src/paths.ts';
import { startSimulatedFleet } from './fleet-sim.ts';

const { values } = parseArgs({
  options: {
    sites: { type: 'string', default: '1000' },
    shards: { type: 'string', default: '4' },
    'scale-merge': { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    write: { type: 'boolean' },
    keep: { type: 'boolean' },
    dir: { type: 'string' },
  },
});
const N = Number(values.sites);
const K = Number(values.shards);
const SCALE = Number(values['scale-merge']);
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'cmsc-bench-fleet-'));
mkdirSync(dir, { recursive: true });
const BIN = join(PKG_ROOT, 'bin/cms-conformance.js');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

interface Measured {
  code: number;
  wallMs: number;
  /** From /usr/bin/time: CPU seconds (user + system) and peak resident memory (KiB). */
  cpuS?: number;
  maxRssKiB?: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in a child process (under /usr/bin/time when there is one). */
function cli(args: string[], env: Record<string, string> = {}): Promise<Measured> {
  const timeFile = join(dir, `.time-${Math.random().toString(36).slice(2)}`);
  const cmd = TIME ? TIME : process.execPath;
  const argv = TIME ? ['-f', '%e %U %S %M', '-o', timeFile, process.execPath, BIN, ...args] : [BIN, ...args];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env: { ...process.env, ...env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      let cpuS: number | undefined;
      let maxRssKiB: number | undefined;
      if (TIME && existsSync(timeFile)) {
        const [, user, sys, rss] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
        cpuS = user! + sys!;
        maxRssKiB = rss;
        rmSync(timeFile, { force: true });
      }
      resolve({ code: code ?? -1, wallMs, cpuS, maxRssKiB, stdout, stderr });
    });
  });
}

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

console.log(`fleet benchmark: ${N} sites, ${K} shards (parallel processes), read-only, seed ${values.seed}; output in ${dir}`);
const sim = await startSimulatedFleet({ count: N, targetsFile: join(dir, 'sites.txt') });
const started = performance.now();
let shardRuns: Measured[];
let serverRss = 0;
let madeSites = 0;
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
const runWallMs = performance.now() - started;
const shards: ShardFile[] = Array.from({ length: K }, (_, i) => JSON.parse(readFileSync(join(dir, `shard-${i + 1}`, 'shard.json'), 'utf8')));
for (const [i, r] of shardRuns.entries()) if (r.code !== 0 && r.code !== 1) throw new Error(`shard ${i + 1} exited ${r.code}: ${r.stderr.slice(-2000)}`);

const merge = await cli(['merge', ...shards.map((_, i) => join(dir, `shard-${i + 1}`)), '--report-dir', join(dir, 'fleet')]);
if (merge.code !== 0 && merge.code !== 1) throw new Error(`merge exited ${merge.code}: ${merge.stderr}`);
const fleet: FleetReport = JSON.parse(readFileSync(join(dir, 'fleet', 'fleet.json'), 'utf8'));
const shardSum = { passed: 0, failed: 0, skipped: 0, error: 0, total: 0 };
for (const s of shards) for (const site of s.sites) for (const k of Object.keys(shardSum) as (keyof typeof shardSum)[]) shardSum[k] += site.summary?.[k] ?? 0;
const countsEqual = (Object.keys(shardSum) as (keyof typeof shardSum)[]).every((k) => fleet.totals[k] === shardSum[k]);
if (!countsEqual) throw new Error(`merged counts ${JSON.stringify(fleet.totals)} differ from the sum of the shards ${JSON.stringify(shardSum)}`);
if (fleet.sites.length !== N) throw new Error(`merged ${fleet.sites.length} sites, expected ${N}`);
const html = join(dir, 'fleet', 'fleet.html');
const browsed = await browse(html);

// Scale: F copies of every shard (the same result files under other site IDs), merged.
let scaled: { sites: number; merge: Measured; htmlBytes: number; jsonBytes: number; browsed?: Awaited<ReturnType<typeof browse>> } | undefined;
if (SCALE > 1) {
  const copies = join(dir, 'scaled');
  for (let c = 1; c <= SCALE; c++)
    for (const [i, s] of shards.entries()) {
      const copyDir = join(copies, `copy-${c}-shard-${i + 1}`);
      mkdirSync(copyDir, { recursive: true });
      const doc: ShardFile = {
        ...s,
        shard: { index: (c - 1) * K + i + 1, count: SCALE * K, by: 'site' },
        sites: s.sites.map((x) => ({ ...x, id: `${x.id}-copy-${c}`, ...(x.dir ? { dir: relative(copyDir, join(dir, `shard-${i + 1}`, x.dir)) } : {}) })),
      };
      writeFileSync(join(copyDir, 'shard.json'), JSON.stringify(doc));
    }
  const m = await cli(['merge', copies, '--report-dir', join(dir, 'fleet-scaled')]);
  if (m.code !== 0 && m.code !== 1) throw new Error(`scaled merge exited ${m.code}: ${m.stderr}`);
  scaled = {
    sites: SCALE * N,
    merge: m,
    htmlBytes: statSync(join(dir, 'fleet-scaled', 'fleet.html')).size,
    jsonBytes: statSync(join(dir, 'fleet-scaled', 'fleet.json')).size,
    browsed: await browse(join(dir, 'fleet-scaled', 'fleet.html')),
  };
}

const cpuShards = shardRuns.every((r) => r.cpuS !== undefined) ? shardRuns.reduce((n, r) => n + r.cpuS!, 0) : undefined;
const rows: [string, string][] = [
  ['sites × behaviours', `${N} × ${fleet.behaviours.length} (${fleet.totals.total} results: ${fleet.totals.passed} passed, ${fleet.totals.failed} failed, ${fleet.totals.skipped} skipped, ${fleet.totals.error} could not be checked)`],
  ['shards (parallel processes)', `${K}: ${shards.map((s) => s.sites.length).join(' / ')} sites; walls ${shardRuns.map((r) => sec(r.wallMs)).join(' / ')}`],
  ['wall, all shards', `${sec(runWallMs)} → ${((N / runWallMs) * 60_000).toFixed(0)} sites/minute`],
  ...(cpuShards !== undefined ? ([['CPU of the shard processes', `${cpuShards.toFixed(0)} s, ${(cpuShards / N).toFixed(2)} s per site; peak memory per shard ${shardRuns.map((r) => `${Math.round(r.maxRssKiB! / 1024)}`).join(' / ')} MiB`]] as [string, string][]) : []),
  ['reference server (one process, all sites)', `${madeSites} sites made, ${mb(serverRss)} resident (bench process)`],
  ['merge', `${sec(merge.wallMs)} wall${merge.cpuS !== undefined ? `, ${merge.cpuS.toFixed(1)} s CPU, peak ${Math.round(merge.maxRssKiB! / 1024)} MiB` : ''}; fleet.json ${mb(statSync(join(dir, 'fleet', 'fleet.json')).size)}, fleet.html ${mb(statSync(html).size)}`],
  ['merged counts = sum of the shards', countsEqual ? `yes (${fleet.totals.total} = ${shardSum.total})` : 'NO'],
  ['deviations / groups / gating sites', `${fleet.deviations.length} / ${fleet.groups.length} / ${fleet.verdict.gatingSites}; merge exit ${merge.code}`],
  ...(browsed
    ? ([
        ['fleet.html in Chromium: load', sec(browsed.loadMs)],
        ...browsed.filters.map((f) => [`filter click: ${f.what}`, `${f.ms.toFixed(0)} ms (${f.shown})`] as [string, string]),
      ] as [string, string][])
    : []),
  ...(scaled
    ? ([
        [`merge at ${scaled.sites} sites (×${SCALE} copies)`, `${sec(scaled.merge.wallMs)} wall${scaled.merge.cpuS !== undefined ? `, ${scaled.merge.cpuS.toFixed(1)} s CPU, peak ${Math.round(scaled.merge.maxRssKiB! / 1024)} MiB` : ''}; fleet.json ${mb(scaled.jsonBytes)}, fleet.html ${mb(scaled.htmlBytes)}`],
        ...(scaled.browsed
          ? ([
              [`fleet.html at ${scaled.sites} sites: load`, sec(scaled.browsed.loadMs)],
              ...scaled.browsed.filters.map((f) => [`  filter click: ${f.what}`, `${f.ms.toFixed(0)} ms`] as [string, string]),
            ] as [string, string][])
          : []),
      ] as [string, string][])
    : []),
];
const table = ['| what | measured |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
console.log(table);
if (values.write) {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  appendFileSync(join(PKG_ROOT, 'BENCHMARKS.md'), `\n### Fleet: ${N} sites, ${K} shards — ${new Date().toISOString().slice(0, 10)}, ${machine}\n\n\`npm run bench:fleet -- --sites ${N} --shards ${K}${SCALE > 1 ? ` --scale-merge ${SCALE}` : ''}\`\n\n${table}\n`);
  console.log('appended to BENCHMARKS.md');
}
if (!values.keep && !values.dir) rmSync(dir, { recursive: true, force: true });
