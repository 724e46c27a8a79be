/**
 * Issue 41: the first command on PHP-in-WebAssembly (the fallback without PHP), with 1 and with N PHP
 * workers, alternated (1, N, 1, N ...) so that both meet the same load of a shared machine. Each run is
 * `npm run conformance -- --seed 1` with CMS_CONFORMANCE_RUNTIME=wasm and CMS_CONFORMANCE_WASM_WORKERS;
 * the cache stays warm (the CLI and the template are installed once, before). Prints per run: wall, boot,
 * CPU seconds of the run and everything it started (the CLI's server included; sampled), requests, the load
 * average before and after, and every behaviour whose status differs from the first run.
 *
 *   npx tsx bench/wasm-workers.ts [--workers 2] [--rounds 2] [--only PATTERN]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Results } from '../results/results.ts';
import { PKG_ROOT } from '../src/core/paths.ts';

const { values } = parseArgs({ options: { workers: { type: 'string', default: '2' }, rounds: { type: 'string', default: '2' }, only: { type: 'string' } } });
const work = mkdtempSync(join(tmpdir(), 'cmsc-wasm-workers-'));
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
/** [ppid, utime + stime in ticks] of a process, or undefined when it is gone. */
function stat(pid: number): [number, number] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return [Number(f[1]), Number(f[11]) + Number(f[12])];
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of a process tree: every process under `root` (the CLI, the suite workers, the wasm server,
 * which is detached and outlives its parent's wait, so /proc/self's cutime misses it), sampled every 500 ms,
 * each process counted at its last sample.
 */
function cpuOfTree(root: number): { stop: () => number } {
  const seen = new Map<number, number>();
  const tick = () => {
    const pids = readdirSync('/proc').filter((e) => /^\d+$/.test(e)).map(Number);
    const parent = new Map<number, [number, number]>();
    for (const pid of pids) {
      const s = stat(pid);
      if (s) parent.set(pid, s);
    }
    for (const [pid, [, ticks]] of parent) {
      let p: number | undefined = pid;
      while (p !== undefined && p > 1 && p !== root && !seen.has(p)) p = parent.get(p)?.[0];
      if (p === root || (p !== undefined && seen.has(p))) seen.set(pid, Math.max(seen.get(pid) ?? 0, ticks));
    }
  };
  const timer = setInterval(tick, 500);
  return {
    stop: () => {
      clearInterval(timer);
      return [...seen.values()].reduce((a, b) => a + b, 0) / 100;
    },
  };
}

interface Outcome {
  workers: number;
  wallS: number;
  cpuS: number;
  bootS?: number;
  loadBefore: string;
  loadAfter: string;
  results: Results;
}

function run(workers: number, i: number): Promise<Outcome> {
  const reports = join(work, `r${i}-w${workers}`);
  const args = ['run', 'conformance', '--', '--seed', '1', '--quiet', '--report-dir', reports, ...(values.only ? ['--only', values.only] : [])];
  const env = { ...process.env, CMS_CONFORMANCE_RUNTIME: 'wasm', CMS_CONFORMANCE_WASM_WORKERS: String(workers) };
  const loadBefore = load();
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: PKG_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const cpu = cpuOfTree(child.pid!);
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('error', reject);
    child.on('close', (exit) => {
      const wallS = (Date.now() - t0) / 1000;
      const boot = /ready at \S+ on PHP-in-WebAssembly \(([\d.]+) s\)/.exec(log);
      try {
        const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as Results;
        resolve({ workers, wallS, cpuS: cpu.stop(), ...(boot ? { bootS: Number(boot[1]) } : {}), loadBefore, loadAfter: load(), results });
      } catch (e) {
        reject(new Error(`run ${i} (${workers} workers): no results.json (exit ${exit}): ${log.slice(-2000)}`, { cause: e }));
      }
    });
  });
}

const n = Number(values.workers);
const rounds = Number(values.rounds);
console.log(`cores ${availableParallelism()}; workers 1 vs ${n}, ${rounds} round(s), alternated; --only ${values.only ?? '(all)'}; load ${load()}`);
const outcomes: Outcome[] = [];
try {
  for (let r = 0; r < rounds; r++) {
    for (const w of r % 2 === 0 ? [1, n] : [n, 1]) {
      const o = await run(w, outcomes.length);
      outcomes.push(o);
      const s = o.results.summary;
      const req = o.results.requests?.count ?? 0;
      console.log(
        `run ${outcomes.length}: ${w} worker(s): ${o.wallS.toFixed(0)} s wall (boot ${o.bootS ?? '?'} s), ${o.cpuS.toFixed(0)} CPU-s, ${req} requests (${((req / o.wallS) * 60).toFixed(0)} a minute, ${((o.cpuS / Math.max(1, req)) * 1000).toFixed(0)} ms CPU each), ` +
          `${s.passed}/${s.failed}/${s.skipped}/${s.error} passed/failed/skipped/error; load ${o.loadBefore} -> ${o.loadAfter}`,
      );
      const first = new Map(outcomes[0]!.results.behaviours.map((b) => [b.id, b.status]));
      const diff = o.results.behaviours.filter((b) => first.get(b.id) !== b.status);
      if (diff.length) console.log(`  differs from run 1 in ${diff.length}: ${diff.map((b) => `${b.id} ${first.get(b.id)} -> ${b.status}`).join('; ')}`);
    }
  }
  const mean = (w: number, f: (o: Outcome) => number) => {
    const xs = outcomes.filter((o) => o.workers === w).map(f);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  console.log(`mean wall: 1 worker ${mean(1, (o) => o.wallS).toFixed(0)} s, ${n} workers ${mean(n, (o) => o.wallS).toFixed(0)} s: ratio ${(mean(1, (o) => o.wallS) / mean(n, (o) => o.wallS)).toFixed(2)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
