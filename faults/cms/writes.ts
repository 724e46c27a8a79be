/**
 * Faults of writes: statuses, create, update and password.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { json, type Fault, type FaultRequest, type FaultResponse } from '../proxy.ts';
import { COLLECTION, ITEM, invalidParam, isGet, isItemWrite, perType } from './common.ts';

const WRITE_STATUSES = new Set<string>(catalog.statuses.write);
const FILTER_ONLY = new Set<string>(catalog.statuses.filterOnly);

export function bodyRewrite(id: string, title: string, caughtBy: string[], when: (req: FaultRequest) => boolean, edit: (body: any, req: FaultRequest) => void | FaultResponse): Fault {
  return {
    id,
    title,
    caughtBy,
    request(req) {
      if (when(req) && req.json && typeof req.json === 'object') return edit(req.json, req);
    },
  };
}

export const writeFaults: Fault[] = [
  bodyRewrite('cms.trash-status-accepted', 'accepts the filter-only statuses (trash, inherit ...) on write, storing a draft', perType('write.status.filter-only'), isItemWrite, (body) => {
    if (FILTER_ONLY.has(body.status)) body.status = 'draft';
  }),
  bodyRewrite('cms.unknown-status-accepted', 'accepts an unknown status on write, storing a draft', perType('write.status.unknown'), isItemWrite, (body) => {
    if (typeof body.status === 'string' && !WRITE_STATUSES.has(body.status) && !FILTER_ONLY.has(body.status)) body.status = 'draft';
  }),
  bodyRewrite('cms.pending-stored-as-draft', 'stores status pending as draft', perType('write.statuses'), isItemWrite, (body) => {
    if (body.status === 'pending') body.status = 'draft';
  }),
  bodyRewrite(
    'cms.title-required',
    'refuses to create an item without a title',
    [...perType('create.optional-fields'), 'cms.pages.create.slug-only'],
    (req) => req.method === 'POST' && COLLECTION.test(req.route),
    (body) => (body.title === undefined ? invalidParam('title') : undefined),
  ),
  bodyRewrite(
    'cms.empty-post-refused',
    'refuses to create a post whose title, content and excerpt are all empty (as WordPress does)',
    ['cms.posts.create.slug-only'],
    (req) => req.method === 'POST' && req.route === '/cms/v2/posts',
    (body) =>
      [body.title, body.content, body.excerpt].every((v) => v === undefined || v === '' || (v && typeof v === 'object' && !v.raw))
        ? json(400, { code: 'empty_content', message: 'Content, title, and excerpt are empty.', data: { status: 400 } })
        : undefined,
  ),
  ...(['POST', 'PUT', 'PATCH'] as const).map((method) =>
    bodyRewrite(
      `cms.update-ignored.${method.toLowerCase()}`,
      `answers ${method} updates that change only the title with 200 without applying them`,
      perType(`update.${method.toLowerCase()}`),
      (req) => req.method === method && ITEM.test(req.route),
      (body, req) => (Object.keys(body).join() === 'title' ? json(200, { id: Number(ITEM.exec(req.route)![2]) }) : undefined),
    ),
  ),
  bodyRewrite('cms.update-clears-content', 'empties content and excerpt on updates that do not send them', perType('update.partial'), (req) => ['POST', 'PUT', 'PATCH'].includes(req.method) && ITEM.test(req.route), (body) => {
    // In the form the request writes its title (the documented object, or WordPress's bare string).
    const empty = typeof body.title === 'string' ? '' : { raw: '' };
    if (body.content === undefined) body.content = empty;
    if (body.excerpt === undefined) body.excerpt = empty;
  }),
  // The fixtures of password.protects and password.query verify themselves (src/sdk/fixtures.ts): those
  // skip, depending on fields.create-stored, which owns "create stores the password".
  bodyRewrite('cms.password-dropped', 'ignores the password of posts and pages on write', [...perType('fields.create-stored'), ...perType('fields.update-stored')], isItemWrite, (body) => {
    delete body.password;
  }),
  {
    id: 'cms.password-query-ignored',
    title: 'ignores the password query argument of a single GET',
    caughtBy: perType('password.query'),
    request(req) {
      if (isGet(req) && ITEM.test(req.route)) req.query.delete('password');
    },
  },
];

