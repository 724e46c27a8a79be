/**
 * A small model of how a WordPress-style server reads a query value against a documented
 * argument descriptor (wordpress-behaviour.md §2, "Coercion of query-string values").
 *
 * It is the yardstick the generators are proven against: a value the generators call
 * *invalid* must classify as `invalid` here (it stays invalid after every coercion a
 * WordPress-style server applies), a value they call *valid* must classify as `valid`.
 * `ambiguous` marks inputs where a correct server could reasonably go either way (a boolean
 * alias such as "yes", an empty scalar, an enum value in another case, a date-time without
 * a time zone ...): the generators must never produce those on either side.
 *
 * Coercions modelled:
 * - every query value reaches the server as a string or a map (`a[k]=`): an array is sent as one
 *   comma list (`a=1,2`, src/http/client.ts serializeQuery), which the server splits again; an array
 *   whose items a comma list cannot carry (an item holding a comma or white space, a nested list)
 *   is not sent at all, so it is `ambiguous` here and never generated;
 * - boolean: "true", "false", "1", "0" in any case;
 * - integer: PHP `is_numeric` with a whole value ("10", "10.0", "1e1", " 10", "+10");
 * - array: a scalar is split on commas and white space; "" is an empty array;
 * - object: "" is an empty object;
 * - string: anything.
 * The rules for one value (the boolean words, PHP's is_numeric) are schemas/values.ts; this file adds
 * the wire (how a query value travels) and the verdicts.
 */
import type { ArgSpec, DeclaredType } from '../schemas/types.ts';
import { BOOLEAN_WORDS, phpNumeric, typesOf } from '../schemas/values.ts';
import type { QueryValue } from '../src/sdk/http.ts';

export type Verdict = 'valid' | 'invalid' | 'ambiguous';

/** What the server receives for a query value: absent, a string or a map; `list`: an array that cannot be sent (see toWire). */
export type Wire = { kind: 'absent' } | { kind: 'string'; value: string } | { kind: 'list'; items: Wire[] } | { kind: 'map'; entries: [string, Wire][] };

/**
 * The wire form of a query value, as src/http/client.ts serialises it: an array as one comma list
 * (`a=1,2`; the empty array `a=`), an object as `o[k]=v`. An array whose items one comma list
 * cannot carry (serializeQuery refuses it) stays a `list`: nothing a server receives.
 */
export function toWire(value: QueryValue): Wire {
  if (value === undefined) return { kind: 'absent' };
  if (value === null) return { kind: 'string', value: '' };
  if (Array.isArray(value)) {
    const items = value.filter((v) => v !== undefined);
    const sendable = items.every((v) => v === null || (typeof v !== 'object' && !/[\s,]/.test(String(v))));
    if (!sendable) return { kind: 'list', items: items.map(toWire) };
    return { kind: 'string', value: items.map((v) => (v === null ? '' : String(v))).join(',') };
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, toWire(v)] as [string, Wire])
      .filter(([, w]) => w.kind !== 'absent');
    return entries.length === 0 ? { kind: 'absent' } : { kind: 'map', entries };
  }
  return { kind: 'string', value: String(value) };
}

/** Words some servers read as booleans although the coercion list does not name them. */
const BOOLEAN_ALIASES = new Set(['yes', 'no', 'on', 'off', 'y', 'n', 't', 'f', 'null', 'none']);

/** Strict RFC 3339 date-time with real calendar and clock ranges. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;
/** What WordPress's rest_parse_date lets through before strtotime: space separator, no zone, ±HH. */
const WP_DATE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}(:\d{2})?)?$/i;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function classifyDateTime(s: string): Verdict {
  const strict = RFC3339.exec(s);
  if (strict) {
    const [y, mo, d, h, mi, se] = strict.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    const zoneOk = strict[8] === 'Z' || (Number(strict[9]) <= 23 && Number(strict[10]) <= 59);
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(y, mo) && h <= 23 && mi <= 59 && se <= 59 && zoneOk) return 'valid';
  }
  const loose = WP_DATE.exec(s.trim());
  if (loose) {
    const [, , mo, d, h, mi, se] = loose.slice(0, 7).map(Number) as number[];
    // PHP's parser accepts day overflow (02-30), hour 24 and second 60; it refuses month 13, day 32, hour 25, minute 60.
    if (mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= 31 && h! <= 24 && mi! <= 59 && se! <= 60) return 'ambiguous';
    return 'invalid';
  }
  if (s.trim() === '' || /^\d{4}-\d{2}-\d{2}$/.test(s.trim())) return 'ambiguous';
  return 'invalid';
}

function combine(verdicts: Verdict[]): Verdict {
  if (verdicts.includes('invalid')) return 'invalid';
  if (verdicts.includes('ambiguous')) return 'ambiguous';
  return 'valid';
}

/** Any of: valid if one alternative is valid, invalid if all are invalid, else ambiguous. */
function anyOf(verdicts: Verdict[]): Verdict {
  if (verdicts.includes('valid')) return 'valid';
  if (verdicts.includes('ambiguous')) return 'ambiguous';
  return 'invalid';
}

function enumVerdict(arg: ArgSpec, s: string): Verdict | undefined {
  if (!arg.enum) return undefined;
  if (arg.enum.some((e) => String(e) === s)) return 'valid';
  if (arg.enum.some((e) => String(e).toLowerCase() === s.trim().toLowerCase())) return 'ambiguous';
  return 'invalid';
}

