/**
 * What every handler of the `cms/v2` content routes shares: the two post types, the context of a
 * request, finding an item or a parent (WordPress's 404s), who may read, edit and see revisions.
 */
import { RestError, authCode, restError } from './errors.ts';
import type { Context } from './content-render.ts';
import type { PostRecord, PostType } from './content-store.ts';
import type { HandlerContext, RestRequest } from './types.ts';
import { isPlainObject } from './validate.ts';

export interface TypeDef {
  type: 'post' | 'page';
  base: 'posts' | 'pages';
}

export const POSTS: TypeDef = { type: 'post', base: 'posts' };
export const PAGES: TypeDef = { type: 'page', base: 'pages' };

export const contextOf = (req: RestRequest): Context => {
  const c = req.get('context');
  return c === 'edit' || c === 'embed' ? c : 'view';
};

/** WP_REST_Posts_Controller::get_post(): 404 rest_post_invalid_id for a missing id or another type. */
export function getPost(ctx: HandlerContext, id: unknown, type: PostType): PostRecord | RestError {
  const rec = Number(id) > 0 ? ctx.site.content.get(Number(id), type) : undefined;
  return rec ?? restError('rest_post_invalid_id', 'Invalid post ID.', 404);
}

/** WP_REST_Revisions_Controller::get_parent(). */
export function getParent(ctx: HandlerContext, id: unknown, type: PostType): PostRecord | RestError {
  const rec = Number(id) > 0 ? ctx.site.content.get(Number(id), type) : undefined;
  return rec ?? restError('rest_post_invalid_parent', 'Invalid post parent ID.', 404);
}

/** check_read_permission(): published items for everyone, the rest for logged-in users (all are administrators or editors here). */
export const canRead = (rec: PostRecord, req: RestRequest): boolean => rec.status === 'publish' || rec.status === 'inherit' || req.loggedIn;

export const textOf = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v;
  if (isPlainObject(v) && typeof v.raw === 'string') return v.raw;
  if (typeof v === 'number') return String(v);
  return undefined;
};

/** update_item_permissions_check(): the item exists and the user may edit it (also the autosave create check). */
export const editPermission =
  (def: TypeDef) =>
  (req: RestRequest, ctx: HandlerContext): true | RestError => {
    const rec = getPost(ctx, req.get('id'), def.type);
    if (rec instanceof RestError) return rec;
    if (!req.loggedIn) return restError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authCode(false));
    return true;
  };

/** The revisions (and autosave read) permission: the parent exists and the user may read its revisions. */
export const revisionsPermissionOf =
  (def: TypeDef) =>
  (req: RestRequest, ctx: HandlerContext): true | RestError => {
    const parent = getParent(ctx, req.get('parent'), def.type);
    if (parent instanceof RestError) return parent;
    if (!req.loggedIn) return restError('rest_cannot_read', 'Sorry, you are not allowed to view revisions of this post.', authCode(false));
    return true;
  };
