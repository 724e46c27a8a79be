/**
 * Client readiness, reading (level CLIENT, results/clients.ts): what the real clients rely on when
 * they list posts with paging, fetch one by id or slug, embed its author and terms, and handle an
 * error. Read-only: on a site that may not be written the checks look at its own published posts.
 */
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { MISSING_ID, POSTS, POSTS_SPEC, answered, baseUrl, clientDecl, header, subjectsFor } from './lib/declare.ts';

const ERRORS_SPEC = { doc: 'core', section: '7. Errors' } as const;
const ERRORS_NOT_SHOWN = 'core-routes.md § 7: "Error response body, status codes and error codes: not shown"';
const ITEM = '/cms/v2/posts/<id>';
const include = (ids: number[]) => ids.join(',');

behaviour(
  clientDecl('client.records.id', {
    title: 'posts carry their integer id, in a listing and read by it',
    route: ITEM,
    spec: { doc: 'core', section: '2. Resources and their fields › Post (`cms/v2/posts`)' },
    client: {
      spec: 'silent',
      specSays: 'core-routes.md § 2: the post table lists no id (only the <id> routes imply one)',
      reliedOnBy: [
        { client: 'wpapi', file: 'lib/path-part-setter.js', function: 'the .id() setter of a route', flows: ['list', 'read'], breaks: 'no id to address a listed post by, nor to check one read by it' },
        { client: 'api-fetch', file: '@wordpress/core-data src/resolvers.js', function: 'getEntityRecord (L61-316): the record is stored under its id', flows: ['read'], breaks: 'the record read is not found under its id: the editor shows nothing' },
        { client: 'frontity', file: 'src/libraries/populate.ts', function: 'populate (L61-72)', flows: ['list', 'read', 'embed', 'errors'], breaks: 'state.source.post[id] is never filled: no post is found, and opening one throws' },
        { client: 'headstartwp', file: 'dist/mjs/data/strategies/SinglePostFetchStrategy.js', function: 'buildEndpointURL (L76-98)', flows: ['list', 'read'], breaks: 'no id to fetch a listed post by' },
      ],
    },
  }),
  async (t) => {
    const s = await subjectsFor(t, 1);
    const list = await t.client.get(POSTS, { query: { include: include(s.ids), per_page: 100 } });
    if (list.status !== 200 || !Array.isArray(list.body)) t.fail(answered(list, `GET ${POSTS} (include=${include(s.ids)})`));
    const bad = (list.body as any[]).filter((p) => !Number.isInteger(p?.id));
    if (bad.length) t.fail(`GET ${POSTS} (include=${include(s.ids)}): ${bad.length} of ${list.body.length} items carry no integer id (${JSON.stringify(bad[0]).slice(0, 160)})`);
    const one = await t.client.get(`${POSTS}/${s.ids[0]}`);
    if (one.status !== 200 || one.body?.id !== s.ids[0]) t.fail(`GET ${POSTS}/${s.ids[0]}: ${one.status === 200 ? `id is ${JSON.stringify(one.body?.id)}` : answered(one, 'it')}`);
  },
);

