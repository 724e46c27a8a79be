/**
 * A failure message of the collection filters labels the items it created oN(id) and says what
 * the labels mean in the message itself (suites/cms/lib/filters.ts), so a reader of any report
 * does not have to guess.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultById } from '../faults/index.ts';
import { runSuite, type Target } from './helpers/harness.ts';

describe('filter failure messages explain their oN(id) labels', () => {
  let ref: Target & { stop(): Promise<void> };
  beforeAll(async () => {
    const { startReferenceServer } = await import('../targets/reference/index.ts');
    const srv = await startReferenceServer({ port: 0 });
    ref = { url: srv.url, user: srv.user, appPassword: srv.appPassword, profile: 'spec', stop: () => srv.stop() };
  });
  afterAll(() => ref?.stop());

  it('include ignored: got/expected with the labels and their legend', async () => {
    const run = await runSuite(ref, { only: '^cms\\.posts\\.filter\\.include ', faults: [faultById('cms.filter-ignored.include')] });
    const [b] = run.results().behaviours;
    expect(b).toMatchObject({ id: 'cms.posts.filter.include', status: 'failed' });
    expect(b!.reason).toMatch(/^include=o1,o3: got \[.*o2\(\d+\).*\], expected \[o1\(\d+\), o3\(\d+\)\] \(oN\(id\): the N-th of the three posts created for these checks, with its id: o1 "mike …" dated 2001-03-01, o2 "kilo" 2001-02-01, o3 "lima" 2001-04-01; a bare number is the id of another item\)(?: \(.*\))? \[request: GET \/cms\/v2\/posts\?per_page=100&include=\d+,\d+ \(with credentials\)\]$/);
  });
});
