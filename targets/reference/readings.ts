/**
 * The answers of a site in another reading of the documents (dialect.ts), made from WordPress's:
 *
 * - `statuses=alternative` (core part 7: "Error response body, status codes and error codes: not
 *   shown"): 403 instead of 401 to an anonymous request that is refused, 422 instead of 400 to
 *   invalid input, 200 instead of 201 on a create, and 204 without a body instead of 200 with the
 *   previous item on a DELETE with force=true.
 * - `conventions=none`: what WordPress does that neither document states is left out: the
 *   X-WP-Total, X-WP-TotalPages, Link and Allow headers, WordPress's error body `{code, message,
 *   data: {status}}` (an error is `{"error": {"message": …}}`), and `_links` / `_embedded` anywhere
 *   but on the index's route entries (core part 1 states `_links.self[].href` there). The fields
 *   of items that part 2 does not list are left out where the items are rendered
 *   (content-render.ts); WordPress's global parameters (`_fields`, `_envelope`, `_method`,
 *   X-HTTP-Method-Override) are not read (index.ts).
 *
 * - `paging-headers=none`, `error-bodies=other` (issue 42): of those conventions only the paging
 *   headers (X-WP-Total, X-WP-TotalPages, a Link rel next or prev), or only the error body.
 *
 * Applied to every answer, and to each answer inside a batch.
 */
import type { Dialect } from './dialect.ts';
import type { RestRequest } from './types.ts';
import { isPlainObject } from './validate.ts';

/** One answer: status, headers and the JSON data (undefined: no body). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  data: unknown;
}

/** Headers of WordPress's conventions (compared case-insensitively). */
const CONVENTION_HEADERS = new Set(['x-wp-total', 'x-wp-totalpages', 'link', 'allow', 'access-control-expose-headers']);

/** The paging headers of collections (compared case-insensitively); a Link rel next or prev goes with them. */
const PAGING_HEADERS = new Set(['x-wp-total', 'x-wp-totalpages']);

const isErrorBody = (data: unknown): data is { code: string; message: string } =>
  isPlainObject(data) && typeof data.code === 'string' && typeof data.message === 'string';

/** `_links` and `_embedded` left out, except `_links` of the route entries of an index (`routes[*]._links`). */
function withoutLinks(v: unknown, routeEntries = false): unknown {
  if (Array.isArray(v)) return v.map((x) => withoutLinks(x));
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (routeEntries) {
      const entry = withoutLinks(x);
      out[k] = isPlainObject(x) && isPlainObject(entry) && x._links !== undefined ? { ...entry, _links: x._links } : entry;
      continue;
    }
    if (k === '_links' || k === '_embedded') continue;
    out[k] = withoutLinks(x, k === 'routes');
  }
  return out;
}

/**
 * An answer in the site's dialect. `req` is the request it answers (undefined when none was made
 * of it, e.g. a credential refused before routing); `anonymous`: the request carried no
 * credentials.
 */
export function inDialect(answer: Answer, req: RestRequest | undefined, anonymous: boolean, dialect: Readonly<Dialect>): Answer {
  let { status, headers, data } = answer;
  if (dialect.statuses === 'alternative') {
    if (status === 401 && anonymous) status = 403;
    else if (status === 400) status = 422;
    else if (status === 201) status = 200;
    else if (status === 200 && req?.method === 'DELETE' && req.get('force') === true) {
      status = 204;
      data = undefined;
    }
    // WordPress's error body repeats its status.
    if (status !== answer.status && isErrorBody(data) && isPlainObject((data as Record<string, unknown>).data))
      data = { ...data, data: { ...((data as Record<string, unknown>).data as Record<string, unknown>), status } };
  }
  if (dialect.conventions === 'none') {
    headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !CONVENTION_HEADERS.has(k.toLowerCase())));
    if (status >= 400 && isErrorBody(data)) data = { error: { message: data.message } };
    else data = withoutLinks(data);
  }
  if (dialect.pagingHeaders === 'none')
    headers = Object.fromEntries(Object.entries(headers).filter(([k, v]) => !PAGING_HEADERS.has(k.toLowerCase()) && !(k.toLowerCase() === 'link' && /rel="?(next|prev)/.test(v))));
  if (dialect.errorBodies === 'other' && status >= 400 && isErrorBody(data)) data = { error: { message: data.message } };
  if (data === undefined) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type'));
  return { status, headers, data };
}
