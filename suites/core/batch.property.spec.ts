/**
 * Batch, as a property (part 1: "a batch route that runs several write requests in one call"):
 * random mixes of create/update/delete items leave the same state as the same requests sent one
 * by one. Shared helpers: `./lib/batch.ts`.
 */
import fc from 'fast-check';
import { behaviour, fixtures, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Method } from '../../src/sdk/http.ts';
import { checkProperty } from '../../generators/property.ts';
import { whyNotAccepted } from '../../src/sdk/controls.ts';
import {
  MAX_ITEMS,
  ITEM_METHODS,
  SPEC,
  ROUTE,
  type Collection,
  COLLECTION_ROUTE,
  ALL_STATUSES,
  prepare,
  sendBatch,
  findLabelled,
  trackFromAnswer,
} from './lib/batch.ts';
import { WRITE_STATUSES } from '../cms/lib/collections.ts';
import { textFields } from '../../src/sdk/http.ts';

// ---------------------------------------------------------------------------
// Property: a batch is the same as its items sent one by one (part 1: "a batch route that
// runs several write requests in one call")
// ---------------------------------------------------------------------------

/** The write statuses but future (which needs a date ahead). */
const STATUSES = WRITE_STATUSES.filter((s) => s !== 'future');
const UPDATE_METHODS = ITEM_METHODS.filter((m) => m !== 'DELETE');
const words = fc.stringMatching(/^[a-z]{1,8}( [a-z]{1,8}){0,3}$/);
const fieldsArb = (collection: Collection, withTitle: boolean) =>
  fc.record(
    {
      title: words,
      content: words,
      excerpt: words,
      status: fc.constantFrom(...STATUSES),
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
  const tagged = (f: Record<string, any>) => textFields(f.title === undefined ? f : { ...f, title: `${side.label} c${k} ${f.title}` });
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
