/**
 * Batch: `POST /batch/v1` (core part 1, part 4 › Batch, part 8 limits, part 9 allow_batch).
 *
 * What the spec states (MUST): the batch route runs several write requests in one call
 * (part 1); the body fields, their types, enums, defaults and "requests: at most 25 items"
 * (part 4 › Batch, part 8); which endpoints are batchable (part 4 tables, `Batchable: no` for
 * revisions and autosaves). What it does not: "Batch response shape and the exact behaviour
 * of the two validation modes: not shown" — so the 207 status, the `responses[]` envelope,
 * `failed: "validation"`, the per-item error of `normal` mode and WordPress's treatment of
 * media/oEmbed/nested-batch items are SHOULD (reference behaviour, wordpress-behaviour.md §8).
 *
 * Everything is verified by state (re-reading the items after the batch), never by the
 * batch's answer alone. Items created inside a batch carry a tagged label in their title and
 * are tracked as soon as they are found, so the CLI's sweep by tag finds them even if the run
 * is interrupted.
 */
import fc from 'fast-check';
import { endpointById } from '../../schemas/catalog/index.ts';
import { behaviour, fixtures, type BehaviourContext } from '../../src/behaviour.ts';
import type { Method, Response } from '../../src/client.ts';
import { checkProperty } from '../../generators/property.ts';
import { answerOf, expectControlAccepted, whyNotAccepted } from '../../src/controls.ts';
import { FixtureError } from '../../src/fixtures.ts';

const BATCH = endpointById('batch.v1.create');
const BATCH_ARGS = BATCH.endpoint.args as Record<string, any>;
/** "requests: array, at most 25 items" (part 4 › Batch; part 8 Limits). */
const MAX_ITEMS: number = BATCH_ARGS.requests.maxItems;
const ITEM = BATCH_ARGS.requests.items.properties as Record<string, any>;
const ITEM_METHODS: readonly string[] = ITEM.method.enum;
const VALIDATION_MODES: readonly string[] = BATCH_ARGS.validation.enum;
const SPEC = BATCH.endpoint.spec;
const ROUTE = BATCH.route.path;

type Collection = 'posts' | 'pages';
const COLLECTION_ROUTE = (c: Collection) => `/cms/v2/${c}`;
/** Every write status, and trash (only reachable by DELETE), so state reads see every item. */
const ALL_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];

interface Item {
  method?: string;
  /** In spec names; translated to the target's names before sending. */
  path?: string;
  body?: Record<string, unknown>;
  headers?: Record<string, unknown>;
}

function prepare(t: BehaviourContext) {
  t.requireWrites();
  t.requireCredentials();
}

/** Send a batch. Inner `path` values are target routes: they are translated here. */
function sendBatch(t: BehaviourContext, items: Item[], extra: Record<string, unknown> = {}, opts: { auth?: 'none' } = {}): Promise<Response> {
  const requests = items.map((i) => (i.path === undefined ? i : { ...i, path: t.run.profile.toTargetRoute(i.path) }));
  return t.client.post(ROUTE, { ...extra, requests }, opts);
}

const ok = (status: number) => status >= 200 && status <= 299;
const refused = (status: number) => status >= 400 && status <= 499;

/** A create item whose title starts with `label` (tagged, found again by `findLabelled`). */
function createItem(collection: Collection, label: string, fields: Record<string, unknown> = {}): Item {
  return { method: 'POST', path: COLLECTION_ROUTE(collection), body: { status: 'draft', content: label, ...fields, title: label } };
}

/**
 * Items of a collection whose raw title starts with `label` (any status, trash included),
 * tracked for deletion as soon as they are seen.
 */
async function findLabelled(t: BehaviourContext, collection: Collection, label: string): Promise<any[]> {
  const res = await t.client.get(COLLECTION_ROUTE(collection), {
    query: { search: label, status: ALL_STATUSES, context: 'edit', per_page: 100 },
  });
  if (res.status !== 200 || !Array.isArray(res.body)) t.fail(`cannot verify by reading back: ${whyNotAccepted(res, `GET ${COLLECTION_ROUTE(collection)}?search=${label}&context=edit (authenticated)`)}`);
  const mine = res.body.filter((p: any) => {
    const title = p?.title?.raw ?? p?.title?.rendered;
    return typeof title === 'string' && (title === label || title.startsWith(`${label} `));
  });
  for (const p of mine) t.track(`${COLLECTION_ROUTE(collection)}/${p.id}`);
  return mine;
}

