/**
 * One broken thing is one finding, where a check relies on what it does not own:
 * - most filter checks put their list in order with orderby=id: against a server that refuses
 *   orderby, they skip, depending on cms.<type>.filter.orderby.id (which fails on the same
 *   refusal), and the deviations are the orderby args alone;
 * - the model checks send batches: against a server that answers a batch's items in reverse order,
 *   the order of the answers is batch.response.multi-status's finding, and the model checks,
 *   which judge the state the batch leaves and each answer in whatever order it came, still pass;
 * - the status filter check lists the trash with an item its setup trashed: against a server that
 *   deletes for good without force, status=trash depends on cms.<type>.delete.trash;
 * - the autosave list and read checks find their autosave by the id the create answered: an
 *   autosave answered with its parent's id is no fixture, and they depend on autosaves.create;
 * - the revision default-order check compares the lists in both orders: when they hold different
 *   revisions (one is missing from a list), it depends on revisions.created-on-update;
 * - and a SHOULD never contradicts what the spec states (embed answers with content.protected).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../targets/reference/index.ts';
import { InProcessRunner } from '../../src/proof/proof.ts';
import { allFaults } from '../../faults/index.ts';
import type { Fault } from '../../faults/proxy.ts';
import type { BehaviourResult, Results } from '../../results/results.ts';

// The runs are made in this process on one suite engine (the CLI's own pipeline and arguments,
// without a CLI start per run: the CLI itself is proven by cli.test.ts and the end-to-end tests).
let runner: InProcessRunner;
beforeAll(async () => {
  runner = await InProcessRunner.open();
}, 120_000);
afterAll(async () => runner?.close());

/** The behaviours `only` selects on the reference server, with the named fault (or none, or a test double), by ID. */
async function run(only: string, faultId?: string | Fault): Promise<Record<string, BehaviourResult> & { deviations?: Results['deviations'] }> {
  const s = await startReferenceServer({ port: 0 });
  try {
    const target = { url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' as const };
    const faults = typeof faultId === 'string' ? allFaults.filter((f) => f.id === faultId) : faultId ? [faultId] : undefined;
    const r = (await runner.run(target, { only, ...(faults ? { faults } : {}), removeReport: true })).results();
    return Object.assign(Object.fromEntries(r.behaviours.map((x) => [x.id, x])), { deviations: r.deviations });
  } finally {
    await s.stop();
  }
}
const statuses = (b: Record<string, BehaviourResult>, ids: string[]) => ids.map((id) => b[id]?.status);

describe('what a check relies on but does not own', () => {
  it('cms.arg-rejected.orderby: offset, order, page and the page default never fail for it (judged in the default order, or skip naming filter.orderby.id); the deviations are the orderby args', async () => {
    const only = '^cms\\.posts\\.(filter|query)\\.';
    const ids = ['cms.posts.filter.offset', 'cms.posts.filter.order', 'cms.posts.filter.page', 'cms.posts.query.page.default'];
    const b = await run(only, 'cms.arg-rejected.orderby');
    // The model judges offset, order and pages in the default order too (combinations without orderby):
    // never failed for the refused orderby; a skip names its owner.
    for (const id of ids) {
      expect(['passed', 'skipped'], `${id}: ${b[id]?.status} ${b[id]?.reason}`).toContain(b[id]?.status);
      if (b[id]!.status === 'skipped') expect(b[id]!.reason, id).toMatch(/^depends on cms\.posts\.filter\.orderby\.id/);
    }
    expect(b['cms.posts.filter.orderby.id']!.status).toBe('failed');
    expect(b.deviations!.map((d) => d.key)).toEqual(['arg:cms.posts.collection.list.orderby']);
    // Without the fault, the same checks pass.
    expect(statuses(await run(only), [...ids, 'cms.posts.filter.orderby.id'])).toEqual(Array(ids.length + 1).fill('passed'));
  });

  it('batch.responses-reversed: the batch checks fail; the model checks (the state a batch leaves, the answers in whatever order) pass', async () => {
    const ids = ['batch.response.multi-status', 'cms.posts.model', 'cms.pages.model', 'cms.posts.model.should', 'cms.pages.model.should'];
    expect(statuses(await run('^(cms\\.(posts|pages)\\.model(\\.should)?$|batch\\.response\\.multi-status$)', 'batch.responses-reversed'), ids)).toEqual(['failed', 'passed', 'passed', 'passed', 'passed']);
  });

  it('cms.delete-without-force-permanent: delete.trash fails; the status filter never fails for it (judged on the items there are, or skips naming delete.trash)', async () => {
    const only = '^cms\\.posts\\.(filter\\.status|delete\\.trash)$';
    const b = await run(only, 'cms.delete-without-force-permanent');
    expect(b['cms.posts.delete.trash']!.status).toBe('failed');
    // The status filter is judged on the items the model has (none trashed here): never failed for it; a skip names delete.trash.
    const st = b['cms.posts.filter.status']!;
    expect(['passed', 'skipped'], `${st.status} ${st.reason}`).toContain(st.status);
    if (st.status === 'skipped') expect(st.reason).toMatch(/^depends on cms\.posts\.delete\.trash/);
    expect(statuses(await run(only), ['cms.posts.delete.trash', 'cms.posts.filter.status'])).toEqual(['passed', 'passed']);
  });

  it('cms.autosave-not-own: the autosave list and read checks skip, depending on autosaves.create', async () => {
    const only = '^cms\\.posts\\.autosaves\\.(create|list|read)$';
    const ids = ['cms.posts.autosaves.create', 'cms.posts.autosaves.list', 'cms.posts.autosaves.read'];
    const b = await run(only, 'cms.autosave-not-own');
    expect(b['cms.posts.autosaves.create']!.status).toBe('failed');
    for (const id of ids.slice(1)) expect(b[id], id).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^depends on cms\.posts\.autosaves\.create: .*with the id of its parent/) });
    expect(statuses(await run(only), ids)).toEqual(['passed', 'passed', 'passed']);
  });

  it('a SHOULD never contradicts the spec: content carrying only content.protected in embed answers (part 2 declares it for embed) passes the embed field set', async () => {
    // A test double of a server written from the documents: embed answers keep the content object
    // with what part 2 declares for embed (protected), where WordPress leaves content out.
    const protectedOnly: Fault = {
      id: 'double.embed-content-protected',
      title: 'answers content as {protected} in embed context',
      caughtBy: [],
      response(req, res) {
        if (req.method !== 'GET' || req.query.get('context') !== 'embed') return;
        const items = Array.isArray(res.json) ? res.json : res.json && typeof res.json === 'object' && 'id' in res.json ? [res.json] : [];
        for (const item of items) item.content = { protected: false };
      },
    };
    const ids = ['cms.posts.context.embed', 'cms.posts.context.embed.fields'];
    expect(statuses(await run('^cms\\.posts\\.context\\.embed', protectedOnly), ids)).toEqual(['passed', 'passed']);
  });

  it('cms.revision-not-created: the revision default-order check skips, depending on revisions.created-on-update', async () => {
    const only = '^cms\\.posts\\.revisions\\.(query\\.defaults|created-on-update)$';
    const b = await run(only, 'cms.revision-not-created');
    expect(b['cms.posts.revisions.created-on-update']!.status).toBe('failed');
    expect(b['cms.posts.revisions.query.defaults']).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^depends on cms\.posts\.revisions\.created-on-update: .*not the same revisions/) });
    expect(statuses(await run(only), ['cms.posts.revisions.created-on-update', 'cms.posts.revisions.query.defaults'])).toEqual(['passed', 'passed']);
  });
});
