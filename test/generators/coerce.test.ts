/**
 * The coercion model (generators/coerce.ts) against the list of query-string coercions a
 * WordPress-style server applies (wordpress-behaviour.md §2), item by item, plus what the
 * embedded WordPress 6.5.5 was seen doing (dates, oneOf of a list and an object).
 */
import { describe, expect, it } from 'vitest';
import { endpointById } from '../../schemas/catalog/index.ts';
import type { ArgSpec } from '../../schemas/types.ts';
import { classifyDateTime, coerceLikeWordPress as c, toWire } from '../../generators/coerce.ts';
import { phpNumeric } from '../../schemas/values.ts';

const args = (id: string) => {
  const a = endpointById(id).endpoint.args;
  if (a === 'not-shown') throw new Error(id);
  return a;
};
const posts = args('cms.posts.collection.list');
const arg = (name: string): ArgSpec => posts[name]!;

describe('booleans: "true", "false", "1", "0" in any case', () => {
  const sticky = arg('sticky');
  it.each([true, false, 'true', 'false', '1', '0', 'TRUE', 'False', 1, 0])('%s is a boolean', (v) => expect(c(sticky, v)).toBe('valid'));
  it.each(['yes', 'no', 'on', 'off', '', 'null'])('%j is read either way by some servers (never generated)', (v) => expect(c(sticky, v)).toBe('ambiguous'));
  it.each(['maybe', '2', '-1', '10', 'truthy'])('%j is not a boolean', (v) => expect(c(sticky, v)).toBe('invalid'));
});

describe('integers: is_numeric with a whole value', () => {
  const offset = arg('offset');
  const perPage = arg('per_page');
  it.each([0, 7, '7', '-3'])('%j is an integer', (v) => expect(c(offset, v)).toBe('valid'));
  it.each(['10.0', '1e1', ' 10', '10 ', '+10', '1E1'])('%j coerces to an integer (valid, not canonical: never generated as valid)', (v) => expect(c(offset, v)).toBe('ambiguous'));
  it.each(['1.5', 'abc', '0x1A', '1x', 'NaN', 'Infinity', '1_000', '--1', 'true'])('%j is not an integer', (v) => expect(c(offset, v)).toBe('invalid'));
  it('bounds apply after coercion', () => {
    expect(c(perPage, 1)).toBe('valid');
    expect(c(perPage, 100)).toBe('valid');
    expect(c(perPage, 0)).toBe('invalid');
    expect(c(perPage, 101)).toBe('invalid');
    expect(c(perPage, '1e3')).toBe('invalid');
    expect(c(perPage, '100.0')).toBe('ambiguous');
    expect(c(perPage, '1e2')).toBe('ambiguous');
  });
  it('PHP is_numeric', () => {
    expect(phpNumeric('1e1')).toBe(10);
    expect(phpNumeric(' 5')).toBe(5);
    expect(phpNumeric('.5')).toBe(0.5);
    expect(phpNumeric('0x1A')).toBeUndefined();
    expect(phpNumeric('1,5')).toBeUndefined();
  });
});

describe('arrays: comma and space lists, "" is empty', () => {
  const include = arg('include');
  it.each([[[1, 2]], ['1,2'], ['1 2'], ['1, 2'], [''], [[]], ['3']])('%j is an array of integers', (v) => expect(c(include, v)).toBe('valid'));
  it.each([['a,b'], [['1', 'x']], ['1.5'], [[1.5]]])('%j is not an array of integers', (v) => expect(c(include, v)).toBe('invalid'));
  it('a map for a list is read either way', () => expect(c(include, { k: '1' })).toBe('ambiguous'));
  it('uniqueItems after coercion', () => {
    const format = arg('format');
    expect(c(format, ['aside', 'chat'])).toBe('valid');
    expect(c(format, ['aside', 'aside'])).toBe('invalid');
    expect(c(format, 'aside,aside')).toBe('invalid');
  });
  it('array items against their enum', () => {
    const status = arg('status');
    expect(c(status, ['draft', 'any'])).toBe('valid');
    expect(c(status, 'draft,trash')).toBe('valid');
    expect(c(status, ['draft', 'bogus'])).toBe('invalid');
    expect(c(status, ['DRAFT'])).toBe('ambiguous');
  });
});

