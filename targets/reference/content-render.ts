/**
 * Posts, pages, revisions, autosaves and media items as REST responses: the field sets by
 * context of wordpress-behaviour.md §5 ("Field sets by context"), filtered the way
 * rest_filter_response_by_context() does (nested properties included).
 */
import { autop, fmtDate, generatedExcerpt, sanitizeTitle, uploadPath, type PostRecord } from './content-store.ts';

export { uploadPath };
import type { HandlerContext } from './types.ts';

export type Context = 'view' | 'edit' | 'embed';

/** Contexts per field; a nested table filters sub-properties. Fields not listed are kept. */
type ContextTable = Record<string, { contexts: Context[]; sub?: ContextTable }>;

const VE: Context[] = ['view', 'edit'];
const VEE: Context[] = ['view', 'edit', 'embed'];
const E: Context[] = ['edit'];

/** posts-ctl get_item_schema() (posts and pages; fields a type lacks are simply absent). */
const POST_CONTEXTS: ContextTable = {
  id: { contexts: VEE },
  date: { contexts: VEE },
  date_gmt: { contexts: VE },
  guid: { contexts: VE, sub: { rendered: { contexts: VE }, raw: { contexts: E } } },
  modified: { contexts: VE },
  modified_gmt: { contexts: VE },
  slug: { contexts: VEE },
  status: { contexts: VE },
  type: { contexts: VEE },
  link: { contexts: VEE },
  password: { contexts: E },
  permalink_template: { contexts: E },
  generated_slug: { contexts: E },
  parent: { contexts: VE },
  title: { contexts: VEE, sub: { raw: { contexts: E }, rendered: { contexts: VEE } } },
  content: {
    contexts: VE,
    sub: { raw: { contexts: E }, rendered: { contexts: VE }, block_version: { contexts: E }, protected: { contexts: VEE } },
  },
  author: { contexts: VEE },
  excerpt: { contexts: VEE, sub: { raw: { contexts: E }, rendered: { contexts: VEE }, protected: { contexts: VEE } } },
  featured_media: { contexts: VEE },
  comment_status: { contexts: VE },
  ping_status: { contexts: VE },
  menu_order: { contexts: VE },
  format: { contexts: VE },
  meta: { contexts: VE },
  sticky: { contexts: VE },
  template: { contexts: VE },
  categories: { contexts: VE },
  tags: { contexts: VE },
  class_list: { contexts: VE },
};

/** Revisions controller schema (autosaves add preview_link). */
const REVISION_CONTEXTS: ContextTable = {
  author: { contexts: VEE },
  date: { contexts: VEE },
  date_gmt: { contexts: VE },
  guid: { contexts: VE, sub: { rendered: { contexts: VE }, raw: { contexts: E } } },
  id: { contexts: VEE },
  modified: { contexts: VE },
  modified_gmt: { contexts: VE },
  parent: { contexts: VEE },
  slug: { contexts: VEE },
  title: { contexts: VEE, sub: { raw: { contexts: E }, rendered: { contexts: VEE } } },
  content: { contexts: VE, sub: { raw: { contexts: E }, rendered: { contexts: VE } } },
  excerpt: { contexts: VEE, sub: { raw: { contexts: E }, rendered: { contexts: VEE } } },
  meta: { contexts: VE },
  preview_link: { contexts: E },
};

/** Attachments controller schema. */
const MEDIA_CONTEXTS: ContextTable = {
  ...POST_CONTEXTS,
  description: { contexts: VE, sub: { raw: { contexts: E }, rendered: { contexts: VE } } },
  caption: { contexts: VEE, sub: { raw: { contexts: E }, rendered: { contexts: VEE } } },
  alt_text: { contexts: VEE },
  media_type: { contexts: VEE },
  mime_type: { contexts: VEE },
  media_details: { contexts: VEE },
  post: { contexts: VE },
  source_url: { contexts: VEE },
  missing_image_sizes: { contexts: E },
};

