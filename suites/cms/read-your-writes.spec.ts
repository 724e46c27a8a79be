/**
 * Read your writes (4. Endpoints › Posts, Pages: GET reads an item, POST, PUT and PATCH update it,
 * DELETE deletes it): after a write, a read of the item through a URL read before the write shows
 * the write. The probe and the read-backs that rely on it: lib/read-back.ts.
 */
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { posts } from './lib/collections.ts';
import { READ_YOUR_WRITES, readYourWrites } from './lib/read-back.ts';

behaviour(
  {
    id: READ_YOUR_WRITES,
    level: 'MUST',
    namespace: 'cms/v2',
    route: posts.paths.item,
    title: 'after an update and after a delete for good, a post and a page read through the URLs read before the write (the single GET, plain and in edit context) show the write: no stale copy (a cache that writes do not reach)',
    spec: posts.spec.routes,
    covers: [`endpoint:cms.posts.item.read`, `endpoint:cms.pages.item.read`],
  },
  async (t: BehaviourContext) => {
    t.requireWrites();
    t.requireCredentials();
    await t.need(readYourWrites);
  },
  { concurrent: true },
);
