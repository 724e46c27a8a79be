/**
 * Values of a declared type (the types of core part 2's field tables and of every documented
 * argument), in one place for the suites, the generators and the faults:
 * - what a value of a type is, as a response carries it (`isOfType`), and as the documents let a
 *   boolean be written (`asBoolean`, `hasType`: part 2, "booleans are given as 0/1 or true/false");
 * - what a WordPress-style server takes for a type once it has coerced a request's value
 *   (wordpress-behaviour.md §2, "Coercion of query-string values": `isBooleanish`, `phpNumeric`,
 *   `fitsAfterCoercion`; the query-string model built on it is generators/coerce.ts);
 * - the values the checks send: a valid one (`validValue`) and wrong ones that no coercion makes
 *   valid (`wrongTypeValue`, `wrongTypeValues`, `OUTSIDE_ENUM`).
 * The reference server keeps its own port of WordPress's rules (targets/reference/validate.ts): the
 * yardstick and what it measures are not written from one copy.
 */
import type { ArgSpec, DeclaredType } from './types.ts';

/** The types a field or argument declares, as a list ([] when it declares none). */
export function typesOf(spec: { type?: DeclaredType | readonly DeclaredType[] }): DeclaredType[] {
  return spec.type === undefined ? [] : Array.isArray(spec.type) ? [...spec.type] : [spec.type as DeclaredType];
}

/** Is `v` a JSON value of the type, as a response carries it (no coercion)? `text` is a string; an unknown type takes anything. */
export function isOfType(type: DeclaredType | string | undefined, v: unknown): boolean {
  switch (type) {
    case 'string':
    case 'text':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'null':
      return v === null;
    default:
      return true;
  }
}

/** Part 2: "booleans are given as 0/1 or true/false". undefined when the value is not one of those. */
export function asBoolean(v: unknown): boolean | undefined {
  if (v === true || v === 1 || v === '1') return true;
  if (v === false || v === 0 || v === '0') return false;
  return undefined;
}

/** Is `v` a value of the documented type (booleans also as 0/1, as part 2 says)? */
export function hasType(type: DeclaredType | undefined, v: unknown): boolean {
  return type === 'boolean' ? asBoolean(v) !== undefined : isOfType(type, v);
}

// ---------------------------------------------------------------- coercion (wordpress-behaviour.md §2)

/** The strings a WordPress-style server reads as booleans, in any case. */
export const BOOLEAN_WORDS: ReadonlySet<string> = new Set(['true', 'false', '1', '0']);

/** A boolean once coerced: true/false, 0/1, or one of BOOLEAN_WORDS in any case. */
export const isBooleanish = (v: unknown): boolean => typeof v === 'boolean' || v === 0 || v === 1 || BOOLEAN_WORDS.has(String(v).toLowerCase());

/** PHP 8 `is_numeric`: optional surrounding white space, sign, digits, fraction, exponent. */
export function phpNumeric(s: string): number | undefined {
  if (!/^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(s)) return undefined;
  return Number(s.trim());
}

/**
 * Is `v` (a JSON body value) of the type once a WordPress-style server has coerced it? Booleans as
 * isBooleanish, integers also as numeric strings, objects also as lists (PHP arrays); other types
 * as they come. A wrong type is a value for which this is false.
 */
export function fitsAfterCoercion(type: DeclaredType, v: unknown): boolean {
  switch (type) {
    case 'boolean':
      return isBooleanish(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' ? Number.isInteger(v) : typeof v === 'string' && Number.isInteger(phpNumeric(v));
    case 'array':
      return Array.isArray(v);
    case 'object':
      return !!v && typeof v === 'object';
    default:
      return true;
  }
}

// ---------------------------------------------------------------- the values the checks send

/** Where a parameter travels: the query string (GET, DELETE) or a JSON body. */
export type Carrier = 'query' | 'body';

/**
 * A value of the documented type that is NOT of it even after the coercion a WordPress-style
 * server applies (wordpress-behaviour.md §2: "1"/"true" are booleans, numeric strings are
 * integers, scalars are split into arrays, "" and any array count as objects). undefined when no
 * such value exists for the carrier (every query value is a string; `text` and untyped args have
 * no type to violate).
 */
export function wrongTypeValue(arg: ArgSpec, carrier: Carrier): unknown {
  const type = Array.isArray(arg.type) ? undefined : arg.type;
  switch (type) {
    case 'string':
      return carrier === 'body' ? 42 : undefined;
    case 'integer':
    case 'number':
      return 'ten';
    case 'boolean':
      return 'yes';
    case 'array':
      // Not a list under any coercion: keys that are not indexes.
      return { cmsc: 'x' };
    case 'object':
      return carrier === 'body' ? 5 : 'cmsc';
    default:
      return undefined;
  }
}

/** Several wrong-type values for settings (JSON body), each invalid after coercion. */
export function wrongTypeValues(type: DeclaredType): unknown[] {
  switch (type) {
    case 'boolean':
      return ['yes', 2];
    case 'string':
      return [42, { cmsc: 'x' }];
    case 'integer':
      return ['ten', { cmsc: 1 }];
    case 'array':
      return [{ cmsc: 'x' }];
    case 'object':
      return [5, 'cmsc'];
    default:
      return [];
  }
}

/** A valid value for an argument (only its type and enum are known). */
export function validValue(arg: ArgSpec): unknown {
  if (arg.enum && arg.enum.length) return arg.default !== undefined ? arg.default : arg.enum[0];
  if (arg.format === 'uri') return 'https://example.com/';
  const type = Array.isArray(arg.type) ? arg.type[0] : arg.type;
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return ['cmsc'];
    case 'object':
      return { cmsc: 'x' };
    default:
      return 'cmsc';
  }
}

/** An enum-violating value. */
export const OUTSIDE_ENUM = 'cmsc-not-allowed';
