/**
 * Generated inputs derived from the catalog's argument descriptors (never from re-typed
 * facts): values a correct server must accept, values it must reject even after
 * WordPress-style query-string coercion (see ./coerce.ts), and the boundary values tried
 * before any random one. Plus the seeded Faker used for fixture content.
 *
 * Valid values use the canonical wire forms (decimal integers, `true`/`false`, comma lists
 * `a=1,2` whose items hold no comma or white space, `o[k]=` maps, RFC 3339 date-times with a zone). Invalid values are built so that no
 * coercion in the list can make them valid, and never use inputs a correct server may read
 * either way (boolean aliases, empty scalars, other-case enum values, dates without a zone).
 */
import type { Faker } from '@faker-js/faker';
// Only the en locale (the package's main entry loads all of its ~70 locales).
import { faker as enFaker } from '@faker-js/faker/locale/en';
import fc from 'fast-check';
import type { ArgSpec } from '../schemas/types.ts';
import type { QueryValue } from '../src/sdk/http.ts';
import { typesOf } from '../schemas/values.ts';
import { coerceLikeWordPress } from './coerce.ts';

export { coerceLikeWordPress, type Verdict } from './coerce.ts';

/** Unbounded integers are drawn from [minimum ?? 0, that + UNBOUNDED_SPAN]. */
const UNBOUNDED_SPAN = 10_000;
/** Lists are kept short: one request carries one list. */
const MAX_LIST = 4;

const lowerLetters = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: min, maxLength: max });

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** RFC 3339 date-times with real calendar dates, `Z` or a ±HH:MM offset. */
export function dateTimeArb(): fc.Arbitrary<string> {
  return fc
    .record({
      y: fc.integer({ min: 1990, max: 2035 }),
      mo: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 28 }),
      h: fc.integer({ min: 0, max: 23 }),
      mi: fc.integer({ min: 0, max: 59 }),
      s: fc.integer({ min: 0, max: 59 }),
      zone: fc.oneof(fc.constant('Z'), fc.record({ sign: fc.constantFrom('+', '-'), h: fc.integer({ min: 0, max: 12 }), m: fc.constantFrom(0, 30) }).map((z) => `${z.sign}${pad(z.h)}:${pad(z.m)}`)),
    })
    .map((r) => `${r.y}-${pad(r.mo)}-${pad(r.d)}T${pad(r.h)}:${pad(r.mi)}:${pad(r.s)}${r.zone}`);
}

/** Strings that are not date-times under any reading: broken shapes and out-of-range parts. */
function invalidDateTimeArb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('not-a-date', 'yesterday', '20200101', '2020/01/01 10:00:00', '01-02-2020T00:00:00Z', '2020-1-1T1:1:1Z', '12345'),
    lowerLetters(3, 10).map((s) => `${s}day`),
    fc.record({ y: fc.integer({ min: 1990, max: 2035 }), mo: fc.integer({ min: 13, max: 99 }) }).map((r) => `${r.y}-${pad(r.mo)}-01T00:00:00Z`),
    fc.record({ y: fc.integer({ min: 1990, max: 2035 }), d: fc.integer({ min: 32, max: 99 }) }).map((r) => `${r.y}-01-${pad(r.d)}T00:00:00Z`),
    fc.record({ y: fc.integer({ min: 1990, max: 2035 }), h: fc.integer({ min: 25, max: 99 }) }).map((r) => `${r.y}-01-01T${pad(r.h)}:00:00Z`),
    fc.record({ y: fc.integer({ min: 1990, max: 2035 }), m: fc.integer({ min: 60, max: 99 }) }).map((r) => `${r.y}-01-01T10:${pad(r.m)}:00Z`),
  );
}

/** A string outside `values` in every case (an enum's complement without near misses). */
function outsideEnum(values: readonly (string | number | boolean)[]): fc.Arbitrary<string> {
  const lower = new Set(values.map((v) => String(v).toLowerCase()));
  return lowerLetters(2, 8)
    .map((s) => `x${s}q`)
    .filter((s) => !lower.has(s));
}

function integerRange(arg: ArgSpec): { min: number; max: number } {
  const min = arg.minimum ?? (arg.maximum !== undefined ? Math.min(0, arg.maximum) : 0);
  const max = arg.maximum ?? min + UNBOUNDED_SPAN;
  return { min, max };
}