/** Track the ids a batch answer reports (when it has the reference shape), before any check. */
function trackFromAnswer(t: BehaviourContext, res: Response, items: Item[]) {
  const responses = res.body?.responses;
  if (!Array.isArray(responses)) return;
  responses.forEach((r: any, i: number) => {
    const id = r?.body?.id;
    const path = items[i]?.path;
    if (typeof id === 'number' && path && /^\/cms\/v2\/(posts|pages)$/.test(path) && ok(r.status)) t.track(`${path}/${id}`);
  });
}

/**
 * The positive control of a refusal check: the nearest valid batch (one create item) is
 * accepted and its item applied. A batch route that refuses everything, or does not exist,
 * would "refuse" every invalid batch too.
 */
async function expectValidBatchApplied(t: BehaviourContext, refusal: string, extra: Record<string, unknown> = {}): Promise<void> {
  const label = fixtures().label('batch-control');
  const items = [createItem('posts', label)];
  const res = await sendBatch(t, items, extra);
  trackFromAnswer(t, res, items);
  expectControlAccepted(t, res, `a valid batch (one create item${Object.keys(extra).length ? `, ${JSON.stringify(extra)}` : ''})`, refusal);
  const found = await findLabelled(t, 'posts', label);
  if (found.length !== 1) t.fail(`positive control: a valid batch answered ${res.status} but its create item was not applied (${found.length} found), so the refusal of ${refusal} shows nothing`);
}

async function expectNothingApplied(t: BehaviourContext, label: string, what: string) {
  const found = [...(await findLabelled(t, 'posts', label)), ...(await findLabelled(t, 'pages', label))];
  if (found.length) t.fail(`${what}, yet ${found.length} of its items were applied (ids ${found.map((p) => p.id).join(', ')})`);
}

/**
 * An item-level violation (GET method, missing path, bad header value): the batch must not
 * run it. With the answer shape not shown, two outcomes are accepted: the whole batch refused
 * (4xx) with nothing applied, or a 2xx whose per-item answer (`responses[i]`) is an error.
 */
async function expectItemRefused(t: BehaviourContext, res: Response, badIndex: number, label: string, what: string) {
  if (refused(res.status)) return expectNothingApplied(t, label, `the batch with ${what} was refused (${res.status})`);
  if (!ok(res.status)) t.fail(`the batch with ${what} answered ${res.status}: neither refused (4xx) nor answered per item`);
  const item = res.body?.responses?.[badIndex];
  if (!item || typeof item.status !== 'number') t.fail(`the batch with ${what} was accepted (${res.status}) and shows no error for that item`);
  if (!refused(item.status)) t.fail(`the batch with ${what} was accepted and that item answered ${item.status}, not an error`);
}

// ---------------------------------------------------------------------------
// Size limit (part 4 › Batch "requests: array, at most 25 items"; part 8 Limits)
// ---------------------------------------------------------------------------

behaviour(
  {
    id: 'batch.requests.max-accepted',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: `a batch of ${MAX_ITEMS} valid create items is accepted and every item is applied`,
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests', 'limit.batch.requests'],
  },
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-max');
    const items = Array.from({ length: MAX_ITEMS }, (_, i) => createItem(i % 2 ? 'pages' : 'posts', `${label} ${i}`));
    const res = await sendBatch(t, items);
    trackFromAnswer(t, res, items);
    const found = [...(await findLabelled(t, 'posts', label)), ...(await findLabelled(t, 'pages', label))];
    if (!ok(res.status)) t.fail(`a batch of ${MAX_ITEMS} items answered ${res.status}: ${res.text.slice(0, 200)}`);
    const titles = new Set(found.map((p) => p.title.raw));
    const missing = items.filter((i) => !titles.has(i.body!.title)).map((i) => i.body!.title);
    if (missing.length) t.fail(`${missing.length} of ${MAX_ITEMS} items were not applied (first: ${missing[0]})`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.requests.too-many-rejected',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: `a batch of ${MAX_ITEMS + 1} items is refused as a whole: none of its items is applied`,
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests', 'limit.batch.requests'],
  },
  async (t) => {
    prepare(t);
    await expectValidBatchApplied(t, `${MAX_ITEMS + 1} items`);
    const label = fixtures().label('batch-over');
    const items = Array.from({ length: MAX_ITEMS + 1 }, (_, i) => createItem('posts', `${label} ${i}`));
    const res = await sendBatch(t, items);
    trackFromAnswer(t, res, items);
    await expectNothingApplied(t, label, `a batch of ${MAX_ITEMS + 1} items (answered ${res.status})`);
    if (ok(res.status)) t.fail(`a batch of ${MAX_ITEMS + 1} items was answered ${res.status}, not refused`);
  },
  { concurrent: true },
);

