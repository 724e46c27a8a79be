/**
 * Fleets without running a suite: the targets file, the share of each shard, the lease of the
 * start-of-run sweep, merging the parts of a site, and the fleet report (counts, deviations,
 * groups, exit codes, baselines, missing shards).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTargets, siteIdFor, type ShardFile } from '../src/fleet/fleet.ts';
import { combineExitCodes } from '../results/verdict.ts';
import { mergeFleet, mergeSiteResults } from '../src/fleet/merge.ts';
import { parseShard, shardOfKey } from '../src/core/shard.ts';
import { tagFor } from '../src/sdk/fixtures.ts';
import { DEFAULT_SWEEP_AFTER_MS, listTagged, runStartOf, sweep } from '../src/run/leftovers.ts';
import { newRunId } from '../src/run/session.ts';
import { Client } from '../src/http/client.ts';
import { UsageError } from '../src/core/errors.ts';
import { writeReports } from '../reporters/index.ts';
import { FleetBuilder } from '../results/fleet-matrix.ts';
import { renderFleetMarkdown } from '../reporters/fleet-markdown.ts';
import { startReferenceServer, type ReferenceServer } from '../targets/reference/index.ts';
import { siteResults, syntheticBehaviours } from './helpers/fleet.ts';
import type { Results, Status } from '../results/results.ts';

describe('targets file', () => {
  it('reads text lines: URL, the two credential variables, options; comments and blank lines are ignored', () => {
    const sites = parseTargets(
      ['# the fleet', '', 'https://shop-a.example/  A_USER A_PW  baseline=known/a.json', 'https://b.example:8443/blog auth-header-env=B_AUTH profile=wordpress name=blog-b  # trailing comment', 'http://127.0.0.1:9000/site-3'].join('\n'),
      'sites.txt',
      '/etc/fleet',
    );
    expect(sites).toEqual([
      { id: 'shop-a.example', url: 'https://shop-a.example', userEnv: 'A_USER', appPasswordEnv: 'A_PW', baseline: '/etc/fleet/known/a.json', at: 'sites.txt:3' },
      { id: 'blog-b', url: 'https://b.example:8443/blog', authHeaderEnv: 'B_AUTH', profile: 'wordpress', at: 'sites.txt:4' },
      { id: '127.0.0.1-9000-site-3', url: 'http://127.0.0.1:9000/site-3', at: 'sites.txt:5' },
    ]);
  });

  it('reads JSON and CSV with the same fields', () => {
    const json = parseTargets(JSON.stringify({ sites: [{ url: 'https://a.example', userEnv: 'U', appPasswordEnv: 'P' }, 'https://b.example'] }), 'sites.json', '/x');
    const csv = parseTargets('url,user_env,app_password_env,name\nhttps://a.example,U,P,\n"https://b.example",,,b\n', 'sites.csv', '/x');
    expect(json.map((s) => [s.id, s.userEnv, s.appPasswordEnv])).toEqual([
      ['a.example', 'U', 'P'],
      ['b.example', undefined, undefined],
    ]);
    expect(csv.map((s) => [s.id, s.userEnv, s.appPasswordEnv])).toEqual([
      ['a.example', 'U', 'P'],
      ['b', undefined, undefined],
    ]);
  });

  it('refuses credentials in the file, half a credential, duplicate sites and unknown fields, saying where', () => {
    const bad = (text: string, file = 'sites.txt') => {
      try {
        parseTargets(text, file, '/x');
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(bad('[{"url":"https://a.example","appPassword":"abcd efgh"}]', 'f.json')).toMatch(/credential in the targets file/);
    expect(bad('https://a.example app-password=abcd')).toMatch(/sites.txt:1: .*credential/);
    expect(bad('https://a.example ONLY_USER')).toMatch(/sites.txt:1: .*two names/);
    expect(bad('https://a.example\nhttps://a.example/')).toMatch(/sites.txt:2: site "a.example" is also at sites.txt:1/);
    expect(bad('https://a.example colour=blue')).toMatch(/unknown field "colour"/);
    expect(bad('ftp://a.example')).toMatch(/sites.txt:1: the URL must be an http\(s\) URL/);
    expect(bad('https://a.example 1BAD GOOD')).toMatch(/must name an environment variable/);
  });

  it('derives an ID from host, port and path', () => {
    expect(siteIdFor('https://Shop.Example')).toBe('shop.example');
    expect(siteIdFor('http://[::1]:8080/a/b')).toBe('1-8080-a-b');
  });
});

describe('shards', () => {
  it('parses INDEX/COUNT', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '1', '1/2/3']) expect(() => parseShard(bad), bad).toThrow(UsageError);
  });

  it('puts every site in exactly one shard, by its ID alone, in shares of about the same size', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `site-${i + 1}`);
    const sizes = [0, 0, 0, 0];
    for (const id of ids) {
      const s = shardOfKey(id, 4);
      expect(s).toBeGreaterThanOrEqual(1);
      expect(s).toBeLessThanOrEqual(4);
      expect(shardOfKey(id, 4)).toBe(s); // stable
      sizes[s - 1]!++;
    }
    expect(sizes.reduce((a, b) => a + b)).toBe(1000);
    for (const n of sizes) expect(n).toBeGreaterThan(200), expect(n).toBeLessThan(300);
    // A new site does not move the others.
    expect(ids.map((id) => shardOfKey(id, 4))).toEqual([...ids, 'site-new'].slice(0, 1000).map((id) => shardOfKey(id, 4)));
  });

  it('combines the exit codes of many sites: a gating failure first, then a harness bug, a usage problem, target trouble', () => {
    expect(combineExitCodes([0, 3, 1, 4])).toBe(1);
    expect(combineExitCodes([0, 3, 4, 2])).toBe(4);
    expect(combineExitCodes([3, 2])).toBe(2);
    expect(combineExitCodes([0, 3])).toBe(3);
    expect(combineExitCodes([])).toBe(0);
  });
});

describe('the sweep spares runs that may still be going (lease by run start time)', () => {
  let srv: ReferenceServer;
  let client: Client;
  beforeAll(async () => {
    srv = await startReferenceServer({ port: 0 });
    client = new Client({ baseUrl: srv.url, credentials: { user: srv.user, appPassword: srv.appPassword } });
  });
  afterAll(async () => {
    await client?.close();
    await srv?.stop();
  });

  const create = async (tag: string) => {
    const res = await client.post('/cms/v2/posts', { title: `${tag}-post-1 x`, slug: `${tag}-post-1`, status: 'draft' });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };

  it('reads the start time from the run tag', () => {
    const now = Date.UTC(2026, 10, 24, 2, 0, 0);
    const tag = tagFor(newRunId(now));
    expect(runStartOf({ slug: `${tag}-post-3`, title: { raw: 'x' } })).toBe(now);
    expect(runStartOf({ slug: 'cmsc-missing', title: 'cmsc-legacy' })).toBeUndefined();
    // A label glued to more letters and digits (search terms, generated titles).
    expect(runStartOf({ title: { raw: `${tag}x${tag.replace('-', '')}fxbtki3` } })).toBe(now);
  });

  it('before a run: deletes the items of old runs and of unknown tags, keeps a live run and untagged items; after: only its own', async () => {
    const now = Date.now();
    const live = tagFor(newRunId(now - 60_000));
    const stale = tagFor(newRunId(now - DEFAULT_SWEEP_AFTER_MS - 60_000));
    const mine = tagFor(newRunId(now));
    const ids = { live: await create(live), stale: await create(stale), legacy: await create('cmsc-legacy'), mine: await create(mine) };
    const plain = await client.post('/cms/v2/posts', { title: 'not ours', status: 'draft' });

    const before = await sweep(client, { olderThanMs: DEFAULT_SWEEP_AFTER_MS, now });
    expect(before).toEqual({ deleted: 2, failed: 0, spared: 2 }); // stale and legacy; live and mine spared
    const left = (await listTagged(client, '/cms/v2/posts'))!.map((p) => p.id).sort();
    expect(left).toEqual([ids.live, ids.mine].sort());

    expect(await sweep(client, { tag: mine })).toEqual({ deleted: 1, failed: 0, spared: 0 });
    expect((await listTagged(client, '/cms/v2/posts'))!.map((p) => p.id)).toEqual([ids.live]);
    expect((await client.get(`/cms/v2/posts/${plain.body.id}`, { query: { context: 'edit' } })).status).toBe(200);
    // Without a lease (--sweep-after 0) every tagged item goes.
    expect(await sweep(client, { olderThanMs: 0 })).toMatchObject({ deleted: 1 });
  });
});

const BEH = syntheticBehaviours(40);
/** Site n fails b0003 when n % 3 == 0, b0005 (SHOULD? no: index 5 is MUST) when n % 4 == 0; errors on b0010 for site 7. */
const statusFor = (n: number) => (b: { id: string }, i: number): Status =>
  (i === 3 && n % 3 === 0) || (i === 5 && n % 4 === 0) ? 'failed' : i === 10 && n === 7 ? 'error' : i % 9 === 8 ? 'skipped' : 'passed';

