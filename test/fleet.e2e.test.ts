/**
 * Fleets end to end, the way CI runs them (the real CLI in child processes): `serve --sites N`
 * serves independent sites; a simulated fleet of 12 sites (3 of them with named deviations) runs
 * as 4 shards in parallel processes, read-only, and `merge` turns the 4 outputs into one report
 * whose counts equal the sum of the shards; no credential reaches any file or output.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedFleet, type SimulatedFleet } from '../bench/fleet-sim.ts';
import { Client } from '../src/http/client.ts';
import type { ShardFile } from '../src/fleet/fleet.ts';
import type { FleetReport } from '../results/fleet-matrix.ts';
import type { Results } from '../results/results.ts';
import { BIN, ROOT, runCli } from './helpers/cli.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}

describe('cms-conformance serve --sites N', () => {
  it('serves N sites, each under its own base path with its own state, and writes a targets file for them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cmsc-serve-sites-'));
    const file = join(dir, 'targets.txt');
    const child = spawn(process.execPath, [BIN, 'serve', '--sites', '3', '--port', '0', '--targets-file', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      await new Promise<void>((res, rej) => {
        const t = setTimeout(() => rej(new Error(`no output: ${out}`)), 30_000);
        child.stdout.on('data', () => /Press Ctrl\+C/.test(out) && (clearTimeout(t), res()));
        child.on('exit', (code) => rej(new Error(`exited ${code}: ${out}`)));
      });
      expect(out).toContain(`targets file:         ${file}`);
      const password = /application password: (\S+)/.exec(out)![1]!;
      const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
      expect(lines).toHaveLength(3);
      const urls = lines.map((l) => l.split(' ')[0]!);
      expect(urls[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/site-2$/);
      const [a, b] = urls.map((u) => new Client({ baseUrl: u, credentials: { user: 'admin', appPassword: password } }));
      const index = await b!.get('/');
      expect(index.status).toBe(200);
      expect(index.body.url).toBe(urls[1]);
      const created = await a!.post('/cms/v2/posts', { title: 'only on site 1', status: 'publish' });
      expect(created.status).toBe(201);
      expect((await a!.get(`/cms/v2/posts/${created.body.id}`)).status).toBe(200);
      const onB = await b!.get('/cms/v2/posts', { query: { search: 'only on site 1' } });
      expect(onB.body).toEqual([]);
      await Promise.all([a!.close(), b!.close()]);
      expect((await fetch(`${urls[0]!.replace('/site-1', '/site-4')}/index.php?rest_route=/`)).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});

/**
 * The behaviours of the fleet's named deviations (SIMULATED_DEVIATIONS of bench/fleet-sim.ts) and
 * their neighbours: the spam filter namespace (reads, and writes that --read-only skips) and the
 * discovery checks of the posts collection. What this file proves is the fleet (sharing sites
 * out, merging, grouping deviations, no credential written); the whole suite on 12 sites cost
 * 40 CPU-s of `npm test` for verdicts the reference tests already check.
 */
const FLEET_ONLY = '^(spamfilter\\.|disc\\.args\\.cms\\.posts\\.)';

