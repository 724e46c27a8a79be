/**
 * A post type's revisions and autosaves (`…/<parent>/revisions`, `…/<id>/autosaves`):
 * WP_REST_Revisions_Controller and WP_REST_Autosaves_Controller (wordpress-behaviour.md §6–§7).
 */
import { RestError, authCode, restError } from './errors.ts';
import { paginationLinks } from './content-query.ts';
import { renderRevision } from './content-render.ts';
import { toSeconds, type PostRecord } from './content-store.ts';
import { RestResponse, type EndpointImpl, type HandlerContext, type HandlerTable } from './types.ts';
import { type TypeDef, contextOf, editPermission, getParent, getPost, revisionsPermissionOf } from './content-common.ts';
import { CONTEXT_OVERLAY, REVISIONS_OVERLAY, postWriteHooks } from './content-args.ts';
import { finishRecord, prepareForDatabase } from './content-write.ts';

export function revisionHandlers(def: TypeDef): HandlerTable {
  const id = `cms.${def.base}`;
  const route = (rest = '') => `/cms/v2/${def.base}${rest}`;
  const revisionsPermission = revisionsPermissionOf(def);
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

  return {
    [`${id}.revisions.collection.list`]: revisionsList,
    [`${id}.revisions.item.read`]: revisionRead,
    [`${id}.revisions.item.delete`]: revisionDelete,
  };
}

export function autosaveHandlers(def: TypeDef): HandlerTable {
  const id = `cms.${def.base}`;
  const writeHooks = postWriteHooks(def.type);
  const revisionsPermission = revisionsPermissionOf(def);

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
    permission: editPermission(def),
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
    [`${id}.autosaves.collection.list`]: autosavesList,
    [`${id}.autosaves.collection.create`]: autosaveCreate,
    [`${id}.autosaves.item.read`]: autosaveRead,
  };
}
