/**
 * Benchmark of the three figures issue 14 sets goals for, in one run, each with its goal:
 *
 * - `reference`: a full run (seed 1) against `--target reference`, after a warm-up run:
 *   wall, CPU seconds and peak memory of the CLI process (from /usr/bin/time; goal <= 5 s wall,
 *   <= 8 CPU-s, <= 300 MB).
 * - `plugins`: a full run (seed 1) against the real WordPress 7.1 + plugins site
 *   (../shared/targets/boot.sh, native PHP, 4 workers, a fresh site): wall, requests, and the CPU
 *   the PHP processes used during the run (read from /proc of the server's process group), so
 *   ratio = wall / (PHP CPU-s / cores): how much longer the run takes than the target alone
 *   needs on this machine (goal <= 1.05).
 * - `tests`: `npm test` (both vitest projects) and `npm run test:unit`, wall and CPU (goals, issue 28:
 *   <= 5 min on an idle 2-core machine, and <= 30 s).
 * - `fleet`: CPU per site of one fleet shard process (read-only, `--report json,html`, seed 1) over
 *   a simulated fleet of `--fleet-sites` reference sites (bench/fleet-sim.ts, in this process; goal
 *   issue 28: <= 0.5 CPU-s per site).
 *
 * Issue 28 judges the `plugins` row by what does not depend on the machine's load: the requests
 * of the run (goal <= 3,000, with per-route counts from its events.ndjson) and cms-conformance's
 * CPU divided by the PHP target's CPU in the same run (goal <= 3 %).
 *
 * The load average (1 min) is printed before and after each row: on a shared machine the
 * figures are only comparable between runs made under the same load.
 *
 *   npm run bench [-- --rows reference,plugins,fleet,tests] [-- --write] [-- --port 8613] [-- --fleet-sites 20]
 */
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Results } from '../results/results.ts';
import { bootTarget, bootShAvailable, type Target } from '../src/run/target.ts';
import { PKG_ROOT } from '../src/core/paths.ts';
import { startSimulatedFleet } from './fleet-sim.ts';
import { requestsByRoute, requestsInAll, timed, timedCli } from './measure.ts';

const { values } = parseArgs({
  options: {
    write: { type: 'boolean' },
    rows: { type: 'string', default: 'reference,plugins,fleet,tests' },
    port: { type: 'string' },
    'fleet-sites': { type: 'string', default: '20' },
  },
});
const rows = values.rows!.split(',');
const cores = availableParallelism();
/** CPU seconds used so far by the processes of a process group (live ones and the children they reaped). */
export function groupCpuSeconds(pgid: number): number {
  const tick = 100; // USER_HZ on Linux
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after the command: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
    if (Number(f[2]) !== pgid) continue;
    ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  return ticks / tick;
}

const mb = (kib: number | undefined) => (kib === undefined ? '?' : (kib / 1024).toFixed(0));
const load = () => loadavg()[0]!.toFixed(1);
const cliRun = (host: Target, reportDir: string) => [
  process.execPath, join(PKG_ROOT, 'bin/cms-conformance.js'), 'run', '--target', host.url, '--user', host.user, '--app-password', host.appPassword,
  '--seed', '1', '--quiet', '--report-dir', reportDir,
];
const results = (dir: string) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
const tmp = (name: string) => join('/tmp', `cmsc-bench-${process.pid}-${name}`);


const lines: string[] = [];
const row = (s: string) => {
  lines.push(s);
  console.log(s);
};
row('| row | measured | goal | load before → after |');
row('|---|---|---|---|');

if (rows.includes('reference')) {
  // The CLI boots the reference server in its own process: its CPU and memory are part of the figure.
  const argv = [process.execPath, join(PKG_ROOT, 'bin/cms-conformance.js'), 'run', '--target', 'reference', '--seed', '1', '--quiet', '--report-dir', tmp('reference')];
  await timed(argv); // warm-up: Vite's transform cache
  const before = load();
  const m = await timed(argv);
  const r = results(tmp('reference'));
  row(
    `| \`run --target reference\` (${r.summary.total} behaviours, ${r.requests.count} requests) | ${(m.wallMs / 1000).toFixed(1)} s wall, ${m.cpuS?.toFixed(1) ?? '?'} CPU-s, ${mb(m.maxRssKiB)} MB peak | ≤ 5 s, ≤ 8 CPU-s, ≤ 300 MB | ${before} → ${load()} |`,
  );
}

