/**
 * Writing posts and pages: prepare_item_for_database(), the parts of wp_insert_post() that decide
 * status and slug, and wp_save_post_revision().
 */
import { RestError, restError } from './errors.ts';
import { parseInputDate, sanitizeTitle, toSeconds, type PostRecord } from './content-store.ts';
import type { HandlerContext, RestRequest } from './types.ts';
import { isPlainObject } from './validate.ts';
import { textOf, type TypeDef } from './content-common.ts';

// ---------------------------------------------------------------------------
// Writing posts and pages: prepare_item_for_database() and wp_insert_post()
// ---------------------------------------------------------------------------

export interface Prepared {
  fields: Partial<PostRecord>;
  /** meta.footnotes was sent with a wrong type: an error after saving (as WordPress does). */
  metaError?: RestError;
}

export function prepareForDatabase(req: RestRequest, ctx: HandlerContext, def: TypeDef, existing?: PostRecord): Prepared | RestError {
  const f: Partial<PostRecord> = {};
  const out: Prepared = { fields: f };
  for (const k of ['title', 'content', 'excerpt'] as const) {
    if (!req.given(k)) continue;
    const v = req.get(k);
    // WordPress takes a title object only when its raw is not PHP-empty ("" or "0" change nothing);
    // content and excerpt take any raw. A server of the object-only reading stores what was sent.
    if (k === 'title' && ctx.site.dialect.textFields !== 'object' && isPlainObject(v) && (v.raw === '' || v.raw === '0')) continue;
    const t = textOf(v);
    if (t !== undefined) f[k] = t;
  }
  // date wins over date_gmt; date is site-local (ctx.site.gmtOffset), date_gmt GMT.
  const date = req.get('date');
  const dateGmt = req.get('date_gmt');
  if (typeof date === 'string' && date) {
    const t = parseInputDate(date, false, ctx.site.gmtOffset);
    if (t === undefined) return restError('rest_invalid_date', 'Invalid date.', 400);
    f.date = t;
  } else if (typeof dateGmt === 'string' && dateGmt) {
    const t = parseInputDate(dateGmt, true);
    if (t === undefined) return restError('rest_invalid_date', 'Invalid date.', 400);
    f.date = t;
  } else if (req.has('date') && req.raw('date') === undefined) {
    // A null date resets it to "now" (floating).
    f.date = toSeconds(ctx.site.now());
  }
  if (req.given('slug')) f.slug = sanitizeTitle(String(req.get('slug')));
  if (req.given('status')) f.status = String(req.get('status'));
  if (req.has('password') && req.get('password') !== undefined) f.password = String(req.get('password'));

  const sticky = def.type === 'post' && req.get('sticky') === true;
  if (req.given('password') && f.password !== '') {
    if (sticky) return restError('rest_invalid_field', 'A post can not be sticky and have a password.', 400);
    if (existing?.sticky && req.get('sticky') !== false) return restError('rest_invalid_field', 'A sticky post can not be password protected.', 400);
  }
  if (sticky && existing && existing.password !== '' && !req.given('password'))
    return restError('rest_invalid_field', 'A password protected post can not be set to sticky.', 400);

  if (req.given('author')) {
    const author = Number(req.get('author'));
    if (author && author !== req.user?.id && !ctx.site.userById(author)) return restError('rest_invalid_author', 'Invalid author ID.', 400);
    if (author) f.author = author;
  }
  if (def.type === 'page' && req.given('parent')) {
    const parent = Number(req.get('parent'));
    if (parent === 0) f.parent = 0;
    else {
      if (!ctx.site.content.get(parent)) return restError('rest_post_invalid_id', 'Invalid post parent ID.', 400);
      f.parent = parent;
    }
  }
  if (def.type === 'page' && req.given('menu_order')) f.menu_order = Number(req.get('menu_order'));
  for (const k of ['comment_status', 'ping_status', 'template'] as const) if (req.given(k)) f[k] = String(req.get(k));
  if (def.type === 'post') {
    if (req.given('format')) f.format = String(req.get('format'));
    if (req.given('sticky')) f.sticky = req.get('sticky') === true;
    for (const tax of ['categories', 'tags'] as const) {
      if (!req.has(tax)) continue;
      const v = req.get(tax);
      const ids = Array.isArray(v) ? v.map(Number) : [];
      // wp_set_object_terms() skips term IDs that do not exist.
      f[tax] = [...new Set(ids)].filter((id) => ctx.site.content.term(id, tax === 'categories' ? 'category' : 'post_tag'));
    }
  }
  if (req.given('featured_media')) {
    const media = Number(req.get('featured_media'));
    // An invalid featured_media is silently ignored (set_post_thumbnail's result is not checked).
    if (media === 0) f.featured_media = 0;
    else if (ctx.site.content.get(media, 'attachment')) f.featured_media = media;
  }
  const meta = req.get('meta');
  if (isPlainObject(meta) && 'footnotes' in meta) {
    if (typeof meta.footnotes === 'string') f.meta = { footnotes: meta.footnotes };
    else if (meta.footnotes !== null)
      out.metaError = new RestError('rest_invalid_type', 'meta.footnotes is not of type string.', { status: 400 }, [{ param: 'meta.footnotes' }]);
  }
  return out;
}

/** The parts of wp_insert_post() that decide status, slug and emptiness. */
export function finishRecord(ctx: HandlerContext, rec: PostRecord, slugGiven: boolean): RestError | undefined {
  // WordPress refuses a post whose title, content and excerpt are all empty (400 empty_content);
  // the spec states "All writable fields are optional on create and update", so the reference
  // server accepts it.
  const now = toSeconds(ctx.site.now());
  // publish with a date at least a minute ahead turns into future, and future in the past into publish.
  if (rec.status === 'publish' && rec.date - now >= 60_000) rec.status = 'future';
  else if (rec.status === 'future' && rec.date - now < 60_000) rec.status = 'publish';
  const store = ctx.site.content;
  if (slugGiven && rec.slug !== '') rec.slug = store.uniqueSlug(rec.slug, rec.type, rec.id, rec.parent);
  else if (rec.slug === '' && !['draft', 'pending', 'auto-draft'].includes(rec.status))
    rec.slug = store.uniqueSlug(sanitizeTitle(rec.title) || String(rec.id), rec.type, rec.id, rec.parent);
  return undefined;
}

/** wp_save_post_revision(): after an update, if title/content/excerpt/footnotes changed (the first update always). */
export function saveRevision(ctx: HandlerContext, rec: PostRecord, user: number): void {
  const latest = ctx.site.content.revisionsOf(rec.id).find((r) => !r.autosave);
  const norm = (s: string) => s.replace(/\r\n?/g, '\n').replace(/\s+/g, ' ').trim();
  if (
    latest &&
    norm(latest.title) === norm(rec.title) &&
    norm(latest.content) === norm(rec.content) &&
    norm(latest.excerpt) === norm(rec.excerpt) &&
    latest.meta.footnotes === rec.meta.footnotes
  )
    return;
  const now = toSeconds(ctx.site.now());
  ctx.site.content.insert({
    type: 'revision',
    status: 'inherit',
    parent: rec.id,
    slug: `${rec.id}-revision-v1`,
    title: rec.title,
    content: rec.content,
    excerpt: rec.excerpt,
    meta: { ...rec.meta },
    author: user,
    date: now,
    modified: now,
    comment_status: 'closed',
    ping_status: 'closed',
  });
}
