/**
 * Handlers of the `cms/v2` content routes: posts and pages (collections, items, revisions,
 * autosaves) and the media collection. Behaviour the spec leaves "not shown" (errors,
 * permissions, revisions, autosaves, trash) follows WordPress's posts, revisions, autosaves and
 * attachments controllers as described in wordpress-behaviour.md §3–§7.
 */
import { RestError, authCode, restError } from './errors.ts';
import { queryCollection, paginationLinks } from './content-query.ts';
import { renderMedia, renderPost, renderRevision, uploadPath, type Context } from './content-render.ts';
import { parseInputDate, sanitizeTitle, toSeconds, type PostRecord, type PostType } from './content-store.ts';
import type { WpSchema } from './schema.ts';
import { RestResponse, type ArgHook, type EndpointImpl, type HandlerContext, type HandlerTable, type RestRequest } from './types.ts';
import { isPlainObject, parseList, validateValue } from './validate.ts';

interface TypeDef {
  type: 'post' | 'page';
  base: 'posts' | 'pages';
}

const POSTS: TypeDef = { type: 'post', base: 'posts' };
const PAGES: TypeDef = { type: 'page', base: 'pages' };

const contextOf = (req: RestRequest): Context => {
  const c = req.get('context');
  return c === 'edit' || c === 'embed' ? c : 'view';
};

/** WP_REST_Posts_Controller::get_post(): 404 rest_post_invalid_id for a missing id or another type. */
function getPost(ctx: HandlerContext, id: unknown, type: PostType): PostRecord | RestError {
  const rec = Number(id) > 0 ? ctx.site.content.get(Number(id), type) : undefined;
  return rec ?? restError('rest_post_invalid_id', 'Invalid post ID.', 404);
}

/** WP_REST_Revisions_Controller::get_parent(). */
function getParent(ctx: HandlerContext, id: unknown, type: PostType): PostRecord | RestError {
  const rec = Number(id) > 0 ? ctx.site.content.get(Number(id), type) : undefined;
  return rec ?? restError('rest_post_invalid_parent', 'Invalid post parent ID.', 404);
}

/** check_read_permission(): published items for everyone, the rest for logged-in users (all are administrators or editors here). */
const canRead = (rec: PostRecord, req: RestRequest): boolean => rec.status === 'publish' || rec.status === 'inherit' || req.loggedIn;

// ---------------------------------------------------------------------------
// Arg hooks: WordPress callbacks a schema does not express
// ---------------------------------------------------------------------------

/**
 * `status` filter: sanitize_post_statuses(). A status other than the default needs edit_posts;
 * anonymous users get rest_forbidden_status (so 400 rest_invalid_param with the code in details).
 */
function statusFilterHook(defaultStatus: string): ArgHook {
  return {
    validate: () => true,
    sanitize(value, req, param, schema) {
      const statuses = parseList(value).map((s) => sanitizeTitle(String(s)));
      for (const s of statuses) {
        if (s === defaultStatus) continue;
        if (!req.loggedIn) return restError('rest_forbidden_status', 'Status is forbidden.', authCode(false));
        const r = validateValue(s, schema, param);
        if (r !== true) return r;
      }
      return statuses;
    },
  };
}

/** `status` on write: check_status() also accepts the item's current status. */
function writeStatusHook(type: PostType): ArgHook {
  return {
    validate(value, req, param, schema, ctx) {
      const id = Number(req.get('id'));
      const rec = id > 0 ? ctx.site.content.get(id, type) : undefined;
      if (rec && rec.status === value) return true;
      return validateValue(value, schema, param);
    },
  };
}

/** `template`: check_template(). The site's theme has no templates, so only '' or the current value passes. */
function templateHook(type: PostType): ArgHook {
  return {
    validate(value, req, _param, _schema, ctx) {
      if (!value) return true;
      const id = Number(req.get('id'));
      const rec = id > 0 ? ctx.site.content.get(id, type) : undefined;
      if (rec && rec.template === value) return true;
      const allowed: string[] = [];
      return new RestError('rest_invalid_param', `template is not one of ${allowed.join(', ')}.`);
    },
  };
}

