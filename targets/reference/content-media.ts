/** The media collection (`cms/v2/media`): list and upload, as WP_REST_Attachments_Controller. */
import { catalog } from '../../schemas/catalog/index.ts';
import { RestError, authCode, restError } from './errors.ts';
import { queryCollection, paginationLinks } from './content-query.ts';
import { renderMedia, uploadPath } from './content-render.ts';
import { sanitizeTitle, toSeconds } from './content-store.ts';
import type { WpSchema } from './schema.ts';
import { RestResponse, type HandlerTable } from './types.ts';
import { contextOf, textOf } from './content-common.ts';
import { NO_VALIDATION, statusFilterHook } from './content-args.ts';

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
  status: { type: 'string', enum: [...catalog.statuses.write] },
  title: { type: 'object', properties: { raw: { type: 'string' } } },
  author: { type: 'integer' },
  comment_status: { type: 'string', enum: ['open', 'closed'] },
  ping_status: { type: 'string', enum: ['open', 'closed'] },
  alt_text: { type: 'string' },
  caption: { type: 'object', properties: { raw: { type: 'string' } } },
  description: { type: 'object', properties: { raw: { type: 'string' } } },
  post: { type: 'integer' },
};

export function mediaHandlers(): HandlerTable {
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
        const result = queryCollection(ctx.site.content, 'attachment', req, statuses, ctx.site.gmtOffset);
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
