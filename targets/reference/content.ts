/**
 * Handlers of the `cms/v2` content routes: posts and pages (collections, items, revisions,
 * autosaves) and the media collection. Behaviour the spec leaves "not shown" (errors,
 * permissions, revisions, autosaves, trash) follows WordPress's posts, revisions, autosaves and
 * attachments controllers as described in wordpress-behaviour.md §3–§7.
 */
import { PAGES, POSTS } from './content-common.ts';
import { mediaHandlers } from './content-media.ts';
import { postTypeHandlers } from './content-posts.ts';
import { autosaveHandlers, revisionHandlers } from './content-revisions.ts';
import type { HandlerTable } from './types.ts';

export function contentHandlers(): HandlerTable {
  const ofType = (def: typeof POSTS) => ({ ...postTypeHandlers(def), ...revisionHandlers(def), ...autosaveHandlers(def) });
  return { ...ofType(POSTS), ...ofType(PAGES), ...mediaHandlers() };
}