// ---------------------------------------------------------------------------
// The batch body: requests required, validation enum
// ---------------------------------------------------------------------------

behaviour(
  {
    id: 'batch.requests.required',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: '`requests` is required: a batch body without it is refused',
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests'],
  },
  async (t) => {
    prepare(t);
    await expectValidBatchApplied(t, 'a body without requests');
    for (const body of [{}, { validation: 'normal' }]) {
      const res = await t.client.post(ROUTE, body);
      if (!refused(res.status)) t.fail(`POST ${ROUTE} with ${JSON.stringify(body)} answered ${res.status}, not refused (4xx)`);
    }
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.validation.enum',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: `\`validation\` only takes ${VALIDATION_MODES.join(' or ')}: another value is refused and nothing is applied`,
    spec: SPEC,
    covers: ['arg:batch.v1.create.validation'],
  },
  async (t) => {
    prepare(t);
    await expectValidBatchApplied(t, 'validation "all-or-nothing"', { validation: VALIDATION_MODES[0] });
    const label = fixtures().label('batch-mode');
    const items = [createItem('posts', label)];
    const res = await sendBatch(t, items, { validation: 'all-or-nothing' });
    trackFromAnswer(t, res, items);
    await expectNothingApplied(t, label, `validation "all-or-nothing" (answered ${res.status})`);
    if (!refused(res.status)) t.fail(`validation "all-or-nothing" answered ${res.status}, not refused (4xx)`);
  },
  { concurrent: true },
);

// ---------------------------------------------------------------------------
// Items: method enum and default, path required, header values
// ---------------------------------------------------------------------------

