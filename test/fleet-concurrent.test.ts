/**
 * Behaviour shards of one site run at the same time against the same site (`--shard 1/2` and
 * `--shard 2/2`, with writes): neither deletes the other's fixtures (no DELETE of either touches
 * an item the other created, and a fixture of a third, pretend run that started a minute ago
 * survives both), the leftovers of an old run are swept, and nothing of the two is left behind.
 * Against the reference server always (the whole suite); against the real WordPress 7.1 target
 * (../shared/targets/boot.sh) when that script is next to the checkout (behaviours that make posts
 * and contact forms).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../src/http/client.ts';
import { tagFor } from '../src/sdk/fixtures.ts';
import { DEFAULT_SWEEP_AFTER_MS, SWEPT_COLLECTIONS, listTagged } from '../src/run/leftovers.ts';
import { newRunId } from '../src/run/session.ts';
import { getProfile, type ProfileName } from '../schemas/profiles.ts';
import type { FleetReport } from '../results/fleet-matrix.ts';
import type { Results } from '../results/results.ts';
import { startReferenceServer } from '../targets/reference/index.ts';
import { runCli, type CliRun } from './helpers/cli.ts';
import { PLUGIN_TARGET_AVAILABLE, bootPluginTarget, type PluginTarget } from './helpers/plugin-target.ts';
import { notPassedButUnobservable } from './helpers/not-observable.ts';

interface Site {
  url: string;
  user: string;
  appPassword: string;
  profile: ProfileName;
}

/** Items a shard created (POST answered with an id) and deleted (DELETE of an item route), from its events.ndjson. */
function itemsOf(reportDir: string): { created: Set<string>; deleted: Set<string> } {
  const created = new Set<string>();
  const deleted = new Set<string>();
  const lines = readFileSync(join(reportDir, 'events.ndjson'), 'utf8').split('\n').filter(Boolean);
  for (const line of lines) {
    const e = JSON.parse(line);
    const route = new URL(e.url).searchParams.get('rest_route') ?? '';
    const m = /\/(posts|pages|contact-forms)(?:\/(\d+))?$/.exec(route);
    if (!m) continue;
    if (e.method === 'POST' && !m[2] && e.status >= 200 && e.status < 300) {
      const id = /^\{"id":(\d+)/.exec(e.responseBody ?? '')?.[1];
      if (id) created.add(`${m[1]}/${id}`);
    }
    if (e.method === 'DELETE' && m[2]) deleted.add(`${m[1]}/${m[2]}`);
  }
  return { created, deleted };
}

/** Run two behaviour shards of one site at once, beside a live and a stale item of other runs; check what each left and deleted. */
function concurrentShards(site: () => Site, opts: { timeoutMs: number; expectAllPass: boolean; only?: string }) {
  const root = mkdtempSync(join(tmpdir(), 'cmsc-concurrent-'));
  let runs: CliRun[];
  let direct: Client;
  const planted: Record<'live' | 'stale', number> = { live: 0, stale: 0 };
  let merged: FleetReport;

  beforeAll(async () => {
    const s = site();
    const p = getProfile(s.profile);
    direct = new Client({ baseUrl: s.url, credentials: { user: s.user, appPassword: s.appPassword }, mapRoute: (r) => p.toTargetRoute(r) });
    // A fixture of a run that started a minute ago (still going) and one of a run older than the lease.
    for (const [k, age] of [['live', 60_000], ['stale', DEFAULT_SWEEP_AFTER_MS + 60_000]] as const) {
      const tag = tagFor(newRunId(Date.now() - age));
      const res = await direct.post('/cms/v2/posts', { title: `${tag}-post-1 planted`, slug: `${tag}-post-1`, status: 'draft' });
      expect(res.status, res.text).toBe(201);
      planted[k] = res.body.id;
    }
    const shard = (i: number) =>
      runCli(['run', '--target', s.url, '--user', s.user, '--app-password', s.appPassword, '--profile', s.profile, '--seed', '3', '--shard', `${i}/2`, '--report', 'json,events', '--report-dir', join(root, `shard-${i}`), ...(opts.only ? ['--only', opts.only] : [])], {
        timeoutMs: opts.timeoutMs,
      });
    // The second shard starts (and sweeps) once the first has made a fixture: its start-of-run sweep
    // meets the first one's items on the site.
    const first = shard(1);
    const events = join(root, 'shard-1', 'events.ndjson');
    const made = (): boolean => existsSync(events) && /"method":"POST"[^\n]*"status":201/.test(readFileSync(events, 'utf8'));
    for (let waited = 0; !made() && waited < 120_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    runs = await Promise.all([first, shard(2)]);
    const m = await runCli(['merge', join(root, 'shard-1'), join(root, 'shard-2'), '--report-dir', join(root, 'fleet')], { timeoutMs: 120_000 });
    expect(m.stderr).not.toMatch(/internal error/);
    merged = JSON.parse(readFileSync(join(root, 'fleet', 'fleet.json'), 'utf8'));
  }, opts.timeoutMs + 180_000);

  afterAll(async () => {
    await direct?.delete(`/cms/v2/posts/${planted.live}`, { query: { force: true } });
    await direct?.close();
  });

  it('both shards ran their half of the behaviours; merged, they are the whole site', () => {
    for (const r of runs) expect(r.stderr).not.toMatch(/internal error/);
    const parts: Results[] = [1, 2].map((i) => JSON.parse(readFileSync(join(root, `shard-${i}`, 'results.json'), 'utf8')));
    expect(parts.map((p) => p.shard)).toEqual([
      { index: 1, count: 2, by: 'behaviour' },
      { index: 2, count: 2, by: 'behaviour' },
    ]);
    const ids = parts.map((p) => new Set(p.behaviours.map((b) => b.id)));
    expect([...ids[0]!].filter((id) => ids[1]!.has(id))).toEqual([]);
    expect(ids[0]!.size).toBeGreaterThan(0);
    expect(ids[1]!.size).toBeGreaterThan(0);
    expect(merged.sites).toHaveLength(1);
    expect(merged.totals.total).toBe(parts.reduce((n, p) => n + p.summary.total, 0));
    expect(merged.warnings).toEqual([]);
    if (opts.expectAllPass) {
      // A site reached by URL is a used site: the defaults of site state skip, saying --fresh-site would check them.
      const fine = (b: Results['behaviours'][number]) => b.status === 'passed' || (b.status === 'skipped' && /pass --fresh-site/.test(b.reason ?? '')) || notPassedButUnobservable([b]).length === 0;
      for (const p of parts) expect(p.behaviours.filter((b) => !fine(b)).map((b) => `${b.id}: ${b.reason}`)).toEqual([]);
    }
    for (const p of parts) expect(p.errors).toEqual([]);
  });

  it("neither deletes the other's fixtures", () => {
    const [a, b] = [1, 2].map((i) => itemsOf(join(root, `shard-${i}`)));
    expect(a!.created.size + b!.created.size).toBeGreaterThan(5);
    const onlyB = [...b!.created].filter((x) => !a!.created.has(x));
    const onlyA = [...a!.created].filter((x) => !b!.created.has(x));
    expect(onlyB.filter((x) => a!.deleted.has(x))).toEqual([]);
    expect(onlyA.filter((x) => b!.deleted.has(x))).toEqual([]);
    for (const s of [a!, b!]) expect(s.deleted.has(`posts/${planted.live}`)).toBe(false);
  });

  it("sweeps the old run's leftovers, keeps the live run's fixture, and leaves nothing of its own", async () => {
    expect((await direct.get(`/cms/v2/posts/${planted.live}`, { query: { context: 'edit' } })).status).toBe(200);
    expect([404, 410]).toContain((await direct.get(`/cms/v2/posts/${planted.stale}`, { query: { context: 'edit' } })).status);
    const left: number[] = [];
    for (const c of SWEPT_COLLECTIONS) for (const item of (await listTagged(direct, c)) ?? []) left.push(item.id);
    expect(left).toEqual([planted.live]);
    expect(runs.map((r) => r.stderr).join('\n')).toMatch(/left 1 tagged item\(s\) of runs that started less than --sweep-after ago alone/);
  });
}

describe('two behaviour shards at once against one reference site', () => {
  let srv: Awaited<ReturnType<typeof startReferenceServer>>;
  beforeAll(async () => {
    srv = await startReferenceServer({ port: 0 });
  });
  afterAll(async () => srv?.stop());
  concurrentShards(() => ({ url: srv.url, user: srv.user, appPassword: srv.appPassword, profile: 'spec' }), { timeoutMs: 200_000, expectAllPass: true });
});

const PORT = process.env.CMSC_FLEET_WP_PORT ? Number(process.env.CMSC_FLEET_WP_PORT) : undefined;

describe.skipIf(!PLUGIN_TARGET_AVAILABLE)('two behaviour shards at once against the real WordPress 7.1 target (boot.sh)', () => {
  let site: PluginTarget;
  beforeAll(async () => {
    site = await bootPluginTarget(PORT);
  }, 200_000);
  afterAll(async () => site?.stop());
  // Behaviours that make fixtures (posts, their revisions and autosaves, contact forms: five
  // suite files, in both shards): the whole suite against PHP would cost about two minutes of CPU
  // more for nothing this test looks at (the verdicts on this site are real-targets.wordpress-7.1's).
  concurrentShards(() => site, { timeoutMs: 900_000, expectAllPass: false, only: '^(cms\\.posts\\.(lifecycle|fields|revisions|autosaves)\\.|contactform\\.)' });
});
