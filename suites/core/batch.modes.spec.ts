/**
 * Batch: the two validation modes (require-all-validate, normal, the default), the response
 * shape (not shown: SHOULD, wordpress-behaviour.md §8) and the endpoints that are not batchable
 * (part 4: "Batchable: no" for revisions and autosaves). Shared helpers: `./lib/batch.ts`;
 * the size limit, the body and the items: `batch.spec.ts`.
 */
import { behaviour, fixtures, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/sdk/http.ts';
import { answerOf, whyNotAccepted } from '../../src/sdk/controls.ts';
import { FixtureError } from '../../src/sdk/fixtures.ts';
import {
  BATCH_ARGS,
  MAX_ITEMS,
  SPEC,
  ROUTE,
  type Item,
  prepare,
  sendBatch,
  ok,
  refused,
  createItem,
  findLabelled,
  trackFromAnswer,
  expectValidBatchApplied,
  expectNothingApplied,
} from './lib/batch.ts';
import { rawText, textFields } from '../../src/sdk/http.ts';

// ---------------------------------------------------------------------------
// Validation modes
// ---------------------------------------------------------------------------

/** One valid create and one create with a status outside the documented enum. */
function mixedItems(label: string): Item[] {
  return [createItem('posts', `${label} valid`), createItem('posts', `${label} invalid`, { status: 'not-a-status' })];
}

behaviour(
  {
    id: 'batch.validation.require-all-validate',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: 'require-all-validate: when one item fails validation, no item is applied',
    spec: SPEC,
    covers: ['arg:batch.v1.create.validation'],
  },
  // MUST: the spec leaves "the exact behaviour of the two validation modes" unshown, but the
  // mode's documented name states its one guarantee: all items must validate (or none runs).
  async (t) => {
    prepare(t);
    await expectValidBatchApplied(t, 'a require-all-validate batch with an invalid item', { validation: 'require-all-validate' });
    const label = fixtures().label('batch-rav');
    const items = mixedItems(label);
    const res = await sendBatch(t, items, { validation: 'require-all-validate' }, { invalid: ['status'] });
    trackFromAnswer(t, res, items);
    await expectNothingApplied(t, label, `require-all-validate with an invalid item (answered ${res.status})`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.validation.normal',
    level: 'SHOULD',
    namespace: '',
    route: ROUTE,
    title: 'normal: the valid items are applied and the invalid item gets its own error',
    spec: SPEC,
    covers: ['arg:batch.v1.create.validation'],
  },
  // SHOULD: the behaviour of `normal` is not shown; this is WordPress's (wordpress-behaviour.md §8).
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-normal');
    const items = mixedItems(label);
    const res = await sendBatch(t, items, { validation: 'normal' }, { invalid: ['status'] });
    trackFromAnswer(t, res, items);
    const found = await findLabelled(t, 'posts', label);
    const titles = found.map((p) => p.title.raw);
    if (!titles.includes(`${label} valid`)) t.fail(`normal mode did not apply the valid item (answer ${res.status})`);
    if (titles.includes(`${label} invalid`)) t.fail('normal mode applied the invalid item');
    const invalid = res.body?.responses?.[1];
    if (!invalid || !refused(invalid.status)) t.fail(`the invalid item has no error of its own: responses[1] = ${JSON.stringify(invalid)?.slice(0, 200)}`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.validation.default-normal',
    level: 'SHOULD',
    namespace: '',
    route: ROUTE,
    title: `without \`validation\` the batch behaves as ${BATCH_ARGS.validation.default}: the valid item of a mixed batch is applied`,
    spec: SPEC,
    covers: ['arg:batch.v1.create.validation'],
  },
  // The default (`normal`) is stated, but what `normal` does is not shown: observing the
  // default relies on the reference's normal mode, hence SHOULD.
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-default');
    const items = mixedItems(label);
    const res = await sendBatch(t, items, {}, { invalid: ['status'] });
    trackFromAnswer(t, res, items);
    const titles = (await findLabelled(t, 'posts', label)).map((p) => p.title.raw);
    if (!titles.includes(`${label} valid`)) t.fail(`without validation the valid item of a mixed batch was not applied (answer ${res.status}), as if require-all-validate were the default`);
    if (titles.includes(`${label} invalid`)) t.fail('the invalid item was applied');
  },
  { concurrent: true },
);

// ---------------------------------------------------------------------------
// Response shape (not shown: SHOULD)
// ---------------------------------------------------------------------------

behaviour(
  {
    id: 'batch.response.multi-status',
    level: 'SHOULD',
    namespace: '',
    route: ROUTE,
    title: 'the answer is 207 with responses[] of {body, status, headers}, one per item, in request order',
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests', 'arg:batch.v1.create.validation'],
  },
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-order');
    const items: Item[] = [createItem('pages', `${label} 0`), createItem('posts', `${label} 1`), createItem('posts', `${label} 2`, { status: 'not-a-status' }), createItem('posts', `${label} 3`)];
    const res = await sendBatch(t, items, {}, { invalid: ['status'] });
    trackFromAnswer(t, res, items);
    await findLabelled(t, 'posts', label);
    await findLabelled(t, 'pages', label);
    if (res.status !== 207) t.fail(`the batch answered ${res.status}, the reference answers 207`);
    const responses = res.body?.responses;
    if (!Array.isArray(responses) || responses.length !== items.length)
      t.fail(`responses is not an array of ${items.length} entries: ${JSON.stringify(responses)?.slice(0, 200)}`);
    responses.forEach((r: any, i: number) => {
      if (!r || typeof r !== 'object' || !('body' in r) || typeof r.status !== 'number' || typeof r.headers !== 'object')
        t.fail(`responses[${i}] is not {body, status, headers}: ${JSON.stringify(r)?.slice(0, 200)}`);
    });
    for (const i of [0, 1, 3]) {
      const title = responses[i].body?.title?.raw;
      const expected = rawText(items[i].body!.title);
      if (!ok(responses[i].status) || title !== expected)
        t.fail(`responses[${i}] is not the answer to item ${i} (status ${responses[i].status}, title ${JSON.stringify(title)}, expected ${JSON.stringify(expected)})`);
    }
    // `type` is WordPress's (part 2 does not list it): where the answer has one, it is the page's.
    const type = responses[0].body?.type;
    if (type !== undefined && type !== 'page') t.fail(`responses[0] is not the created page (type ${type})`);
    if (!refused(responses[2].status)) t.fail(`responses[2] (the invalid item) answered ${responses[2].status}, not an error`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.response.failed-validation',
    level: 'SHOULD',
    namespace: '',
    route: ROUTE,
    title: 'require-all-validate failure answers 207 with failed: "validation" and the invalid item\'s error in place',
    spec: SPEC,
    covers: ['arg:batch.v1.create.validation', 'arg:batch.v1.create.requests'],
  },
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-failed');
    const items = mixedItems(label);
    const res = await sendBatch(t, items, { validation: 'require-all-validate' }, { invalid: ['status'] });
    trackFromAnswer(t, res, items);
    await findLabelled(t, 'posts', label);
    if (res.status !== 207) t.fail(`answered ${res.status}, the reference answers 207`);
    if (res.body?.failed !== 'validation') t.fail(`failed is ${JSON.stringify(res.body?.failed)}, expected "validation"`);
    const responses = res.body?.responses;
    if (!Array.isArray(responses) || responses.length !== items.length) t.fail(`responses is not an array of ${items.length} entries`);
    if (!responses[1] || !refused(responses[1].status)) t.fail(`responses[1] (the invalid item) is ${JSON.stringify(responses[1])?.slice(0, 200)}, expected its error`);
    if (responses[0] !== null && ok(responses[0]?.status)) t.fail('responses[0] (the valid item) reports success although nothing ran');
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.envelope.errors-400',
    level: 'SHOULD',
    namespace: '',
    route: ROUTE,
    title: 'an invalid batch envelope (too many items, no requests, unknown validation, GET item, item without path, object header) answers 400',
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests', 'arg:batch.v1.create.validation'],
  },
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-envelope');
    const item = createItem('posts', label);
    // Each with the argument it sends wrong on purpose.
    const cases: [string, Record<string, unknown>, string][] = [
      [`${MAX_ITEMS + 1} items`, { requests: Array.from({ length: MAX_ITEMS + 1 }, () => ({ method: 'DELETE', path: t.run.profile.toTargetRoute('/cms/v2/posts/0') })) }, 'requests'],
      ['no requests', {}, 'requests'],
      ['unknown validation', { validation: 'all-or-nothing', requests: [] }, 'validation'],
      ['a GET item', { requests: [{ method: 'GET', path: t.run.profile.toTargetRoute('/cms/v2/posts') }] }, 'requests'],
      ['an item without path', { requests: [{ method: 'POST', body: item.body }] }, 'requests'],
      ['an object header value', { requests: [{ ...item, path: t.run.profile.toTargetRoute(item.path!), headers: { x: { y: 'z' } } }] }, 'requests'],
    ];
    const wrong: string[] = [];
    for (const [what, body, arg] of cases) {
      const res = await t.client.post(ROUTE, body, { invalid: [arg] });
      if (res.status !== 400) wrong.push(`${what}: ${res.status}`);
    }
    await findLabelled(t, 'posts', label);
    if (wrong.length) t.fail(`not answered 400 (as the reference does): ${wrong.join('; ')}`);
  },
  { concurrent: true },
);

