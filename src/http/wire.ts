/**
 * What the suite puts on the wire where the spec leaves a reader free: in the form every reading
 * of the two documents accepts, which is also the form the exported OpenAPI document declares
 * (src/openapi/build.ts) and WordPress reads (issue 34, item 2).
 *
 * - Query arrays as one comma list (`status=publish,draft`), objects as `o[k]=v`: serializeQuery.
 *   Never PHP's `a[]=`.
 * - `title`, `content` and `excerpt` of posts and pages written as the documented object
 *   (`{"raw": "…"}`, core part 2), never as a bare string: textObject, textFields.
 */

export type QueryValue = string | number | boolean | null | undefined | QueryValue[] | { [k: string]: QueryValue };

/**
 * A query in the form the exported OpenAPI document declares (src/openapi/build.ts) and every reading of
 * the spec accepts: a scalar `a=v`; an array as one key with a comma list, `a=1,2` (`style: form,
 * explode: false`; WordPress reads it with wp_parse_list), the empty array as `a=`; an object as
 * `o[k]=v` (`style: deepObject`), an array inside it as a comma list too (`o[k]=1,2`). Never PHP's
 * `a[]=1&a[]=2`, which a server written from the spec has no reason to read.
 *
 * A comma list cannot carry an item that holds a comma, nor white space (WordPress splits on both):
 * such an item throws (a harness error: the caller must send something else), it is never sent
 * split in two.
 */
export function serializeQuery(query: Record<string, QueryValue>): string {
  const parts: string[] = [];
  const enc = (s: string) => encodeURIComponent(s);
  const item = (key: string, v: QueryValue): string => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'object') throw new Error(`query ${key}: an array item that is ${Array.isArray(v) ? 'an array' : 'an object'} cannot be sent as a comma list`);
    const s = String(v);
    if (/[\s,]/.test(s)) throw new Error(`query ${key}: the array item ${JSON.stringify(s)} holds a comma or white space, which a comma list cannot carry`);
    return enc(s);
  };
  const walk = (key: string, v: QueryValue): void => {
    if (v === undefined) return;
    if (v === null) parts.push(`${enc(key)}=`);
    else if (Array.isArray(v)) parts.push(`${enc(key)}=${v.filter((x) => x !== undefined).map((x) => item(key, x)).join(',')}`);
    else if (typeof v === 'object') for (const [k, sub] of Object.entries(v)) walk(`${key}[${k}]`, sub);
    else parts.push(`${enc(key)}=${enc(String(v))}`);
  };
  for (const [k, v] of Object.entries(query)) walk(k, v);
  return parts.join('&');
}

/**
 * How an object argument of a query (`categories`: "array of integer, or object", core part 4) is
 * written in a query string, which the spec does not state: `deep`, `o[k]=v` (OpenAPI `style:
 * deepObject`; PHP and WordPress read it), the form serializeQuery writes; or `json`, the object as
 * JSON text in the value, `o={"k":v}` (OpenAPI `content: application/json`). A server may read
 * either (or both): the suite finds out which (suites/cms/lib/taxonomy.ts) and sends objects so.
 */
export type ObjectEncoding = 'deep' | 'json';
export const OBJECT_ENCODINGS: readonly ObjectEncoding[] = ['deep', 'json'];

/** The query with its object values written in `encoding` (for `json`, each as JSON text; `deep` is serializeQuery's own form). */
export function encodeObjects(query: Record<string, QueryValue>, encoding: ObjectEncoding): Record<string, QueryValue> {
  if (encoding === 'deep') return query;
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v !== null && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : v]));
}

/** The fields of posts and pages the spec documents as objects with `raw` on write (core part 2). */
export const TEXT_FIELDS = ['title', 'content', 'excerpt'] as const;

/** `{raw: text}`: a text field as the spec documents it (core part 2, "title | object | raw (string, context edit)"). */
export const textObject = (raw: string): { raw: string } => ({ raw });

/**
 * A post or page body with its text fields written as documented: a bare string `title`, `content`
 * or `excerpt` becomes `{raw: …}` (anything else is left as it is: an object already, or a value a
 * refusal check sends wrong on purpose). A new object; the body given is not changed.
 */
export function textFields<T extends Record<string, unknown>>(body: T): T {
  let out: Record<string, unknown> | undefined;
  for (const k of TEXT_FIELDS)
    if (typeof body[k] === 'string') {
      out ??= { ...body };
      out[k] = textObject(body[k] as string);
    }
  return (out ?? body) as T;
}

/** The text of a field as written (a bare string, or the `raw` of its object); undefined when neither. */
export const rawText = (v: unknown): string | undefined => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { raw?: unknown }).raw === 'string' ? (v as { raw: string }).raw : undefined);