function filterByContext(data: Record<string, unknown>, table: ContextTable, context: Context): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    const rule = table[k];
    if (!rule) {
      out[k] = v;
      continue;
    }
    if (!rule.contexts.includes(context)) continue;
    out[k] = rule.sub && v && typeof v === 'object' && !Array.isArray(v) ? filterByContext(v as Record<string, unknown>, rule.sub, context) : v;
  }
  return out;
}

export function routeBaseOf(rec: PostRecord): string {
  return rec.type === 'page' ? 'pages' : rec.type === 'attachment' ? 'media' : 'posts';
}

/** The public link of an item (plain permalinks): `{url}/?p=<id>`, `?page_id=`, `?attachment_id=`. */
export function linkOf(rec: PostRecord, base: string): string {
  if (rec.type === 'page') return `${base}/?page_id=${rec.id}`;
  if (rec.type === 'attachment') return `${base}/?attachment_id=${rec.id}`;
  return `${base}/?p=${rec.id}`;
}


export interface RenderOptions {
  context: Context;
  /** The password check passed (or edit context with edit permission). */
  passwordOk?: boolean;
  excerptLength?: number;
}

const blockVersion = (content: string): number => (/\x3C!--\s*wp:/.test(content) ? 1 : 0);

function postLinks(rec: PostRecord, ctx: HandlerContext): Record<string, unknown> {
  const base = `/cms/v2/${routeBaseOf(rec)}`;
  const links: Record<string, unknown> = {
    self: [{ href: ctx.restUrl(`${base}/${rec.id}`) }],
    collection: [{ href: ctx.restUrl(base) }],
  };
  if (rec.type === 'post' || rec.type === 'page') {
    const revisions = ctx.site.content.revisionsOf(rec.id).filter((r) => !r.autosave);
    links['version-history'] = [{ count: revisions.length, href: ctx.restUrl(`${base}/${rec.id}/revisions`) }];
    if (revisions[0]) links['predecessor-version'] = [{ id: revisions[0].id, href: ctx.restUrl(`${base}/${rec.id}/revisions/${revisions[0].id}`) }];
    if (rec.featured_media) links['featured-media'] = [{ embeddable: true, href: ctx.restUrl(`/cms/v2/media/${rec.featured_media}`) }];
    if (rec.type === 'page' && rec.parent) links.up = [{ embeddable: true, href: ctx.restUrl(`/cms/v2/pages/${rec.parent}`) }];
  }
  return links;
}

function classList(rec: PostRecord, ctx: HandlerContext): string[] {
  const out = [`post-${rec.id}`, rec.type, `type-${rec.type}`, `status-${rec.status}`];
  if (rec.type === 'post') out.push(`format-${rec.format}`);
  if (rec.password) out.push('post-password-required');
  if (rec.sticky) out.push('sticky');
  out.push('hentry');
  for (const id of [...rec.categories, ...rec.tags]) {
    const t = ctx.site.content.term(id);
    if (t) out.push(`${t.taxonomy === 'category' ? 'category' : 'tag'}-${t.slug}`);
  }
  return out;
}

/**
 * Fields WordPress adds to posts, pages, revisions, autosaves and media items that core part 2
 * does not list ("Response payload shapes for all resources beyond the field lists above: not
 * shown"): a site that follows none of WordPress's conventions (dialect `conventions=none`) leaves
 * them out. Kept although part 2 does not list them either:
 * - `id`: part 2 gives revisions and autosaves theirs, and the routes address every item by it;
 * - `link`: the oEmbed routes return embed data for a URL, and a post's own URL is the only one the
 *   documents tie to content (without it the oEmbed checks skip: no URL is known to embed);
 * (`modified`, `modified_gmt` are left out too: the modified filters and orderby=modified are
 * judged by the target's clock, not by these fields: suites/cms/lib/filters.ts.)
 */