function writeShard(root: string, index: number, count: number, sites: number[], opts: { pending?: number[]; notRun?: number[] } = {}): string {
  const dir = join(root, `shard-${index}`);
  const doc: ShardFile = {
    schemaVersion: 1,
    kind: 'cms-conformance-shard',
    tool: { name: 'cms-conformance', version: '0.1.0' },
    seed: 1,
    shard: { index, count, by: 'site' },
    targets: { file: 'sites.txt', digest: 'sha256:x', sites: 12 },
    config: {},
    startedAt: '2026-11-24T02:00:00.000Z',
    sites: sites.map((n) => {
      const id = `site-${n}`;
      if (opts.pending?.includes(n)) return { id, url: `http://h/site-${n}`, state: 'pending' as const };
      if (opts.notRun?.includes(n)) return { id, url: `http://h/site-${n}`, state: 'not-run' as const, exitCode: 2, error: 'environment variable X is not set' };
      const r = siteResults(`http://h/site-${n}`, BEH, statusFor(n), { site: id, shard: { index, count, by: 'site' } });
      writeReports(join(dir, 'sites', id), r, ['json', 'html']);
      return { id, url: r.target.url, dir: `sites/${id}`, state: 'done' as const, exitCode: 0, summary: { ...r.summary } };
    }),
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'shard.json'), JSON.stringify(doc));
  return dir;
}

