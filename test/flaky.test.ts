/**
 * Verdicts that hold on a real network (issue 24): a healthy target behind a flaky proxy
 * (faults/proxy.ts `flaky`: HTML gateway 502s after the application answered, resets, stalls
 * past --timeout, 503s with Retry-After, a captive portal's 200 HTML page, bodies cut off or sent
 * slowly; deterministic by request count) gets the same verdicts as without it, apart from checks
 * that could not be made, which are errors of the target that say why: no behaviour that passes
 * without the trouble fails with it, and none is lost to a fixture whose create met it. And a
 * target that answers a listing with a 50 MB body: the run finishes with bounded memory.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFaultProxy, type Fault, type FlakyOptions } from '../faults/proxy.ts';
import type { BehaviourResult, Results } from '../results/results.ts';
import { startReferenceServer, type ReferenceServer } from '../targets/reference/index.ts';
import { Client } from '../src/http/client.ts';
import { SWEPT_COLLECTIONS, listTagged } from '../src/run/leftovers.ts';
import { BIN, exec, runCli } from './helpers/cli.ts';
import { PLUGIN_TARGET_AVAILABLE, PLUGIN_TARGET_MISSING, bootPluginTarget } from './helpers/plugin-target.ts';

/** What a message names when the target had trouble (src/http/client.ts). */
const TROUBLE = /answered 5\d\d|answered 429|HTML page|no response within|failed( \(\d+ attempts\))?: [A-Z_]+|over the --max-body|transient trouble/;

/** The issue's network: one request in twenty an HTML 502 (after the application did the work), one in fifty held 3 s. */
const ISSUE_MIX: FlakyOptions = { gatewayEvery: 20, stallEvery: 50, stallMs: 3_000 };
/** Every kind of trouble at once (with --timeout 3s the stalls are past the timeout; a shorter timeout would also catch a healthy reference server slowed by a busy machine, which is not the trouble this measures). A 503 with Retry-After holds the whole run for a second (the target asked everyone to wait), so it is the rarest. */
const EVERY_KIND: FlakyOptions = {
  gatewayEvery: 20,
  resetEvery: 53,
  stallEvery: 71,
  stallMs: 3_500,
  unavailableEvery: 97,
  // A gateway's 503 with Retry-After after the application acted (issue 35): a write is not sent again on it.
  unavailableAfterEvery: 89,
  retryAfterSec: 1,
  captiveEvery: 61,
  truncateEvery: 43,
  slowBodyEvery: 47,
  slowBodyMs: 40,
};

interface Comparison {
  same: number;
  total: number;
  changed: string[];
  /**
   * Errors that are not a write met by trouble after it may have reached the application (which is
   * not sent again, by design): reads and writes that met trouble through all their retries. Which
   * requests meet the trouble depends on the order the concurrent requests arrive in, so how many
   * writes are hit varies from run to run; these should be rare whatever the order.
   */
  retriedAndLost: string[];
}

/**
 * Compare the verdicts with trouble to those without: no new failure at all, every error an error
 * of the target naming its trouble, every new skip one that depends on such an error.
 */
function compareVerdicts(base: Results, flaky: Results): Comparison {
  const before = new Map(base.behaviours.map((b) => [b.id, b]));
  const changed: string[] = [];
  const retriedAndLost: string[] = [];
  let same = 0;
  for (const b of flaky.behaviours) {
    const was = before.get(b.id);
    const line = `${b.id}: ${was?.status} -> ${b.status} (${b.reason ?? ''})`;
    if (was?.status === b.status) {
      same++;
      continue;
    }
    changed.push(line);
    expect(b.status, `no behaviour may fail because of the network: ${line}`).not.toBe('failed');
    if (b.status === 'error') {
      expect(b.failureKind, line).toBe('target');
      expect(b.reason, line).toMatch(TROUBLE);
      if (!/a write is not sent again/.test(b.reason ?? '')) retriedAndLost.push(line);
    }
    if (b.status === 'skipped') expect(b.reason, line).toMatch(/could not be checked|could not set up/);
  }
  expect(flaky.errors.filter((e) => e.kind !== 'target')).toEqual([]);
  return { same, total: flaky.behaviours.length, changed, retriedAndLost };
}

const failedIds = (r: Results) => r.behaviours.filter((b: BehaviourResult) => b.status === 'failed').map((b) => b.id);

/**
 * Issue 43: after a run through trouble, the tagged items on the site itself (asked directly, not
 * through the trouble), each of which results.json leftBehind must name (none, when the run deleted
 * all it created). Returns how many there are.
 */
