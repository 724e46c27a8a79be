/**
 * A failure message of the collection filters names the request whose answer it judges (method,
 * URL with its query) and every item it shows, with its status, title and date
 * (suites/cms/lib/query-check.ts), so a reader of any report does not have to guess.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultById } from '../faults/index.ts';
import { runSuite, type Target } from './helpers/harness.ts';

describe('filter failure messages name their request and every item they show', () => {
  let ref: Target & { stop(): Promise<void> };
  beforeAll(async () => {
    const { startReferenceServer } = await import('../targets/reference/index.ts');
    const srv = await startReferenceServer({ port: 0 });
    ref = { url: srv.url, user: srv.user, appPassword: srv.appPassword, profile: 'spec', stop: () => srv.stop() };
  });
  afterAll(() => ref?.stop());

  it('include ignored: the request, the items listed that include does not name, each item explained', async () => {
    const run = await runSuite(ref, { only: '^cms\\.posts\\.filter\\.include ', faults: [faultById('cms.filter-ignored.include')] });
    const [b] = run.results().behaviours;
    expect(b).toMatchObject({ id: 'cms.posts.filter.include', status: 'failed' });
    const reason = b!.reason ?? '';
    const m = /^GET \/cms\/v2\/posts\?include=(\d+)&per_page=100 (lists [^(]*)\(the posts: /.exec(reason);
    expect(m, reason).not.toBeNull();
    const [, scope, what] = m!;
    expect(what).toMatch(new RegExp(`lists [\\d, ]+, though include=${scope} does not name them`));
    // Every id the message shows is explained: a known item with its title and date, any other said to be unknown.
    for (const id of new Set([scope!, ...(what!.match(/\d+/g) ?? [])])) expect(reason, id).toMatch(new RegExp(`[(,;:] ${id}( \\("[^"]*", \\d{4}-\\d\\d-\\d\\dT|: not among the posts the check knows)`));
    // The smallest combination that still fails, and the one it was made from.
    expect(reason).toMatch(/the smallest combination that still fails \(made from GET \/cms\/v2\/posts\?include=[\d,]+&per_page=100 in \d+ requests?\)/);
  });
});