describe('merging shards into a fleet report', () => {
  const root = mkdtempSync(join(tmpdir(), 'cmsc-fleet-unit-'));
  const all = Array.from({ length: 12 }, (_, i) => i + 1);
  const dirs = [1, 2, 3].map((k) => writeShard(root, k, 3, all.filter((n) => n % 3 === k - 1)));

  it('counts equal the sum of the shards; deviations and groups name the sites', () => {
    const { report, files } = mergeFleet(dirs, { outDir: join(root, 'fleet'), failOn: 'must' });
    expect(files.map((f) => f.split('/').pop())).toEqual(['fleet.json', 'fleet.html', 'fleet.md']);
    const sum = report.inputs.reduce((n, i) => n + i.counts.total, 0);
    expect(report.totals.total).toBe(sum);
    expect(report.totals.total).toBe(12 * 40);
    for (const k of ['passed', 'failed', 'skipped', 'error'] as const) expect(report.totals[k]).toBe(report.inputs.reduce((n, i) => n + i.counts[k], 0));
    expect(report.sites).toHaveLength(12);
    expect(report.matrix.every((row) => row.length === 40)).toBe(true);
    const dev = Object.fromEntries(report.deviations.map((d) => [report.behaviours[d.behaviour]!.id, d]));
    expect(dev[BEH[3]!.id]!.failed).toBe(4); // sites 3, 6, 9, 12
    expect(dev[BEH[5]!.id]!.failed).toBe(3); // sites 4, 8, 12
    expect(dev[BEH[10]!.id]!.error).toBe(1); // site 7
    // Groups: {b3} 3 sites (3, 6, 9), {b5} 2 sites (4, 8), {b3, b5} 1 site (12).
    expect(report.groups.map((g) => [g.sites.length, g.failed.map((b) => report.behaviours[b]!.id)])).toEqual([
      [3, [BEH[3]!.id]],
      [2, [BEH[5]!.id]],
      [1, [BEH[3]!.id, BEH[5]!.id].sort()],
    ]);
    expect(report.verdict.gatingSites).toBe(6);
    expect(report.exitCode).toBe(1);
    // Sites that need attention come first, and link to their own report, relatively.
    expect(report.sites[0]!.gating.length).toBe(2);
    expect(report.sites[0]!.report).toMatch(/^\.\.\/shard-\d\/sites\/site-12\/report\.html$/);
    const md = renderFleetMarkdown(report);
    expect(md).toMatch(/❌ cms-conformance fleet: 6 of 12 sites with gating failures/);
    expect(md).toContain(`| 4 fail | \`${BEH[3]!.id}\``);
  });

  it('a baseline for every site (merge --baseline) makes listed failures non-gating', () => {
    const bl = join(root, 'baseline.json');
    writeFileSync(bl, JSON.stringify({ failures: [BEH[3], BEH[5]].map((b) => ({ id: b!.id, reason: 'known' })) }));
    const { report } = mergeFleet(dirs, { outDir: join(root, 'fleet-bl'), failOn: 'must', baseline: bl });
    expect(report.verdict.gatingSites).toBe(0);
    expect(report.sites.find((s) => s.id === 'site-12')!.known).toBe(2);
    expect(report.exitCode).toBe(3); // site 7 could not check b0010
  });

  it('a missing shard, a shard that stopped early and a site that could not run make the report incomplete (exit 3)', () => {
    const r2 = mkdtempSync(join(tmpdir(), 'cmsc-fleet-unit-'));
    const a = writeShard(r2, 1, 3, [3, 6], { pending: [6] });
    const b = writeShard(r2, 2, 3, [1, 4], { notRun: [4] });
    const { report } = mergeFleet([r2], { outDir: join(r2, 'fleet'), failOn: 'security' });
    expect(report.warnings.join('\n')).toMatch(/shard 3\/3 missing/);
    expect(report.verdict).toMatchObject({ gatingSites: 0, notRun: 2, incomplete: true });
    expect(report.sites.find((s) => s.id === 'site-6')!.error).toMatch(/shard 1\/3 stopped before this site ran/);
    expect(report.exitCode).toBe(3);
    expect([a, b]).toHaveLength(2);
  });
});

