/**
 * The batch route and what every batch behaviour uses: the catalog's batch endpoint (route, spec
 * section, item methods, validation modes, the 25-item limit), sending a batch with its inner
 * paths translated, items tagged by label and found again by reading back, and the positive
 * control of a refusal (the nearest valid batch is accepted and applied).
 */
import { endpointById } from '../../../schemas/catalog/index.ts';
import { fixtures, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { RequestOptions, Response } from '../../../src/sdk/http.ts';
import { expectControlAccepted, whyNotAccepted } from '../../../src/sdk/controls.ts';
import { pages, posts, WRITE_STATUSES } from '../../cms/lib/collections.ts';
import { textFields } from '../../../src/sdk/http.ts';

export const BATCH = endpointById('batch.v1.create');
export const BATCH_ARGS = BATCH.endpoint.args as Record<string, any>;
/** "requests: array, at most 25 items" (part 4 › Batch; part 8 Limits). */
export const MAX_ITEMS: number = BATCH_ARGS.requests.maxItems;
export const ITEM = BATCH_ARGS.requests.items.properties as Record<string, any>;
export const ITEM_METHODS: readonly string[] = ITEM.method.enum;
export const VALIDATION_MODES: readonly string[] = BATCH_ARGS.validation.enum;
export const SPEC = BATCH.endpoint.spec;
export const ROUTE = BATCH.route.path;

export type Collection = 'posts' | 'pages';
export const COLLECTION_ROUTE = (c: Collection) => (c === 'posts' ? posts : pages).collection;
/** Every write status, and trash (only reachable by DELETE), so state reads see every item. */
export const ALL_STATUSES = [...WRITE_STATUSES, 'trash'];

export interface Item {
  method?: string;
  /** In spec names; translated to the target's names before sending. */
  path?: string;
  body?: Record<string, unknown>;
  headers?: Record<string, unknown>;
}

export function prepare(t: BehaviourContext) {
  t.requireWrites();
  t.requireCredentials();
}

/** Send a batch. Inner `path` values are target routes: they are translated here. */
export function sendBatch(t: BehaviourContext, items: Item[], extra: Record<string, unknown> = {}, opts: Pick<RequestOptions, 'auth' | 'invalid'> = {}): Promise<Response> {
  const requests = items.map((i) => (i.path === undefined ? i : { ...i, path: t.run.profile.toTargetRoute(i.path) }));
  return t.client.post(ROUTE, { ...extra, requests }, opts);
}

export const ok = (status: number) => status >= 200 && status <= 299;
export const refused = (status: number) => status >= 400 && status <= 499;

/** A create item whose title starts with `label` (tagged, found again by `findLabelled`). */
export function createItem(collection: Collection, label: string, fields: Record<string, unknown> = {}): Item {
  return { method: 'POST', path: COLLECTION_ROUTE(collection), body: textFields({ status: 'draft', content: label, ...fields, title: label }) };
}

/**
 * Items of a collection whose raw title starts with `label` (any status, trash included),
 * tracked for deletion as soon as they are seen.
 */
export async function findLabelled(t: BehaviourContext, collection: Collection, label: string): Promise<any[]> {
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

/**
 * The per-item answers of a batch answer, where it has them in a shape one can tell: WordPress's
 * `responses[]`, a `results[]`, or a list as the whole body (the shape is not shown: part 4 › Batch).
 */
export function perItemAnswers(res: Response): any[] | undefined {
  const b = res.body;
  const list = Array.isArray(b) ? b : Array.isArray(b?.responses) ? b.responses : Array.isArray(b?.results) ? b.results : undefined;
  return list;
}

/** Track the ids a batch answer reports (when its per-item answers can be told), before any check. */
export function trackFromAnswer(t: BehaviourContext, res: Response, items: Item[]) {
  const responses = perItemAnswers(res);
  if (!responses) return;
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
export async function expectValidBatchApplied(t: BehaviourContext, refusal: string, extra: Record<string, unknown> = {}): Promise<void> {
  const label = fixtures().label('batch-control');
  const items = [createItem('posts', label)];
  const res = await sendBatch(t, items, extra);
  trackFromAnswer(t, res, items);
  expectControlAccepted(t, res, `a valid batch (one create item${Object.keys(extra).length ? `, ${JSON.stringify(extra)}` : ''})`, refusal);
  const found = await findLabelled(t, 'posts', label);
  if (found.length !== 1) t.fail(`positive control: a valid batch answered ${res.status} but its create item was not applied (${found.length} found), so the refusal of ${refusal} shows nothing`);
}

export async function expectNothingApplied(t: BehaviourContext, label: string, what: string) {
  const found = [...(await findLabelled(t, 'posts', label)), ...(await findLabelled(t, 'pages', label))];
  if (found.length) t.fail(`${what}, yet ${found.length} of its items were applied (ids ${found.map((p) => p.id).join(', ')})`);
}

/**
 * An item-level violation (GET method, missing path, bad header value): the batch must not
 * run it. With the answer shape not shown, two outcomes are accepted: the whole batch refused
 * (4xx) with nothing applied, or a 2xx whose per-item answer (`responses[i]`) is an error.
 */
export async function expectItemRefused(t: BehaviourContext, res: Response, badIndex: number, label: string, what: string) {
  if (refused(res.status)) return expectNothingApplied(t, label, `the batch with ${what} was refused (${res.status})`);
  if (!ok(res.status)) t.fail(`the batch with ${what} answered ${res.status}: neither refused (4xx) nor answered per item`);
  const item = perItemAnswers(res)?.[badIndex];
  if (!item || typeof item.status !== 'number') t.fail(`the batch with ${what} was accepted (${res.status}) and shows no error for that item`);
  if (!refused(item.status)) t.fail(`the batch with ${what} was accepted and that item answered ${item.status}, not an error`);
}