behaviour(
  {
    id: 'batch.item.method.enum',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: `an item's \`method\` is only ${ITEM_METHODS.join(', ')}: a GET item is refused`,
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests'],
  },
  async (t) => {
    prepare(t);
    await expectValidBatchApplied(t, 'a GET item');
    const label = fixtures().label('batch-get');
    const items: Item[] = [{ method: 'GET', path: '/cms/v2/posts' }, createItem('posts', label)];
    const res = await sendBatch(t, items);
    trackFromAnswer(t, res, items);
    await expectItemRefused(t, res, 0, label, 'a GET item');
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.item.method.default-post',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: `an item without \`method\` is sent as ${ITEM.method.default}: it creates the item`,
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests'],
  },
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-nomethod');
    const { method: _omitted, ...item } = createItem('posts', label);
    const res = await sendBatch(t, [item]);
    trackFromAnswer(t, res, [item]);
    const found = await findLabelled(t, 'posts', label);
    if (found.length !== 1) t.fail(`an item without method on /cms/v2/posts created ${found.length} posts (answer ${res.status}), expected 1 (default ${ITEM.method.default})`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.item.path.required',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: "an item's `path` is required: an item without it is refused",
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests'],
  },
  async (t) => {
    prepare(t);
    await expectValidBatchApplied(t, 'an item without path');
    const label = fixtures().label('batch-nopath');
    const items: Item[] = [{ method: 'POST', body: { title: `${label} x`, status: 'draft' } }, createItem('posts', label)];
    const res = await sendBatch(t, items);
    trackFromAnswer(t, res, items);
    await expectItemRefused(t, res, 0, label, 'an item without path');
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'batch.item.headers.values',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: "an item's `headers` values are strings or arrays of strings: those are accepted, an object value is refused",
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests'],
  },
  async (t) => {
    prepare(t);
    const good = fixtures().label('batch-headers');
    const goodItem: Item = { ...createItem('posts', good), headers: { 'x-cmsc-one': 'a', 'x-cmsc-many': ['b', 'c'] } };
    const res = await sendBatch(t, [goodItem]);
    trackFromAnswer(t, res, [goodItem]);
    const found = await findLabelled(t, 'posts', good);
    if (found.length !== 1) t.fail(`an item with string and string-array header values was not applied (answer ${res.status}, ${found.length} created)`);

    const bad = fixtures().label('batch-badheader');
    const badItems: Item[] = [{ ...createItem('posts', `${bad} bad`), headers: { 'x-cmsc-object': { not: 'a string' } } }, createItem('posts', bad)];
    const badRes = await sendBatch(t, badItems);
    trackFromAnswer(t, badRes, badItems);
    await expectItemRefused(t, badRes, 0, bad, 'an object header value');
    const applied = await findLabelled(t, 'posts', `${bad} bad`);
    if (applied.length) t.fail(`the item with an object header value was applied (id ${applied[0].id})`);
  },
  { concurrent: true },
);

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
    const res = await sendBatch(t, items, { validation: 'require-all-validate' });
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
    const res = await sendBatch(t, items, { validation: 'normal' });
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
    const res = await sendBatch(t, items);
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
  },
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-order');
    const items: Item[] = [createItem('pages', `${label} 0`), createItem('posts', `${label} 1`), createItem('posts', `${label} 2`, { status: 'not-a-status' }), createItem('posts', `${label} 3`)];
    const res = await sendBatch(t, items);
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
      if (!ok(responses[i].status) || title !== items[i].body!.title)
        t.fail(`responses[${i}] is not the answer to item ${i} (status ${responses[i].status}, title ${JSON.stringify(title)}, expected ${items[i].body!.title})`);
    }
    if (responses[0].body?.type !== 'page') t.fail(`responses[0] is not the created page (type ${responses[0].body?.type})`);
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
  },
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-failed');
    const items = mixedItems(label);
    const res = await sendBatch(t, items, { validation: 'require-all-validate' });
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
  },
  async (t) => {
    prepare(t);
    const label = fixtures().label('batch-envelope');
    const item = createItem('posts', label);
    const cases: [string, Record<string, unknown>][] = [
      [`${MAX_ITEMS + 1} items`, { requests: Array.from({ length: MAX_ITEMS + 1 }, () => ({ method: 'DELETE', path: t.run.profile.toTargetRoute('/cms/v2/posts/0') })) }],
      ['no requests', {}],
      ['unknown validation', { validation: 'all-or-nothing', requests: [] }],
      ['a GET item', { requests: [{ method: 'GET', path: t.run.profile.toTargetRoute('/cms/v2/posts') }] }],
      ['an item without path', { requests: [{ method: 'POST', body: item.body }] }],
      ['an object header value', { requests: [{ ...item, path: t.run.profile.toTargetRoute(item.path!), headers: { x: { y: 'z' } } }] }],
    ];
    const wrong: string[] = [];
    for (const [what, body] of cases) {
      const res = await t.client.post(ROUTE, body);
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
  const upd = await t.client.post(`/cms/v2/posts/${post.id}`, { content: `${post.content?.raw ?? ''} updated` });
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
      sendBatch(t, [{ method: 'POST', path: `/cms/v2/posts/${autosaved.id}/autosaves`, body: { title: changed, content: 'autosave' } }]),
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
      { method: 'POST', path: `/cms/v2/posts/${post.id}/autosaves`, body: { title: 'autosave', content: 'autosave' } },
      { method: 'POST', path: '/cms/v2/media', body: { title: label } },
      { method: 'POST', path: `/oembed/1.0/embed?url=${encodeURIComponent(post.link ?? '')}` },
      { method: 'POST', path: ROUTE, body: { requests: [{ ...nested, path: t.run.profile.toTargetRoute(nested.path!) }] } },
    ];
    const res = await sendBatch(t, items);
    const applied = await findLabelled(t, 'posts', label);
    if (applied.length) t.fail(`the nested batch ran: post ${applied[0].id} was created`);
    const responses = res.body?.responses;
    if (!ok(res.status) || !Array.isArray(responses)) t.fail(`the batch answered ${res.status} without responses[]; the reference answers each item`);
    const names = ['revision', 'autosave', 'media', 'oEmbed', 'nested batch'];
    const wrong: string[] = [];
    items.forEach((_, i) => {
      const r = responses[i];
      const expected = i === 3 ? ['rest_no_route', 'rest_batch_not_allowed'] : ['rest_batch_not_allowed'];
      if (!r || !refused(r.status) || !expected.includes(r.body?.code)) wrong.push(`${names[i]}: ${r?.status} ${r?.body?.code}`);
    });
    if (wrong.length) t.fail(`not refused as not batchable (expected 400 rest_batch_not_allowed): ${wrong.join('; ')}`);
  },
  { concurrent: true },
);