/** title / content / excerpt: WordPress registers them without validation (a string or {raw} is accepted). */
const NO_VALIDATION: ArgHook = { validate: () => true, sanitize: (v) => v };

/**
 * What WordPress's schema has where the catalog states less: the titles of the two forms of a
 * taxonomy filter (they appear in its error messages), the item type of `terms` and the type of
 * `operator`, and `type: string` of the `context` / `order` / `orderby` args stated without a type.
 */
const TERM_LIST: WpSchema = { title: 'Term ID List', description: 'Match terms with the listed IDs.' };
const taxQuery = (props: Record<string, WpSchema>): WpSchema => ({
  title: 'Term ID Taxonomy Query',
  description: 'Perform an advanced term query.',
  properties: props,
});
const TERMS: WpSchema = { type: 'array', items: { type: 'integer' } };
const OPERATOR: WpSchema = { type: 'string' };
const POST_LIST_OVERLAY: Record<string, WpSchema> = {
  categories: { oneOf: [TERM_LIST, taxQuery({ terms: TERMS, operator: OPERATOR })] },
  categories_exclude: { oneOf: [TERM_LIST, taxQuery({ terms: TERMS })] },
  tags: { oneOf: [TERM_LIST, taxQuery({ terms: TERMS, operator: OPERATOR })] },
  tags_exclude: { oneOf: [TERM_LIST, taxQuery({ terms: TERMS })] },
};
const STRING: WpSchema = { type: 'string' };
const CONTEXT_OVERLAY: Record<string, WpSchema> = { context: STRING };
const REVISIONS_OVERLAY: Record<string, WpSchema> = { context: STRING, order: STRING, orderby: STRING };

/** meta: check_meta_is_array() only; the footnotes type is checked when the value is written. */
const META_HOOK: ArgHook = { validate: (v) => isPlainObject(v) || Array.isArray(v), sanitize: (v) => v };

// ---------------------------------------------------------------------------
// Writing posts and pages: prepare_item_for_database() and wp_insert_post()
// ---------------------------------------------------------------------------

const textOf = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v;
  if (isPlainObject(v) && typeof v.raw === 'string') return v.raw;
  if (typeof v === 'number') return String(v);
  return undefined;
};

interface Prepared {
  fields: Partial<PostRecord>;
  /** meta.footnotes was sent with a wrong type: an error after saving (as WordPress does). */
  metaError?: RestError;
}

