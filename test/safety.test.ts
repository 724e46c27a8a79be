/**
 * Live-site safety: read-only runs send no write request, --max-rps holds, no credential
 * reaches any file the run writes, and nothing is left behind.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePolicy } from '../src/run/session.ts';
import { resolveConfig } from '../src/core/config.ts';
import { Client } from '../src/http/client.ts';
import { listTagged } from '../src/run/leftovers.ts';
import { getProfile } from '../schemas/profiles.ts';
import { runSuite, sharedWordPress } from './helpers/harness.ts';
import { startReferenceServer } from '../targets/reference/index.ts';

const wp = sharedWordPress();

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}

describe('write policy', () => {
  const cfg = (flags: Record<string, string | boolean>) => resolveConfig(flags, {}, '/nonexistent');
  it('is read-only by default on a target that is not on loopback', () => {
    expect(writePolicy(cfg({}), { url: 'https://site.example', embedded: null }).allowed).toBe(false);
    expect(writePolicy(cfg({ 'allow-writes': true }), { url: 'https://site.example', embedded: null }).allowed).toBe(true);
    expect(writePolicy(cfg({}), { url: 'http://127.0.0.1:8080', embedded: null }).allowed).toBe(true);
    expect(writePolicy(cfg({ 'read-only': true, 'allow-writes': true }), { url: 'http://127.0.0.1:8080', embedded: null })).toEqual({ allowed: false, reason: '--read-only' });
  });
});

describe('a read-only run sends no write, whatever a check tries (issue 35)', () => {
  it('the client refuses every write before it is sent, naming the reason', async () => {
    const client = new Client({ baseUrl: 'http://127.0.0.1:9', readOnly: '--read-only' });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const)
      await expect(client.request(method, '/cms/v2/posts')).rejects.toMatchObject({ name: 'WritesNotAllowed', message: `writes not allowed: --read-only (${method} /cms/v2/posts was not sent)` });
    // A GET that asks to be taken for a write (_method) is one.
    await expect(client.get('/cms/v2/posts', { query: { _method: 'DELETE' } })).rejects.toMatchObject({ name: 'WritesNotAllowed' });
    expect(client.requests).toBe(0);
    await client.close();
  });

  it('every behaviour against the reference server (every namespace), with credentials: reads only', async () => {
    const server = await startReferenceServer({ port: 0 });
    try {
      const run = await runSuite({ url: server.url, user: server.user, appPassword: server.appPassword, profile: 'spec' }, { faults: [], args: ['--read-only'], removeReport: true });
      expect(run.stats!.total).toBeGreaterThan(300);
      // GET; and HEAD and OPTIONS, which the client-readiness profile sends (the home page's discovery, the batch descriptor).
      expect(run.stats!.writes).toBe(0);
      expect(Object.keys(run.stats!.byMethod).sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
      const results = run.results();
      expect(results.summary.failed).toBe(0);
      expect(results.behaviours.filter((b) => b.status === 'error')).toEqual([]);
      // The profile is on (issue 42): its reads ran, its writes skipped saying why, and the readiness says what was not checked.
      const client = results.behaviours.filter((b) => b.level === 'CLIENT');
      expect(client.filter((b) => b.status === 'passed').length).toBeGreaterThan(10);
      // (The sample site has one published post: the next-page link cannot be observed on it.)
      expect(client.filter((b) => b.status === 'skipped').map((b) => [b.id, b.reason])).toEqual([
        ['client.batch.responses', 'writes not allowed: --read-only'],
        ['client.paging.link-next', "not observable on the site's content: needs 2 published posts, the site lists 1 (and the run may not create any: --read-only)"],
        ['client.write.method-override', 'writes not allowed: --read-only'],
        ['client.write.text-strings', 'writes not allowed: --read-only'],
      ]);
      expect(results.clients!.map((c) => [c.client, c.verdict, c.uncheckedFlows.join()])).toEqual([
        ['wpapi', 'ready', 'list,write'],
        ['api-fetch', 'ready', 'list,write,batch'],
        ['frontity', 'ready', ''],
        ['headstartwp', 'ready', ''],
      ]);
    } finally {
      await server.stop();
    }
  });
});

describe('against the embedded WordPress', () => {
  it('a read-only run sends no write request and says why write behaviours skip', async () => {
    const run = await runSuite(wp(), { faults: [], args: ['--read-only'], only: '^(cms\\.posts|batch|auth|spamfilter)\\.' });
    expect([0, 1]).toContain(run.code);
    expect(run.stats!.total).toBeGreaterThan(10);
    expect(run.stats!.writes).toBe(0);
    const skipped = run.results().behaviours.filter((b) => b.status === 'skipped');
    expect(skipped.some((b) => /writes not allowed: --read-only/.test(b.reason ?? ''))).toBe(true);
  });

  it('holds --max-rps and keeps credentials out of every file it writes', async () => {
    const target = wp();
    const run = await runSuite(target, { faults: [], args: ['--max-rps', '20', '--concurrency', '4'], only: '^(cms\\.posts\\.query|spamfilter|auth)\\.' });
    const arrivals = run.stats!.arrivals.slice(1); // the first is the CLI's index fetch
    expect(arrivals.length).toBeGreaterThan(30);
    // Over any window of 21 consecutive requests about 1 s passes (20 per second; each of the
    // suite workers holds its share of the rate, so two can line up a little: allow 20 %).
    let worst = Infinity;
    for (let i = 20; i < arrivals.length; i++) worst = Math.min(worst, arrivals[i]! - arrivals[i - 20]!);
    expect(worst).toBeGreaterThan(800);
    const observed = (arrivals.length - 1) / ((arrivals.at(-1)! - arrivals[0]!) / 1000);
    expect(observed).toBeLessThanOrEqual(21);
    for (const f of filesUnder(run.reportDir)) expect(readFileSync(f, 'utf8'), f).not.toContain(target.appPassword!);
    expect(run.stdout + run.stderr).not.toContain(target.appPassword!);

    const direct = new Client({ baseUrl: target.url, credentials: { user: target.user, appPassword: target.appPassword }, mapRoute: (r) => getProfile('wordpress').toTargetRoute(r) });
    for (const collection of ['/cms/v2/posts', '/cms/v2/pages']) expect(await listTagged(direct, collection)).toEqual([]);
    await direct.close();
  });
});
