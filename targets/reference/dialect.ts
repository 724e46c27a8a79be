/**
 * Dialects of the reference server: the choices an implementer may make where the two documents
 * leave the interface open, each a switch. The default dialect is WordPress's reading (the one the
 * reference server has always served); every other value is another reading the documents allow,
 * so a server in any dialect is correct and the suite must give it the same SECURITY and MUST
 * verdicts (test/dialects.test.ts); but for DEVIATING_READINGS, a deviation on purpose that the
 * suite must report once.
 *
 * Written as a list of `switch=value` (`route-keys=spec,query-arrays=form`) on the command line
 * (`cms-conformance serve --dialect …`) and in the tests.
 */

export interface Dialect {
  /**
   * Keys of the index's `routes`: WordPress's regexes (`/cms/v2/posts/(?P<id>[\d]+)`) or the
   * spec's own notation (`/cms/v2/posts/<id>`, core preamble and part 1 "object keyed by route
   * pattern").
   */
  routeKeys: 'regex' | 'spec';
  /**
   * An argument documented as "array of integer, or object" (the taxonomy filters): advertised with
   * `oneOf` (WordPress), as a type union on one descriptor (`type: ["array","object"]` with `items`
   * and `properties`; part 1 lists the descriptor keys, and `oneOf` is not one of them), or `anyOf`.
   */
  argUnions: 'oneOf' | 'type-union' | 'anyOf';
  /**
   * Arrays in a query string: PHP's `a[]=1&a[]=2` and comma lists (WordPress reads both), or only
   * the forms without brackets: a comma list `a=1,2` (OpenAPI `style: form, explode: false`, what
   * the exported document declares) or repeated keys `a=1&a=2`. Objects (`o[k]=v`, OpenAPI
   * `deepObject`) are read in both.
   */
  queryArrays: 'php' | 'form';
  /**
   * Objects in a query string (the taxonomy filters: "array of integer, or object", core part 4;
   * how an object is written there is not stated): `o[k]=v` (PHP's reading, OpenAPI `deepObject`),
   * or JSON text in the value, `o={"k":v}` (OpenAPI `content: application/json`), `o[k]` then a key
   * like any other (an unknown parameter); or not at all (`none`: every key is a plain key; such a
   * server does not read the documented object form, a deviation the suite reports once).
   */
  queryObjects: 'deep' | 'json' | 'none';
  /**
   * `title`, `content` and `excerpt` on write: a string or an object with `raw` (WordPress), or only
   * the documented object (part 2: "title | object | raw (string, context edit) …").
   */
  textFields: 'string-or-object' | 'object';
  /**
   * Status codes (part 7: "status codes: not shown"): WordPress's (401 anonymous, 400 invalid input,
   * 201 create, 200 with the previous item on force delete), or other readings (403 anonymous, 422
   * invalid input, 200 create, 204 force delete).
   */
  statuses: 'wordpress' | 'alternative';
  /**
   * What WordPress does that neither document states: kept, or left out (no X-WP-Total,
   * X-WP-TotalPages, Link or Allow headers; an error body that is not WordPress's
   * `{code, message, data.status}`; no `_links` on items).
   */
  conventions: 'wordpress' | 'none';
  /**
   * The answer of POST /batch/v1 (core part 4: "Batch response shape and the exact behaviour of the
   * two validation modes: not shown"): WordPress's (207, `{responses: [{body, status, headers}]}`;
   * `{failed: "validation", responses}` when require-all-validate stops), or another (200,
   * `{results: [{status, body}]}`; 400 with the same shape when require-all-validate stops).
   */
  batchAnswers: 'wordpress' | 'other';
  /**
   * A date-time sent without a zone (`2001-03-01T10:00:00`): read in the site's timezone (date) or
   * GMT (date_gmt), as WordPress does, or refused, as RFC 3339 (JSON Schema's `date-time`, part 1's
   * `format`) has no date-time without a zone offset.
   */
  dateTimes: 'lenient' | 'strict';
  // The readings below break a real client each (issue 42, results/clients.ts): all allowed by the
  // documents, so no SECURITY or MUST verdict changes with them (they are in `spec-only`), but the
  // client-readiness profile (suites/clients/) says which client is not ready, and
  // test/clients.test.ts shows it with the clients themselves.
  /** `X-WP-Total`, `X-WP-TotalPages` and the `Link` rel next/prev on collections (WordPress), or none. */
  pagingHeaders: 'wordpress' | 'none';
  /** Error bodies: WordPress's `{code, message, data: {status}}`, or another (`{"error": {"message": …}}`; part 7: not shown). */
  errorBodies: 'wordpress' | 'other';
  /** `POST` with `X-HTTP-Method-Override` (or `?_method=`) acts as that method (WordPress), or is a POST (an update on an item, part 4). */
  methodOverride: 'honoured' | 'ignored';
  /** Query parameters no endpoint documents (`_embed`, `_locale`, `_fields` …): ignored (WordPress), or refused with 400. */
  unknownParams: 'ignored' | 'refused';
  /** The home page (and every answer) links the API root with `Link: <…>; rel="https://api.w.org/"` (WordPress), or not. */
  discovery: 'link' | 'none';
  /** The batch route's `requests` descriptor carries `maxItems` (WordPress), or only the keys part 1 lists (no `maxItems`). */
  batchMaxItems: 'advertised' | 'none';
  /** Routes answered at `{base}/index.php?rest_route=` and `{base}/wp-json/` (WordPress with pretty permalinks), or only as the spec states (`rest-route`). */
  addressing: 'both' | 'rest-route';
}

