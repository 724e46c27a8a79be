/**
 * Faults of the contexts (view, embed, edit): fields of one context answered in another, raw
 * values leaked.
 */
import { endpoint, indexFault } from '../discovery.ts';
import type { Fault, FaultRequest } from '../proxy.ts';
import { contextOf, isPostTypeRead, itemsOf, perType } from './common.ts';

/** Change every post/page item of a read's answer. */
export function itemRewrite(id: string, title: string, caughtBy: string[], when: (req: FaultRequest) => boolean, edit: (item: any) => void, request?: Fault['request']): Fault {
  return {
    id,
    title,
    caughtBy,
    request,
    response(req, res) {
      if (isPostTypeRead(req) && res.status === 200 && when(req)) for (const item of itemsOf(res)) if (item && typeof item === 'object') edit(item);
    },
  };
}

export const contextFaults: Fault[] = [
  itemRewrite('cms.raw-in-view', 'adds title.raw to items outside the edit context', [...perType('context.view'), ...perType('context.default')], (req) => contextOf(req) === 'view', (item) => {
    if (item.title && typeof item.title === 'object') item.title.raw = item.title.rendered;
  }),
  itemRewrite('cms.content-in-embed', 'serves content.rendered in the embed context', perType('context.embed'), (req) => contextOf(req) === 'embed', (item) => {
    item.content = { rendered: '<p>content</p>', protected: false };
  }),
  itemRewrite('cms.raw-missing-in-edit', 'leaves content.raw out of the edit context', perType('context.edit'), (req) => contextOf(req) === 'edit', (item) => {
    if (item.content && typeof item.content === 'object') delete item.content.raw;
  }),
  itemRewrite('cms.author-field-dropped', 'leaves the author field out of every item', [...perType('context.view.fields'), ...perType('context.embed.fields'), ...perType('context.edit.fields')], () => true, (item) => {
    delete item.author;
  }),
  // One field of the wrong type in every post (the integer author as a string): only the context
  // behaviours of posts own the field types, so only they may fail (not every filter and query).
  itemRewrite('cms.post-field-wrong-type', 'serves the author of every post as a string ("1"), not an integer', ['cms.posts.context.view', 'cms.posts.context.embed', 'cms.posts.context.default', 'cms.posts.context.edit'], (req) => /^\/cms\/v2\/posts(\/\d+)?$/.test(req.route), (item) => {
    if (typeof item.author === 'number') item.author = String(item.author);
  }),
  // Part 2, Page: "Same fields as a post except: no format, sticky, categories, tags".
  itemRewrite('cms.page-post-only-fields', 'serves the post-only fields format, sticky, categories and tags on pages too (every context, list and single)', ['cms.pages.fields.absent'], (req) => /^\/cms\/v2\/pages(\/\d+)?$/.test(req.route), (item) => {
    Object.assign(item, { format: 'standard', sticky: false, categories: [], tags: [] });
  }),
  indexFault('cms.page-write-args-post-only', 'advertises the post-only fields format, sticky, categories and tags among the args of page create and update', ['cms.pages.fields.absent'], (i, k) => {
    for (const [path, method] of [['/cms/v2/pages', 'POST'], ['/cms/v2/pages/<id>', 'PUT']] as const)
      Object.assign(endpoint(i.routes[k(path)], method).args, { format: { type: 'string' }, sticky: { type: 'boolean' }, categories: { type: 'array' }, tags: { type: 'array' } });
  }),
  {
    id: 'cms.default-context-edit',
    title: 'answers authenticated reads without context in the edit context',
    caughtBy: perType('context.default'),
    request(req) {
      if (isPostTypeRead(req) && req.authenticated && !req.query.has('context')) req.query.set('context', 'edit');
    },
  },
];