/** Values a correct server must accept for `arg`, as query values. */
export function validArb(arg: ArgSpec): fc.Arbitrary<QueryValue> {
  if (arg.oneOf) {
    // A value matching two alternatives (e.g. "" for "array or object") is ambiguous: drop it.
    return fc.oneof(...arg.oneOf.map((alt) => validArb(alt))).filter((v) => coerceLikeWordPress(arg, v) === 'valid');
  }
  if (arg.enum) return fc.constantFrom(...arg.enum);
  const types = typesOf(arg);
  const type = types.find((t) => t !== 'null');
  switch (type) {
    case 'integer':
    case 'number':
      return fc.integer(integerRange(arg));
    case 'boolean':
      return fc.boolean();
    case 'string':
    case 'text':
      if (arg.format === 'date-time') return dateTimeArb();
      // Printable ASCII; a plain string argument accepts any string.
      return fc.string({ maxLength: 12 });
    case 'array': {
      // Text items one comma list can carry (src/http/wire.ts serializeQuery): no comma, no white space.
      const item = (arg.items ? validArb(arg.items) : fc.constant<QueryValue>('1')).filter((v) => typeof v !== 'string' || !/[\s,]/.test(v));
      const max = Math.min(MAX_LIST, arg.maxItems ?? MAX_LIST);
      return arg.uniqueItems ? fc.uniqueArray(item, { maxLength: max, selector: (v) => JSON.stringify(v) }) : fc.array(item, { maxLength: max });
    }
    case 'object': {
      const props = Object.fromEntries(Object.entries(arg.properties ?? {}).map(([k, p]) => [k, validArb(p)]));
      return fc.record(props, { requiredKeys: [] }) as fc.Arbitrary<QueryValue>;
    }
    default:
      // Nothing stated about the value: only its default is known to be accepted.
      return fc.constant(('default' in arg ? arg.default : undefined) as QueryValue);
  }
}

/**
 * Values a correct server must reject for `arg` even after WordPress-style query-string
 * coercion; null when no such value exists (a plain string, a list of free strings ...).
 */
export function invalidArb(arg: ArgSpec): fc.Arbitrary<QueryValue> | null {
  if (arg.oneOf) {
    const candidates = arg.oneOf.map((alt) => invalidArb(alt)).filter((a): a is fc.Arbitrary<QueryValue> => a !== null);
    if (candidates.length === 0) return null;
    // Invalid for one alternative is not enough: keep what no alternative accepts.
    return fc.oneof(...candidates).filter((v) => coerceLikeWordPress(arg, v) === 'invalid');
  }
  const types = typesOf(arg);
  if (arg.enum && (types.length === 0 || types.every((t) => t === 'string' || t === 'text'))) return outsideEnum(arg.enum);
  const type = types.find((t) => t !== 'null');
  switch (type) {
    case 'integer':
    case 'number': {
      const options: fc.Arbitrary<QueryValue>[] = [
        fc.constantFrom('abc', 'one', '1x', '0x1A', '--1', 'NaN', '1_000'),
        lowerLetters(1, 6).map((s) => `${s}z`),
      ];
      if (type === 'integer') options.push(fc.integer({ min: -1000, max: 1000 }).map((n) => `${n}.5`));
      if (arg.minimum !== undefined) options.push(fc.integer({ min: arg.minimum - 1000, max: arg.minimum - 1 }));
      if (arg.maximum !== undefined) options.push(fc.integer({ min: arg.maximum + 1, max: arg.maximum + 1000 }));
      return fc.oneof(...options);
    }
    case 'boolean':
      return fc.oneof(fc.constantFrom('maybe', '2', '-1', '10', 'truthy', 'nope'), lowerLetters(2, 6).map((s) => `${s}x`));
    case 'string':
    case 'text':
      if (arg.format === 'date-time') return invalidDateTimeArb();
      return null;
    case 'array': {
      const item = arg.items;
      const options: fc.Arbitrary<QueryValue>[] = [];
      const badItem = item ? invalidArb(item) : null;
      if (badItem) {
        const goodItem = item ? validArb(item) : fc.constant<QueryValue>('1');
        options.push(fc.tuple(fc.array(goodItem, { maxLength: 2 }), badItem).map(([good, bad]) => [...(good as QueryValue[]), bad]));
      }
      if (arg.uniqueItems && item) options.push(validArb(item).map((v) => [v, v]));
      return options.length ? fc.oneof(...options) : null;
    }
    case 'object': {
      const options: fc.Arbitrary<QueryValue>[] = [];
      for (const [k, p] of Object.entries(arg.properties ?? {})) {
        const bad = invalidArb(p);
        if (bad) options.push(bad.map((v) => ({ [k]: v })));
      }
      if (arg.closedProperties) {
        const known = new Set(Object.keys(arg.properties ?? {}));
        options.push(lowerLetters(2, 8).map((s) => `x${s}`).filter((k) => !known.has(k)).map((k) => ({ [k]: '1' })));
      }
      return options.length ? fc.oneof(...options) : null;
    }
    default:
      return null;
  }
}