describe('a simulated fleet: 12 sites, 4 shards in parallel processes, one merged report', () => {
  const root = mkdtempSync(join(tmpdir(), 'cmsc-fleet-e2e-'));
  let sim: SimulatedFleet;
  let shardRuns: Awaited<ReturnType<typeof runCli>>[];
  let merge: Awaited<ReturnType<typeof runCli>>;
  let report: FleetReport;
  const shards: ShardFile[] = [];

  beforeAll(async () => {
    sim = await startSimulatedFleet({ count: 12, targetsFile: join(root, 'sites.txt') });
    shardRuns = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        runCli(['run', '--targets', sim.targetsFile, '--shard', `${i}/4`, '--seed', '7', '--read-only', '--only', FLEET_ONLY, '--report', 'json,html,md', '--report-dir', join(root, `shard-${i}`)], { env: sim.env, timeoutMs: 540_000 }),
      ),
    );
    for (const i of [1, 2, 3, 4]) shards.push(JSON.parse(readFileSync(join(root, `shard-${i}`, 'shard.json'), 'utf8')));
    merge = await runCli(['merge', join(root, 'shard-1'), join(root, 'shard-2'), join(root, 'shard-3'), join(root, 'shard-4'), '--report-dir', join(root, 'fleet')], { timeoutMs: 120_000 });
    report = JSON.parse(readFileSync(join(root, 'fleet', 'fleet.json'), 'utf8'));
  }, 600_000);

  afterAll(async () => {
    await sim?.stop();
  });

  it('shares the sites out: every site in exactly one shard, each shard self-describing', () => {
    const ids = shards.flatMap((s) => s.sites.map((x) => x.id)).sort();
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => `site-${i + 1}`).sort());
    for (const [k, s] of shards.entries()) {
      expect(s).toMatchObject({ kind: 'cms-conformance-shard', seed: 7, shard: { index: k + 1, count: 4, by: 'site' }, targets: { file: 'sites.txt', sites: 12 } });
      expect(s.tool.version).toMatch(/^\d+\.\d+\.\d+/);
      for (const site of s.sites) {
        expect(site.state, `${site.id}: ${site.error}`).toBe('done');
        const r: Results = JSON.parse(readFileSync(join(root, `shard-${k + 1}`, site.dir!, 'results.json'), 'utf8'));
        expect(r).toMatchObject({ site: site.id, seed: 7, shard: { index: k + 1, count: 4, by: 'site' } });
        expect(r.summary.total).toBe(site.summary!.total);
        // Read-only, as asked: write behaviours skip with that reason.
        expect(r.behaviours.some((b) => b.status === 'skipped' && /--read-only/.test(b.reason ?? ''))).toBe(true);
      }
      // A shard with a deviating site exits 1, the others 0.
      const deviating = s.sites.some((x) => ['site-7', 'site-10'].includes(x.id));
      expect(shardRuns[k]!.code, shardRuns[k]!.stderr.slice(-2000)).toBe(deviating ? 1 : 0);
    }
  });

  it('merges into one report whose counts equal the sum of the shards', () => {
    expect(merge.code, merge.stderr).toBe(1);
    expect(report.sites).toHaveLength(12);
    const shardTotals = shards.flatMap((s) => s.sites.map((x) => x.summary!));
    for (const k of ['passed', 'failed', 'skipped', 'error', 'total'] as const) expect(report.totals[k], k).toBe(shardTotals.reduce((n, c) => n + c[k], 0));
    expect(report.inputs.map((i) => i.shard)).toEqual([1, 2, 3, 4].map((index) => ({ index, count: 4, by: 'site' })));
    expect(report.warnings).toEqual([]);
    expect(merge.stdout).toMatch(/12 site\(s\) × \d+ behaviour\(s\) from 4 input\(s\)/);
  });

  it('groups the sites by the deviations they share and links each site to its own report', () => {
    const failing = (id: string) => {
      const d = report.deviations.find((x) => report.behaviours[x.behaviour]!.id === id);
      return d ? d.failedSites.map((i) => report.sites[i]!.id).sort() : [];
    };
    expect(failing('spamfilter.stats.path')).toEqual(['site-10']);
    expect(failing('disc.args.cms.posts.collection.list.per_page')).toEqual(['site-7']);
    expect(report.verdict.gatingSites).toBe(2);
    expect(report.clean).toBe(10);
    for (const s of report.sites) expect(existsSync(resolve(join(root, 'fleet'), s.report!)), s.report).toBe(true);
    const md = readFileSync(join(root, 'fleet', 'fleet.md'), 'utf8');
    expect(md).toMatch(/1 fail \| `spamfilter.stats.path`/);
    const html = readFileSync(join(root, 'fleet', 'fleet.html'), 'utf8');
    expect(html).toContain('href="../shard-');
  });

  it('writes no credential anywhere', () => {
    const secret = sim.sites.appPassword;
    for (const f of filesUnder(root)) if (!f.endsWith('sites.txt')) expect(readFileSync(f, 'utf8').includes(secret), f).toBe(false);
    for (const r of [...shardRuns, merge]) expect(r.stdout + r.stderr).not.toContain(secret);
    expect(dirname(sim.targetsFile)).toBe(root);
    expect(readFileSync(sim.targetsFile, 'utf8')).not.toContain(secret);
  });
});