describe('objects and "array of integer, or object"', () => {
  const categories = arg('categories');
  const tags = arg('tags');
  it('a term list or a closed taxonomy query', () => {
    expect(c(categories, [1, 2])).toBe('valid');
    expect(c(categories, '1,2')).toBe('valid');
    expect(c(categories, { terms: [1], operator: 'AND', include_children: true })).toBe('valid');
    expect(c(categories, { terms: [] })).toBe('valid');
  });
  it('"" matches both alternatives (WordPress refuses it, the spec’s "or" accepts it)', () => expect(c(categories, [])).toBe('ambiguous'));
  it('what neither alternative accepts', () => {
    expect(c(categories, { operator: 'XOR' })).toBe('invalid');
    expect(c(categories, { bogus: '1' })).toBe('invalid');
    expect(c(categories, { terms: ['abc'] })).toBe('invalid');
    expect(c(categories, 'abc')).toBe('invalid');
    expect(c(categories, ['abc'])).toBe('invalid');
    expect(c(tags, { include_children: true })).toBe('invalid');
  });
});

describe('enums and strings', () => {
  it('exact members only; other case is read either way', () => {
    expect(c(arg('order'), 'asc')).toBe('valid');
    expect(c(arg('order'), 'ASC')).toBe('ambiguous');
    expect(c(arg('order'), ' asc')).toBe('ambiguous');
    expect(c(arg('order'), 'up')).toBe('invalid');
  });
  it('a plain string accepts anything', () => {
    expect(c(arg('search'), '')).toBe('valid');
    expect(c(arg('search'), 'a,b c')).toBe('valid');
    expect(c(arg('search'), 12)).toBe('valid');
  });
  it('an argument stating no type and no values: only its default is known', () => {
    const terms = (arg('tags').oneOf![1]!.properties!.terms)!;
    expect(c(terms, [])).toBe('valid');
    expect(c(terms, [1])).toBe('ambiguous');
  });
});

describe('date-time', () => {
  it.each(['2001-02-03T04:05:06Z', '2001-02-03T04:05:06+05:30', '2001-02-03T04:05:06.123Z', '2024-02-29T00:00:00Z'])('%s is a date-time', (v) => expect(classifyDateTime(v)).toBe('valid'));
  it.each(['2001-02-03T04:05:06', '2001-02-03 04:05:06', '2020-02-30T00:00:00Z', '2020-01-01T24:00:00Z', '2020-01-01T10:00:60Z', '2020-01-01', ''])(
    '%j is accepted by WordPress but is not RFC 3339 (never generated)',
    (v) => expect(classifyDateTime(v)).toBe('ambiguous'),
  );
  it.each(['not-a-date', '2020-13-01T00:00:00Z', '2020-01-32T00:00:00Z', '2020-01-01T25:00:00Z', '2020-01-01T10:60:00Z', '20200101', '2020/01/01 10:00:00'])(
    '%j is refused by WordPress and is no date-time',
    (v) => expect(classifyDateTime(v)).toBe('invalid'),
  );
});

describe('wire forms (as src/http/client.ts serialises them)', () => {
  it('lists, maps, empties', () => {
    expect(toWire([])).toEqual({ kind: 'string', value: '' });
    expect(toWire(undefined)).toEqual({ kind: 'absent' });
    expect(toWire({})).toEqual({ kind: 'absent' });
    expect(toWire(true)).toEqual({ kind: 'string', value: 'true' });
    expect(toWire({ terms: [] })).toEqual({ kind: 'map', entries: [['terms', { kind: 'string', value: '' }]] });
  });
});
