/**
 * Argument schemas: the catalog's ArgSpec turned into the JSON-schema-like descriptor WordPress
 * validates with and advertises in its index (`type`, `enum`, `items`, `properties`,
 * `additionalProperties`, `oneOf` ...).
 *
 * The catalog is the source of every documented fact. Where the spec states nothing (an arg
 * without a type, a not-shown parameter list) a handler module may add an *overlay*: the
 * attributes WordPress has at that place (wordpress-behaviour.md), used only to fill attributes
 * the catalog leaves out — a catalog fact always wins.
 */
import type { ArgSpec } from '../../schemas/types.ts';

export interface WpSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  required?: boolean;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  format?: string;
  items?: WpSchema;
  uniqueItems?: boolean;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  properties?: Record<string, WpSchema>;
  additionalProperties?: boolean | WpSchema;
  oneOf?: WpSchema[];
  anyOf?: WpSchema[];
}

/** ArgSpec → WpSchema: every stated attribute, nothing else (notes are not attributes). */
export function fromArgSpec(arg: ArgSpec): WpSchema {
  const s: WpSchema = {};
  if (arg.type !== undefined) s.type = Array.isArray(arg.type) ? [...arg.type] : arg.type;
  if ('default' in arg) s.default = structuredClone(arg.default);
  if (arg.required !== undefined) s.required = arg.required;
  if (arg.enum !== undefined) s.enum = [...arg.enum];
  if (arg.minimum !== undefined) s.minimum = arg.minimum;
  if (arg.maximum !== undefined) s.maximum = arg.maximum;
  if (arg.format !== undefined) s.format = arg.format;
  if (arg.items !== undefined) s.items = fromArgSpec(arg.items);
  if (arg.uniqueItems !== undefined) s.uniqueItems = arg.uniqueItems;
  if (arg.maxItems !== undefined) s.maxItems = arg.maxItems;
  if (arg.minLength !== undefined) s.minLength = arg.minLength;
  if (arg.maxLength !== undefined) s.maxLength = arg.maxLength;
  if (arg.pattern !== undefined) s.pattern = arg.pattern;
  if (arg.properties !== undefined)
    s.properties = Object.fromEntries(Object.entries(arg.properties).map(([k, v]) => [k, fromArgSpec(v)]));
  if (arg.closedProperties === true) s.additionalProperties = false;
  if (arg.oneOf !== undefined) s.oneOf = arg.oneOf.map(fromArgSpec);
  return s;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Fill the attributes `base` does not have from `patch` (recursively into properties, items and,
 * by position, oneOf). Attributes `base` has are never changed.
 */
export function fillMissing(base: WpSchema, patch: WpSchema): WpSchema {
  const out: any = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k];
    if (cur === undefined) out[k] = structuredClone(v);
    else if (k === 'properties' && isObj(cur) && isObj(v)) {
      const props: Record<string, WpSchema> = { ...(cur as Record<string, WpSchema>) };
      for (const [name, sub] of Object.entries(v as Record<string, WpSchema>))
        props[name] = props[name] ? fillMissing(props[name]!, sub) : structuredClone(sub);
      out[k] = props;
    } else if (k === 'items' && isObj(cur) && isObj(v)) out[k] = fillMissing(cur as WpSchema, v as WpSchema);
    else if (k === 'oneOf' && Array.isArray(cur) && Array.isArray(v))
      out[k] = cur.map((alt: WpSchema, i: number) => (v[i] ? fillMissing(alt, v[i] as WpSchema) : alt));
  }
  return out as WpSchema;
}

/**
 * An argument documented as alternatives ("array of integer, or object") in the form a dialect
 * advertises and validates it (dialect.ts `argUnions`): WordPress's `oneOf`; `anyOf` with the same
 * alternatives; or one descriptor with a type union whose attributes are those of each
 * alternative (`items` of the array, `properties` and `additionalProperties` of the object), which
 * admits the same values (each attribute applies to its own type only).
 */
export function unionForm(schema: WpSchema, form: 'oneOf' | 'type-union' | 'anyOf'): WpSchema {
  if (!schema.oneOf || form === 'oneOf') return schema;
  const { oneOf, ...rest } = schema;
  if (form === 'anyOf') return { ...rest, anyOf: oneOf };
  const types = new Set<string>([rest.type ?? []].flat());
  const out: WpSchema = { ...rest };
  for (const alt of oneOf) {
    const { type, title: _t, description: _d, ...attrs } = alt;
    for (const t of [type ?? []].flat()) types.add(t);
    for (const [k, v] of Object.entries(attrs)) if ((out as Record<string, unknown>)[k] === undefined) (out as Record<string, unknown>)[k] = structuredClone(v);
  }
  out.type = [...types];
  return out;
}

/** The descriptor as it appears under `args` in the index (WordPress prints `required` on every arg). */
export function advertise(schema: WpSchema): Record<string, unknown> {
  const out = structuredClone(schema) as Record<string, unknown>;
  out.required = schema.required === true;
  return out;
}

/** A pattern of a path segment for a route regex: `(?P<name>pattern)`. */
export function segmentGroup(name: string, pattern: string): string {
  return `(?P<${name}>${pattern})`;
}