// ---------------------------------------------------------------------------
// Property: a batch is the same as its items sent one by one (part 1: "a batch route that
// runs several write requests in one call")
// ---------------------------------------------------------------------------

const WRITE_STATUSES = ['publish', 'draft', 'pending', 'private'] as const;
const UPDATE_METHODS = ITEM_METHODS.filter((m) => m !== 'DELETE');
const words = fc.stringMatching(/^[a-z]{1,8}( [a-z]{1,8}){0,3}$/);
const fieldsArb = (collection: Collection, withTitle: boolean) =>
  fc.record(
    {
      title: words,
      content: words,
      excerpt: words,
      status: fc.constantFrom(...WRITE_STATUSES),
      comment_status: fc.constantFrom('open', 'closed'),
      ...(collection === 'pages' ? { menu_order: fc.integer({ min: 0, max: 50 }) } : {}),
    },
    { requiredKeys: withTitle ? ['title'] : [] },
  );

type Op =
  | { kind: 'create'; collection: Collection; fields: Record<string, any> }
  | { kind: 'update'; collection: Collection; ref: number; method: string; fields: Record<string, any> }
  | { kind: 'delete'; collection: Collection; ref: number; force: boolean };

const POOL = 2;
const collectionArb = fc.constantFrom<Collection>('posts', 'pages');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  collectionArb.chain((collection) => fieldsArb(collection, true).map((fields) => ({ kind: 'create' as const, collection, fields }))),
  collectionArb.chain((collection) =>
    fc.record({ ref: fc.integer({ min: 0, max: POOL - 1 }), method: fc.constantFrom(...UPDATE_METHODS), fields: fieldsArb(collection, false) }).map((r) => ({ kind: 'update' as const, collection, ...r })),
  ),
  fc.record({ collection: collectionArb, ref: fc.integer({ min: 0, max: POOL - 1 }), force: fc.boolean() }).map((r) => ({ kind: 'delete' as const, ...r })),
);

interface Side {
  label: string;
  pool: Record<Collection, any[]>;
}

/** The write request of an op on one side: method, spec route (with query), body. */
function requestOf(op: Op, side: Side, k: number): { method: Method; path: string; body?: Record<string, unknown> } {
  const tagged = (f: Record<string, any>) => (f.title === undefined ? f : { ...f, title: `${side.label} c${k} ${f.title}` });
  if (op.kind === 'create') return { method: 'POST', path: COLLECTION_ROUTE(op.collection), body: tagged(op.fields) };
  const item = `${COLLECTION_ROUTE(op.collection)}/${side.pool[op.collection][op.ref].id}`;
  if (op.kind === 'update') return { method: op.method as Method, path: item, body: tagged(op.fields) };
  return { method: 'DELETE', path: op.force ? `${item}?force=true` : item };
}

/** The observable state of an item, with the side's labels replaced by placeholders. */
function normalise(item: any, replacements: [string, string][]): Record<string, unknown> {
  if (!item) return { exists: false };
  const clean = (s: unknown) => (typeof s === 'string' ? replacements.reduce((acc, [from, to]) => acc.split(from).join(to), s) : s);
  return {
    exists: true,
    status: item.status,
    title: clean(item.title?.raw),
    content: clean(item.content?.raw),
    excerpt: clean(item.excerpt?.raw),
    slug: clean(item.slug),
    comment_status: item.comment_status,
    ping_status: item.ping_status,
    menu_order: item.menu_order,
    type: item.type,
  };
}

