/**
 * A test double for issue 36 ("no pass without an observed effect"): a server that answers every
 * update and delete made with credentials with success, and changes nothing. Creates are
 * forwarded (a collection's POST: posts, pages, media, autosaves, contact forms and submissions),
 * so that fixtures exist; everything else that writes (POST, PUT, PATCH, DELETE of an item, a
 * setting, a key, a toggle, an action route, a batch) is answered 200 without being forwarded:
 * with the item as last read, the fields sent laid over it (as a server that echoes the write
 * would answer), `{deleted: true, previous}` for a DELETE, or `true` when nothing was read there.
 * Requests without credentials are forwarded (the target refuses them).
 */
import type { Fault, FaultRequest, FaultResponse } from '../../faults/proxy.ts';
import { json } from '../../faults/proxy.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** POSTs that create (forwarded): a collection of posts, pages, media, autosaves, forms, a submission. */
export const CREATES = [/^\/cms\/v2\/(posts|pages|media)$/, /^\/cms\/v2\/(posts|pages)\/\d+\/autosaves$/, /^\/contactform\/v1\/contact-forms$/, /^\/contactform\/v1\/contact-forms\/\d+\/feedback$/];

const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The fields sent, laid over the item as last read (title/content/excerpt as {raw, rendered}). */
function echo(current: unknown, sent: unknown): unknown {
  if (!isObject(current)) return current ?? true;
  const out = structuredClone(current);
  if (!isObject(sent)) return out;
  for (const [k, v] of Object.entries(sent)) {
    if (k === 'context') continue;
    if (['title', 'content', 'excerpt'].includes(k) && isObject(out[k])) {
      const raw = isObject(v) ? v.raw : v;
      out[k] = { ...out[k], raw, rendered: raw };
    } else out[k] = v;
  }
  return out;
}

export function writesIgnored(): Fault & { intercepted: Map<string, number> } {
  /** The last answer to an authenticated GET of each route (and what creates answered), by route. */
  const seen = new Map<string, unknown>();
  const intercepted = new Map<string, number>();
  const remember = (route: string, body: unknown) => {
    if (body !== undefined) seen.set(route, structuredClone(body));
  };
  return {
    id: 'double.writes-ignored',
    title: 'answers every update and delete with success and changes nothing',
    caughtBy: [],
    intercepted,
    request(req: FaultRequest): FaultResponse | void {
      const method = (req.query.get('_method') ?? req.method).toUpperCase();
      if (!req.authenticated || !WRITES.has(method)) return;
      if (method === 'POST' && CREATES.some((r) => r.test(req.route))) return;
      const key = `${method} ${req.route}`;
      intercepted.set(key, (intercepted.get(key) ?? 0) + 1);
      const current = seen.get(req.route);
      if (req.route === '/batch/v1') {
        const items = Array.isArray(req.json?.requests) ? req.json.requests : [];
        return json(207, { responses: items.map(() => ({ body: true, status: 200, headers: {} })) });
      }
      if (method === 'DELETE') return json(200, isObject(current) ? { deleted: true, previous: current } : true);
      return json(200, echo(current, req.json));
    },
    response(req: FaultRequest, res: FaultResponse): void {
      if (!req.authenticated || res.status >= 300) return;
      if (req.method === 'GET') remember(req.route, res.json);
      else if (req.method === 'POST' && isObject(res.json) && Number.isInteger(res.json.id)) remember(`${req.route.replace(/\/autosaves$/, '/autosaves')}/${res.json.id}`, res.json);
    },
  };
}
