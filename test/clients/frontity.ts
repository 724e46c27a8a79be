/**
 * @frontity/wp-source 1.11.7, Frontity's data layer, driven without the framework as Frontity's own
 * tests drive it (src/libraries/handlers/__tests__): a store made with `createStore(clone(wpSource()))`,
 * `state.source.url` set to the site, `actions.source.init()`, then `actions.source.fetch(link)` for
 * the links a theme opens, and what a theme reads from `state.source`. It requests
 * `{url}/wp-json/wp/v2/…` with `_embed=true` (on a spec-named site, through the namespace proxy).
 * Read-only: Frontity does not write.
 * - list: `/` with `state.source.params.per_page = 1`: items, `totalPages`, `next`; then `next`.
 * - read: `/?p=<id>` (by id) and the post's own link (by slug where the link is a pretty permalink).
 * - embed: the post's author and categories in `state.source.author`, `state.source.category`.
 * - errors: `/?p=<a post that does not exist>` is a 404 (`is404`), where an existing post's is not.
 */
import { createStore, wpSource } from './frontity-source.js';
import { check, runFlows, type FlowResults } from './flows.ts';
import type { ClientSite } from './site.ts';

const MISSING = 999_999_999;

/**
 * A deep copy of a package's plain objects and arrays, functions and class instances kept (what
 * Frontity's tests do with clone-deep): wp-source's `state` and `actions` are module-level objects,
 * shared by every `wpSource()`, so a store would otherwise see the data of the site before.
 */
function cloneDeep<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneDeep) as T;
  if (v && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v)))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cloneDeep(x)])) as T;
  return v;
}

export async function frontityFlows(site: ClientSite): Promise<FlowResults> {
  const store = createStore(cloneDeep(wpSource()));
  store.state.source.url = `${site.wpUrl}/`;
  store.actions.source.init();
  const { state, actions } = store;
  const [a, b] = site.posts;
  /** Fetch a link and return its data (as a theme's connect() would read it). */
  const open = async (link: string) => {
    await actions.source.fetch(link);
    return state.source.get(link);
  };
  const stored = (id: number) => state.source.post?.[id];
  return runFlows({
    list: async () => {
      // A theme's setting for its archives (state.source.params), here one post a page.
      state.source.params = { per_page: 1 };
      const home = await open('/').finally(() => (state.source.params = {}));
      check(home.isReady && !home.isError, `/ is ${home.isError ? `an error ${home.errorStatus} ${home.errorStatusText}` : 'not ready'}`);
      check(home.items?.length === 1 && stored(home.items[0].id), `/ lists ${JSON.stringify(home.items)?.slice(0, 160)}, no post stored in state.source.post`);
      check(home.totalPages >= 2, `/ has totalPages ${home.totalPages}: no next page`);
      check(home.next === '/page/2/', `/ has next ${JSON.stringify(home.next)}`);
      state.source.params = { per_page: 1 };
      const second = await open(home.next).finally(() => (state.source.params = {}));
      check(second.isReady && !second.isError && second.items?.[0]?.id !== home.items[0].id, `${home.next}: ${second.isError ? `error ${second.errorStatus}` : JSON.stringify(second.items)?.slice(0, 120)}`);
    },
    read: async () => {
      const byId = await open(`/?p=${a!.id}`);
      check(byId.isReady && !byId.isError && byId.isPost && stored(a!.id)?.id === a!.id, `/?p=${a!.id}: ${byId.isError ? `error ${byId.errorStatus} ${byId.errorStatusText}` : `no post ${a!.id} in state.source.post`}`);
      const link = new URL(b!.link);
      const route = `${link.pathname}${link.search}`;
      const byLink = await open(route);
      check(byLink.isReady && !byLink.isError && stored(b!.id)?.id === b!.id, `its link ${route}: ${byLink.isError ? `error ${byLink.errorStatus} ${byLink.errorStatusText}` : `no post ${b!.id} in state.source.post`}`);
    },
    embed: async () => {
      const data = await open(`/?p=${a!.id}`);
      check(!data.isError && stored(a!.id), `/?p=${a!.id}: ${data.isError ? `error ${data.errorStatus}` : 'no post'}`);
      const post = stored(a!.id);
      check(typeof state.source.author?.[post.author]?.name === 'string', `state.source.author[${post.author}] is ${JSON.stringify(state.source.author?.[post.author])}: no embedded author`);
      const missing = a!.categories.filter((c) => !state.source.category?.[c]);
      check(!missing.length, `state.source.category lacks ${missing.join(', ')}: no embedded terms`);
    },
    errors: async () => {
      // A missing post told apart from an existing one (not every page a 404).
      const known = await open(`/?p=${a!.id}`);
      check(known.isReady && !known.isError, `/?p=${a!.id} (a post that exists) is an error ${known.errorStatus} too: nothing tells a missing post apart`);
      const data = await open(`/?p=${MISSING}`);
      check(data.isError && data.is404, `/?p=${MISSING} is ${data.isError ? `error ${data.errorStatus} ${data.errorStatusText}, not a 404` : 'not an error'}`);
    },
  });
}