function prepareForDatabase(req: RestRequest, ctx: HandlerContext, def: TypeDef, existing?: PostRecord): Prepared | RestError {
  const f: Partial<PostRecord> = {};
  const out: Prepared = { fields: f };
  for (const k of ['title', 'content', 'excerpt'] as const) {
    if (!req.given(k)) continue;
    const t = textOf(req.get(k));
    if (t !== undefined) f[k] = t;
  }
  // date wins over date_gmt; both are site-local = GMT here (timezone UTC).
  const date = req.get('date');
  const dateGmt = req.get('date_gmt');
  if (typeof date === 'string' && date) {
    const t = parseInputDate(date, false);
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
function finishRecord(ctx: HandlerContext, rec: PostRecord, slugGiven: boolean): RestError | undefined {
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
function saveRevision(ctx: HandlerContext, rec: PostRecord, user: number): void {
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

// ---------------------------------------------------------------------------
// Post type routes
// ---------------------------------------------------------------------------

function postTypeHandlers(def: TypeDef): HandlerTable {
  const id = `cms.${def.base}`;
  const route = (rest = '') => `/cms/v2/${def.base}${rest}`;
  const render = (rec: PostRecord, ctx: HandlerContext, req: RestRequest, context: Context) =>
    renderPost(rec, ctx, {
      context,
      passwordOk: rec.password === '' || (context === 'edit' && req.loggedIn) || req.query.password === rec.password,
      excerptLength: typeof req.get('excerpt_length') === 'number' ? (req.get('excerpt_length') as number) : undefined,
    });

  const writeHooks: Record<string, ArgHook> = {
    title: NO_VALIDATION,
    content: NO_VALIDATION,
    excerpt: NO_VALIDATION,
    meta: META_HOOK,
    status: writeStatusHook(def.type),
    template: templateHook(def.type),
  };

  const list: EndpointImpl = {
    overlay: def.type === 'post' ? POST_LIST_OVERLAY : undefined,
    hooks: { status: statusFilterHook('publish') },
    permission: (req) =>
      contextOf(req) === 'edit' && !req.loggedIn
        ? restError('rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.', authCode(false))
        : true,
    handler(req, ctx) {
      const statuses = (req.get('status') as string[] | undefined) ?? ['publish'];
      const result = queryCollection(ctx.site.content, def.type, req, statuses);
      if (result instanceof RestError) return result;
      const context = contextOf(req);
      const body = result.items.filter((p) => canRead(p, req)).map((p) => render(p, ctx, req, context));
      const headers: Record<string, string> = { 'X-WP-Total': String(result.total), 'X-WP-TotalPages': String(result.totalPages) };
      const link = paginationLinks(ctx.restUrl(route()), req.query, Number(req.get('page') ?? 1), result.totalPages);
      if (link) headers.Link = link;
      return new RestResponse(body, 200, headers);
    },
  };

  const create: EndpointImpl = {
    hooks: writeHooks,
    permission(req) {
      if (req.raw('id')) return restError('rest_post_exists', 'Cannot create existing post.', 400);
      const author = Number(req.get('author') ?? 0);
      if (!req.loggedIn && author && author !== 0)
        return restError('rest_cannot_edit_others', 'Sorry, you are not allowed to create posts as this user.', authCode(false));
      if (!req.loggedIn && def.type === 'post' && req.get('sticky') === true)
        return restError('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', authCode(false));
      if (!req.loggedIn) return restError('rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.', authCode(false));
      return true;
    },
    handler(req, ctx) {
      const prepared = prepareForDatabase(req, ctx, def);
      if (prepared instanceof RestError) return prepared;
      const store = ctx.site.content;
      const now = toSeconds(ctx.site.now());
      // wp_insert_post() defaults: draft, the current user, now; a post gets the default category.
      const draft = store.build({
        type: def.type,
        status: 'draft',
        author: req.user!.id,
        date: now,
        modified: now,
        categories: def.type === 'post' ? [1] : [],
        ...prepared.fields,
      });
      const err = finishRecord(ctx, draft, req.given('slug'));
      if (err) return err;
      const rec = store.put(draft);
      if (prepared.metaError) return prepared.metaError;
      return new RestResponse(render(rec, ctx, req, 'edit'), 201, { Location: ctx.restUrl(route(`/${rec.id}`)) });
    },
  };

  const read: EndpointImpl = {
    overlay: CONTEXT_OVERLAY,
    permission(req, ctx) {
      const rec = getPost(ctx, req.get('id'), def.type);
      if (rec instanceof RestError) return rec;
      if (contextOf(req) === 'edit' && !req.loggedIn)
        return restError('rest_forbidden_context', 'Sorry, you are not allowed to edit this post.', authCode(false));
      const password = req.query.password;
      if (typeof password === 'string' && password !== '' && password !== rec.password)
        return restError('rest_post_incorrect_password', 'Incorrect post password.', 403);
      if (!canRead(rec, req)) return restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authCode(false));
      return true;
    },
    handler(req, ctx) {
      const rec = getPost(ctx, req.get('id'), def.type);
      if (rec instanceof RestError) return rec;
      return new RestResponse(render(rec, ctx, req, contextOf(req)), 200, {
        Link: `<${renderPost(rec, ctx, { context: 'view' }).link}>; rel="alternate"; type=text/html`,
      });
    },
  };

  const update: EndpointImpl = {
    hooks: writeHooks,
    permission(req, ctx) {
      const rec = getPost(ctx, req.get('id'), def.type);
      if (rec instanceof RestError) return rec;
      if (!req.loggedIn) return restError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authCode(false));
      return true;
    },
    handler(req, ctx) {
      const rec = getPost(ctx, req.get('id'), def.type);
      if (rec instanceof RestError) return rec;
      const prepared = prepareForDatabase(req, ctx, def, rec);
      if (prepared instanceof RestError) return prepared;
      const next: PostRecord = { ...rec, ...prepared.fields, modified: toSeconds(ctx.site.now()) };
      const err = finishRecord(ctx, next, req.given('slug'));
      if (err) return err;
      Object.assign(rec, next);
      saveRevision(ctx, rec, req.user!.id);
      if (prepared.metaError) return prepared.metaError;
      return new RestResponse(render(rec, ctx, req, 'edit'));
    },
  };

  const remove: EndpointImpl = {
    permission(req, ctx) {
      const rec = getPost(ctx, req.get('id'), def.type);
      if (rec instanceof RestError) return rec;
      if (!req.loggedIn) return restError('rest_cannot_delete', 'Sorry, you are not allowed to delete this post.', authCode(false));
      return true;
    },
    handler(req, ctx) {
      const rec = getPost(ctx, req.get('id'), def.type);
      if (rec instanceof RestError) return rec;
      if (req.get('force') === true) {
        const previous = render(rec, ctx, req, 'edit');
        ctx.site.content.delete(rec.id);
        return { deleted: true, previous };
      }
      if (rec.status === 'trash') return restError('rest_already_trashed', 'The post has already been deleted.', 410);
      // wp_trash_post(): the status is kept for untrashing and the slug gets a __trashed suffix.
      rec.trashedFrom = rec.status;
      rec.status = 'trash';
      if (rec.slug) rec.slug = `${rec.slug}__trashed`;
      rec.modified = toSeconds(ctx.site.now());
      return render(rec, ctx, req, 'edit');
    },
  };

  // --- revisions ---
  const revisionsPermission = (req: RestRequest, ctx: HandlerContext): true | RestError => {
    const parent = getParent(ctx, req.get('parent'), def.type);
    if (parent instanceof RestError) return parent;
    if (!req.loggedIn) return restError('rest_cannot_read', 'Sorry, you are not allowed to view revisions of this post.', authCode(false));
    return true;
  };
  const getRevision = (ctx: HandlerContext, id: unknown): PostRecord | RestError => {
    const rec = Number(id) > 0 ? ctx.site.content.get(Number(id), 'revision') : undefined;
    return rec ?? restError('rest_post_invalid_id', 'Invalid revision ID.', 404);
  };

  const revisionsList: EndpointImpl = {
    overlay: REVISIONS_OVERLAY,
    permission: revisionsPermission,
    handler(req, ctx) {
      const parent = getParent(ctx, req.get('parent'), def.type) as PostRecord;
      let items = ctx.site.content.revisionsOf(parent.id);
      const include = (req.get('include') as number[] | undefined) ?? [];
      const exclude = (req.get('exclude') as number[] | undefined) ?? [];
      if (include.length) items = items.filter((r) => include.includes(r.id));
      if (exclude.length) items = items.filter((r) => !exclude.includes(r.id));
      const search = req.get('search');
      if (typeof search === 'string' && search.trim()) {
        const s = search.trim().toLowerCase();
        items = items.filter((r) => [r.title, r.content, r.excerpt].some((x) => x.toLowerCase().includes(s)));
      }
      const orderby = String(req.get('orderby') ?? 'date');
      const dir = req.get('order') === 'asc' ? 1 : -1;
      if (orderby === 'include') items.sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
      else if (orderby === 'id') items.sort((a, b) => dir * (a.id - b.id));
      else if (orderby === 'title') items.sort((a, b) => dir * (a.title.localeCompare(b.title) || a.id - b.id));
      else if (orderby === 'slug') items.sort((a, b) => dir * (a.slug.localeCompare(b.slug) || a.id - b.id));
      else items.sort((a, b) => dir * (a.date - b.date || a.id - b.id));
      const total = items.length;
      const perPage = req.get('per_page') as number | undefined;
      const page = Number(req.get('page') ?? 1);
      const offset = Number(req.get('offset') ?? 0);
      const maxPages = perPage ? Math.ceil(total / perPage) : total > 0 ? 1 : 0;
      if (total > 0) {
        if (offset >= total && req.given('offset'))
          return restError('rest_revision_invalid_offset_number', 'The offset number requested is larger than or equal to the number of available revisions.', 400);
        if (!offset && page > maxPages)
          return restError('rest_revision_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
      }
      const start = req.given('offset') ? offset : perPage ? (page - 1) * perPage : 0;
      const slice = perPage ? items.slice(start, start + perPage) : items.slice(start);
      const context = contextOf(req);
      const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(maxPages) };
      const link = paginationLinks(ctx.restUrl(route(`/${parent.id}/revisions`)), req.query, page, maxPages);
      if (link) headers.Link = link;
      return new RestResponse(
        slice.map((r) => renderRevision(r, ctx, { context }, def.type)),
        200,
        headers,
      );
    },
  };

  const revisionRead: EndpointImpl = {
    overlay: CONTEXT_OVERLAY,
    permission: revisionsPermission,
    handler(req, ctx) {
      const parent = getParent(ctx, req.get('parent'), def.type);
      if (parent instanceof RestError) return parent;
      const rev = getRevision(ctx, req.get('id'));
      if (rev instanceof RestError) return rev;
      if (rev.parent !== parent.id)
        return restError('rest_revision_parent_id_mismatch', `The revision does not belong to the specified parent with id of "${parent.id}"`, 404);
      return renderRevision(rev, ctx, { context: contextOf(req) }, def.type);
    },
  };

  const revisionDelete: EndpointImpl = {
    permission(req, ctx) {
      const parent = getParent(ctx, req.get('parent'), def.type);
      if (parent instanceof RestError) return parent;
      if (!req.loggedIn) return restError('rest_cannot_delete', 'Sorry, you are not allowed to delete revisions of this post.', authCode(false));
      const rev = getRevision(ctx, req.get('id'));
      if (rev instanceof RestError) return rev;
      return true;
    },
    handler(req, ctx) {
      const rev = getRevision(ctx, req.get('id'));
      if (rev instanceof RestError) return rev;
      // Revisions have no trash; WordPress does not check that the revision belongs to <parent> here.
      if (req.get('force') !== true)
        return restError('rest_trash_not_supported', "Revisions do not support trashing. Set 'force=true' to delete.", 501);
      const previous = renderRevision(rev, ctx, { context: 'edit' }, def.type);
      ctx.site.content.delete(rev.id);
      return { deleted: true, previous };
    },
  };

  // --- autosaves ---
  const autosavesList: EndpointImpl = {
    overlay: CONTEXT_OVERLAY,
    permission(req, ctx) {
      const parent = getParent(ctx, req.get('id'), def.type);
      if (parent instanceof RestError) return parent;
      if (!req.loggedIn) return restError('rest_cannot_read', 'Sorry, you are not allowed to view autosaves of this post.', authCode(false));
      return true;
    },
    handler(req, ctx) {
      const parent = getParent(ctx, req.get('id'), def.type) as PostRecord;
      const context = contextOf(req);
      return ctx.site.content
        .revisionsOf(parent.id)
        .filter((r) => r.autosave)
        .map((r) => renderRevision(r, ctx, { context }, def.type));
    },
  };

  const autosaveCreate: EndpointImpl = {
    hooks: writeHooks,
    permission: update.permission,
    handler(req, ctx) {
      const post = getPost(ctx, req.get('id'), def.type);
      if (post instanceof RestError) return post;
      const prepared = prepareForDatabase(req, ctx, def, post);
      if (prepared instanceof RestError) return prepared;
      const user = req.user!.id;
      const now = toSeconds(ctx.site.now());
      // A draft of the same author is updated in place (no revision, as under DOING_AUTOSAVE).
      if ((post.status === 'draft' || post.status === 'auto-draft') && post.author === user) {
        const next: PostRecord = { ...post, ...prepared.fields, modified: now };
        const err = finishRecord(ctx, next, req.given('slug'));
        if (err) return err;
        Object.assign(post, next);
        return renderRevision(post, ctx, { context: 'edit' }, def.type);
      }
      const f = prepared.fields;
      const values = {
        title: f.title ?? post.title,
        content: f.content ?? post.content,
        excerpt: f.excerpt ?? post.excerpt,
        meta: { footnotes: f.meta?.footnotes ?? post.meta.footnotes },
      };
      const old = ctx.site.content.autosaveOf(post.id, user);
      if (old) {
        // Nothing differs from the post: the existing autosave is returned (wordpress-behaviour.md §7).
        const same = values.title === post.title && values.content === post.content && values.excerpt === post.excerpt;
        if (!same) Object.assign(old, values, { modified: now, date: now });
        return renderRevision(old, ctx, { context: 'edit' }, def.type);
      }
      const rec = ctx.site.content.insert({
        type: 'revision',
        status: 'inherit',
        parent: post.id,
        slug: `${post.id}-autosave-v1`,
        autosave: true,
        author: user,
        date: now,
        modified: now,
        comment_status: 'closed',
        ping_status: 'closed',
        ...values,
      });
      return renderRevision(rec, ctx, { context: 'edit' }, def.type);
    },
  };

  const autosaveRead: EndpointImpl = {
    overlay: CONTEXT_OVERLAY,
    permission: revisionsPermission,
    handler(req, ctx) {
      // The <id> of the route is ignored: WordPress returns the autosave of the parent.
      const parentId = Number(req.get('parent'));
      if (parentId <= 0) return restError('rest_post_invalid_id', 'Invalid post parent ID.', 404);
      const autosave = ctx.site.content.autosaveOf(parentId);
      if (!autosave) return restError('rest_post_no_autosave', 'There is no autosave revision for this post.', 404);
      return renderRevision(autosave, ctx, { context: contextOf(req) }, def.type);
    },
  };

  return {
    [`${id}.collection.list`]: list,
    [`${id}.collection.create`]: create,
    [`${id}.item.read`]: read,
    [`${id}.item.update`]: update,
    [`${id}.item.delete`]: remove,
    [`${id}.revisions.collection.list`]: revisionsList,
    [`${id}.revisions.item.read`]: revisionRead,
    [`${id}.revisions.item.delete`]: revisionDelete,
    [`${id}.autosaves.collection.list`]: autosavesList,
    [`${id}.autosaves.collection.create`]: autosaveCreate,
    [`${id}.autosaves.item.read`]: autosaveRead,
  };
}

// ---------------------------------------------------------------------------
// Media
// ---------------------------------------------------------------------------

/** Media GET parameters beyond the documented ones ("remaining media GET parameters: not shown"): WordPress's. */
const MEDIA_LIST_EXTRA: Record<string, WpSchema> = {
  offset: { type: 'integer' },
  order: { type: 'string', default: 'desc', enum: ['asc', 'desc'] },
  orderby: { type: 'string', default: 'date', enum: ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'] },
  parent: { type: 'array', items: { type: 'integer' }, default: [] },
  parent_exclude: { type: 'array', items: { type: 'integer' }, default: [] },
  slug: { type: 'array', items: { type: 'string' } },
  status: { type: 'array', items: { type: 'string', enum: ['inherit', 'private', 'trash'] }, default: 'inherit' },
  media_type: { type: 'string', enum: ['image', 'video', 'text', 'application', 'audio'] },
  mime_type: { type: 'string' },
};

/** The media POST body ("not shown"): WordPress's writable attachment fields. */
const MEDIA_CREATE_ARGS: Record<string, WpSchema> = {
  date: { type: ['string', 'null'], format: 'date-time' },
  slug: { type: 'string' },
  status: { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private'] },
  title: { type: 'object', properties: { raw: { type: 'string' } } },
  author: { type: 'integer' },
  comment_status: { type: 'string', enum: ['open', 'closed'] },
  ping_status: { type: 'string', enum: ['open', 'closed'] },
  alt_text: { type: 'string' },
  caption: { type: 'object', properties: { raw: { type: 'string' } } },
  description: { type: 'object', properties: { raw: { type: 'string' } } },
  post: { type: 'integer' },
};

function mediaHandlers(): HandlerTable {
  return {
    'cms.media.collection.list': {
      overlay: MEDIA_LIST_EXTRA,
      hooks: { status: statusFilterHook('inherit') },
      permission: (req) =>
        contextOf(req) === 'edit' && !req.loggedIn
          ? restError('rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.', authCode(false))
          : true,
      handler(req, ctx) {
        const statuses = (req.get('status') as string[] | undefined) ?? ['inherit'];
        const result = queryCollection(ctx.site.content, 'attachment', req, statuses);
        if (result instanceof RestError) return result;
        const context = contextOf(req);
        const headers: Record<string, string> = { 'X-WP-Total': String(result.total), 'X-WP-TotalPages': String(result.totalPages) };
        const link = paginationLinks(ctx.restUrl('/cms/v2/media'), req.query, Number(req.get('page') ?? 1), result.totalPages);
        if (link) headers.Link = link;
        return new RestResponse(
          result.items.map((p) => renderMedia(p, ctx, { context })),
          200,
          headers,
        );
      },
    },
    'cms.media.collection.create': {
      overlay: MEDIA_CREATE_ARGS,
      hooks: { title: NO_VALIDATION, caption: NO_VALIDATION, description: NO_VALIDATION },
      permission: (req) =>
        req.loggedIn ? true : restError('rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.', authCode(false)),
      handler(req, ctx) {
        let file = req.files.file ?? Object.values(req.files)[0];
        if (!file) {
          if (req.rawBody.length === 0 || req.json) return restError('rest_upload_no_data', 'No data supplied.', 400);
          const disposition = req.headers['content-disposition'];
          if (!disposition) return restError('rest_upload_no_content_disposition', 'No Content-Disposition supplied.', 400);
          const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
          if (!name) return restError('rest_upload_invalid_disposition', 'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.', 400);
          if (!req.contentType) return restError('rest_upload_no_content_type', 'No Content-Type supplied.', 400);
          file = { name: decodeURIComponent(name), type: req.contentType.split(';')[0]!.trim(), data: req.rawBody };
        }
        const now = toSeconds(ctx.site.now());
        const base = file.name.replace(/\.[^.]+$/, '');
        const textParam = (k: string) => textOf(req.get(k));
        const rec = ctx.site.content.insert({
          type: 'attachment',
          status: 'inherit',
          date: now,
          modified: now,
          author: req.user!.id,
          title: textParam('title') ?? base,
          slug: ctx.site.content.uniqueSlug(sanitizeTitle(String(req.get('slug') ?? base)) || 'file', 'attachment', -1),
          mime_type: file.type,
          file_name: file.name.replace(/[^A-Za-z0-9._-]+/g, '-'),
          file_size: file.data.length,
          alt_text: typeof req.get('alt_text') === 'string' ? (req.get('alt_text') as string) : '',
          caption: textParam('caption') ?? '',
          description: textParam('description') ?? '',
          parent: Number(req.get('post') ?? 0) || 0,
          comment_status: 'open',
          ping_status: 'closed',
        });
        ctx.site.content.files.set(uploadPath(rec), { type: file.type, data: file.data });
        return new RestResponse(renderMedia(rec, ctx, { context: 'edit' }), 201, { Location: ctx.restUrl(`/cms/v2/media/${rec.id}`) });
      },
    },
  };
}

export function contentHandlers(): HandlerTable {
  return { ...postTypeHandlers(POSTS), ...postTypeHandlers(PAGES), ...mediaHandlers() };
}
