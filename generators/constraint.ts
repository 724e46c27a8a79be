/**
 * The documented constraint a value breaks, in the documents' words, for a refusal check's
 * message: `search_semantics="xbogusq": accepted with 200, documented: one of "exact"`; an object
 * arg's `no other keys than a, b`; a bound `at least 1`. The reader sees which rule the check
 * applied without our sources.
 */
import type { ArgSpec } from '../schemas/types.ts';
import type { QueryValue } from '../src/sdk/http.ts';
import { coerceLikeWordPress } from './coerce.ts';

const typesOf = (arg: ArgSpec) => (Array.isArray(arg.type) ? arg.type : arg.type ? [arg.type] : []);
const quote = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** What the documents state a value of `arg` is: "one of "exact"", "an integer from 1 to 100", "an object with the keys a, b and no other keys". */
export function describeArg(arg: ArgSpec): string {
  if (arg.oneOf) return arg.oneOf.map(describeArg).join(', or ');
  if (arg.enum) return `one of ${arg.enum.map(quote).join(', ')}`;
  const type = typesOf(arg).find((t) => t !== 'null');
  switch (type) {
    case 'integer':
    case 'number': {
      const what = type === 'integer' ? 'an integer' : 'a number';
      if (arg.minimum !== undefined && arg.maximum !== undefined) return `${what} from ${arg.minimum} to ${arg.maximum}`;
      if (arg.minimum !== undefined) return `${what} of at least ${arg.minimum}`;
      if (arg.maximum !== undefined) return `${what} of at most ${arg.maximum}`;
      return what;
    }
    case 'boolean':
      return 'a boolean (true or false)';
    case 'array':
      return `a list${arg.items ? ` of ${describeArg(arg.items).replace(/^(an?|one) /, (m) => (m === 'one ' ? 'each one ' : ''))}` : ''}${arg.uniqueItems ? ', without repeats' : ''}`;
    case 'object': {
      const keys = Object.keys(arg.properties ?? {});
      return `an object${keys.length ? ` with the keys ${keys.join(', ')}` : ''}${arg.closedProperties ? ' and no other keys' : ''}`;
    }
    case 'string':
    case 'text':
      return arg.format === 'date-time' ? 'a date-time (RFC 3339)' : 'a string';
    default:
      return type ? `a ${type}` : 'a value';
  }
}

/**
 * The constraint of `arg` that `value` breaks, as precisely as can be said: the part of a list or
 * object that is wrong (`item "x": one of …`, `key "xab": no other keys than a, b`), a bound
 * (`at least 1`), else what the arg is.
 */
export function brokenConstraint(arg: ArgSpec, value: QueryValue): string {
  if (arg.oneOf) {
    const alts = arg.oneOf.map((a) => brokenConstraint(a, value));
    return `${describeArg(arg)} (${alts.join('; ')})`;
  }
  const type = typesOf(arg).find((t) => t !== 'null');
  if (arg.enum && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) return `one of ${arg.enum.map(quote).join(', ')}`;
  if ((type === 'integer' || type === 'number') && (typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)))) {
    const n = Number(value);
    if (type === 'integer' && !Number.isInteger(n)) return 'an integer';
    if (arg.minimum !== undefined && n < arg.minimum) return `at least ${arg.minimum}`;
    if (arg.maximum !== undefined && n > arg.maximum) return `at most ${arg.maximum}`;
  }
  if (type === 'array' && Array.isArray(value) && arg.items) {
    const bad = value.find((v) => coerceLikeWordPress(arg.items!, v as QueryValue) === 'invalid');
    if (bad !== undefined) return `a list whose every item is ${describeArg(arg.items)} (item ${quote(bad)} is not)`;
    if (arg.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size < value.length) return 'a list without repeats';
  }
  if (type === 'object' && isObject(value)) {
    const keys = Object.keys(arg.properties ?? {});
    const extra = Object.keys(value).find((k) => !keys.includes(k));
    if (extra !== undefined && arg.closedProperties) return `an object with no other keys than ${keys.join(', ')} (key ${quote(extra)} is not one)`;
    for (const [k, v] of Object.entries(value)) {
      const p = arg.properties?.[k];
      if (p && coerceLikeWordPress(p, v as QueryValue) === 'invalid') return `key ${k}: ${brokenConstraint(p, v as QueryValue)}`;
    }
  }
  return describeArg(arg);
}
