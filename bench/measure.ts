/** A command timed from outside (the benchmarks): wall time, and CPU and peak memory from /usr/bin/time when there is one. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, exec, type ExecOptions } from '../src/proof/cli-process.ts';

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

export interface Measured {
  code: number;
  wallMs: number;
  /** From /usr/bin/time: CPU seconds (user + system) and peak resident memory (KiB) of the largest process. */
  cpuS?: number;
  maxRssKiB?: number;
  stdout: string;
  stderr: string;
}

/** Run `argv` to its end (no time limit unless given), timed. */
export async function timed(argv: string[], opts: ExecOptions = {}): Promise<Measured> {
  const timeDir = TIME ? mkdtempSync(join(tmpdir(), 'cmsc-time-')) : undefined;
  const timeFile = timeDir && join(timeDir, 'time');
  const started = performance.now();
  const r = TIME
    ? await exec(TIME, ['-f', '%e %U %S %M', '-o', timeFile!, ...argv], { timeoutMs: 24 * 3_600_000, ...opts })
    : await exec(argv[0]!, argv.slice(1), { timeoutMs: 24 * 3_600_000, ...opts });
  const wallMs = performance.now() - started;
  let cpuS: number | undefined;
  let maxRssKiB: number | undefined;
  if (timeFile && existsSync(timeFile)) {
    const [, user, sys, rss] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
    cpuS = user! + sys!;
    maxRssKiB = rss;
  }
  if (timeDir) rmSync(timeDir, { recursive: true, force: true });
  return { code: r.code ?? -1, wallMs, ...(cpuS !== undefined ? { cpuS } : {}), ...(maxRssKiB !== undefined ? { maxRssKiB } : {}), stdout: r.stdout, stderr: r.stderr };
}

/** The CLI in a child process, timed. */
export const timedCli = (args: string[], opts: ExecOptions = {}) => timed([process.execPath, BIN, ...args], opts);

/** Requests per route (method and rest_route, numbers as N) of a run's events.ndjson, the largest first, the suite's behaviours only. */
/** Every request the site received in a run (its events.ndjson: the behaviours', the fixtures', the setup's and the sweeps'). */
export function requestsInAll(eventsFile: string): number {
  return readFileSync(eventsFile, 'utf8').split('\n').filter(Boolean).length;
}

export function requestsByRoute(eventsFile: string, top = 8): { route: string; n: number }[] {
  const counts = new Map<string, number>();
  for (const line of readFileSync(eventsFile, 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { behaviour: string; method: string; url: string };
    if (['setup', 'sweep', 'fixtures'].includes(e.behaviour)) continue;
    const u = new URL(e.url);
    const route = (u.searchParams.get('rest_route') ?? u.pathname).replace(/\/\d+(?=\/|$)/g, '/N');
    const key = `${e.method} ${route}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([route, n]) => ({ route, n })).sort((a, b) => b.n - a.n).slice(0, top);
}
