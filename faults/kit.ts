/**
 * What the named faults share: answers shaped as WordPress shapes them (a missing route, a server
 * error, a refused parameter, a write answered as done), and the credentials a fault learns from
 * the target's answers to send anonymous requests as if they carried them.
 */
import { json, type FaultRequest, type FaultResponse } from './proxy.ts';

export const noRoute = () => json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
export const serverError = () => json(500, { code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 500 } });
/** 400 rest_invalid_param naming `param` (in `data.params`, with `why`). */
export const invalidParam = (param: string, why = 'Invalid parameter.') =>
  json(400, { code: 'rest_invalid_param', message: `Invalid parameter(s): ${param}`, data: { status: 400, params: { [param]: why } } });
export const success = () => json(200, { code: 'success', message: 'The requested data updates were successful.' });

/**
 * Authorization headers the target accepted (on routes under `routePrefix`), learned from its
 * answers (`learn` as a fault's response hook): the same target across runs. `authenticate` sends a
 * request with the first of them.
 */
export function learnedCredentials(routePrefix = '') {
  const accepted = new Set<string>();
  return {
    accepted,
    learn(req: FaultRequest, res: FaultResponse): void {
      const a = req.headers.authorization;
      if (typeof a === 'string' && res.status < 400 && req.route.startsWith(routePrefix)) accepted.add(a);
    },
    authenticate(req: FaultRequest): void {
      const good = accepted.values().next().value;
      if (good) req.headers.authorization = good;
    },
  };
}
