/**
 * wpapi 1.2.2 (node-wpapi), the Node client, run as a library:
 * - discover: `WPAPI.discover(home)` (HEAD on the home page, its Link rel="https://api.w.org/", the
 *   index, the route tree built from its keys), and the site's posts route has `.id()`. wpapi
 *   catches a route tree it cannot build and falls back to its bundled `wp/v2` routes, logging
 *   the error: that counts as a failed discovery (the fallback is what the other flows use then).
 * - list: `posts().perPage(1)` with `_paging` (total, totalPages, next), then `_paging.next`.
 * - read: `posts().id(id)`, `posts().slug(slug)`.
 * - embed: `posts().id(id).embed()`: `_embedded.author`, `_embedded['wp:term']`.
 * - write: `create`, `update` (PUT), `param('force', true).delete()` (DELETE), with credentials.
 * - errors: `posts().id(<none>)` rejects with the server's `code`.
 * Without a working discovery the flows use wpapi's bundled routes at the root given by hand
 * (`{base}/index.php?rest_route=/`; on a spec-named site through the namespace proxy).
 */
import { createRequire } from 'node:module';
import { check, runFlows, type FlowResults } from './flows.ts';
import { siteRequest, type ClientSite } from './site.ts';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const WPAPI: any = require('wpapi');

const MISSING = 999_999_999;

/** WPAPI.discover(home), with what it logged when it fell back (wpapi logs the error and goes on). */
async function discover(url: string): Promise<{ wp: any; fellBack?: string }> {
  const logged: string[] = [];
  const { error, warn } = console;
  console.error = (...a: unknown[]) => logged.push(a.map((x) => (x instanceof Error ? x.message : String(x))).join(' '));
  console.warn = () => {};
  try {
    const wp = await WPAPI.discover(`${url}/`);
    return { wp, ...(logged.length ? { fellBack: logged[0] } : {}) };
  } finally {
    console.error = error;
    console.warn = warn;
  }
}

export async function wpapiFlows(site: ClientSite): Promise<FlowResults> {
  const auth = { username: site.user, password: site.appPassword };
  let posts: () => any = () => new WPAPI({ endpoint: `${site.wpUrl}/index.php?rest_route=/`, ...auth, auth: true }).posts();
  const [a, b] = site.posts;
  return runFlows({
    discover: async () => {
      const { wp, fellBack } = await discover(site.url);
      check(!fellBack, `WPAPI.discover could not build its route tree from the index and fell back to its bundled wp/v2 routes: ${fellBack}`);
      const ns = wp.namespace(site.namespace);
      check(typeof ns.posts === 'function' && typeof ns.posts().id === 'function', `the discovered route tree has no ${site.namespace} posts().id()`);
      wp.auth(auth);
      posts = () => wp.namespace(site.namespace).posts();
    },
    list: async () => {
      const page1 = await posts().perPage(1);
      const paging = page1._paging;
      check(paging, 'posts().perPage(1) has no _paging');
      check(paging.totalPages >= 2 && paging.total >= 2, `_paging says ${paging.total} posts on ${paging.totalPages} pages`);
      check(paging.next, '_paging.next is absent');
      const page2 = await paging.next;
      check(Array.isArray(page2) && page2.length === 1 && page2[0].id !== page1[0]?.id, `_paging.next gave ${JSON.stringify(page2?.map?.((p: any) => p.id))}`);
    },
    read: async () => {
      const byId = await posts().id(a!.id);
      check(byId?.id === a!.id, `posts().id(${a!.id}) gave ${byId?.id}`);
      const bySlug = await posts().slug(b!.slug);
      check(Array.isArray(bySlug) && bySlug.length === 1 && bySlug[0].id === b!.id, `posts().slug(${b!.slug}) gave ${JSON.stringify(bySlug?.map?.((p: any) => p.id))}`);
    },
    embed: async () => {
      const p = await posts().id(a!.id).embed();
      check(typeof p?._embedded?.author?.[0]?.name === 'string', `.embed() gave no _embedded.author (${JSON.stringify(p?._embedded ?? null).slice(0, 120)})`);
      const terms = (p._embedded['wp:term'] ?? []).flat().map((t: any) => t?.id);
      check(a!.categories.every((c) => terms.includes(c)), `_embedded['wp:term'] lacks categories ${a!.categories}`);
    },
    write: async () => {
      const created = await posts().create({ title: 'wpapi flow', content: 'wpapi flow', status: 'draft' });
      check(Number.isInteger(created?.id), `create gave ${JSON.stringify(created).slice(0, 120)}`);
      try {
        const updated = await posts().id(created.id).update({ title: 'wpapi flow updated' });
        check(updated?.title?.raw === 'wpapi flow updated', `update gave title ${JSON.stringify(updated?.title)}`);
      } finally {
        await posts().id(created.id).param('force', true).delete();
      }
      // Whether it is gone, asked of the site itself.
      const after = await siteRequest(site, 'GET', `/${site.namespace}/posts/${created.id}?context=edit`);
      check(after.status === 404, `delete() resolved, but the post is still there (${after.status})`);
    },
    errors: async () => {
      const err = await posts().id(MISSING).then(
        () => undefined,
        (e: any) => e,
      );
      check(err, `posts().id(${MISSING}) resolved`);
      check(typeof err.code === 'string', `posts().id(${MISSING}) rejected without the server's code: ${err?.message ?? JSON.stringify(err)}`);
    },
  });
}
