/**
 * How a behaviour's failure is told to a reader (src/sdk/behaviour.ts): the request it sent, shown as it
 * went on the wire; the routes named as the target was sent them; and a finding made on a
 * documented route the target lacks, which is that route's own (disc.route.<route>).
 */
import { documentedRouteOf } from '../../schemas/catalog/index.ts';
import type { Profile } from '../../schemas/profiles.ts';
import type { Exchange } from '../http/client.ts';
import { findAdvertisedRoute } from './discovery.ts';
import { requestLine } from '../http/failure-kind.ts';
import { withTargetRoutes } from './route-names.ts';

/**
 * A failure's message shows the last request the check sent, as it went on the wire (method, route,
 * query, credentials, body), at the end of its first line: the reader need not know our code to
 * repeat it. Not where the message already shows that request whole.
 */
export function showRequestSent(e: Error, log: readonly Exchange[], profile: Profile): void {
  const last = log.at(-1);
  if (!last || typeof e.message !== 'string') return;
  const line = requestLine(last, (r) => profile.toSpecRoute(r));
  const bare = line.replace(/ \(.*$/, '');
  if (e.message.includes(bare)) return;
  const nl = e.message.indexOf('\n');
  const message = nl === -1 ? `${e.message} [last request: ${line}]` : `${e.message.slice(0, nl)} [last request: ${line}]${e.message.slice(nl)}`;
  if (typeof e.stack === 'string' && e.stack.includes(e.message)) e.stack = e.stack.replace(e.message, () => message);
  e.message = message;
}

/** The message of a failure names the routes the target was sent, with the spec names beside them (src/sdk/route-names.ts). */
export function quoteRoutesSent(err: unknown, profile: Profile): void {
  const e = err as Error;
  if (typeof e?.message !== 'string') return;
  const message = withTargetRoutes(e.message, profile);
  if (message === e.message) return;
  if (typeof e.stack === 'string' && e.stack.includes(e.message)) e.stack = e.stack.replace(e.message, () => message);
  e.message = message;
}

export const isConformanceFailure = (err: unknown) => ['ConformanceFailure', 'AssertionError'].includes((err as Error)?.name);

/**
 * The first request of a behaviour that went to a documented route the target's index does not
 * advertise (in a namespace it does advertise) and was answered 404: that route is missing, which
 * `disc.route.<route>` reports.
 */
export function missingRoute(log: readonly Exchange[], run: { index: any; profile: Profile }): { owner: string; why: string } | undefined {
  const namespaces: string[] = Array.isArray(run.index?.namespaces) ? run.index.namespaces : [];
  for (const e of log) {
    if (e.status !== 404) continue;
    const route = documentedRouteOf(run.profile.toSpecRoute(e.route));
    if (!route || (route.namespace && !namespaces.includes(route.namespace)) || findAdvertisedRoute(run.index, route.path)) continue;
    return { owner: `disc.route.${route.id}`, why: `${e.method} ${run.profile.toSpecRoute(e.route)} answered 404 and ${route.path} is not in the target's index` };
  }
  return undefined;
}
