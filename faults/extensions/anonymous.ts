/**
 * Anonymous access to the extension namespaces (issue 26): a server that serves anonymous reads or
 * writes as if the administrator had sent them.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { extensionAnonymousAccess } from '../../schemas/catalog/extensions.ts';
import type { Fault } from '../proxy.ts';

/**
 * A server that serves anonymous requests as if they came from the site's administrator: the
 * proxy remembers the Authorization header of the last authenticated request and adds it to the
 * anonymous reads (GET) or writes (any other method) of one namespace. Caught by the SECURITY
 * behaviours of suites/extensions/security.spec.ts (the anonymous request is answered, or answered
 * exactly as the authenticated one).
 */
function anonymousServed(id: string, title: string, routePrefix: string, kind: 'reads' | 'writes', caughtBy: string[]): Fault {
  let auth: string | undefined;
  return {
    id,
    title,
    caughtBy,
    request(req) {
      if (req.authenticated) {
        auth = String(req.headers.authorization);
        return;
      }
      if (!auth || !req.route.startsWith(routePrefix) || (req.method === 'GET') !== (kind === 'reads')) return;
      req.headers.authorization = auth;
    },
  };
}

/** `<ns>.security.<endpoint>` of the endpoints the reference implementation refuses anonymously: reads (GET) or writes. */
function securityBehaviours(ns: 'spamfilter' | 'contactform' | 'suite', reads: boolean, only?: (routeId: string) => boolean): string[] {
  return catalog.routes
    .filter((r) => r.id.startsWith(`${ns}.`) && (!only || only(r.id)))
    .flatMap((r) => r.endpoints)
    .filter((e) => extensionAnonymousAccess[e.id]?.public === false && e.methods.includes('GET') === reads)
    .map((e) => `${ns}.security.${e.id.slice(ns.length + 1)}`);
}

const namespaceFault = (ns: 'spamfilter' | 'contactform' | 'suite', kind: 'reads' | 'writes', except: string[] = []): Fault =>
  anonymousServed(
    `ext.${ns}.anonymous-${kind}-served`,
    `serves anonymous ${kind === 'reads' ? 'reads (GET)' : 'writes (POST, PUT, PATCH, DELETE)'} of every ${ns} route as if the administrator had sent them`,
    `/${catalog.routes.find((r) => r.id === `${ns}.index`)!.namespace}/`,
    kind,
    securityBehaviours(ns, kind === 'reads').filter((b) => !except.includes(b)),
  );

export const anonymousAccessFaults: Fault[] = [
  // Proven on the embedded WordPress (Akismet), where /stats/<interval> does not exist (spamfilter.stats.path):
  // that route's read is named by the next fault, proven on the reference server.
  namespaceFault('spamfilter', 'reads', ['spamfilter.security.stats.interval.read']),
  anonymousServed(
    'ext.spamfilter.anonymous-stats-served',
    'serves the spam filter statistics (/stats, /stats/<interval>) to anonymous requests',
    '/spamfilter/v1/stats',
    'reads',
    securityBehaviours('spamfilter', true, (id) => id.startsWith('spamfilter.stats')),
  ),
  namespaceFault('spamfilter', 'writes'),
  namespaceFault('contactform', 'reads'),
  namespaceFault('contactform', 'writes'),
  namespaceFault('suite', 'reads'),
  namespaceFault('suite', 'writes'),
];
