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
import { inDialect } from './readings.ts';
import { RestRequest, RestResponse, type HandlerContext, type HandlerTable, type Prepared } from './types.ts';
import { isPlainObject } from './validate.ts';

interface Envelope {
  body: unknown;
  status: number;
  headers: Record<string, string>;
}

/** One answer of the batch, in the site's dialect (readings.ts); `sub` the item's request, when it could be made. */
function envelope(r: RestResponse | RestError, sub: RestRequest | undefined, batch: RestRequest, ctx: HandlerContext): Envelope {
  const answer = isRestError(r) ? { status: r.status, headers: {}, data: r.toBody() } : { status: r.status, headers: r.headers, data: r.data };
  const { status, headers, data } = inDialect(answer, sub, !batch.headers.authorization, ctx.site.dialect);
  return { body: data ?? null, status, headers };
}

/** Header names as WP_REST_Request canonicalizes them (lowercase); values joined. */
function itemHeaders(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isPlainObject(raw)) return out;
  for (const [k, v] of Object.entries(raw)) out[k.toLowerCase().replace(/_/g, '-')] = Array.isArray(v) ? v.map(String).join(',') : String(v);
  return out;
}

const requestOf = (sub: RestRequest | RestError | undefined): RestRequest | undefined => (sub instanceof RestRequest ? sub : undefined);

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
        const query = q === -1 ? {} : parseQueryAs(path.slice(q + 1), ctx.site.dialect.queryArrays, ctx.site.dialect.queryObjects);
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
      // Another reading of the answer the spec does not show (dialect batch-answers=other).
      const other = ctx.site.dialect.batchAnswers === 'other';
      const result = (e: Envelope | null) => (e === null ? null : { status: e.status, body: e.body });
      if (failed && mode === 'require-all-validate') {
        const answers = prepared.map((p, i) => (isRestError(p) ? envelope(p, requestOf(subs[i]), req, ctx) : null));
        return other ? new RestResponse({ results: answers.map(result) }, 400) : new RestResponse({ failed: 'validation', responses: answers }, 207);
      }

      // Then each item in order (permission, handler), errors as their envelopes.
      const responses = prepared.map((p, i) => {
        if (isRestError(p)) return envelope(p, requestOf(subs[i]), req, ctx);
        const res = ctx.pipeline.respond(p);
        res.headers.Allow = ctx.pipeline.allow(p.entry, p.req);
        return envelope(res, p.req, req, ctx);
      });
      return other ? new RestResponse({ results: responses.map(result) }, 200) : new RestResponse({ responses }, 207);
    },
  },
};
