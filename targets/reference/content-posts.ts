/**
 * A post type's collection and item routes (`cms/v2/posts`, `cms/v2/pages`): list, create, read,
 * update, delete (WP_REST_Posts_Controller; trash as wp_trash_post()).
 */
import { RestError, authCode, restError } from './errors.ts';
import { queryCollection, paginationLinks } from './content-query.ts';
import { renderPost, type Context } from './content-render.ts';
import { toSeconds, type PostRecord } from './content-store.ts';
import { RestResponse, type EndpointImpl, type HandlerContext, type HandlerTable, type RestRequest } from './types.ts';
import { type TypeDef, canRead, contextOf, editPermission, getPost } from './content-common.ts';
import { CONTEXT_OVERLAY, POST_LIST_OVERLAY, postWriteHooks, statusFilterHook } from './content-args.ts';
import { finishRecord, prepareForDatabase, saveRevision } from './content-write.ts';

// ---------------------------------------------------------------------------
// Post type routes
// ---------------------------------------------------------------------------

export function postTypeHandlers(def: TypeDef): HandlerTable {
  const id = `cms.${def.base}`;
  const route = (rest = '') => `/cms/v2/${def.base}${rest}`;
  const render = (rec: PostRecord, ctx: HandlerContext, req: RestRequest, context: Context) =>
    renderPost(rec, ctx, {
      context,
      passwordOk: rec.password === '' || (context === 'edit' && req.loggedIn) || req.query.password === rec.password,
      excerptLength: typeof req.get('excerpt_length') === 'number' ? (req.get('excerpt_length') as number) : undefined,
    });

  const writeHooks = postWriteHooks(def.type);

  const list: EndpointImpl = {
    overlay: def.type === 'post' ? POST_LIST_OVERLAY : undefined,
    hooks: { status: statusFilterHook('publish') },
    permission: (req) =>
      contextOf(req) === 'edit' && !req.loggedIn
        ? restError('rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.', authCode(false))
        : true,
    handler(req, ctx) {
      const statuses = (req.get('status') as string[] | undefined) ?? ['publish'];
      const result = queryCollection(ctx.site.content, def.type, req, statuses, ctx.site.gmtOffset);
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
    permission: editPermission(def),
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

  return {
    [`${id}.collection.list`]: list,
    [`${id}.collection.create`]: create,
    [`${id}.item.read`]: read,
    [`${id}.item.update`]: update,
    [`${id}.item.delete`]: remove,
  };
}
