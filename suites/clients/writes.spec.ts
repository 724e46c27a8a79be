/**
 * Client readiness, writing (level CLIENT, results/clients.ts): what the clients that write (wpapi,
 * and the block editor through api-fetch and core-data) rely on to create, update, delete and save
 * in a batch. Each write runs only where the run may write, with credentials, and says so when it
 * skips; what it creates is tagged and deleted after the file. The batch descriptor is read only.
 */
import { behaviour, fixtures, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { POSTS, POSTS_SPEC, answered, clientDecl } from './lib/declare.ts';

const BATCH = '/batch/v1';
const BATCH_SPEC = { doc: 'core', section: '4. Endpoints › Batch' } as const;

function mayWrite(t: BehaviourContext): void {
  t.requireWrites();
  t.requireCredentials();
}

/** Whether the post is gone after a delete: its route no longer answers the post (404 to its owner; how a missing post is answered is client.errors.status's). */
async function gone(t: BehaviourContext, id: number): Promise<boolean> {
  const res = await t.client.get(`${POSTS}/${id}`, { query: { context: 'edit' } });
  return res.status === 404 || res.status === 410 || res.body?.id !== id;
}

behaviour(
  clientDecl('client.write.text-strings', {
    title: 'a post created with title and content as plain strings is created with them',
    route: POSTS,
    spec: { doc: 'core', section: '2. Resources and their fields › Post (`cms/v2/posts`)' },
    client: {
      spec: 'contrary',
      specSays: 'core-routes.md § 2: title and content are objects ("raw (string, context edit)"), written as {raw: …}',
      reliedOnBy: [
        { client: 'wpapi', file: 'lib/constructors/wp-request.js', function: 'create (L742), update (L758): the caller\'s data as is', flows: ['write'], breaks: 'posts().create({ title: "…" }) is refused' },
        { client: 'api-fetch', file: '@wordpress/core-data src/actions.js', function: 'saveEntityRecord (L633, L835-840): edited title and content as strings, also in a batch', flows: ['write', 'batch'], breaks: 'the editor cannot save a post' },
      ],
    },
  }),
  async (t) => {
    mayWrite(t);
    const label = fixtures().label('client-strings');
    const res = await t.client.post(POSTS, { title: label, content: `<p>${label}</p>`, status: 'draft', slug: label });
    if (res.status >= 200 && res.status < 300 && Number.isInteger(res.body?.id)) t.track(`${POSTS}/${res.body.id}`);
    if (res.status < 200 || res.status > 299) t.fail(answered(res, `POST ${POSTS} {"title": "${label}", "content": "…", "status": "draft"} (strings)`));
    const back = await t.client.get(`${POSTS}/${res.body?.id}`, { query: { context: 'edit' } });
    if (back.body?.title?.raw !== label) t.fail(`POST ${POSTS} with the title as a string: read back, title.raw is ${JSON.stringify(back.body?.title?.raw)}, not ${JSON.stringify(label)}`);
  },
);

behaviour(
  clientDecl('client.write.method-override', {
    title: 'POST with X-HTTP-Method-Override: PUT updates, and with X-HTTP-Method-Override: DELETE deletes',
    route: '/cms/v2/posts/<id>',
    spec: POSTS_SPEC,
    client: {
      spec: 'silent',
      specSays: 'core-routes.md § 4 states POST on /cms/v2/posts/<id> is an update: a server that ignores the header turns every delete into an update',
      reliedOnBy: [
        { client: 'api-fetch', file: 'src/middlewares/http-v1.ts', function: 'httpV1Middleware (L24-36), in the default chain', flows: ['write'], breaks: 'PUT and DELETE go as POST with the header: a delete answers 200 and the post stays' },
      ],
    },
  }),
  async (t) => {
    mayWrite(t);
    const post = await t.create(POSTS, { title: 'client override', status: 'draft' });
    const route = `${POSTS}/${post.id}`;
    const slug = `${post.slug}-put`;
    const put = await t.client.post(route, { slug }, { headers: { 'X-HTTP-Method-Override': 'PUT' } });
    if (put.status !== 200) t.fail(answered(put, `POST ${route} with X-HTTP-Method-Override: PUT`));
    const del = await t.client.post(route, undefined, { query: { force: 'true' }, headers: { 'X-HTTP-Method-Override': 'DELETE' } });
    if (del.status < 200 || del.status > 299) t.fail(answered(del, `POST ${route}?force=true with X-HTTP-Method-Override: DELETE`));
    if (!(await gone(t, post.id))) t.fail(`POST ${route}?force=true with X-HTTP-Method-Override: DELETE answered ${del.status}, but the post is still there (the header was not honoured: the POST was an update)`);
  },
);

behaviour(
  clientDecl('client.batch.max-items', {
    title: "OPTIONS /batch/v1 describes the requests argument with maxItems, the size core-data cuts its batches to",
    route: BATCH,
    spec: BATCH_SPEC,
    client: {
      spec: 'contrary',
      specSays: 'core-routes.md § 1 lists the descriptor keys (type, default, required, enum, minimum, maximum, format, items, description): no maxItems; § 4 states the limit (25) in words',
      reliedOnBy: [
        { client: 'api-fetch', file: '@wordpress/core-data src/batch/default-processor.js', function: 'defaultProcessor (L30-78)', flows: ['batch'], breaks: 'chunk(requests, undefined): core-data never finishes a batch save (the block editor hangs)' },
      ],
    },
  }),
  async (t) => {
    const res = await t.client.request('OPTIONS', BATCH);
    if (res.status !== 200) t.fail(answered(res, `OPTIONS ${BATCH}`));
    const max = res.body?.endpoints?.[0]?.args?.requests?.maxItems;
    if (!Number.isInteger(max) || max < 1) t.fail(`OPTIONS ${BATCH}: endpoints[0].args.requests.maxItems is ${JSON.stringify(max)}, not a positive integer`);
  },
);

behaviour(
  clientDecl('client.batch.responses', {
    title: 'POST /batch/v1 answers {responses: [{status, body}]}, one per request, in order',
    route: BATCH,
    spec: BATCH_SPEC,
    client: {
      spec: 'silent',
      specSays: 'core-routes.md § 4: "Batch response shape … not shown"',
      reliedOnBy: [
        { client: 'api-fetch', file: '@wordpress/core-data src/batch/default-processor.js', function: 'defaultProcessor (L30-78): responses[i].status, responses[i].body', flows: ['batch'], breaks: 'the batch save throws: no response is matched to its request' },
      ],
    },
  }),
  async (t) => {
    mayWrite(t);
    const labels = [fixtures().label('client-batch'), fixtures().label('client-batch')];
    const requests = labels.map((l) => ({ method: 'POST', path: t.run.profile.toTargetRoute(POSTS), body: { title: { raw: l }, status: 'draft', slug: l } }));
    const res = await t.client.post(BATCH, { validation: 'require-all-validate', requests });
    const items: any[] = Array.isArray(res.body?.responses) ? res.body.responses : [];
    for (const r of items) if (Number.isInteger(r?.body?.id)) t.track(`${POSTS}/${r.body.id}`);
    if (res.status < 200 || res.status > 299) t.fail(answered(res, `POST ${BATCH} (two creates)`));
    if (items.length !== 2) t.fail(`POST ${BATCH} (two creates) answered ${res.status} without responses[] of 2: ${res.text.slice(0, 200)}`);
    items.forEach((r, i) => {
      if (!(r?.status >= 200 && r.status < 300) || r?.body?.slug !== labels[i]) t.fail(`POST ${BATCH}: responses[${i}] is ${JSON.stringify(r).slice(0, 200)}, not {status: 2xx, body: the post ${labels[i]}}`);
    });
  },
);
