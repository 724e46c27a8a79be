/**
 * @headstartwp/core 1.6.1, HeadstartWP's data layer, through its framework-agnostic fetch functions
 * (`fetchPosts`, `fetchPost`: what its Next.js pages and React hooks call) with the site as
 * `sourceUrl` (`setHeadstartWPConfig`; on a spec-named site the namespace proxy). It requests
 * `{sourceUrl}/wp-json/wp/v2/…` with `_embed=true`. Read-only: HeadstartWP does not write.
 * - list: `fetchPosts({ params: { per_page: 1 } })`: posts and `pageInfo`; then page 2.
 * - read: `fetchPost({ params: { id } })`, `fetchPost({ params: { slug } })`.
 * - embed: the post's `author` and `terms` (from `_embedded`).
 * - errors: `fetchPost` of a post that does not exist throws HeadstartWP's NotFoundError or
 *   EndpointError (not the error body taken for a post, nor a crash on a page that is not JSON).
 */
import { EndpointError, NotFoundError, fetchPost, fetchPosts, setHeadstartWPConfig } from '@headstartwp/core';
import { check, runFlows, type FlowResults } from './flows.ts';
import type { ClientSite } from './site.ts';

const MISSING = 999_999_999;

export async function headstartwpFlows(site: ClientSite): Promise<FlowResults> {
  // One configuration per process: the flows of one site run together (test/clients.test.ts runs sites one after the other).
  setHeadstartWPConfig({ sourceUrl: site.wpUrl });
  const [a, b] = site.posts;
  return runFlows({
    list: async () => {
      const first = await fetchPosts({ params: { per_page: 1 } as any });
      const { posts, pageInfo } = first.data;
      check(posts.length === 1, `fetchPosts gave ${posts.length} posts`);
      check(pageInfo.totalPages >= 2 && pageInfo.totalItems >= 2, `pageInfo ${JSON.stringify(pageInfo)}: no next page`);
      const second = await fetchPosts({ params: { per_page: 1, page: 2 } as any });
      check(second.data.posts.length === 1 && second.data.posts[0]!.id !== posts[0]!.id, `page 2 gave ${JSON.stringify(second.data.posts.map((p) => p.id))}`);
    },
    read: async () => {
      const byId = await fetchPost({ params: { id: a!.id } as any });
      check(byId.data.post.id === a!.id, `fetchPost({ id: ${a!.id} }) gave ${JSON.stringify(byId.data.post).slice(0, 120)}`);
      const bySlug = await fetchPost({ params: { slug: b!.slug } as any });
      check(bySlug.data.post.id === b!.id, `fetchPost({ slug: ${b!.slug} }) gave ${JSON.stringify(bySlug.data.post).slice(0, 120)}`);
    },
    embed: async () => {
      const { post } = (await fetchPost({ params: { id: a!.id } as any })).data;
      check(typeof post.author?.[0]?.name === 'string', `post.author is ${JSON.stringify(post.author)}`);
      const ids = (post.terms?.category ?? []).map((t: { id: number }) => t.id);
      check(a!.categories.every((c) => ids.includes(c)), `post.terms.category is ${JSON.stringify(ids)}, not ${a!.categories}`);
    },
    errors: async () => {
      const err = await fetchPost({ params: { id: MISSING } as any }).then(
        (r) => new Error(`it gave a post: ${JSON.stringify(r.data.post).slice(0, 120)}`),
        (e: unknown) => e,
      );
      check(err instanceof NotFoundError || err instanceof EndpointError, `fetchPost({ id: ${MISSING} }): ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
    },
  });
}