behaviour(
  clientDecl('client.records.type-link', {
    title: "posts carry their type (post) and their link (an absolute URL): where Frontity stores and finds them",
    route: '/cms/v2/posts',
    spec: { doc: 'core', section: '2. Resources and their fields › Post (`cms/v2/posts`)' },
    client: {
      spec: 'silent',
      specSays: 'core-routes.md § 2 lists neither type nor link among the post fields',
      reliedOnBy: [
        { client: 'frontity', file: 'src/libraries/populate.ts', function: 'populate (L45, L61-72)', flows: ['list', 'read', 'embed'], breaks: 'entities are stored under state.source[type][id] and data[link]: without them a fetched post is not found' },
      ],
    },
  }),
  async (t) => {
    const s = await subjectsFor(t, 1);
    const list = await t.client.get(POSTS, { query: { include: include(s.ids), per_page: 100 } });
    if (list.status !== 200 || !Array.isArray(list.body)) t.fail(answered(list, `GET ${POSTS} (include=${include(s.ids)})`));
    for (const p of list.body as any[]) {
      if (p?.type !== 'post') t.fail(`GET ${POSTS} (include=${include(s.ids)}): post ${p?.id} has type ${JSON.stringify(p?.type)}, not "post"`);
      if (typeof p?.link !== 'string' || !/^https?:\/\//.test(p.link)) t.fail(`GET ${POSTS} (include=${include(s.ids)}): post ${p?.id} has link ${JSON.stringify(p?.link)}, not an absolute URL`);
    }
  },
);

behaviour(
  clientDecl('client.paging.totals', {
    title: 'collections carry X-WP-Total and X-WP-TotalPages with the true counts',
    route: POSTS,
    spec: { doc: 'core', section: '4. Endpoints › Posts › Post collection query' },
    client: {
      spec: 'silent',
      specSays: 'core-routes.md § 4 states page and per_page, no header',
      reliedOnBy: [
        { client: 'wpapi', file: 'lib/http-transport.js', function: 'createPaginationObject (L120-156)', flows: ['list'], breaks: '_paging is absent: the total and the page count are lost' },
        { client: 'api-fetch', file: '@wordpress/core-data src/utils/get-pagination-meta.ts', function: 'getEntityRecords (resolvers.js L419, L434)', flows: ['list'], breaks: 'totalItems and totalPages are null: the editor cannot page its lists' },
        { client: 'frontity', file: 'src/libraries/response-utils.ts', function: 'getTotal, getTotalPages (L17-42); postTypeArchive.ts L91-99', flows: ['list'], breaks: 'totalPages is 0: the archive has no next page' },
        { client: 'headstartwp', file: 'dist/mjs/data/strategies/AbstractFetchStrategy.js', function: 'fetcher (L197-206)', flows: ['list'], breaks: 'pageInfo.totalPages and totalItems are 0' },
      ],
    },
  }),
  async (t) => {
    const s = await subjectsFor(t, 1);
    const what = `GET ${POSTS} (include=${include(s.ids)}, per_page=1)`;
    const res = await t.client.get(POSTS, { query: { include: include(s.ids), per_page: 1 } });
    if (res.status !== 200 || !Array.isArray(res.body)) t.fail(answered(res, what));
    const total = header(res, 'X-WP-Total');
    const pages = header(res, 'X-WP-TotalPages');
    const missing = [total === undefined && 'X-WP-Total', pages === undefined && 'X-WP-TotalPages'].filter(Boolean);
    if (missing.length) t.fail(`${what} answered no ${missing.join(' and no ')} header (${s.ids.length} matching posts)`);
    if (Number(total) !== s.ids.length || Number(pages) !== s.ids.length)
      t.fail(`${what}: X-WP-Total ${total} and X-WP-TotalPages ${pages}, expected ${s.ids.length} and ${s.ids.length} (${s.ids.length} matching posts, one a page)`);
  },
);

behaviour(
  clientDecl('client.paging.link-next', {
    title: 'a collection page links the next one (Link: <url>; rel="next", the query kept) and the last page links none',
    route: POSTS,
    spec: { doc: 'core', section: '4. Endpoints › Posts › Post collection query' },
    client: {
      spec: 'silent',
      specSays: 'core-routes.md § 4 states page and per_page, no Link header',
      reliedOnBy: [
        { client: 'wpapi', file: 'lib/http-transport.js', function: 'createPaginationObject (L145-172)', flows: ['list'], breaks: '_paging.next is absent: the next page cannot be requested' },
        { client: 'api-fetch', file: 'src/middlewares/fetch-all-middleware.ts', function: 'parseLinkHeader (L33-44), fetchAllMiddleware (L80-118)', flows: ['list'], breaks: 'per_page=-1 returns only the first 100 items' },
      ],
    },
  }),
  async (t) => {
    const s = await subjectsFor(t, 2);
    const ids = s.ids.slice(0, 2);
    const what = `GET ${POSTS} (include=${include(ids)}, per_page=1)`;
    const first = await t.client.get(POSTS, { query: { include: include(ids), per_page: 1 } });
    if (first.status !== 200 || !Array.isArray(first.body)) t.fail(answered(first, what));
    if (!Number.isInteger(first.body[0]?.id)) t.dependsOn('client.records.id', `${what}: the post on page 1 has no id to tell page 2 from it`);
    const link = header(first, 'Link') ?? '';
    // api-fetch's own pattern (fetch-all-middleware.ts parseLinkHeader): one space, double quotes.
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    if (!next) t.fail(`${what} (page 1 of 2) answered no Link <url>; rel="next"${link ? ` (Link: ${link.slice(0, 200)})` : ' (no Link header)'}`);
    const q = new URL(next!, baseUrl(t)).searchParams;
    // The query kept in any form the site reads (WordPress writes include back as include[0]=…&include[1]=…).
    const dropped = ['per_page', 'include'].filter((k) => ![...q.keys()].some((x) => x === k || x.startsWith(`${k}[`)));
    if (q.get('page') !== '2' || dropped.length) t.fail(`${what}: the next link ${next} ${q.get('page') !== '2' ? `asks page ${q.get('page')}, not 2` : `drops ${dropped.join(', ')}`}`);
    const second = await t.client.get(POSTS, { pageUrl: new URL(next!, baseUrl(t)).href });
    if (second.status !== 200 || !Array.isArray(second.body) || second.body.length !== 1 || second.body[0]?.id === first.body[0]?.id)
      t.fail(`GET ${next} (the next link of page 1): ${second.status === 200 ? `items ${JSON.stringify((second.body ?? []).map?.((p: any) => p?.id))}, expected the other post` : answered(second, 'it')}`);
    const last = header(second, 'Link') ?? '';
    if (/rel="next"/.test(last)) t.fail(`GET ${next} (the last page) still links a next page: Link: ${last.slice(0, 200)}`);
  },
);

behaviour(
  clientDecl('client.params.locale', {
    title: '_locale=user, sent with every request of the block editor, is accepted',
    route: POSTS,
    spec: POSTS_SPEC,
    client: {
      spec: 'silent',
      specSays: 'core-routes.md § 4 documents no _locale parameter',
      reliedOnBy: [
        { client: 'api-fetch', file: 'src/middlewares/user-locale.ts', function: 'userLocaleMiddleware (in the default chain, src/index.ts L45-50)', flows: ['list', 'read', 'write', 'batch'], breaks: 'a server that refuses it refuses every request of the block editor' },
      ],
    },
  }),
  async (t) => {
    const s = await subjectsFor(t, 1);
    for (const [route, query] of [[POSTS, { per_page: 1, _locale: 'user' }], [`${POSTS}/${s.ids[0]}`, { _locale: 'user' }]] as const) {
      const res = await t.client.get(route, { query });
      if (res.status !== 200) t.fail(answered(res, `GET ${route}?${new URLSearchParams(query as Record<string, string>)}`));
    }
  },
);

behaviour(
  clientDecl('client.params.embed', {
    title: '_embed=true, sent by the front-end frameworks with every read, is accepted',
    route: POSTS,
    spec: POSTS_SPEC,
    client: {
      spec: 'silent',
      specSays: 'core-routes.md § 4 documents no _embed parameter',
      reliedOnBy: [
        { client: 'wpapi', file: 'lib/constructors/wp-request.js', function: 'embed (L446)', flows: ['embed'], breaks: '.embed() requests are refused' },
        { client: 'frontity', file: 'src/libraries/handlers/postType.ts, postTypeArchive.ts, postTypeWithQuery.ts', function: 'the handlers (_embed: true)', flows: ['list', 'read', 'embed', 'errors'], breaks: 'every fetch is refused: nothing is shown' },
        { client: 'headstartwp', file: 'dist/mjs/data/strategies/SinglePostFetchStrategy.js', function: 'getDefaultParams (L52); PostsArchiveFetchStrategy.js', flows: ['list', 'read', 'embed'], breaks: 'every fetch is refused' },
      ],
    },
  }),
  async (t) => {
    const s = await subjectsFor(t, 1);
    for (const [route, query] of [[POSTS, { per_page: 1, _embed: 'true' }], [`${POSTS}/${s.ids[0]}`, { _embed: 'true' }]] as const) {
      const res = await t.client.get(route, { query });
      if (res.status !== 200) t.fail(answered(res, `GET ${route}?${new URLSearchParams(query as Record<string, string>)}`));
    }
  },
);

behaviour(
  clientDecl('client.embed.author-terms', {
    title: '_embed=true embeds the author (_embedded.author) and the terms (_embedded["wp:term"]) of a post',
    route: ITEM,
    spec: POSTS_SPEC,
    client: {
      spec: 'silent',
      specSays: 'core-routes.md § 2: "Response payload shapes … beyond the field lists above: not shown"',
      reliedOnBy: [
        { client: 'wpapi', file: 'lib/constructors/wp-request.js', function: 'embed (L446): _embedded passed through', flows: ['embed'], breaks: 'the caller finds no author or terms' },
        { client: 'frontity', file: 'src/libraries/schemas/posts.ts', function: 'postEntity._embedded (L39-48), populate', flows: ['embed'], breaks: 'state.source.author and state.source.category stay empty: themes show no author or categories' },
        { client: 'headstartwp', file: 'dist/mjs/data/utils/postHandling.js', function: 'getPostAuthor, getPostTerms', flows: ['embed'], breaks: 'post.author and post.terms are empty' },
      ],
    },
  }),
  async (t) => {
    const s = await subjectsFor(t, 1);
    const route = `${POSTS}/${s.ids[0]}`;
    const what = `GET ${route}?_embed=true`;
    const res = await t.client.get(route, { query: { _embed: 'true' } });
    if (res.status >= 400 && res.status < 500) t.dependsOn('client.params.embed', answered(res, what));
    if (res.status !== 200) t.fail(answered(res, what));
    const post = res.body as Record<string, any>;
    const embedded = post?._embedded;
    if (!embedded || typeof embedded !== 'object') t.fail(`${what}: the post has no _embedded`);
    const author = embedded.author?.[0];
    if (!Array.isArray(embedded.author) || author?.id !== post.author || typeof author?.name !== 'string' || typeof author?.link !== 'string')
      t.fail(`${what}: _embedded.author is ${JSON.stringify(embedded.author)?.slice(0, 200)}, not [the author ${post.author} with id, name, link]`);
    const terms = embedded['wp:term'];
    const want = [...(post.categories ?? []), ...(post.tags ?? [])] as number[];
    if (!Array.isArray(terms) || !terms.every(Array.isArray)) t.fail(`${what}: _embedded["wp:term"] is ${JSON.stringify(terms)?.slice(0, 200)}, not an array of arrays of terms`);
    const got = (terms as any[][]).flat();
    const lacking = want.filter((id) => !got.some((x) => x?.id === id));
    if (lacking.length) t.fail(`${what}: _embedded["wp:term"] lacks the post's terms ${lacking.join(', ')}`);
    const bad = got.find((x) => !['category', 'post_tag'].includes(x?.taxonomy) && typeof x?.taxonomy !== 'string');
    if (bad || got.some((x) => typeof x?.slug !== 'string' || typeof x?.link !== 'string')) t.fail(`${what}: a term of _embedded["wp:term"] lacks taxonomy, slug or link: ${JSON.stringify(bad ?? got[0]).slice(0, 200)}`);
  },
);

/** GET of a post that does not exist, for the two error behaviours. */
const missing = (t: BehaviourContext) => t.client.get(`${POSTS}/${MISSING_ID}`);

behaviour(
  clientDecl('client.errors.status', {
    title: 'a post that does not exist answers 404',
    route: ITEM,
    spec: ERRORS_SPEC,
    client: {
      spec: 'silent',
      specSays: ERRORS_NOT_SHOWN,
      reliedOnBy: [
        { client: 'wpapi', file: 'lib/http-transport.js', function: 'invokeAndPromisify (L191-229)', flows: ['errors'], breaks: 'only a status of 400 or more rejects: the error is taken for data' },
        { client: 'api-fetch', file: 'src/index.ts', function: 'defaultFetchHandler (L94-154)', flows: ['errors'], breaks: 'only a non-2xx status rejects: the error is taken for data' },
        { client: 'frontity', file: 'src/libraries/api.ts', function: 'Api.get (L113-118); actions.ts fetch', flows: ['errors'], breaks: 'errors are told by status only: no is404, no not-found page' },
      ],
    },
  }),
  async (t) => {
    const res = await missing(t);
    if (res.status !== 404) t.fail(answered(res, `GET ${POSTS}/${MISSING_ID} (no such post)`));
  },
);

behaviour(
  clientDecl('client.errors.body', {
    title: 'an error answers JSON {code, message, data: {status}} (GET of a post that does not exist)',
    route: ITEM,
    spec: ERRORS_SPEC,
    client: {
      spec: 'silent',
      specSays: ERRORS_NOT_SHOWN,
      reliedOnBy: [
        { client: 'wpapi', file: 'lib/http-transport.js', function: 'invokeAndPromisify (L191-229)', flows: ['errors'], breaks: 'without a code the rejection is a bare transport error' },
        { client: 'api-fetch', file: 'src/index.ts', function: 'defaultFetchHandler (L94-154); core-data actions.js L392-407', flows: ['errors'], breaks: 'the thrown body has no code or message: the editor shows an empty notice' },
        { client: 'headstartwp', file: 'dist/mjs/data/strategies/AbstractFetchStrategy.js', function: 'fetcher (L176-196)', flows: ['errors'], breaks: 'it looks at the body only: without a string code the error body is taken for a post' },
      ],
    },
  }),
  async (t) => {
    const res = await missing(t);
    const what = `GET ${POSTS}/${MISSING_ID} (no such post)`;
    if (res.status < 400) t.dependsOn('client.errors.status', answered(res, what));
    const type = header(res, 'Content-Type') ?? '';
    const b = res.body as Record<string, any> | undefined;
    const problems = [
      !/^application\/json/i.test(type) && `Content-Type ${type || '(none)'}`,
      typeof b?.code !== 'string' && 'no string code',
      typeof b?.message !== 'string' && 'no string message',
      b?.data?.status !== res.status && `data.status ${JSON.stringify(b?.data?.status)}`,
    ].filter(Boolean);
    if (problems.length) t.fail(`${what} answered ${res.status} with ${problems.join(', ')}: ${res.text.slice(0, 160)}`);
  },
);