export const DEFAULT_DIALECT: Readonly<Dialect> = Object.freeze({
  routeKeys: 'regex',
  argUnions: 'oneOf',
  queryArrays: 'php',
  queryObjects: 'deep',
  textFields: 'string-or-object',
  statuses: 'wordpress',
  conventions: 'wordpress',
  batchAnswers: 'wordpress',
  dateTimes: 'lenient',
  pagingHeaders: 'wordpress',
  errorBodies: 'wordpress',
  methodOverride: 'honoured',
  unknownParams: 'ignored',
  discovery: 'link',
  batchMaxItems: 'advertised',
  addressing: 'both',
});

/**
 * The switches as written on the command line, with the Dialect key each sets. `client`: a reading
 * that breaks a real client (issue 42): not one of namedDialects()'s single switches, which
 * test/dialects.test.ts runs the whole suite against (spec-only has them all), but of
 * clientDialects(), which test/clients.test.ts runs the clients and the readiness profile against.
 */
const SWITCHES: Record<string, { key: keyof Dialect; values: readonly string[]; client?: true }> = {
  'route-keys': { key: 'routeKeys', values: ['regex', 'spec'] },
  'arg-unions': { key: 'argUnions', values: ['oneOf', 'type-union', 'anyOf'] },
  'query-arrays': { key: 'queryArrays', values: ['php', 'form'] },
  'query-objects': { key: 'queryObjects', values: ['deep', 'json', 'none'] },
  'text-fields': { key: 'textFields', values: ['string-or-object', 'object'] },
  statuses: { key: 'statuses', values: ['wordpress', 'alternative'] },
  conventions: { key: 'conventions', values: ['wordpress', 'none'] },
  'batch-answers': { key: 'batchAnswers', values: ['wordpress', 'other'] },
  'date-times': { key: 'dateTimes', values: ['lenient', 'strict'] },
  'paging-headers': { key: 'pagingHeaders', values: ['wordpress', 'none'], client: true },
  'error-bodies': { key: 'errorBodies', values: ['wordpress', 'other'], client: true },
  'method-override': { key: 'methodOverride', values: ['honoured', 'ignored'], client: true },
  'unknown-params': { key: 'unknownParams', values: ['ignored', 'refused'], client: true },
  discovery: { key: 'discovery', values: ['link', 'none'], client: true },
  'batch-max-items': { key: 'batchMaxItems', values: ['advertised', 'none'], client: true },
  addressing: { key: 'addressing', values: ['both', 'rest-route'], client: true },
};

/**
 * Every reading other than the default, one switch at a time (what test/dialects.test.ts runs the
 * suite against; the client-breaking ones are clientDialects()), and all of them at once
 * (`spec-only`: a server written from the documents alone, with the first other value of each
 * switch: objects as JSON text).
 */
export function namedDialects(): Record<string, Partial<Dialect>> {
  const out: Record<string, Partial<Dialect>> = {};
  const all: Partial<Dialect> = {};
  for (const [name, { key, values, client }] of Object.entries(SWITCHES))
    for (const value of values) {
      if (value === DEFAULT_DIALECT[key]) continue;
      if (!client) out[`${name}=${value}`] = { [key]: value } as Partial<Dialect>;
      (all as Record<string, string>)[key] ??= value;
    }
  out['spec-only'] = all;
  return out;
}

/** The readings that break a real client, one switch at a time (test/clients.test.ts; SWITCHES `client`). */
export function clientDialects(): Record<string, Partial<Dialect>> {
  const out: Record<string, Partial<Dialect>> = {};
  for (const [name, { key, values, client }] of Object.entries(SWITCHES))
    if (client) for (const value of values) if (value !== DEFAULT_DIALECT[key]) out[`${name}=${value}`] = { [key]: value } as Partial<Dialect>;
  return out;
}

/**
 * The readings among namedDialects() that deviate from the documents on purpose, with the one
 * deviation the suite must report for each (and only it: its dependents skip, naming its owner).
 */
export const DEVIATING_READINGS: Record<string, { owner: string; why: string }> = {
  'query-objects=none': {
    owner: 'cms.posts.query.object-form',
    why: 'reads every query key as a plain key: the documented object form of the taxonomy filters is understood in no encoding',
  },
};

/** `route-keys=spec,query-arrays=form` (or a name of namedDialects()) → a whole Dialect; throws a one-line Error on anything else. */
export function parseDialect(text: string): Dialect {
  const out: Dialect = { ...DEFAULT_DIALECT };
  const named = namedDialects();
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (part === 'default') continue;
    if (part === 'spec-only') {
      Object.assign(out, named['spec-only']);
      continue;
    }
    const [name = '', value] = part.split('=');
    const sw = SWITCHES[name];
    if (!sw) throw new Error(`unknown dialect switch "${name}" (known: ${Object.keys(SWITCHES).join(', ')}, or spec-only)`);
    if (value === undefined || !sw.values.includes(value)) throw new Error(`dialect switch ${name} takes ${sw.values.join(' or ')}, got ${JSON.stringify(value ?? '')}`);
    (out as unknown as Record<string, string>)[sw.key] = value;
  }
  return out;
}

/** The switches of a dialect that differ from the default, as written on the command line ('default' when none). */
export function describeDialect(d: Dialect): string {
  const parts = Object.entries(SWITCHES)
    .filter(([, { key }]) => d[key] !== DEFAULT_DIALECT[key])
    .map(([name, { key }]) => `${name}=${d[key]}`);
  return parts.length ? parts.join(',') : 'default';
}
