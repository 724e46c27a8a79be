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
import { behaviour, fixtures } from '../../src/sdk/behaviour.ts';
import {
  MAX_ITEMS,
  ITEM,
  ITEM_METHODS,
  VALIDATION_MODES,
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
  expectItemRefused,
} from './lib/batch.ts';
import { rawText, textFields } from '../../src/sdk/http.ts';

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
    const missing = items.map((i) => rawText(i.body!.title)).filter((title) => !titles.has(title));
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
    const res = await sendBatch(t, items, {}, { invalid: ['requests'] });
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
      const res = await t.client.post(ROUTE, body, { invalid: ['requests'] });
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
    const res = await sendBatch(t, items, { validation: 'all-or-nothing' }, { invalid: ['validation'] });
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
    const res = await sendBatch(t, items, {}, { invalid: ['requests'] });
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
    const items: Item[] = [{ method: 'POST', body: textFields({ title: `${label} x`, status: 'draft' }) }, createItem('posts', label)];
    const res = await sendBatch(t, items, {}, { invalid: ['requests'] });
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
    const badRes = await sendBatch(t, badItems, {}, { invalid: ['requests'] });
    trackFromAnswer(t, badRes, badItems);
    await expectItemRefused(t, badRes, 0, bad, 'an object header value');
    const applied = await findLabelled(t, 'posts', `${bad} bad`);
    if (applied.length) t.fail(`the item with an object header value was applied (id ${applied[0].id})`);
  },
  { concurrent: true },
);
