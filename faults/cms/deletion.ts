/**
 * Faults of deletion, revisions and autosaves: force ignored, the trash skipped or kept, revisions
 * and autosaves not made or not deleted.
 */
import { json, type Fault, type FaultRequest } from '../proxy.ts';
import { AUTOSAVE, AUTOSAVES, ITEM, REVISION, REVISIONS, isGet, perType } from './common.ts';

const forceOf = (req: FaultRequest) => ['true', '1'].includes((req.query.get('force') ?? '').toLowerCase());
/** Items whose forced DELETE the fault already turned into a trash (only the first one is). */
const trashedOnce = new Set<string>();

export const deleteFaults: Fault[] = [
  {
    id: 'cms.delete-without-force-permanent',
    title: 'deletes posts and pages for good on DELETE without force',
    caughtBy: perType('delete.trash'),
    request(req) {
      if (req.method === 'DELETE' && ITEM.test(req.route) && !forceOf(req)) req.query.set('force', 'true');
    },
  },
  {
    id: 'cms.delete-force-ignored',
    title: 'moves posts and pages to the trash on DELETE with force=true',
    caughtBy: perType('delete.force'),
    request(req) {
      if (req.method !== 'DELETE' || !ITEM.test(req.route) || !forceOf(req) || trashedOnce.has(req.route)) return;
      // Once per item: the suite's own cleanup (a second forced DELETE) still deletes it.
      trashedOnce.add(req.route);
      req.query.delete('force');
    },
  },
  {
    id: 'cms.revision-delete-without-force-accepted',
    title: 'deletes a revision on DELETE without force=true',
    caughtBy: perType('revisions.delete.without-force'),
    request(req) {
      if (req.method === 'DELETE' && REVISION.test(req.route) && !forceOf(req)) return json(200, { deleted: true, previous: { id: Number(REVISION.exec(req.route)![3]) } });
    },
  },
  {
    id: 'cms.revision-delete-force-ignored',
    title: 'answers DELETE ?force=true on a revision with success but keeps the revision',
    caughtBy: perType('revisions.delete.force'),
    request(req) {
      if (req.method === 'DELETE' && REVISION.test(req.route) && forceOf(req)) return json(200, { deleted: true, previous: { id: Number(REVISION.exec(req.route)![3]) } });
    },
  },
  {
    id: 'cms.revision-not-created',
    title: 'makes no revision on update (the newest revision never shows in the list)',
    caughtBy: perType('revisions.created-on-update'),
    response(req, res) {
      if (isGet(req) && REVISIONS.test(req.route) && Array.isArray(res.json) && res.json.length) res.json.shift();
    },
  },
  {
    id: 'cms.revision-parent-wrong',
    title: 'gives revisions the wrong parent',
    caughtBy: perType('revisions.parent'),
    response(req, res) {
      if (!isGet(req) || !(REVISIONS.test(req.route) || REVISION.test(req.route)) || res.status !== 200) return;
      for (const r of Array.isArray(res.json) ? res.json : [res.json]) if (r && typeof r.parent === 'number') r.parent += 1;
    },
  },
  {
    id: 'cms.revision-any-parent',
    title: 'serves a revision under any parent',
    caughtBy: perType('revisions.wrong-parent'),
    response(req, res) {
      const m = REVISION.exec(req.route);
      if (isGet(req) && m && res.status >= 400 && res.status < 500) {
        res.status = 200;
        res.json = { id: Number(m[3]), parent: Number(m[2]) };
      }
    },
  },
  {
    id: 'cms.autosave-not-own',
    title: 'answers an autosave with its parent id instead of its own',
    caughtBy: perType('autosaves.create'),
    response(req, res) {
      const m = AUTOSAVES.exec(req.route);
      if (req.method === 'POST' && m && res.json && typeof res.json === 'object') res.json.id = Number(m[2]);
    },
  },
  {
    id: 'cms.autosave-not-listed',
    title: 'lists no autosaves',
    caughtBy: perType('autosaves.list'),
    response(req, res) {
      if (isGet(req) && AUTOSAVES.test(req.route) && res.status === 200) res.json = [];
    },
  },
  {
    id: 'cms.autosave-not-found',
    title: 'answers 404 for an existing autosave',
    caughtBy: perType('autosaves.read'),
    request(req) {
      if (isGet(req) && AUTOSAVE.test(req.route)) return json(404, { code: 'rest_post_no_autosave', message: 'There is no autosave revision for this post.', data: { status: 404 } });
    },
  },
  {
    id: 'cms.autosave-overwrites',
    title: 'applies an autosave of a published item to the item itself',
    caughtBy: perType('autosaves.parent-unchanged'),
    request(req) {
      const m = AUTOSAVES.exec(req.route);
      if (req.method === 'POST' && m) req.route = `/cms/v2/${m[1]}/${m[2]}`;
    },
  },
];

