/**
 * The worker threads a fleet engine keeps from one site to the next (src/engine/kept-threads.ts): which
 * threads are kept, and, on real runs against reference sites, that a site run on kept threads has
 * exactly the verdicts of the same site run on vitest's own threads (which end with every run), and
 * that the runs after the first take the kept threads instead of starting new ones; and that a
 * SIGINT during a fleet shard (site 2 running on the threads of site 1) stops it as before.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config.ts';
import { KeptThreads, MAX_RUNS_PER_THREAD } from '../src/engine/kept-threads.ts';
import { runConformance } from '../src/run/pipeline.ts';
import { SuiteEngine } from '../src/engine/suite-engine.ts';
import { resolveSelection } from '../src/engine/selection.ts';
import { startReferenceSites, type ReferenceSites } from '../targets/reference/multi.ts';
import type { Results } from '../results/results.ts';
import type { ShardFile } from '../src/fleet/fleet.ts';
import { startSimulatedFleet } from '../bench/fleet-sim.ts';
import { BIN, ROOT } from './helpers/cli.ts';

function fakeThread(): Worker & { ended: boolean } {
  const t = { threadId: 1, ended: false, unref() {}, ref() {}, async terminate() { t.ended = true; t.threadId = -1; return 0; } };
  return t as unknown as Worker & { ended: boolean };
}

describe('which threads are kept', () => {
  it('a thread stopped cleanly is kept for the next run; not after a cancelled run, nor past its runs, nor once closed', async () => {
    const kept = new KeptThreads();
    const a = fakeThread();
    expect(kept.park(a, 1, kept.currentGeneration)).toBe(true);
    expect(kept.take()?.thread).toBe(a);
    expect(kept.take()).toBeUndefined();
    // A run was cancelled (retire): the threads it ran on are not kept, and parked ones end.
    const b = fakeThread();
    expect(kept.park(b, 1, kept.currentGeneration)).toBe(true);
    const before = kept.currentGeneration;
    await kept.retire();
    expect(b.ended).toBe(true);
    expect(kept.take()).toBeUndefined();
    expect(kept.park(fakeThread(), 1, before)).toBe(false);
    // A thread serves at most MAX_RUNS_PER_THREAD runs.
    expect(kept.park(fakeThread(), MAX_RUNS_PER_THREAD, kept.currentGeneration)).toBe(false);
    // A thread that exited while parked is not handed out.
    const c = fakeThread();
    kept.park(c, 1, kept.currentGeneration);
    await c.terminate();
    expect(kept.take()).toBeUndefined();
    const d = fakeThread();
    kept.park(d, 1, kept.currentGeneration);
    await kept.close();
    expect(d.ended).toBe(true);
    expect(kept.park(fakeThread(), 1, kept.currentGeneration)).toBe(false);
  });
});

describe('three read-only reference sites on one engine, threads kept vs not', () => {
  // The index and oEmbed behaviours: every suite file of suites/core is loaded (two workers busy), in seconds.
  const ONLY = '^(index|oembed)\\.';
  let sites: ReferenceSites;
  const root = mkdtempSync(join(tmpdir(), 'cmsc-kept-threads-'));

  beforeAll(async () => {
    sites = await startReferenceSites({ count: 3 });
  });
  afterAll(async () => {
    await sites?.stop();
  });

  async function runAll(keepWorkers: boolean): Promise<{ results: Results[]; threads?: { started: number; reused: number } }> {
    const engine = await SuiteEngine.create(await resolveSelection(ONLY), { concurrency: 4, shard: undefined, target: null }, { keepWorkers });
    try {
      const results: Results[] = [];
      for (const [i, url] of sites.urls.entries()) {
        const reportDir = join(root, `${keepWorkers ? 'kept' : 'fresh'}-${i + 1}`);
        const cfg = resolveConfig({ target: url, user: sites.user, 'app-password': sites.appPassword, seed: '1', 'read-only': true, only: ONLY, report: 'json', 'report-dir': reportDir }, {}, reportDir);
        results.push((await runConformance(cfg, () => undefined, { engine, noLatest: true })).results);
      }
      return { results, ...(engine.threadStats ? { threads: engine.threadStats } : {}) };
    } finally {
      await engine.close();
    }
  }

  it('the same verdicts site by site, and the sites after the first run on the threads of the first', async () => {
    const fresh = await runAll(false);
    const kept = await runAll(true);
    const statuses = (r: Results) => Object.fromEntries(r.behaviours.map((b) => [b.id, `${b.status} ${b.reason ?? ''}`]));
    for (const [i, r] of kept.results.entries()) {
      expect(r.summary.total).toBeGreaterThan(20);
      expect(r.summary.error, `site ${i + 1}`).toBe(0);
      expect(statuses(r), `site ${i + 1}`).toEqual(statuses(fresh.results[i]!));
      expect(r.requests.count, `site ${i + 1}`).toBe(fresh.results[i]!.requests.count);
    }
    expect(fresh.threads).toBeUndefined();
    // Two workers (the engine's maxWorkers on this machine is at most the cores): started for the first site only.
    expect(kept.threads!.started).toBeGreaterThan(0);
    expect(kept.threads!.started).toBeLessThanOrEqual(4);
    expect(kept.threads!.reused).toBeGreaterThanOrEqual(2 * kept.threads!.started);
  }, 240_000);
});

describe('SIGINT during a fleet shard whose second site runs on the threads of the first', () => {
  it('stops after that site, records it, leaves the rest pending, and the process exits at once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cmsc-kept-sigint-'));
    const sim = await startSimulatedFleet({ count: 4, targetsFile: join(root, 'sites.txt'), deviations: false });
    try {
      const dir = join(root, 'out');
      const child = spawn(process.execPath, [BIN, 'run', '--targets', sim.targetsFile, '--shard', '1/1', '--seed', '1', '--read-only', '--only', '^(index|oembed)\\.', '--report', 'json', '--report-dir', dir], {
        cwd: ROOT,
        env: { ...process.env, ...sim.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      let sentAt = 0;
      child.stderr.on('data', (d) => {
        err += d;
        // Site 2 starts as soon as site 1 is reported: the signal lands while it runs.
        if (!sentAt && /\[1\/4\] site-1/.test(err)) {
          sentAt = performance.now();
          child.kill('SIGINT');
        }
      });
      const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
      const after = performance.now() - sentAt;
      expect(sentAt, err).toBeGreaterThan(0);
      expect(after, err).toBeLessThan(10_000);
      expect(err).toContain('SIGINT: stopping');
      const shard: ShardFile = JSON.parse(readFileSync(join(dir, 'shard.json'), 'utf8'));
      expect(shard.sites[0]).toMatchObject({ id: 'site-1', state: 'done', exitCode: 0 });
      // Site 2 was running (recorded, incomplete or complete) or had not started; sites 3 and 4 never start.
      expect(shard.sites.slice(2).map((s) => s.state)).toEqual(['pending', 'pending']);
      expect(code, err).not.toBe(0);
    } finally {
      await sim.stop();
    }
  }, 120_000);
});