async function expectEachLeftNamed(server: ReferenceServer, results: Results): Promise<number> {
  const direct = new Client({ baseUrl: server.url, credentials: { user: server.user, appPassword: server.appPassword } });
  try {
    const left: string[] = [];
    for (const collection of SWEPT_COLLECTIONS) left.push(...((await listTagged(direct, collection)) ?? []).map((p) => `${collection}/${p.id}`));
    expect(results.leftBehind, 'results.json leftBehind').toBeDefined();
    expect(results.leftBehind!.created).toBeGreaterThan(0);
    const named = new Set(results.leftBehind!.items.map((i) => i.route));
    expect(left.filter((r) => !named.has(r)), 'tagged items on the site that leftBehind does not name').toEqual([]);
    return left.length;
  } finally {
    await direct.close();
  }
}

describe('a flaky network between the suite and a healthy target', () => {
  it('the reference server: the same verdicts through every kind of trouble, the rest errors that say why; the report counts it', async () => {
    const only = '^(index|batch|oembed|auth|spamfilter|contactform|suite\\.(read|methods|pattern)|cms\\.(posts|pages)\\.(auth|create|update|delete|write))\\.';
    const clean = await startReferenceServer({ port: 0 });
    const noisy = await startReferenceServer({ port: 0 });
    const proxy = await startFaultProxy(noisy.url, [], { profile: 'spec', flaky: EVERY_KIND });
    try {
      const args = (url: string, user: string, password: string) => ['run', '--target', url, '--profile', 'spec', '--user', user, '--app-password', password, '--seed', '1', '--only', only, '--timeout', '3s', '--report', 'json,md'];
      const [base, run] = await Promise.all([
        runCli(args(clean.url, clean.user, clean.appPassword), { timeoutMs: 240_000 }),
        runCli(args(proxy.url, noisy.user, noisy.appPassword), { timeoutMs: 240_000 }),
      ]);
      const a = base.results();
      const b = run.results();
      expect(a.summary.passed).toBe(a.summary.total);
      expect(run.stderr).not.toMatch(/internal error/i);
      const f = proxy.flaky;
      for (const kind of ['gateway', 'reset', 'stalled', 'unavailable', 'unavailableAfter', 'captive', 'truncated', 'slow'] as const) expect(f[kind], `flaky ${kind}`).toBeGreaterThan(0);
      const cmp = compareVerdicts(a, b);
      expect(failedIds(b)).toEqual([]);
      // Reads are retried; writes that may have reached the application are not (they are errors:
      // 17-35 of 225 in measured runs, depending on which requests the trouble meets).
      expect(cmp.retriedAndLost.length, cmp.retriedAndLost.join('\n')).toBeLessThanOrEqual(3);
      expect(cmp.same / cmp.total, cmp.changed.join('\n')).toBeGreaterThanOrEqual(0.75);
      console.log(`reference, every kind of trouble: ${cmp.same} of ${cmp.total} verdicts the same, ${cmp.retriedAndLost.length} lost through all retries; ${JSON.stringify(proxy.flaky)}; network ${JSON.stringify({ ...b.network, affected: undefined })}`);
      expect(b.network!.retried).toBeGreaterThan(10);
      expect(b.network!.behavioursAffected).toBeGreaterThan(0);
      expect(b.network!.behavioursErrored).toBe(b.behaviours.filter((x) => x.status === 'error').length);
      expect(run.stdout).toMatch(/target trouble: \d+ requests sent again, \d+ given up; \d+ behaviours met it/);
      expect(readFileSync(join(run.reportDir, 'report.md'), 'utf8')).toMatch(/### Target trouble/);
      expect(a.network).toMatchObject({ retried: 0, gaveUp: 0, behavioursAffected: 0 });
      expect(base.stdout).toMatch(/target trouble: none/);
      // Nothing left on the site (issue 43), or each item named.
      const left = await expectEachLeftNamed(noisy, b);
      console.log(`every kind of trouble: ${b.leftBehind!.created} items created, ${left} left on the site, ${b.leftBehind!.items.length} named as left`);
    } finally {
      await proxy.close();
      await clean.stop();
      await noisy.stop();
    }
  }, 300_000);

  it("a gateway's 503 with Retry-After after the application acted: the write is not sent again, so nothing is made twice (issue 35)", async () => {
    // Every other create and batch is forwarded (the application acts) and answered 503 with
    // Retry-After, as a gateway in front of the site can do. Sent again, a batch would create its
    // items twice and the checks would fail on what the suite did itself.
    let writes = 0;
    const afterActing: Fault = {
      id: 'double.unavailable-after-acting',
      title: 'a gateway answers 503 with Retry-After after the application acted on every other batch or create',
      caughtBy: [],
      response(req, res) {
        if (req.method !== 'POST' || !/^\/(batch\/v1|cms\/v2\/(posts|pages))$/.test(req.route) || ++writes % 2) return;
        res.status = 503;
        res.headers = { 'content-type': 'text/html; charset=UTF-8', 'retry-after': '1' };
        res.json = undefined;
        res.text = '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>';
      },
    };
    const server = await startReferenceServer({ port: 0 });
    const proxy = await startFaultProxy(server.url, [afterActing], { profile: 'spec' });
    try {
      const run = await runCli(['run', '--target', proxy.url, '--profile', 'spec', '--user', server.user, '--app-password', server.appPassword, '--seed', '1', '--only', '^batch\\.(endpoints|item|validation)\\.', '--report', 'json'], { timeoutMs: 240_000, removeReport: true });
      const results = run.results();
      expect(writes).toBeGreaterThan(4);
      expect(failedIds(results)).toEqual([]);
      const errors = results.behaviours.filter((b) => b.status === 'error');
      expect(errors.length).toBeGreaterThan(0);
      for (const b of errors) expect(b.reason, b.id).toMatch(/answered 503 with Retry-After.*a write is not sent again/);
      // What the creates that met the 503 made is found by its tag and deleted (issue 43).
      expect(await expectEachLeftNamed(server, results)).toBe(0);
    } finally {
      await proxy.close();
      await server.stop();
    }
  }, 300_000);

  it('a 50 MB answer is read no further: the run finishes, the checks that needed it are errors of the target, memory stays bounded', async () => {
    const ref = await startReferenceServer({ port: 0 });
    const only = '^cms\\.posts\\.(query\\.(per_page|page|order)\\.|auth\\.read)';
    const runs: { rss: number; results: Results; stdout: string }[] = [];
    try {
      for (const huge of [false, true]) {
        const proxy = await startFaultProxy(ref.url, [], { profile: 'spec', ...(huge ? { hugeBody: { route: /^\/cms\/v2\/posts$/, bytes: 50 * 1024 * 1024 } } : {}) });
        try {
          const dir = join(tmpdir(), `cmsc-huge-${process.pid}-${huge}`);
          const r = await exec('/usr/bin/time', ['-v', process.execPath, BIN, 'run', '--target', proxy.url, '--profile', 'spec', '--user', ref.user, '--app-password', ref.appPassword, '--seed', '1', '--only', only, '--report', 'json', '--report-dir', dir, '--quiet'], { timeoutMs: 240_000 });
          const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]) * 1024;
          const results = JSON.parse(readFileSync(`${dir}/results.json`, 'utf8')) as Results;
          rmSync(dir, { recursive: true, force: true });
          runs.push({ rss, results, stdout: r.stdout });
          if (huge) expect(proxy.huge.started).toBeGreaterThan(0);
        } finally {
          await proxy.close();
        }
      }
    } finally {
      await ref.stop();
    }
    const [plain, huge] = runs as [(typeof runs)[0], (typeof runs)[0]];
    expect(plain.results.summary.failed).toBe(0);
    // No behaviour fails because of the huge body; the ones that needed it are errors saying so.
    expect(failedIds(huge.results)).toEqual([]);
    const errors = huge.results.behaviours.filter((b) => b.status === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const b of errors) {
      expect(b.failureKind).toBe('target');
      expect(b.reason).toMatch(/over the --max-body limit of 8\.0 MB: read no further/);
    }
    expect(huge.results.network!.behavioursErrored).toBe(errors.length);
    console.log(`peak RSS ${Math.round(huge.rss / 2 ** 20)} MiB with 50 MB bodies, ${Math.round(plain.rss / 2 ** 20)} MiB without; ${errors.length} errors; network ${JSON.stringify({ ...huge.results.network, affected: undefined })}`);
    // Bounded: at most 150 MB above the same run without the huge body (each oversized answer costs at most 8 MB, 4 at a time).
    expect(huge.rss - plain.rss, `peak RSS ${Math.round(huge.rss / 1e6)} MB with the 50 MB bodies, ${Math.round(plain.rss / 1e6)} MB without`).toBeLessThan(150 * 1024 * 1024);
  }, 300_000);

  it('a gateway that answers every listing of posts and pages with an oversized body: a full run deletes every item it created by its id, 0 left (issue 43)', async () => {
    // Before: 2 tagged drafts left on the reference server (auth-valid, prop-single), 4 on WordPress 7.1
    // (also auth-right, auth-batch-control): checks that list to find what they made, and a sweep by tag
    // that lists too. The creates and the deletes are answered normally. --runs 1: every behaviour, each
    // property with one generated input (the cost of the run, not of what it shows).
    const ref = await startReferenceServer({ port: 0 });
    const proxy = await startFaultProxy(ref.url, [], { profile: 'spec', hugeBody: { route: /^\/cms\/v2\/(posts|pages)$/, method: 'GET', bytes: 1536 * 1024, contentLength: true } });
    try {
      const run = await runCli(['run', '--target', proxy.url, '--profile', 'spec', '--user', ref.user, '--app-password', ref.appPassword, '--seed', '1', '--runs', '1', '--max-body', '1MB', '--report', 'json', '--quiet'], { timeoutMs: 400_000, removeReport: true });
      const results = run.results();
      expect(run.stderr).not.toMatch(/internal error/i);
      expect(results.behaviours.length, 'a full run').toBeGreaterThan(2000);
      expect(results.network!.oversized).toBeGreaterThan(100);
      expect(run.stderr).toMatch(/deleted by id: \d+ item\(s\) of this run the suite files had not deleted/);
      expect(results.leftBehind).toMatchObject({ items: [] });
      expect(results.leftBehind!.created).toBeGreaterThan(100);
      expect(await expectEachLeftNamed(ref, results)).toBe(0);
      expect(run.stdout).not.toMatch(/LEFT ON THE TARGET/);
      console.log(`oversized listings, full run: ${results.leftBehind!.created} items created, 0 left; ${/deleted by id: \d+/.exec(run.stderr)?.[0]}; ${results.network!.oversized} answers over --max-body`);
    } finally {
      await proxy.close();
      await ref.stop();
    }
  }, 450_000);

  describe.skipIf(!PLUGIN_TARGET_AVAILABLE)(`the real WordPress 7.1 site${PLUGIN_TARGET_AVAILABLE ? '' : ` (skipped: ${PLUGIN_TARGET_MISSING})`}`, () => {
    it("behind the issue's network (5 % gateway 502s, 2 % held 3 s): nothing that passes fails, at least 90 % the same verdicts, the rest errors that say why", async () => {
      const site = await bootPluginTarget(process.env.CMSC_FLAKY_SITE_PORT ? Number(process.env.CMSC_FLAKY_SITE_PORT) : undefined);
      // The core, batch, oEmbed, auth areas and two extension namespaces: a subset, compared with a baseline run on the same site through a clean proxy (the same URL shape).
      const only = '^(index|batch|oembed|auth|spamfilter)\\.';
      try {
        const results: Results[] = [];
        for (const flaky of [undefined, ISSUE_MIX]) {
          const proxy = await startFaultProxy(site.url, [], { profile: 'wordpress', ...(flaky ? { flaky } : {}) });
          try {
            const run = await runCli(['run', '--target', proxy.url, '--profile', 'wordpress', '--user', site.user!, '--app-password', site.appPassword!, '--seed', '1', '--only', only, '--report', 'json'], { timeoutMs: 280_000, removeReport: true });
            expect(run.stderr).not.toMatch(/internal error/i);
            results.push(run.results());
            if (flaky) expect(proxy.flaky.gateway).toBeGreaterThan(5);
          } finally {
            await proxy.close();
          }
        }
        const [base, flaky] = results as [Results, Results];
        const cmp = compareVerdicts(base, flaky);
        expect(failedIds(flaky).filter((id) => !failedIds(base).includes(id))).toEqual([]);
        // A write that met a gateway's answer after the application may have done it is not sent again
        // (a second one could change the verdict): such checks are errors. Measured: 94.7-97.9 % the same.
        expect(cmp.retriedAndLost.length, cmp.retriedAndLost.join('\n')).toBeLessThanOrEqual(2);
        expect(cmp.same / cmp.total, cmp.changed.join('\n')).toBeGreaterThanOrEqual(0.85);
        expect(flaky.network!.retried).toBeGreaterThan(0);
        console.log(`7.1 site, the issue's network: ${cmp.same} of ${cmp.total} verdicts the same, ${cmp.retriedAndLost.length} lost through all retries; network ${JSON.stringify({ ...flaky.network, affected: undefined })}\n${cmp.changed.join('\n')}`);
      } finally {
        await site.stop();
      }
    }, 600_000);
  });
});