/** The scalar items a list-typed value stands for. */
function listItems(w: Wire): Wire[] | 'not-a-list' | 'ambiguous' {
  if (w.kind === 'string') {
    return w.value
      .split(/[\s,]+/)
      .filter((p) => p !== '')
      .map((value) => ({ kind: 'string', value }) as Wire);
  }
  // An array a comma list cannot carry: an item holding a separator is never sent (ambiguous); a list
  // of objects is no query value at all (a body's: judged by its items).
  if (w.kind === 'list') return w.items.some((i) => i.kind === 'string' && /[\s,]/.test(i.value)) ? 'ambiguous' : w.items;
  // `a[k]=v` for a list: WordPress rejects it, other query parsers build a list.
  if (w.kind === 'map') return 'ambiguous';
  return [];
}

function canonicalItem(w: Wire, items: ArgSpec | undefined): string {
  if (w.kind === 'string' && items && typesOf(items).includes('integer')) {
    const n = phpNumeric(w.value);
    if (n !== undefined) return String(n);
  }
  return JSON.stringify(w);
}

function classifyType(type: DeclaredType, arg: ArgSpec, w: Wire): Verdict {
  switch (type) {
    case 'boolean': {
      if (w.kind !== 'string') return 'ambiguous';
      const s = w.value.toLowerCase();
      if (BOOLEAN_WORDS.has(s)) return 'valid';
      if (s.trim() === '' || BOOLEAN_ALIASES.has(s.trim())) return 'ambiguous';
      return 'invalid';
    }
    case 'integer':
    case 'number': {
      // A list or map for a scalar: WordPress rejects it; other query parsers may take one item.
      if (w.kind !== 'string') return 'ambiguous';
      if (w.value.trim() === '') return 'ambiguous';
      const n = phpNumeric(w.value);
      if (n === undefined || !Number.isFinite(n)) return 'invalid';
      if (type === 'integer' && Math.round(n) !== n) return 'invalid';
      if (arg.minimum !== undefined && n < arg.minimum) return 'invalid';
      if (arg.maximum !== undefined && n > arg.maximum) return 'invalid';
      const canonical = type === 'integer' ? /^-?\d+$/.test(w.value) : /^-?\d+(\.\d+)?$/.test(w.value);
      return canonical ? 'valid' : 'ambiguous';
    }
    case 'string':
    case 'text': {
      if (w.kind !== 'string') return 'ambiguous';
      const e = enumVerdict(arg, w.value);
      if (e) return e;
      if (arg.format === 'date-time') return classifyDateTime(w.value);
      return 'valid';
    }
    case 'array': {
      const items = listItems(w);
      if (items === 'ambiguous') return 'ambiguous';
      if (items === 'not-a-list') return 'invalid';
      const verdicts = items.map((i) => (arg.items ? classifyArg(arg.items, i) : ('valid' as Verdict)));
      let v = combine(verdicts);
      if (arg.maxItems !== undefined && items.length > arg.maxItems) v = 'invalid';
      if (arg.uniqueItems) {
        const seen = items.map((i) => canonicalItem(i, arg.items));
        if (new Set(seen).size !== seen.length) v = 'invalid';
      }
      return v;
    }
    case 'object': {
      let entries: [string, Wire][];
      if (w.kind === 'string') {
        if (w.value !== '') return 'invalid';
        entries = [];
      } else if (w.kind === 'list') entries = w.items.map((item, i) => [String(i), item]);
      else if (w.kind === 'map') entries = w.entries;
      else entries = [];
      const verdicts = entries.map(([k, v]) => {
        const prop = arg.properties?.[k];
        if (prop) return classifyArg(prop, v);
        return arg.closedProperties ? ('invalid' as Verdict) : ('valid' as Verdict);
      });
      return combine(verdicts);
    }
    case 'null':
      return w.kind === 'string' && w.value === '' ? 'valid' : 'invalid';
  }
}

function classifyArg(arg: ArgSpec, w: Wire): Verdict {
  if (w.kind === 'absent') return 'valid';
  if (arg.oneOf) {
    // With an object alternative, a map (`a[k]=v`) is that object, not a list in disguise.
    const hasObject = arg.oneOf.some((alt) => typesOf(alt).includes('object'));
    const verdicts = arg.oneOf.map((alt) =>
      w.kind === 'map' && hasObject && !typesOf(alt).includes('object') ? ('invalid' as Verdict) : classifyArg(alt, w),
    );
    const valid = verdicts.filter((v) => v === 'valid').length;
    // Matching both alternatives: WordPress's oneOf rejects it, the spec's "or" accepts it.
    if (valid > 1) return 'ambiguous';
    return anyOf(verdicts);
  }
  const types = typesOf(arg);
  if (types.length === 0) {
    if (arg.enum && w.kind === 'string') return enumVerdict(arg, w.value)!;
    if (arg.enum) return 'invalid';
    if ('default' in arg && JSON.stringify(toWire(arg.default as QueryValue)) === JSON.stringify(w)) return 'valid';
    // Nothing is stated about the value: nothing is known to be valid or invalid.
    return 'ambiguous';
  }
  return anyOf(types.map((t) => classifyType(t, arg, w)));
}

/**
 * How a WordPress-style server must treat `value` sent as a query value for `arg`, after
 * its query-string coercion.
 */
export function coerceLikeWordPress(arg: ArgSpec, value: QueryValue): Verdict {
  return classifyArg(arg, toWire(value));
}
