/**
 * A live site for the read-only proofs (issue 35): the content of a small real blog given to a
 * WordPress through its own API (the reference server has it built in: `content: 'blog'`), and an
 * "editor" that publishes and deletes posts and pages while a run reads the site.
 */
import { getProfile, type ProfileName } from '../../schemas/profiles.ts';
import { prng } from '../../schemas/prng.ts';
import { realisticBlog, type Blog } from '../../targets/reference/blog.ts';

export interface Site {
  url: string;
  user?: string;
  appPassword?: string;
  profile: ProfileName;
}

/** A JSON request to a route of the site (spec names, translated by its profile), with its administrator's credentials. */
function api(site: Site) {
  const profile = getProfile(site.profile);
  const auth = `Basic ${Buffer.from(`${site.user}:${site.appPassword}`).toString('base64')}`;
  return async (method: string, route: string, body?: unknown, query = ''): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${site.url}/index.php?rest_route=${encodeURIComponent(profile.toTargetRoute(route))}${query}`, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json };
  };
}

const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/**
 * Give a WordPress the blog (or the theme test content, targets/reference/theme-test.ts) through its
 * REST API (wp/v2: users, categories, tags and comments are routes the spec does not document, fine
 * for a test's set-up): terms, an editor, the items in order (a page's parent first), each item's
 * earlier versions as updates (WordPress keeps a revision of each), the autosave, the comments.
 * About 130 requests.
 */
export async function seedBlogOnWordPress(site: Site, blog: Blog = realisticBlog()): Promise<{ items: number }> {
  const call = api(site);
  const ok = (r: { status: number; body: any }, what: string) => {
    if (r.status < 200 || r.status > 299) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    return r.body;
  };
  const me = ok(await call('GET', '/wp/v2/users/me'), 'who am I');
  const editor = ok(await call('POST', '/wp/v2/users', { username: 'blog-editor', email: 'blog-editor@example.org', password: 'x-Editor-Password-1', roles: ['editor'], name: 'Blog Editor' }), 'editor user');
  const authors: Record<number, number> = { 1: me.id, 2: editor.id };
  const terms = new Map<string, number>();
  for (const c of blog.categories) terms.set(`category:${c.slug}`, ok(await call('POST', '/wp/v2/categories', { name: c.name, slug: c.slug, ...(c.parent ? { parent: terms.get(`category:${c.parent}`) } : {}) }), c.slug).id);
  for (const t of blog.tags) terms.set(`post_tag:${t.slug}`, ok(await call('POST', '/wp/v2/tags', { name: t.name, slug: t.slug }), t.slug).id);
  const ids = new Map<string, number>();
  for (const item of blog.items) {
    const collection = item.type === 'post' ? '/cms/v2/posts' : '/cms/v2/pages';
    const first = item.revisions[0] ?? { title: item.title, content: item.content };
    const body: Record<string, unknown> = {
      title: first.title,
      content: first.content,
      excerpt: item.excerpt,
      status: item.status,
      date: local(item.date),
      slug: item.slug,
      author: authors[item.author],
      ...(item.password ? { password: item.password } : {}),
      ...(item.type === 'post'
        ? { categories: item.categories.map((s) => terms.get(`category:${s}`)), tags: item.tags.map((s) => terms.get(`post_tag:${s}`)), sticky: item.sticky, format: item.format }
        : { parent: item.parent ? ids.get(item.parent) : 0, menu_order: item.menu_order }),
    };
    if (item.comment_status) body.comment_status = item.comment_status;
    const made = ok(await call('POST', collection, body), `${item.type} ${item.key}`);
    ids.set(item.key, made.id);
    // Readers' comments, through WordPress's own comments route (not documented by the spec), approved.
    for (const [i, text] of (item.comments ?? []).entries())
      ok(await call('POST', '/wp/v2/comments', { post: made.id, content: text, author_name: `Reader ${i + 1}`, author_email: `reader${i + 1}@example.org`, status: 'approve' }), `comment on ${item.key}`);
    if (item.revisions.length) {
      for (const v of [...item.revisions.slice(1), { title: item.title, content: item.content }]) ok(await call('POST', `${collection}/${made.id}`, { title: v.title, content: v.content }), `update of ${item.key}`);
    }
    if (item.autosave) ok(await call('POST', `${collection}/${made.id}/autosaves`, item.autosave), `autosave of ${item.key}`);
  }
  return { items: ids.size };
}

export interface EditorStats {
  published: number;
  deleted: number;
  /** Requests that were not answered 2xx. */
  refused: number;
}

/**
 * An editor at work during a run: every `intervalMs` it publishes a post and a page, and deletes
 * (for good) a post and a page published earlier: by turns the oldest of its own and one of the
 * site's newest (never an item a run made: those carry the run tag `cmsc-`). Deterministic in
 * what it picks (a seeded PRNG), not in when.
 */
export function startEditor(site: Site, opts: { intervalMs?: number; seed?: number } = {}): { stop(): Promise<EditorStats> } {
  const call = api(site);
  const random = prng(opts.seed ?? 35);
  const stats: EditorStats = { published: 0, deleted: 0, refused: 0 };
  const own: Record<string, number[]> = { posts: [], pages: [] };
  let tick = 0;
  let stopped = false;
  const count = <R extends { status: number }>(r: R): R => {
    if (r.status < 200 || r.status > 299) stats.refused++;
    return r;
  };
  const work = async () => {
    tick++;
    for (const name of ['posts', 'pages'] as const) {
      const collection = `/cms/v2/${name}`;
      const made = count(await call('POST', collection, { title: `Editor's note ${tick} on ${name}`, content: `<p>Written while the site was being read, number ${tick}.</p>`, status: 'publish' }));
      if (made.status < 300 && typeof made.body?.id === 'number') {
        own[name]!.push(made.body.id);
        stats.published++;
      }
      let victim: number | undefined;
      if (tick % 2 === 0 && own[name]!.length > 1) victim = own[name]!.shift();
      else {
        const listed = await call('GET', collection, undefined, '&per_page=20');
        const others = Array.isArray(listed.body) ? listed.body.filter((i: any) => !own[name]!.includes(i.id) && !/cmsc-/.test(JSON.stringify(i.title ?? '')) && !/cmsc-/.test(String(i.slug ?? ''))) : [];
        victim = others.length ? others[Math.floor(random() * others.length)].id : undefined;
      }
      if (victim !== undefined && count(await call('DELETE', `${collection}/${victim}`, undefined, '&force=true')).status < 300) stats.deleted++;
    }
  };
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(work).catch(() => {
      stats.refused++;
    });
  }, opts.intervalMs ?? 3000);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      return stats;
    },
  };
}