// ---------------------------------------------------------------------------
// Non-batchable endpoints (part 4: "Batchable: no" for revisions and autosaves)
// ---------------------------------------------------------------------------

/** A published post with one revision (made by its first update). */
async function postWithRevision(t: BehaviourContext): Promise<{ post: any; revision: any }> {
  const post = await t.create('/cms/v2/posts', { title: 'revisioned' });
  const upd = await t.client.post(`/cms/v2/posts/${post.id}`, textFields({ content: `${post.content?.raw ?? ''} updated` }));
  if (!ok(upd.status)) throw new FixtureError(`could not update fixture post ${post.id}: ${answerOf(upd)}`, 'cms.posts.update.post');
  const revs = await t.client.get(`/cms/v2/posts/${post.id}/revisions`, { query: { context: 'edit' } });
  // Skip only on evidence: an empty list of revisions; a refused read of the documented route is a failure.
  if (revs.status !== 200 || !Array.isArray(revs.body)) t.fail(whyNotAccepted(revs, `GET /cms/v2/posts/${post.id}/revisions`));
  if (revs.body.length === 0) t.skip(`the target made no revision of post ${post.id} on update (its revision list is empty): nothing to aim a batch item at`);
  return { post, revision: revs.body[0] };
}

behaviour(
  {
    id: 'batch.not-batchable.revisions-autosaves',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: 'items aimed at revisions and autosaves (stated not batchable) are not applied: the revision stays, no autosave is made',
    spec: SPEC,
    covers: ['endpoint:cms.posts.revisions.item.delete', 'endpoint:cms.posts.autosaves.collection.create', 'batch:cms.posts.revisions.item.delete', 'batch:cms.posts.autosaves.collection.create'],
  },
  // Part 4 › Posts: revisions and autosaves are "Batchable: no". The only write on a revision is
  // DELETE, which WordPress never permits (map_meta_cap gives do_not_allow), so on WordPress
  // the autosave item is what can show a batch running a non-batchable item.
  async (t) => {
    prepare(t);
    await expectValidBatchApplied(t, 'the items aimed at revisions and autosaves');
    const [{ post, revision }, autosaved] = await Promise.all([postWithRevision(t), t.create('/cms/v2/posts', { title: 'autosaved' })]);
    const route = `/cms/v2/posts/${post.id}/revisions/${revision.id}`;
    const changed = `${autosaved.title.raw} autosaved`;
    const [revRes, autoRes] = await Promise.all([
      sendBatch(t, [{ method: 'DELETE', path: `${route}?force=true` }]),
      sendBatch(t, [{ method: 'POST', path: `/cms/v2/posts/${autosaved.id}/autosaves`, body: textFields({ title: changed, content: 'autosave' }) }]),
    ]);
    const [after, autosaves, parent] = await Promise.all([
      t.client.get(route, { query: { context: 'edit' } }),
      t.client.get(`/cms/v2/posts/${autosaved.id}/autosaves`, { query: { context: 'edit' } }),
      t.client.get(`/cms/v2/posts/${autosaved.id}`, { query: { context: 'edit' } }),
    ]);
    if (after.status !== 200) t.fail(`revision ${revision.id} is gone after a batch item deleted it (batch answered ${revRes.status}, revision GET ${after.status})`);
    if (Array.isArray(autosaves.body) && autosaves.body.length) t.fail(`a batch item created an autosave of post ${autosaved.id} (batch answered ${autoRes.status})`);
    if (parent.body?.title?.raw !== autosaved.title.raw) t.fail(`a batch autosave item changed post ${autosaved.id}'s title to ${JSON.stringify(parent.body?.title?.raw)}`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.not-batchable.error-items',
    level: 'SHOULD',
    namespace: '',
    route: ROUTE,
    title: 'items aimed at revision, autosave, media, oEmbed and nested batch routes each get an error, and a nested batch runs nothing',
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests'],
  },
  // SHOULD: revisions and autosaves are stated not batchable, but the answer shape is not
  // shown; media, oEmbed and /batch/v1 itself are not stated either way. WordPress answers
  // each with 400 rest_batch_not_allowed (404 rest_no_route for oEmbed, which has no write method).
  async (t) => {
    prepare(t);
    const { post, revision } = await postWithRevision(t);
    const label = fixtures().label('batch-nested');
    const nested = createItem('posts', label);
    const items: Item[] = [
      { method: 'DELETE', path: `/cms/v2/posts/${post.id}/revisions/${revision.id}?force=true` },
      { method: 'POST', path: `/cms/v2/posts/${post.id}/autosaves`, body: textFields({ title: 'autosave', content: 'autosave' }) },
      { method: 'POST', path: '/cms/v2/media', body: { title: label } },
      { method: 'POST', path: `/oembed/1.0/embed?url=${encodeURIComponent(post.link ?? '')}` },
      { method: 'POST', path: ROUTE, body: { requests: [{ ...nested, path: t.run.profile.toTargetRoute(nested.path!) }] } },
    ];
    // The oEmbed item's method is not one of its route (on purpose: an item aimed at a route without writes).
    const res = await sendBatch(t, items, {}, { invalid: ['requests'] });
    const applied = await findLabelled(t, 'posts', label);
    if (applied.length) t.fail(`the nested batch ran: post ${applied[0].id} was created`);
    const responses = res.body?.responses;
    if (!ok(res.status) || !Array.isArray(responses)) t.fail(`the batch answered ${res.status} without responses[]; the reference answers each item`);
    const names = ['revision', 'autosave', 'media', 'oEmbed', 'nested batch'];
    const wrong: string[] = [];
    items.forEach((_, i) => {
      const r = responses[i];
      const expected = i === 3 ? ['rest_no_route', 'rest_batch_not_allowed'] : ['rest_batch_not_allowed'];
      if (!r || !refused(r.status) || !expected.includes(r.body?.code))
        wrong.push(`${names[i]} item (${items[i]!.method} ${(items[i]!.path ?? '').split('?')[0]}): ${!r ? 'no answer in responses[]' : `answered ${r.status}${typeof r.body?.code === 'string' ? ` ${r.body.code}` : ` with no error code (${JSON.stringify(r.body)?.slice(0, 80)})`}`}`);
    });
    if (wrong.length) t.fail(`not refused as not batchable (expected 400 rest_batch_not_allowed): ${wrong.join('; ')}`);
  },
  { concurrent: true },
);
