/**
 * Faults of authentication (core part 5): anonymous or wrongly authenticated requests let through
 * as if they carried the credentials the target accepted (`credentials` remembers them), valid
 * credentials ignored, the authorization page missing.
 */
import { learnedCredentials } from '../kit.ts';
import type { Fault, FaultRequest, FaultResponse } from '../proxy.ts';

/** Authorization headers the target accepted (learned from answers; the same target across runs). */
export const credentials = learnedCredentials();

/** A fault that learns the accepted credentials from the target's answers. */
export function authFault(id: string, title: string, caughtBy: string[], request: (req: FaultRequest) => void | FaultResponse): Fault {
  return { id, title, caughtBy, request, response: credentials.learn };
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const POSTS = /^\/cms\/v2\/posts(\/\d+)?$/;

export const authFaults: Fault[] = [
  authFault('auth.anonymous-write-accepted', 'lets writes without credentials through as if authenticated', ['auth.anonymous.write-refused', 'auth.anonymous.batch-write-refused'], (req) => {
    if (!req.authenticated && WRITES.has(req.method)) credentials.authenticate(req);
  }),
  authFault('auth.wrong-password-accepted', 'accepts any application password of a known user', ['auth.wrong-password.refused'], (req) => {
    const a = req.headers.authorization;
    if (typeof a === 'string' && credentials.accepted.size && !credentials.accepted.has(a)) credentials.authenticate(req);
  }),
  authFault('auth.edit-context-anonymous', 'serves context=edit without credentials', ['auth.anonymous.edit-context-refused', 'auth.anonymous.protected-content'], (req) => {
    if (!req.authenticated && req.method === 'GET' && req.query.get('context') === 'edit') credentials.authenticate(req);
  }),
  authFault('auth.unpublished-visible-anonymously', 'shows drafts and private posts to readers without credentials', ['auth.anonymous.drafts-hidden', 'auth.anonymous.private-hidden'], (req) => {
    if (!req.authenticated && req.method === 'GET' && POSTS.test(req.route)) credentials.authenticate(req);
  }),
  authFault('auth.credentials-ignored-on-put', 'ignores valid credentials on PUT updates of posts', ['auth.credentials.write-accepted'], (req) => {
    if (req.method === 'PUT' && POSTS.test(req.route)) delete req.headers.authorization;
  }),
  authFault('auth.authorization-page-missing', 'answers 404 on its non-REST pages, the advertised authorization page included', ['auth.authorization-url.answers'], (req) => {
    if (req.route === '' && req.method === 'GET') return { status: 404, headers: { 'content-type': 'text/html; charset=UTF-8' }, text: '<html><body>Not Found</body></html>' };
  }),
];

