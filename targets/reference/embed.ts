/**
 * `_embed` (WordPress's global parameter; neither document states it, and the clients of the
 * interface rely on it: results/clients.ts): posts and pages answered with `_embedded` holding
 * their author (`author`: the user in the embed context), their terms (`wp:term`: one array per
 * taxonomy, categories then tags) and their featured media item (`wp:featuredmedia`), as
 * rest_get_server()->embed_links() does. `_embed` bare, `1` or `true` embeds all of them; a list
 * (`_embed=author,wp:term`) only those. The reference server serves no user or term routes (part 4:
 * "All other collections of the core namespace … not shown"), so the embedded objects are made
 * here, in WordPress's embed shape. A site that follows none of WordPress's conventions
 * (`conventions=none`) answers no `_embedded` (readings.ts).
 */
import { renderMedia } from './content-render.ts';
import type { Site } from './state.ts';
import type { HandlerContext } from './types.ts';
import { isPlainObject } from './validate.ts';

/** The rels `_embed` asks for: all (undefined), or the listed ones. */
function wanted(param: unknown): Set<string> | undefined {
  if (param === undefined || param === '' || param === '1' || param === 'true' || param === true) return undefined;
  const list = (Array.isArray(param) ? param : String(param).split(',')).map((x) => String(x).trim()).filter(Boolean);
  return new Set(list);
}

/** The user of `id` as WordPress embeds an author (context embed). */
function author(site: Site, base: string, id: number): Record<string, unknown> | undefined {
  const u = site.userById(id);
  if (!u) return undefined;
  return { id: u.id, name: u.name, url: '', description: '', link: `${base}/?author=${u.id}`, slug: u.slug, avatar_urls: {} };
}

/** A term as WordPress embeds it (context embed). */
function term(site: Site, base: string, id: number): Record<string, unknown> | undefined {
  const t = site.content.term(id);
  if (!t) return undefined;
  const link = t.taxonomy === 'category' ? `${base}/?cat=${t.id}` : `${base}/?tag=${t.slug}`;
  return { id: t.id, link, name: t.name, slug: t.slug, taxonomy: t.taxonomy };
}

/** One item with its `_embedded` (items that are not posts or pages are left as they are). */
function embedOne(item: unknown, ctx: HandlerContext, rels: Set<string> | undefined): unknown {
  if (!isPlainObject(item) || typeof item.id !== 'number' || (item.type !== 'post' && item.type !== 'page')) return item;
  const { site, base } = ctx;
  const want = (rel: string) => !rels || rels.has(rel);
  const embedded: Record<string, unknown> = {};
  const who = typeof item.author === 'number' ? author(site, base, item.author) : undefined;
  if (want('author') && who) embedded.author = [who];
  if (want('wp:term') && item.type === 'post') {
    const ids = (k: string) => (Array.isArray(item[k]) ? (item[k] as unknown[]).filter((x): x is number => typeof x === 'number') : []);
    embedded['wp:term'] = [ids('categories'), ids('tags')].map((list) => list.map((id) => term(site, base, id)).filter(Boolean));
  }
  const media = typeof item.featured_media === 'number' && item.featured_media > 0 ? site.content.get(item.featured_media) : undefined;
  if (want('wp:featuredmedia') && media?.type === 'attachment') embedded['wp:featuredmedia'] = [renderMedia(media, ctx, { context: 'embed' })];
  return Object.keys(embedded).length ? { ...item, _embedded: embedded } : item;
}

/** The answer's data with `_embedded` added to each post and page in it (one item, or a list), when `_embed` was asked for. */
export function withEmbeds(data: unknown, ctx: HandlerContext, query: Record<string, unknown>): unknown {
  if (!('_embed' in query)) return data;
  const rels = wanted(query._embed);
  return Array.isArray(data) ? data.map((x) => embedOne(x, ctx, rels)) : embedOne(data, ctx, rels);
}
