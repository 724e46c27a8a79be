/**
 * One broken thing is one finding, where a check relies on what it does not own:
 * - most filter checks put their list in order with orderby=id: against a server that refuses
 *   orderby, they skip, depending on cms.<type>.filter.orderby.id (which fails on the same
 *   refusal), and the deviations are the orderby args alone;
 * - the model checks send batches: against a server that answers a batch's items in reverse order,
 *   the order of the answers is batch.response.multi-status's finding, and the MUST model checks,
 *   which judge the state the batch leaves, still pass;
 * - the status filter check lists the trash with an item its setup trashed: against a server that
 *   deletes for good without force, status=trash depends on cms.<type>.delete.trash;
 * - the autosave list and read checks find their autosave by the id the create answered: an
 *   autosave answered with its parent's id is no fixture, and they depend on autosaves.create.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../targets/reference/index.ts';
import { runSuite } from '../helpers/harness.ts';
import { allFaults } from '../../faults/index.ts';

describe('an arg used to order the list, refused', () => {
  it('cms.arg-rejected.orderby: offset, order, page and the page default skip naming filter.orderby.id; the deviations are the orderby args', async () => {
    const s = await startReferenceServer({ port: 0 });
    try {
      const target = { url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' as const };
      const only = '^cms\\.posts\\.(filter|query)\\.';
      const r = (await runSuite(target, { only, faults: allFaults.filter((f) => f.id === 'cms.arg-rejected.orderby') })).results();
      const b = Object.fromEntries(r.behaviours.map((x) => [x.id, x]));
      for (const id of ['cms.posts.filter.offset', 'cms.posts.filter.order', 'cms.posts.filter.page', 'cms.posts.query.page.default'])
        expect(b[id], id).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^depends on cms\.posts\.filter\.orderby\.id/) });
      expect(b['cms.posts.filter.orderby.id']!.status).toBe('failed');
      expect(r.deviations!.map((d) => d.key)).toEqual(['arg:cms.posts.collection.list.orderby']);
      // Without the fault, the same checks pass.
      const healthy = (await runSuite(target, { only })).results();
      const h = Object.fromEntries(healthy.behaviours.map((x) => [x.id, x.status]));
      for (const id of ['cms.posts.filter.offset', 'cms.posts.filter.order', 'cms.posts.filter.page', 'cms.posts.query.page.default', 'cms.posts.filter.orderby.id']) expect(h[id], id).toBe('passed');
    } finally {
      await s.stop();
    }
  });

  it('batch.responses-reversed: the batch checks fail; the MUST model checks (the state a batch leaves) pass', async () => {
    const s = await startReferenceServer({ port: 0 });
    try {
      const target = { url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' as const };
      const r = (await runSuite(target, { only: '^(cms\\.(posts|pages)\\.model$|batch\\.response\\.multi-status$)', faults: allFaults.filter((f) => f.id === 'batch.responses-reversed') })).results();
      const b = Object.fromEntries(r.behaviours.map((x) => [x.id, x.status]));
      expect(b).toEqual({ 'batch.response.multi-status': 'failed', 'cms.posts.model': 'passed', 'cms.pages.model': 'passed' });
    } finally {
      await s.stop();
    }
  });

  it('cms.delete-without-force-permanent: the status filter skips, depending on delete.trash, after checking every other status', async () => {
    const s = await startReferenceServer({ port: 0 });
    try {
      const target = { url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' as const };
      const only = '^cms\\.posts\\.(filter\\.status|delete\\.trash)$';
      const r = (await runSuite(target, { only, faults: allFaults.filter((f) => f.id === 'cms.delete-without-force-permanent') })).results();
      const b = Object.fromEntries(r.behaviours.map((x) => [x.id, x]));
      expect(b['cms.posts.delete.trash']!.status).toBe('failed');
      expect(b['cms.posts.filter.status']).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^depends on cms\.posts\.delete\.trash: DELETE \S+ without force answered 200/) });
      const healthy = (await runSuite(target, { only })).results();
      expect(healthy.behaviours.map((x) => x.status)).toEqual(['passed', 'passed']);
    } finally {
      await s.stop();
    }
  });

  it('cms.autosave-not-own: the autosave list and read checks skip, depending on autosaves.create', async () => {
    const s = await startReferenceServer({ port: 0 });
    try {
      const target = { url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' as const };
      const only = '^cms\\.posts\\.autosaves\\.(create|list|read)$';
      const r = (await runSuite(target, { only, faults: allFaults.filter((f) => f.id === 'cms.autosave-not-own') })).results();
      const b = Object.fromEntries(r.behaviours.map((x) => [x.id, x]));
      expect(b['cms.posts.autosaves.create']!.status).toBe('failed');
      for (const id of ['cms.posts.autosaves.list', 'cms.posts.autosaves.read']) expect(b[id], id).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^depends on cms\.posts\.autosaves\.create: .*with the id of its parent/) });
      const healthy = (await runSuite(target, { only })).results();
      expect(healthy.behaviours.map((x) => x.status)).toEqual(['passed', 'passed', 'passed']);
    } finally {
      await s.stop();
    }
  });
});
