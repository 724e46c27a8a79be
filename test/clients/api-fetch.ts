/**
 * @wordpress/api-fetch 7.56, the block editor's transport, run as a library with its default
 * middleware chain (user-locale: `_locale=user` on every request; http-v1: PUT, PATCH and DELETE
 * sent as POST with X-HTTP-Method-Override; fetch-all: `per_page=-1` followed by Link rel="next"),
 * the root given as the block editor gives it (`createRootURLMiddleware`; here the spec's own
 * `{base}/index.php?rest_route=/`, whose route api-fetch percent-encodes) and the credentials as an
 * Authorization header (the editor uses a cookie and a nonce). The middlewares are applied per call
 * (api-fetch's `use` is process-wide), in the order `use` gives them.
 *
 * What @wordpress/core-data 8.1 sends through it, replayed here (core-data cannot run outside a
 * browser: it reads `document` when loaded, and needs the block editor's 268 packages):
 * - list: `getEntityRecords` reads X-WP-Total and X-WP-TotalPages of `?context=edit&per_page=…`
 *   (src/utils/get-pagination-meta.ts), and `per_page: -1` is api-fetch's fetch-all;
 * - read: `getEntityRecord` (`/posts/<id>?context=edit`), by slug (`?context=edit&slug=`);
 * - write: `saveEntityRecord` (POST, then PUT with the edited title and content as strings),
 *   `deleteEntityRecord` (DELETE `?force=true`);
 * - batch: `defaultProcessor` (src/batch/default-processor.js): OPTIONS /batch/v1 for
 *   `endpoints[0].args.requests.maxItems`, chunks of that size (none: `chunk(requests, undefined)`
 *   never ends), POST /batch/v1 `{validation: 'require-all-validate', requests}`, each result from
 *   `responses[i].status` and `.body`;
 * - errors: a missing post rejects with the server's `code` and `message` (what the editor shows).
 */
import apiFetchImport, { type ApiFetch, type APIFetchOptions } from '@wordpress/api-fetch';
import { check, runFlows, type FlowResults } from './flows.ts';
import { siteRequest, type ClientSite } from './site.ts';

// The package's types are CommonJS-shaped for TypeScript (its default is the namespace); the ES module vitest loads has the function.
const apiFetch = apiFetchImport as unknown as ApiFetch;
type Options = APIFetchOptions;
const MISSING = 999_999_999;