/**
 * The values tried first: minimum, maximum, one past each, every enum member, one value
 * outside the enum, one of the wrong type, the empty and one-item lists ...
 */
export function boundaryValues(arg: ArgSpec): { valid: QueryValue[]; invalid: QueryValue[] } {
  const valid: QueryValue[] = [];
  const invalid: QueryValue[] = [];
  if (arg.oneOf) {
    for (const alt of arg.oneOf) {
      const b = boundaryValues(alt);
      valid.push(...b.valid);
      invalid.push(...b.invalid);
    }
  } else {
    const types = typesOf(arg);
    const type = types.find((t) => t !== 'null');
    if (arg.enum) {
      valid.push(...arg.enum);
      if (types.length === 0 || types.every((t) => t === 'string' || t === 'text')) invalid.push('xbogusq');
    } else if (type === 'integer' || type === 'number') {
      const { min, max } = integerRange(arg);
      valid.push(min);
      if (arg.maximum !== undefined) valid.push(max);
      if (arg.minimum !== undefined) invalid.push(arg.minimum - 1);
      if (arg.maximum !== undefined) invalid.push(arg.maximum + 1);
      invalid.push('abc');
    } else if (type === 'boolean') {
      valid.push(true, false);
      invalid.push('maybe');
    } else if (type === 'string' || type === 'text') {
      if (arg.format === 'date-time') {
        valid.push('2001-02-03T04:05:06Z');
        invalid.push('not-a-date', '2001-13-03T04:05:06Z');
      } else valid.push('cmsc');
    } else if (type === 'array') {
      valid.push([]);
      const item = arg.items ? boundaryValues(arg.items) : { valid: ['1'], invalid: [] };
      // Every item boundary (each enum member ...) as a one-item list.
      for (const v of item.valid) valid.push([v]);
      for (const v of item.invalid) invalid.push([v]);
      if (arg.uniqueItems && item.valid.length) invalid.push([item.valid[0]!, item.valid[0]!]);
    } else if (type === 'object') {
      for (const [k, p] of Object.entries(arg.properties ?? {})) {
        const b = boundaryValues(p);
        for (const v of b.valid) valid.push({ [k]: v });
        for (const v of b.invalid) invalid.push({ [k]: v });
      }
      if (arg.closedProperties) invalid.push({ xbogus: '1' });
    } else if ('default' in arg) valid.push(arg.default as QueryValue);
  }
  const key = (v: QueryValue) => JSON.stringify(v);
  const dedupe = (vs: QueryValue[]) => [...new Map(vs.map((v) => [key(v), v])).values()];
  return {
    valid: dedupe(valid.filter((v) => coerceLikeWordPress(arg, v) === 'valid')),
    invalid: dedupe(invalid.filter((v) => coerceLikeWordPress(arg, v) === 'invalid')),
  };
}

/** fast-check parameters of a run: its seed and `--runs`. */
export function propertyParams(run: { config: { seed: number; runs: number } }): { seed: number; numRuns: number } {
  return { seed: run.config.seed, numRuns: run.config.runs };
}

/** A Faker whose output depends only on `seed` (titles, HTML content, excerpts, slugs). */
export function seededFaker(seed: number): Faker {
  const faker = new (enFaker.constructor as typeof Faker)({ locale: [enFaker.rawDefinitions] });
  faker.seed(seed);
  return faker;
}

/** A stable 32-bit hash, to derive per-behaviour seeds from the run seed. */
export function mixSeed(seed: number, salt: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < salt.length; i++) h = Math.imul(h ^ salt.charCodeAt(i), 0x01000193) >>> 0;
  return h & 0x7fffffff;
}
