/**
 * Faults of authentication on posts and pages: anonymous writes and reads let through as if they
 * carried the credentials the target accepted.
 */
import { learnedCredentials } from '../kit.ts';
import { json, type Fault, type FaultRequest } from '../proxy.ts';
import { ITEM, REVISION, WRITES, contextOf, has, isPostTypeRead, perType } from './common.ts';

/** Authorization headers the target accepted on cms routes (the same target across runs). */
const credentials = learnedCredentials('/cms/v2');
const learn = credentials.learn;
/** An anonymous request sent as if it carried them. */
function authenticate(req: FaultRequest): void {
  if (!req.authenticated) credentials.authenticate(req);
}

export const authFaults: Fault[] = [
  {
    id: 'cms.anonymous-write-accepted',
    title: 'lets anonymous writes to posts and pages (create, update, delete, autosave, revision delete) through',
    caughtBy: [...perType('auth.create'), ...perType('auth.update'), ...perType('auth.delete'), ...perType('auth.autosave'), ...perType('auth.revision-delete')],
    request(req) {
      if (req.authenticated || !WRITES.has(req.method) || !req.route.startsWith('/cms/v2/')) return;
      // WordPress refuses revision deletion even to an administrator: answer as a server that deletes.
      if (req.method === 'DELETE' && REVISION.test(req.route)) return json(200, { deleted: true, previous: { id: Number(REVISION.exec(req.route)![3]) } });
      authenticate(req);
    },
    response: learn,
  },
  {
    id: 'cms.edit-context-anonymous',
    title: 'serves context=edit to anonymous readers',
    caughtBy: perType('auth.edit-context'),
    request(req) {
      if (isPostTypeRead(req) && contextOf(req) === 'edit') authenticate(req);
    },
    response: learn,
  },
  {
    id: 'cms.status-listed-anonymously',
    title: 'lists and serves non-public posts and pages to anonymous readers',
    caughtBy: perType('auth.status'),
    request(req) {
      if (isPostTypeRead(req) && (has(req.query, 'status') || ITEM.test(req.route))) authenticate(req);
    },
    response: learn,
  },
];

