/**
 * Media collection GET (4. Endpoints › Media): the documented query arguments, their bounds
 * and the per_page default where the target holds enough media. Uploading is not documented
 * (left to discovery), so the checks run against the media the target already has.
 */
import { behaviour, prerequisite, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { whyNotAccepted } from '../../src/sdk/controls.ts';
import { ConformanceFailure } from '../../src/sdk/http.ts';
import { media } from './lib/collections.ts';
import { defineQueryBehaviours, expectListOk, type QueryData, type QueryTarget } from './lib/query.ts';

/**
 * The media items the target lists (up to 100), read once per worker with the default page
 * size (no argument the query checks are about is sent). Owned by cms.media.query.per_page.default
 * (the read without arguments): when the listing is refused, that behaviour fails with the reason
 * and every other media behaviour skips, naming it.
 */
const mediaOnTarget = prerequisite('cms.media.query.per_page.default', async (client) => {
  const ids: number[] = [];
  for (let page = 1; ids.length < 100; page++) {
    const res = await client.get(media.route.path, page === 1 ? {} : { query: { page } });
    // Past the last page: what a server answers there is not stated (WordPress: 400), so only page 1 must be served.
    if (page > 1 && res.status !== 200) break;
    if (res.status !== 200 || !Array.isArray(res.body)) throw new ConformanceFailure(whyNotAccepted(res, `GET ${media.route.path}${page > 1 ? `?page=${page}` : ''}`));
    const found = res.body.map((m: any) => m?.id).filter((id: unknown): id is number => typeof id === 'number' && !ids.includes(id));
    if (found.length === 0) break;
    ids.push(...found);
  }
  return { ids: ids.slice(0, 100) };
});

const target: QueryTarget = {
  id: 'cms.media',
  endpoint: media.endpoint.id,
  path: media.route.path,
  spec: media.endpoint.spec,
  args: media.query,
  items: { kind: 'none' },
  data: async (t): Promise<QueryData> => {
    const m = await t.need(mediaOnTarget);
    return { route: media.route.path, scope: {}, count: m.ids.length };
  },
};
defineQueryBehaviours(target);

const perPageDefault = media.query.per_page?.default as number | undefined;
if (perPageDefault !== undefined) {
  behaviour(
    {
      id: 'cms.media.query.per_page.default',
      level: 'MUST',
      namespace: 'cms/v2',
      route: media.route.path,
      title: `without per_page, ${perPageDefault} media items are returned when more exist`,
      spec: media.endpoint.spec,
      covers: ['arg:cms.media.collection.list.per_page', 'limit.per_page.default'],
    },
    async (t: BehaviourContext) => {
      const m = await t.need(mediaOnTarget);
      if (m.ids.length <= perPageDefault)
        t.skip(`not observable: the target lists ${m.ids.length} media items (more than ${perPageDefault} needed) and uploading is not documented`);
      const items = expectListOk(t, target.items, await t.client.get(media.route.path), 'no per_page');
      if (items.length !== perPageDefault) t.fail(`${m.ids.length} media items exist and no per_page was given: ${items.length} returned, the default per_page is ${perPageDefault}`);
    },
    { concurrent: true },
  );
}
