/**
 * Issue 40: no false SECURITY or MUST failure on content like a real site's. A reference site with
 * the features of WordPress's theme test content (targets/reference/theme-test.ts: a post whose
 * title names its password, pages three levels deep, sticky, scheduled and draft posts, a category
 * tree and many tags, long, empty, marked-up and non-Latin titles, every post format, posts at the
 * same second), read-only, without credentials and with them: every cms/v2 behaviour (what the
 * content decides; whole runs: BENCHMARKS.md), no failure, no write sent. (The WordPress 7.1 site
 * given the same content through its API: BENCHMARKS.md.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../results/results.ts';
import { startReferenceServer, type ReferenceServer } from '../../targets/reference/index.ts';
import { themeTestContent } from '../../targets/reference/theme-test.ts';
import { runSuite, type SuiteRun } from '../helpers/harness.ts';

const ran = (r: Results, prefix: string) => r.behaviours.filter((b) => b.id.startsWith(prefix) && (b.status === 'passed' || b.status === 'failed')).length;

describe('a read-only run on the theme test content', () => {
  let server: ReferenceServer;
  const runs = {} as Record<'anonymous' | 'credentials', { run: SuiteRun; results: Results }>;

  beforeAll(async () => {
    server = await startReferenceServer({ content: 'theme-test' });
    const site = { url: server.url, user: server.user, appPassword: server.appPassword, profile: 'spec' as const };
    for (const who of ['anonymous', 'credentials'] as const) {
      const run = await runSuite(who === 'credentials' ? site : { url: site.url, profile: site.profile }, { faults: [], only: '^cms\\.', args: ['--read-only', '--quiet'], removeReport: true });
      runs[who] = { run, results: run.results() };
    }
  }, 300_000);
  afterAll(async () => server?.stop());

  it('the content has the traps it is made for', () => {
    const items = themeTestContent().items;
    const trap = items.find((i) => i.password && i.title.includes(i.password));
    expect(trap?.type).toBe('post');
    expect(items.some((i) => i.type === 'post' && i.title === '' && i.status === 'publish')).toBe(true);
    expect(new Set(items.filter((i) => i.type === 'post' && i.status === 'publish').map((i) => i.date)).size).toBeLessThan(items.filter((i) => i.type === 'post' && i.status === 'publish').length);
    const parents = new Map(items.map((i) => [i.key, i.parent]));
    expect(items.some((i) => i.parent && parents.get(i.parent))).toBe(true); // three levels of pages
  });

  for (const [who, least] of [['anonymous', 150], ['credentials', 195]] as const) {
    it(`${who}: no failure or error, no write sent, at least ${least} core behaviours run on the site's content`, () => {
      const { run, results } = runs[who];
      expect(results.behaviours.filter((b) => b.status === 'failed' || b.status === 'error').map((b) => `${b.level} ${b.id}: ${b.reason}`)).toEqual([]);
      expect(run.stats!.byMethod).toEqual({ GET: run.stats!.total });
      expect(ran(results, 'cms.')).toBeGreaterThanOrEqual(least);
    });
  }

  it('with credentials, password.protects judged the post whose title names its password', () => {
    const b = runs.credentials.results.behaviours.find((x) => x.id === 'cms.posts.password.protects')!;
    expect(b.status).toBe('passed');
    const trap = runs.credentials.results.behaviours.length && b.subjects?.detail;
    expect(trap).toMatch(/^post \d+/);
  });
});
