/**
 * allow_batch per endpoint, through real batch requests (part 4 › Posts, Pages: "Batchable";
 * part 9: "the value v1 is true on the batchable endpoints listed in part 4"):
 * - a batch of a create, an update and a delete (force) of posts, and of pages, applies each item;
 * - for pages, items aimed at an autosave create and a revision delete (stated not batchable)
 *   are not applied (the posts' counterpart is batch.not-batchable.revisions-autosaves).
 * Batch items carry only POST, PUT, PATCH or DELETE, so the GET endpoints' allow_batch cannot be
 * exercised this way (schemas/catalog/uncovered-core.ts).
 */
import { endpointById } from '../../schemas/catalog/index.ts';
import { behaviour, fixtures, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/sdk/http.ts';
import { answerOf, expectControlAccepted, whyNotAccepted } from '../../src/sdk/controls.ts';
import { perItemAnswers } from './lib/batch.ts';
import { textFields, textObject } from '../../src/sdk/http.ts';

const BATCH = endpointById('batch.v1.create');
const ROUTE = BATCH.route.path;
const ok = (status: number) => status >= 200 && status <= 299;

interface Item {
  method: string;
  /** Spec names; translated before sending. A query string is kept as it is. */
  path: string;
  body?: Record<string, unknown>;
}

function sendBatch(t: BehaviourContext, items: Item[]): Promise<Response> {
  const requests = items.map((i) => {
    const [path, query] = i.path.split('?');
    return { ...i, path: `${t.run.profile.toTargetRoute(path!)}${query ? `?${query}` : ''}` };
  });
  return t.client.post(ROUTE, { requests });
}

/**
 * The per-item answers of an accepted batch where it has WordPress's shape (`responses[]`), else
 * none: the answer's shape is not shown (part 4 › Batch), so what the items did is judged by
 * reading the items back, never by the answer.
 */
function itemAnswers(t: BehaviourContext, res: Response, n: number): ({ status?: number; body?: any } | undefined)[] {
  if (!ok(res.status)) t.fail(whyNotAccepted(res, `POST ${ROUTE}`));
  const responses = perItemAnswers(res);
  return responses?.length === n ? responses : Array.from({ length: n }, () => undefined);
}

for (const type of ['posts', 'pages'] as const) {
  const collection = `/cms/v2/${type}`;
  behaviour(
    {
      id: `batch.endpoints.${type}.batchable`,
      level: 'MUST',
      namespace: '',
      route: ROUTE,
      title: `a batch of a create, an update and a delete (force) of ${type} applies each item (the batchable write endpoints of ${type})`,
      spec: endpointById(`cms.${type}.collection.create`).endpoint.spec,
      covers: [`batch:cms.${type}.collection.create`, `batch:cms.${type}.item.update`, `batch:cms.${type}.item.delete`],
    },
    async (t) => {
      t.requireWrites();
      t.requireCredentials();
      const [updated, deleted] = await Promise.all([t.create(collection, { title: 'batch update target' }), t.create(collection, { title: 'batch delete target' })]);
      const label = fixtures().label(`batch-${type}`);
      const title = `${label} updated`;
      const items: Item[] = [
        { method: 'POST', path: collection, body: textFields({ title: label, content: label, status: 'draft' }) },
        { method: 'POST', path: `${collection}/${updated.id}`, body: { title: textObject(title) } },
        { method: 'DELETE', path: `${collection}/${deleted.id}?force=true` },
      ];
      const res = await sendBatch(t, items);
      const [created, updateAnswer, deleteAnswer] = itemAnswers(t, res, items.length);
      if (typeof created?.body?.id === 'number' && ok(created.status ?? 0)) t.track(`${collection}/${created.body.id}`);
      const its = (a: { status?: number } | undefined) => (a?.status !== undefined ? ` (its answer ${a.status})` : '');
      const problems: string[] = [];
      const [found, upd, del] = await Promise.all([
        t.client.get(collection, { query: { search: label, status: ['draft'], context: 'edit', per_page: 100 } }),
        t.client.get(`${collection}/${updated.id}`, { query: { context: 'edit' } }),
        t.client.get(`${collection}/${deleted.id}`, { query: { context: 'edit' } }),
      ]);
      if (found.status !== 200 || !Array.isArray(found.body)) t.fail(whyNotAccepted(found, `GET ${collection}?search=<label>`));
      const mine = found.body.filter((p: any) => p?.title?.raw === label);
      for (const p of mine) t.track(`${collection}/${p.id}`);
      if (mine.length !== 1) problems.push(`the create item was not applied (${mine.length} found)${its(created)}`);
      if (upd.body?.title?.raw !== title) problems.push(`the update item was not applied: title reads ${JSON.stringify(upd.body?.title?.raw)}${its(updateAnswer)}`);
      if (ok(del.status)) problems.push(`the delete item (force) was not applied: GET ${collection}/${deleted.id} answers ${answerOf(del)}${its(deleteAnswer)}`);
      if (problems.length) t.fail(`batchable endpoints of ${type}: ${problems.join('; ')}`);
    },
    { concurrent: true },
  );
}

behaviour(
  {
    id: 'batch.not-batchable.pages',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: 'items aimed at page autosaves and page revisions (stated not batchable) are not applied: no autosave is made, the revision stays',
    spec: endpointById('cms.pages.autosaves.collection.create').endpoint.spec,
    covers: ['batch:cms.pages.autosaves.collection.create', 'batch:cms.pages.revisions.item.delete'],
  },
  async (t) => {
    t.requireWrites();
    t.requireCredentials();
    const page = await t.create(endpointById('cms.pages.collection.create').route.path, { title: 'not batchable' });
    // Positive control: the batch route applies a batchable item aimed at the same page.
    const title = `${page.title?.raw ?? 'page'} via batch`;
    const control = await sendBatch(t, [{ method: 'POST', path: `/cms/v2/pages/${page.id}`, body: { title: textObject(title) } }]);
    expectControlAccepted(t, control, 'a batch updating the page', 'the autosave and revision items');
    const after = await t.client.get(`/cms/v2/pages/${page.id}`, { query: { context: 'edit' } });
    if (after.body?.title?.raw !== title) t.fail(`positive control: a batch update of page ${page.id} answered ${control.status} but was not applied, so the refusal of the autosave item shows nothing`);
    const revs = await t.client.get(`/cms/v2/pages/${page.id}/revisions`);
    const revision = Array.isArray(revs.body) ? revs.body[0]?.id : undefined;
    const items: Item[] = [{ method: 'POST', path: `/cms/v2/pages/${page.id}/autosaves`, body: textFields({ title: `${title} autosaved`, content: 'autosave' }) }];
    if (typeof revision === 'number') items.push({ method: 'DELETE', path: `/cms/v2/pages/${page.id}/revisions/${revision}?force=true` });
    await sendBatch(t, items);
    const [autosaves, rev] = await Promise.all([
      t.client.get(`/cms/v2/pages/${page.id}/autosaves`, { query: { context: 'edit' } }),
      typeof revision === 'number' ? t.client.get(`/cms/v2/pages/${page.id}/revisions/${revision}`) : Promise.resolve(undefined),
    ]);
    if (autosaves.status !== 200) t.fail(whyNotAccepted(autosaves, `GET /cms/v2/pages/${page.id}/autosaves`));
    if (Array.isArray(autosaves.body) && autosaves.body.length) t.fail(`a batch item created an autosave of page ${page.id}`);
    if (rev && rev.status !== 200) t.fail(`revision ${revision} of page ${page.id} is gone after a batch item deleted it (GET answers ${answerOf(rev)})`);
  },
  { concurrent: true },
);
