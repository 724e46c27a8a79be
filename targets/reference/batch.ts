/**
 * POST /batch/v1. The envelope is validated from the catalog (validation enum, requests at most
 * 25 items, item method enum, required path). What the spec leaves not shown (the response and
 * the two validation modes) follows WP_REST_Server::serve_batch_request_v1()
 * (wordpress-behaviour.md §8): always 207, `{responses:[{body,status,headers}]}` in order;
 * in require-all-validate mode any item failing route match, batch opt-in or param validation
 * stops everything: `{failed:"validation", responses:[null | error envelope]}`.
 */
import { RestError, isRestError, restError } from './errors.ts';
import { normalizeRoute, parseQueryAs } from './http.ts';
import { RestRequest, RestResponse, type HandlerTable, type Prepared } from './types.ts';
import { isPlainObject } from './validate.ts';

interface Envelope {
  body: unknown;
  status: number;
  headers: Record<string, string>;
}

const envelope = (r: RestResponse): Envelope => ({ body: r.data, status: r.status, headers: r.headers });
const errorEnvelope = (e: RestError): Envelope => ({ body: e.toBody(), status: e.status, headers: {} });

/** Header names as WP_REST_Request canonicalizes them (lowercase); values joined. */
function itemHeaders(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isPlainObject(raw)) return out;
  for (const [k, v] of Object.entries(raw)) out[k.toLowerCase().replace(/_/g, '-')] = Array.isArray(v) ? v.map(String).join(',') : String(v);
  return out;
}

export const batchHandlers: HandlerTable = {
  'batch.v1.create': {
    // What the spec gives as notes, as WordPress's schema has it: any body properties, header
    // values that are a string or an array of strings.
    overlay: {
      requests: {
        items: {
          properties: {
            body: { additionalProperties: true },
            headers: { additionalProperties: { type: ['string', 'array'], items: { type: 'string' } } },
          },
        },
      },
    },
    handler(req, ctx) {
      const items = (req.get('requests') as Record<string, unknown>[]) ?? [];
      const mode = req.get('validation') ?? 'normal';
      const subs: (RestRequest | RestError)[] = items.map((item) => {
        const path = String(item.path ?? '');
        if (!path.startsWith('/')) return restError('parse_path_failed', 'Could not parse the path.', 400);
        const q = path.indexOf('?');
        const route = normalizeRoute(q === -1 ? path : path.slice(0, q));
        const query = q === -1 ? {} : parseQueryAs(path.slice(q + 1), ctx.site.dialect.queryArrays);
        const body = isPlainObject(item.body) ? item.body : {};
        return new RestRequest(String(item.method ?? 'POST').toUpperCase(), route, query, body, null, itemHeaders(item.headers), req.user);
      });

      // Validation of every item first: route, allow_batch, params.
      const prepared: (Prepared | RestError)[] = subs.map((sub) => {
        if (isRestError(sub)) return sub;
        const p = ctx.pipeline.prepare(sub);
        if (isRestError(p)) return p;
        if (!p.endpoint.allowBatch) return restError('rest_batch_not_allowed', 'The requested route does not support batch requests.', 400);
        return p;
      });
      const failed = prepared.some(isRestError);
      if (failed && mode === 'require-all-validate') {
        return new RestResponse({ failed: 'validation', responses: prepared.map((p) => (isRestError(p) ? errorEnvelope(p) : null)) }, 207);
      }

      // Then each item in order (permission, handler), errors as their envelopes.
      const responses = prepared.map((p) => {
        if (isRestError(p)) return errorEnvelope(p);
        const res = ctx.pipeline.respond(p);
        res.headers.Allow = ctx.pipeline.allow(p.entry, p.req);
        return envelope(res);
      });
      return new RestResponse({ responses }, 207);
    },
  },
};
