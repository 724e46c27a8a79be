/**
 * Catalog descriptors (schemas/types.ts) as JSON Schema, for the OpenAPI document of
 * `cms-conformance openapi` (src/openapi/build.ts): an arg (query parameter, body property, path
 * segment) with what the catalog states of it, a documented field with its contexts. Pure data
 * transformation; attributes the catalog does not state are left out.
 */
import type { ArgSpec, DeclaredType, FieldSpec } from './types.ts';
import { catalog } from './catalog/index.ts';

/** The prefix of this project's OpenAPI extension fields. */
export const X = 'x-cms-conformance';

type Schema = Record<string, unknown>;

/**
 * How servers of this interface write a `date-time` in responses: RFC 3339, where the zone may
 * be left out (WordPress writes `date` in the site's time without an offset; the spec says
 * "date-time" without naming a profile). The same reading as the suite (suites/cms/lib/items.ts).
 */
export const DATE_TIME_OUT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:?\\d{2})?$';

const JSON_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object', 'null']);

export function typeOf(t: DeclaredType | DeclaredType[] | undefined, out: Schema): void {
  if (t === undefined) return;
  const list = Array.isArray(t) ? t : [t];
  const json = list.filter((x) => JSON_TYPES.has(x));
  const other = list.filter((x) => !JSON_TYPES.has(x));
  if (json.length) out.type = json.length === 1 && !Array.isArray(t) ? json[0] : json;
  if (other.length) out[`${X}-declared-type`] = other.length === 1 ? other[0] : other;
}

/** A path-segment character class as documented ("[a-z-]+") as a whole-value pattern. */
export const anchored = (p: string) => (p.startsWith('^') ? p : `^(?:${p})$`);

/** An arg descriptor (query parameter, body property, path segment) as JSON Schema. */
export function argSchema(arg: ArgSpec): Schema {
  const s: Schema = {};
  typeOf(arg.type, s);
  if (arg.format !== undefined) s.format = arg.format;
  if (arg.enum !== undefined) s.enum = [...arg.enum];
  if (arg.minimum !== undefined) s.minimum = arg.minimum;
  if (arg.maximum !== undefined) s.maximum = arg.maximum;
  if (arg.minLength !== undefined) s.minLength = arg.minLength;
  if (arg.maxLength !== undefined) s.maxLength = arg.maxLength;
  if (arg.maxItems !== undefined) s.maxItems = arg.maxItems;
  if (arg.uniqueItems !== undefined) s.uniqueItems = arg.uniqueItems;
  if (arg.pattern !== undefined) s.pattern = anchored(arg.pattern);
  if (arg.items !== undefined) s.items = argSchema(arg.items);
  if (arg.properties !== undefined) {
    s.properties = Object.fromEntries(Object.entries(arg.properties).map(([k, v]) => [k, argSchema(v)]));
    const req = Object.entries(arg.properties).filter(([, v]) => v.required === true).map(([k]) => k);
    if (req.length) s.required = req;
  }
  if (arg.closedProperties) s.additionalProperties = false;
  if (arg.values !== undefined) s.additionalProperties = argSchema(arg.values);
  if (arg.oneOf !== undefined) s.oneOf = arg.oneOf.map(argSchema);
  if ('default' in arg) {
    const listType = Array.isArray(arg.type) ? arg.type : [arg.type];
    if (listType.length === 1 && listType[0] === 'array' && arg.default !== undefined && !Array.isArray(arg.default)) {
      // "status ... default publish" for an array of string: the value a client means is ["publish"].
      s.default = [arg.default];
      s[`${X}-stated-default`] = arg.default;
    } else s.default = arg.default;
  }
  if (arg.note !== undefined) s.description = arg.note;
  return s;
}


/** The statuses a post or page can read back with (part 3: write values and the filter-only ones, e.g. a trashed post). */
const READABLE_STATUSES = [...catalog.statuses.write, ...catalog.statuses.filterOnly.filter((s) => s !== 'any')];

/** A documented field as a response schema: contexts as x-contexts, read-only as readOnly; open to undocumented keys. */
export function fieldSchema(field: FieldSpec, name = ''): Schema {
  const s: Schema = {};
  typeOf(field.type, s);
  if (field.format === 'date-time') {
    s.pattern = DATE_TIME_OUT_PATTERN;
    s[`${X}-format`] = 'date-time';
  } else if (field.format !== undefined) s.format = field.format;
  if (field.enum !== undefined) {
    if (name === 'status') {
      s.enum = READABLE_STATUSES;
      s[`${X}-stated-enum`] = [...field.enum];
    } else s.enum = [...field.enum];
  }
  if (field.items !== undefined) s.items = argSchema(field.items);
  if (field.properties !== undefined) s.properties = Object.fromEntries(Object.entries(field.properties).map(([k, v]) => [k, fieldSchema(v, k)]));
  if (field.contexts !== undefined) s['x-contexts'] = [...field.contexts];
  if (field.readonly) s.readOnly = true;
  if ('default' in field) s.default = field.default;
  const notes = [field.note, s[`${X}-format`] ? 'date-time as servers of this interface write it: RFC 3339, the zone offset may be left out' : undefined, s[`${X}-stated-enum`] ? `stated values on write: ${field.enum!.join(', ')}; a post or page also reads back with the other statuses of part 3 (e.g. trash)` : undefined].filter(Boolean);
  if (notes.length) s.description = notes.join('; ');
  return s;
}
