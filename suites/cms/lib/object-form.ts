/**
 * Which encoding of a query object the target reads (issue 40, item 5). The taxonomy filters are
 * "array of integer, or object" (core part 4); how an object is written in a query string the spec
 * does not state: `o[k]=v` (OpenAPI deepObject, PHP's reading) or JSON text in the value
 * (src/http/wire.ts ObjectEncoding). Found once per suite file on the items a check lists, owned by
 * `cms.<type>.query.object-form` (taxonomy.ts): an object of terms no item carries lists no item,
 * as the same filter as an array does. Every object a check sends goes in that encoding
 * (withObjects); where none is read, the checks that send objects skip, naming the owner, which
 * fails once: never "invalid accepted" for a key the target never parsed.
 */
import { prerequisite, Unmet, type BehaviourContext, type Prerequisite } from '../../../src/sdk/behaviour.ts';
import type { Client, ObjectEncoding, QueryValue } from '../../../src/sdk/http.ts';
import { ConformanceFailure, OBJECT_ENCODINGS, encodeObjects, serializeQuery } from '../../../src/sdk/http.ts';
import type { PostType } from './collections.ts';
import { idsOf } from './items.ts';

/** A term identifier no site is likely to have. */
export const UNUSED_ID = 987_654_321;
export const OBJECT_ARGS = ['categories', 'categories_exclude', 'tags', 'tags_exclude'] as const;

/** The request as it is written on the wire, for messages: `GET /cms/v2/posts?include=…&categories[terms]=1`. */
export const requestLine = (route: string, query: Record<string, QueryValue>) =>
  `GET ${route}?${decodeURIComponent(serializeQuery(query)).replace(/include=[\d,]+/, (m) => (m.length > 40 ? `include=<${m.split(',').length} items>` : m))}`;

async function listed(client: Client, type: PostType, scope: readonly number[], query: Record<string, QueryValue>, encoding: ObjectEncoding = 'deep') {
  const full = encodeObjects({ include: [...scope], per_page: 100, ...query }, encoding);
  const res = await client.get(type.collection, { query: full });
  return { res, ids: res.status === 200 ? idsOf(res.body) : [], what: requestLine(type.collection, full) };
}

const found = new Map<string, Prerequisite<ObjectEncoding>>();

/** The encoding the target reads, found (once in this suite file) on the items of `scope`. */
export function objectEncodingOf(type: PostType, scope: readonly number[]): Prerequisite<ObjectEncoding> {
  let p = found.get(type.name);
  if (p) return p;
  p = prerequisite(`cms.${type.name}.query.object-form`, async (client) => {
    const base = await listed(client, type, scope, {});
    if (base.ids.length === 0) throw new Unmet(`not observable: ${base.what} lists no ${type.noun} (${base.res.status})`, 'skipped');
    // The filters as arrays first: terms of no item narrow the list to nothing.
    const arrays = await Promise.all((['categories', 'tags'] as const).map(async (name) => ({ name, r: await listed(client, type, scope, { [name]: [UNUSED_ID] }) })));
    const narrowing = arrays.filter(({ r }) => r.res.status === 200 && r.ids.length === 0).map(({ name }) => name);
    if (!narrowing.length)
      throw new Unmet(
        `not observable: the taxonomy filters narrow nothing as arrays either (${arrays.map(({ r }) => `${r.what} answered ${r.res.status} with ${r.ids.length} of the ${base.ids.length} ${type.name}`).join('; ')}); cms.${type.name}.filter.categories and .tags check the filters themselves`,
        'skipped',
      );
    const tried: string[] = [];
    for (const encoding of OBJECT_ENCODINGS)
      for (const name of narrowing) {
        const r = await listed(client, type, scope, { [name]: { terms: [UNUSED_ID] } }, encoding);
        if (r.res.status === 200 && r.ids.length === 0) return encoding;
        tried.push(`${r.what} answered ${r.res.status}${r.res.status === 200 ? ` with ${r.ids.length} of the ${base.ids.length} ${type.name}` : ` ${r.res.text.slice(0, 80)}`}`);
      }
    throw new ConformanceFailure(
      `the object form of ${OBJECT_ARGS.join(', ')} ("array of integer, or object") is read in no encoding of the query string (o[k]=v, or JSON text): ${tried.join('; ')}; the same filter as an array, ${narrowing[0]}=${UNUSED_ID}, lists none of them`,
    );
  });
  found.set(type.name, p);
  return p;
}

const hasObject = (query: Record<string, QueryValue>) => Object.values(query).some((v) => v !== null && typeof v === 'object' && !Array.isArray(v));

/**
 * The query with its objects in the encoding the target reads (found on the items `query.include`
 * names); a query without objects as it is. Skips, naming the owner, where no encoding is read.
 */
export async function withObjects(t: BehaviourContext, type: PostType, query: Record<string, QueryValue>): Promise<Record<string, QueryValue>> {
  if (!hasObject(query)) return query;
  const scope = Array.isArray(query.include) ? (query.include as number[]) : [];
  return encodeObjects(query, await t.need(objectEncodingOf(type, scope)));
}