describe('the parts of one site', () => {
  it('merge into one result per behaviour, at the worst status; counts are the sum of disjoint parts', () => {
    const url = 'http://h/big';
    const first = siteResults(url, BEH.slice(0, 25), () => 'passed', { shard: { index: 1, count: 2, by: 'behaviour' } });
    const second = siteResults(url, BEH.slice(25), (b, i) => (i === 0 ? 'failed' : 'passed'), { shard: { index: 2, count: 2, by: 'behaviour' } });
    const merged = mergeSiteResults([first, second]);
    expect(merged.summary.total).toBe(first.summary.total + second.summary.total);
    expect(merged.summary.failed).toBe(1);
    expect(merged.shard).toBeUndefined();
    // The same behaviour seen twice: failed beats passed, error beats failed, passed beats skipped.
    const again = siteResults(url, BEH.slice(0, 3), (b, i) => (['failed', 'error', 'passed'] as Status[])[i]!);
    const base = siteResults(url, BEH.slice(0, 3), (b, i) => (['passed', 'failed', 'skipped'] as Status[])[i]!);
    expect(mergeSiteResults([base, again]).behaviours.map((b) => b.status)).toEqual(['failed', 'error', 'passed']);
  });

  it('behaviour shards of one site found as single runs merge into that site, with its own merged report', () => {
    const root = mkdtempSync(join(tmpdir(), 'cmsc-fleet-bshard-'));
    const url = 'http://h/big';
    const parts: Results[] = [
      siteResults(url, BEH.slice(0, 20), () => 'passed', { shard: { index: 1, count: 2, by: 'behaviour' } }),
      siteResults(url, BEH.slice(20), (b, i) => (i === 1 ? 'failed' : 'passed'), { shard: { index: 2, count: 2, by: 'behaviour' } }),
    ];
    parts.forEach((r, i) => writeReports(join(root, `part-${i + 1}`), r, ['json']));
    const { report } = mergeFleet([root], { outDir: join(root, 'fleet'), failOn: 'must' });
    expect(report.sites).toHaveLength(1);
    expect(report.sites[0]).toMatchObject({ id: 'h-big', report: 'sites/h-big/report.html', shards: ['behaviour 1/2', 'behaviour 2/2'] });
    expect(report.totals.total).toBe(40);
    expect(report.totals.failed).toBe(1);
    expect(report.warnings).toEqual([]);
    const onlyOne = mergeFleet([join(root, 'part-2')], { outDir: join(root, 'fleet-2'), failOn: 'must' });
    expect(onlyOne.report.warnings.join('\n')).toMatch(/site h-big: behaviour shard 1\/2 missing/);
  });
});

describe('FleetBuilder at scale', () => {
  it('keeps a thousand sites × a thousand behaviours as a compact matrix', () => {
    const beh = syntheticBehaviours(918);
    const b = new FleetBuilder({ failOn: 'must', tool: { name: 'cms-conformance', version: '0.1.0' } });
    for (let n = 1; n <= 1000; n++) b.addSite({ id: `site-${n}`, url: `http://h/site-${n}`, shards: [], results: siteResults(`http://h/site-${n}`, beh, (x, i) => (i === n % 918 ? 'failed' : 'passed')) });
    const r = b.build([], [], false);
    expect(r.totals.total).toBe(918_000);
    expect(r.totals.failed).toBe(1000);
    expect(r.matrix.join('').length).toBe(918_000);
    expect(JSON.stringify(r).length).toBeLessThan(3_000_000);
  });
});