export async function apiFetchFlows(site: ClientSite): Promise<FlowResults> {
  const root = apiFetch.createRootURLMiddleware(`${site.url}/index.php?rest_route=/`);
  const authorization = `Basic ${Buffer.from(`${site.user}:${site.appPassword}`).toString('base64')}`;
  /** apiFetch with the root-URL middleware, then the credentials, before its default chain. */
  const call = <T = any>(options: Options): Promise<T> =>
    root(options, (o: Options) => apiFetch<T, boolean>({ ...o, headers: { ...(o.headers as Record<string, string>), Authorization: authorization } })) as Promise<T>;
  const ns = `/${site.namespace}`;
  const [a, b] = site.posts;
  const created: number[] = [];
  try {
    return await runFlows({
      list: async () => {
        const res = await call<Response>({ path: `${ns}/posts?context=edit&per_page=1&page=1`, parse: false });
        const total = parseInt(res.headers.get('X-WP-Total') ?? '', 10);
        const pages = parseInt(res.headers.get('X-WP-TotalPages') ?? '', 10);
        check(Number.isInteger(total) && Number.isInteger(pages), `core-data's pagination meta is null: X-WP-Total ${res.headers.get('X-WP-Total')}, X-WP-TotalPages ${res.headers.get('X-WP-TotalPages')}`);
        check(total >= 2 && pages === total, `X-WP-Total ${total}, X-WP-TotalPages ${pages} at per_page=1`);
        const all = await call<unknown[]>({ path: `${ns}/posts?context=edit&per_page=-1` });
        check(Array.isArray(all) && all.length === total, `per_page=-1 (api-fetch's fetch-all) gave ${Array.isArray(all) ? all.length : typeof all} posts of ${total}`);
      },
      read: async () => {
        const byId = await call<any>({ path: `${ns}/posts/${a!.id}?context=edit` });
        check(byId?.id === a!.id && typeof byId?.title?.raw === 'string', `getEntityRecord ${a!.id} gave ${JSON.stringify(byId).slice(0, 120)}`);
        const bySlug = await call<any[]>({ path: `${ns}/posts?context=edit&slug=${b!.slug}` });
        check(Array.isArray(bySlug) && bySlug.length === 1 && bySlug[0].id === b!.id, `by slug ${b!.slug} gave ${JSON.stringify(bySlug).slice(0, 120)}`);
      },
      write: async () => {
        const post = await call<any>({ path: `${ns}/posts`, method: 'POST', data: { title: 'api-fetch flow', content: 'api-fetch flow', status: 'draft' } });
        check(Number.isInteger(post?.id), `saveEntityRecord (create) gave ${JSON.stringify(post).slice(0, 120)}`);
        created.push(post.id);
        const updated = await call<any>({ path: `${ns}/posts/${post.id}`, method: 'PUT', data: { title: 'api-fetch flow updated' } });
        check(updated?.title?.raw === 'api-fetch flow updated', `saveEntityRecord (update, PUT) gave title ${JSON.stringify(updated?.title)}`);
        await call({ path: `${ns}/posts/${post.id}?force=true`, method: 'DELETE' });
        // Whether it is gone, asked of the site itself (core-data does not read it back).
        const after = await siteRequest(site, 'GET', `${ns}/posts/${post.id}?context=edit`);
        check(after.status === 404, `deleteEntityRecord (DELETE ?force=true) resolved, but the post is still there (${after.status})`);
      },
      batch: async () => {
        // core-data src/batch/default-processor.js, replayed through api-fetch.
        const preflight = await call<any>({ path: '/batch/v1', method: 'OPTIONS' });
        const maxItems = preflight?.endpoints?.[0]?.args?.requests?.maxItems;
        check(Number.isInteger(maxItems) && maxItems > 0, `OPTIONS /batch/v1 gives maxItems ${JSON.stringify(maxItems)}: core-data's chunk(requests, ${maxItems}) never ends`);
        const requests = [1, 2].map((n) => ({ path: `${ns}/posts`, data: { title: `api-fetch batch ${n}`, status: 'draft' }, method: 'POST' }));
        const batch = await call<any>({
          path: '/batch/v1',
          method: 'POST',
          data: { validation: 'require-all-validate', requests: requests.map((r) => ({ path: r.path, body: r.data, method: r.method })) },
        });
        for (const r of Array.isArray(batch?.responses) ? batch.responses : []) if (Number.isInteger(r?.body?.id)) created.push(r.body.id);
        check(Array.isArray(batch?.responses), `the batch answer has no responses[]: ${JSON.stringify(batch).slice(0, 160)}`);
        check(!batch.failed, `the batch failed: ${JSON.stringify(batch).slice(0, 160)}`);
        const results = batch.responses.map((r: any) => (r.status >= 200 && r.status < 300 ? { output: r.body } : { error: r.body }));
        check(results.length === 2 && results.every((r: any) => Number.isInteger(r.output?.id)), `the batch results: ${JSON.stringify(results).slice(0, 160)}`);
      },
      errors: async () => {
        const err = await call({ path: `${ns}/posts/${MISSING}` }).then(
          () => undefined,
          (e: unknown) => e as any,
        );
        check(err, `${ns}/posts/${MISSING} resolved`);
        check(typeof err.code === 'string' && typeof err.message === 'string', `the rejection has no code and message to show: ${JSON.stringify(err).slice(0, 160)}`);
      },
    });
  } finally {
    // Not through api-fetch: on a site that ignores the override its DELETE would delete nothing.
    for (const id of created) await siteRequest(site, 'DELETE', `${ns}/posts/${id}?force=true`).catch(() => {});
  }
}