async function stateOf(t: BehaviourContext, side: Side): Promise<Record<string, unknown>> {
  const replacements: [string, string][] = [[side.label, 'LABEL']];
  for (const c of ['posts', 'pages'] as const)
    side.pool[c].forEach((p, i) => {
      for (const s of new Set([p.slug, p.title?.raw])) if (typeof s === 'string' && s !== '') replacements.push([s, `POOL-${c}-${i}`]);
    });
  replacements.sort((a, b) => b[0].length - a[0].length);
  const state: Record<string, unknown> = {};
  for (const c of ['posts', 'pages'] as const) {
    const ids = side.pool[c].map((p) => p.id);
    const [pool, created] = await Promise.all([
      t.client.get(COLLECTION_ROUTE(c), { query: { include: ids, status: ALL_STATUSES, context: 'edit', per_page: 100 } }),
      findLabelled(t, c, side.label),
    ]);
    if (pool.status !== 200 || !Array.isArray(pool.body)) t.fail(`cannot verify by reading back: ${whyNotAccepted(pool, `GET ${COLLECTION_ROUTE(c)}?include=<the ${c} pool>&context=edit`)}`);
    side.pool[c].forEach((p, i) => (state[`pool ${c} ${i}`] = normalise(pool.body.find((x: any) => x.id === p.id), replacements)));
    for (const item of created) {
      const k = /^\S+ (c\d+) /.exec(item.title.raw)?.[1] ?? `id${item.id}`;
      state[`created ${c} ${k}`] = normalise(item, replacements);
    }
  }
  return state;
}

async function makeSide(t: BehaviourContext, hint: string): Promise<Side> {
  const create = (c: Collection) => Promise.all(Array.from({ length: POOL }, () => t.create(COLLECTION_ROUTE(c), { status: 'draft' })));
  const [posts, pages] = await Promise.all([create('posts'), create('pages')]);
  return { label: fixtures().label(hint), pool: { posts, pages } };
}

function diff(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).map((k) => `${k}: batch ${JSON.stringify(a[k] ?? null)} vs one by one ${JSON.stringify(b[k] ?? null)}`);
}

behaviour(
  {
    id: 'batch.property.same-as-one-by-one',
    level: 'MUST',
    namespace: '',
    route: ROUTE,
    title: `random mixes of 1–${MAX_ITEMS} create/update/delete items on posts and pages leave the same state as the same requests sent one by one`,
    spec: SPEC,
    covers: ['arg:batch.v1.create.requests', 'endpoint:cms.posts.collection.create', 'endpoint:cms.pages.collection.create'],
  },
  async (t) => {
    prepare(t);
    // Each input creates 8 fixtures and up to 2×25 writes: at most 5 inputs, and a small shrink budget.
    const { config } = t.run.info;
    const capped: BehaviourContext = { ...t, run: { ...t.run, info: { ...t.run.info, config: { ...config, runs: Math.min(config.runs, 5) } } } };
    await checkProperty(
      capped,
      fc.array(opArb, { minLength: 1, maxLength: MAX_ITEMS, size: 'max' }),
      async (ops) => {
        const [batched, single] = await Promise.all([makeSide(t, 'prop-batch'), makeSide(t, 'prop-single')]);
        const items = ops.map((op, k) => requestOf(op, batched, k));
        const oneByOne = async () => {
          for (const [k, op] of ops.entries()) {
            const r = requestOf(op, single, k);
            await t.client.request(r.method, r.path.split('?')[0]!, { body: r.body, query: r.path.includes('?force=true') ? { force: true } : undefined });
          }
        };
        const [res] = await Promise.all([sendBatch(t, items), oneByOne()]);
        trackFromAnswer(t, res, items);
        const [a, b] = await Promise.all([stateOf(t, batched), stateOf(t, single)]);
        const d = diff(a, b);
        if (d.length) t.fail(`batch (answered ${res.status}) and one-by-one differ: ${d.slice(0, 4).join('; ')}`);
      },
      { shrinkBudget: 8, describe: (ops) => ops.map((op) => (op.kind === 'delete' ? `DELETE ${op.collection}[${op.ref}]${op.force ? ' force' : ''}` : op.kind === 'update' ? `${op.method} ${op.collection}[${op.ref}] ${JSON.stringify(op.fields)}` : `create ${op.collection} ${JSON.stringify(op.fields)}`)) },
    );
  },
  { concurrent: true },
);