if (rows.includes('plugins')) {
  if (!bootShAvailable()) row('| WordPress 7.1 + plugins (boot.sh) | not measured: boot.sh is not beside the checkout | ratio ≤ 1.05 | |');
  else {
    const host = await bootTarget('plugins', values.port ? { port: Number(values.port) } : {});
    try {
      const pgid = Number(readFileSync(host.pidFile!, 'utf8').trim());
      const before = load();
      const cpu0 = groupCpuSeconds(pgid);
      const m = await timed(cliRun(host, tmp('plugins')));
      const php = groupCpuSeconds(pgid) - cpu0;
      const r = results(tmp('plugins'));
      const ratio = m.wallMs / 1000 / (php / cores);
      row(
        `| WordPress 7.1 + plugins (boot.sh, ${r.summary.total} behaviours: ${r.summary.passed} passed, ${r.summary.failed} failed, ${r.summary.skipped} skipped, ${r.summary.error} errors) | ${(m.wallMs / 1000).toFixed(1)} s wall, ${r.requests.count} requests; PHP ${php.toFixed(1)} CPU-s (${(php / cores).toFixed(1)} s on ${cores} cores); cms-conformance ${m.cpuS?.toFixed(1) ?? '?'} CPU-s, ${mb(m.maxRssKiB)} MB; ratio ${ratio.toFixed(2)} | ratio ≤ 1.05 (retired by issue 28) | ${before} → ${load()} |`,
      );
      row(`| the same run: requests (issue 28) | **${r.requests.count}** of the suite's behaviours, ${requestsInAll(join(tmp('plugins'), 'events.ndjson'))} in all (with the fixtures, setup and sweeps; most: ${requestsByRoute(join(tmp('plugins'), 'events.ndjson')).map((x) => `${x.route} ${x.n}`).join(', ')}) | ≤ 3,000 | |`);
      if (m.cpuS !== undefined) row(`| the same run: cms-conformance CPU ÷ PHP CPU (issue 28) | **${((m.cpuS / php) * 100).toFixed(1)} %** (${m.cpuS.toFixed(1)} ÷ ${php.toFixed(1)} CPU-s; ${((m.cpuS / r.requests.count) * 1000).toFixed(2)} ms per request) | ≤ 3 % | |`);
      // The floor under that ratio: the run's GET requests sent again by a client that only sends
      // them (undici, 4 at a time) and reads each body (bench/client-floor.ts), against the PHP
      // CPU of the same requests. No client on undici can do less per request.
      const floorCpu0 = groupCpuSeconds(pgid);
      const f = await timed([process.execPath, '--import', 'tsx', join(PKG_ROOT, 'bench/client-floor.ts'), join(tmp('plugins'), 'events.ndjson'), host.url], {
        cwd: PKG_ROOT,
        env: { TARGET_USER: host.user, TARGET_APP_PASSWORD: host.appPassword },
      });
      const floorPhp = groupCpuSeconds(pgid) - floorCpu0;
      const floor = f.code === 0 ? (JSON.parse(f.stdout.trim().split('\n').at(-1)!) as { requests: number; failed: number; cpuS: number }) : undefined;
      if (!floor) console.error(`bench/client-floor.ts exited ${f.code}: ${f.stderr.slice(-1000)}`);
      else
        row(
          `| the same site: the run's ${floor.requests} GETs sent again by a bare undici client (bench/client-floor.ts: send, read the body, nothing else; ${floor.failed} failed) | **${((floor.cpuS / floorPhp) * 100).toFixed(1)} %** (${floor.cpuS.toFixed(2)} ÷ ${floorPhp.toFixed(1)} CPU-s; ${((floor.cpuS / floor.requests) * 1000).toFixed(2)} ms of ours, ${((floorPhp / floor.requests) * 1000).toFixed(1)} ms of PHP's per request): the least any client on undici spends | the floor under ≤ 3 % | |`,
        );
    } finally {
      await host.stop();
    }
  }
}

if (rows.includes('fleet')) {
  // One shard process (all the sites, one after the other, one vitest engine) against reference
  // sites served by this process: the shard's CPU per site is what a fleet pays per site.
  const n = Number(values['fleet-sites']);
  const dir = tmp('fleet');
  const sim = await startSimulatedFleet({ count: n, targetsFile: `${tmp('fleet')}-sites.txt` });
  const before = load();
  let m;
  try {
    m = await timedCli(['run', '--targets', sim.targetsFile, '--shard', '1/1', '--seed', '1', '--read-only', '--report', 'json,html', '--report-dir', dir], { env: sim.env, cwd: PKG_ROOT });
  } finally {
    await sim.stop();
  }
  if (m.code !== 0 && m.code !== 1) console.error(`the shard exited ${m.code}: ${m.stderr.slice(-2000)}`);
  row(
    `| fleet shard, ${n} reference sites, read-only (issue 28) | **${m.cpuS !== undefined ? (m.cpuS / n).toFixed(2) : '?'} CPU-s per site** (${m.cpuS?.toFixed(1) ?? '?'} CPU-s, ${(m.wallMs / 1000).toFixed(1)} s wall, ${mb(m.maxRssKiB)} MB peak; exit ${m.code}) | ≤ 0.5 CPU-s per site | ${before} → ${load()} |`,
  );
}

if (rows.includes('tests')) {
  const unitBefore = load();
  const u = await timed([process.execPath, join(PKG_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.ts', '--project', 'unit'], { cwd: PKG_ROOT });
  row(`| \`npm run test:unit\` (exit ${u.code}) | ${(u.wallMs / 1000).toFixed(1)} s wall, ${u.cpuS?.toFixed(1) ?? '?'} CPU-s | ≤ 30 s | ${unitBefore} → ${load()} |`);
  const before = load();
  const m = await timed([process.execPath, join(PKG_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.ts'], { cwd: PKG_ROOT });
  // A red run is reported with what failed, so the figure is never read without its cause.
  if (m.code !== 0) console.error(`npm test exited ${m.code}; its failures:\n${(m.stdout + m.stderr).split('\n').filter((l) => /FAIL|×|AssertionError|Error:/.test(l)).slice(0, 40).join('\n')}`);
  row(`| \`npm test\` (exit ${m.code}) | ${(m.wallMs / 60_000).toFixed(1)} min wall, ${m.cpuS !== undefined ? (m.cpuS / 60).toFixed(1) : '?'} CPU-min | ≤ 5 min (idle 2-core machine; issue 28) | ${before} → ${load()} |`);
}

if (values.write) {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  appendFileSync(join(PKG_ROOT, 'BENCHMARKS.md'), `\n## ${new Date().toISOString().slice(0, 10)} — ${machine}\n\n${lines.join('\n')}\n`);
  console.log('appended to BENCHMARKS.md');
}