const UNLISTED_FIELDS = ['guid', 'type', 'class_list', 'permalink_template', 'generated_slug', 'preview_link', 'modified', 'modified_gmt'];

/**
 * A date-time of an item: WordPress's form without a zone (`date` in the site's timezone,
 * `date_gmt` in GMT), or with `conventions=none` RFC 3339's, which "string (date-time)" also reads
 * as (the site's timezone is UTC: `+00:00`, and `Z` for GMT).
 */
const local = (ms: number, ctx: HandlerContext): string => `${fmtDate(ms, ctx.site.gmtOffset)}${zoned(ctx) ? offsetText(ctx.site.gmtOffset) : ''}`;
const gmt = (ms: number, ctx: HandlerContext): string => `${fmtDate(ms)}${zoned(ctx) ? 'Z' : ''}`;
/** Dates answered with their zone: a site that follows no WordPress convention, or reads date-times strictly (RFC 3339) and so writes them so too. */
const zoned = (ctx: HandlerContext): boolean => ctx.site.dialect.conventions === 'none' || ctx.site.dialect.dateTimes === 'strict';
/** `+05:30` for gmt_offset 5.5. */
const offsetText = (hours: number): string => {
  const m = Math.round(Math.abs(hours) * 60);
  return `${hours < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

function listedOnly(out: Record<string, unknown>, ctx: HandlerContext): Record<string, unknown> {
  if (ctx.site.dialect.conventions !== 'none') return out;
  for (const f of UNLISTED_FIELDS) delete out[f];
  delete out._links;
  return out;
}

/** A post or page in the given context. */
export function renderPost(rec: PostRecord, ctx: HandlerContext, opts: RenderOptions): Record<string, unknown> {
  const link = linkOf(rec, ctx.base);
  const hidden = rec.password !== '' && !opts.passwordOk;
  const excerptText = rec.excerpt !== '' ? rec.excerpt : generatedExcerpt(rec.content, opts.excerptLength ?? 55);
  const data: Record<string, unknown> = {
    id: rec.id,
    date: local(rec.date, ctx),
    date_gmt: gmt(rec.date, ctx),
    guid: { rendered: `${ctx.base}/?${rec.type === 'page' ? 'page_id' : 'p'}=${rec.id}`, raw: `${ctx.base}/?${rec.type === 'page' ? 'page_id' : 'p'}=${rec.id}` },
    modified: local(rec.modified, ctx),
    modified_gmt: gmt(rec.modified, ctx),
    slug: rec.slug,
    status: rec.status,
    type: rec.type,
    link,
    title: { raw: rec.title, rendered: rec.title },
    content: {
      raw: rec.content,
      rendered: hidden ? '' : autop(rec.content),
      protected: rec.password !== '',
      block_version: blockVersion(rec.content),
    },
    excerpt: { raw: rec.excerpt, rendered: hidden ? '' : autop(excerptText), protected: rec.password !== '' },
    author: rec.author,
    featured_media: rec.featured_media,
    comment_status: rec.comment_status,
    ping_status: rec.ping_status,
  };
  if (rec.type === 'post') {
    data.sticky = rec.sticky;
    data.template = rec.template;
    data.format = rec.format;
  } else {
    data.parent = rec.parent;
    data.menu_order = rec.menu_order;
    data.template = rec.template;
  }
  data.meta = { footnotes: rec.meta.footnotes };
  if (rec.type === 'post') {
    data.categories = [...rec.categories];
    data.tags = [...rec.tags];
  }
  data.class_list = classList(rec, ctx);
  data.password = rec.password;
  data.permalink_template = rec.type === 'page' ? `${ctx.base}/?page_id=${rec.id}` : `${ctx.base}/?p=${rec.id}`;
  data.generated_slug = rec.slug || ctx.site.content.uniqueSlug(sanitizeTitle(rec.title) || String(rec.id), rec.type, rec.id, rec.parent);
  const out = filterByContext(data, POST_CONTEXTS, opts.context);
  out._links = postLinks(rec, ctx);
  return listedOnly(out, ctx);
}

/** A revision or autosave (or, for a draft autosaved in place, the post) with the revision schema. */
export function renderRevision(rec: PostRecord, ctx: HandlerContext, opts: RenderOptions, parentType: 'post' | 'page'): Record<string, unknown> {
  // A draft autosaved in place is the post itself, serialized with the revision schema.
  const isPost = rec.type !== 'revision';
  const parentId = rec.parent;
  const base = `/cms/v2/${parentType === 'page' ? 'pages' : 'posts'}`;
  const data: Record<string, unknown> = {
    author: rec.author,
    date: local(rec.date, ctx),
    date_gmt: gmt(rec.date, ctx),
    guid: { rendered: `${ctx.base}/?p=${rec.id}`, raw: `${ctx.base}/?p=${rec.id}` },
    id: rec.id,
    modified: local(rec.modified, ctx),
    modified_gmt: gmt(rec.modified, ctx),
    parent: parentId,
    slug: rec.slug,
    title: { raw: rec.title, rendered: rec.title },
    content: { raw: rec.content, rendered: autop(rec.content) },
    excerpt: { raw: rec.excerpt, rendered: autop(rec.excerpt !== '' ? rec.excerpt : generatedExcerpt(rec.content)) },
    meta: { footnotes: rec.meta.footnotes },
  };
  if (rec.autosave || isPost) {
    const target = isPost ? rec.id : rec.parent;
    data.preview_link = `${ctx.base}/?${parentType === 'page' ? 'page_id' : 'p'}=${target}&preview=true`;
  }
  const out = filterByContext(data, REVISION_CONTEXTS, opts.context);
  const parentHref = ctx.restUrl(`${base}/${isPost ? rec.id : rec.parent}`);
  out._links = { parent: [{ href: parentHref }] };
  return listedOnly(out, ctx);
}

/** A media item. */
export function renderMedia(rec: PostRecord, ctx: HandlerContext, opts: RenderOptions): Record<string, unknown> {
  const mime = rec.mime_type ?? 'application/octet-stream';
  const data: Record<string, unknown> = {
    id: rec.id,
    date: local(rec.date, ctx),
    date_gmt: gmt(rec.date, ctx),
    guid: { rendered: `${ctx.base}${uploadPath(rec)}`, raw: `${ctx.base}${uploadPath(rec)}` },
    modified: local(rec.modified, ctx),
    modified_gmt: gmt(rec.modified, ctx),
    slug: rec.slug,
    status: rec.status,
    type: 'attachment',
    link: linkOf(rec, ctx.base),
    title: { raw: rec.title, rendered: rec.title },
    author: rec.author,
    featured_media: 0,
    comment_status: rec.comment_status,
    ping_status: rec.ping_status,
    template: rec.template,
    meta: {},
    class_list: [`post-${rec.id}`, 'attachment', 'type-attachment', `status-${rec.status}`, 'hentry'],
    permalink_template: `${ctx.base}/?attachment_id=${rec.id}`,
    generated_slug: rec.slug,
    description: { raw: rec.description ?? '', rendered: autop(rec.description ?? '') },
    caption: { raw: rec.caption ?? '', rendered: autop(rec.caption ?? '') },
    alt_text: rec.alt_text ?? '',
    media_type: mime.startsWith('image/') ? 'image' : 'file',
    mime_type: mime,
    media_details: { filesize: rec.file_size ?? 0, sizes: {} },
    post: rec.parent || null,
    source_url: `${ctx.base}${uploadPath(rec)}`,
    missing_image_sizes: [],
  };
  const out = filterByContext(data, MEDIA_CONTEXTS, opts.context);
  out._links = {
    self: [{ href: ctx.restUrl(`/cms/v2/media/${rec.id}`) }],
    collection: [{ href: ctx.restUrl('/cms/v2/media') }],
  };
  return listedOnly(out, ctx);
}
