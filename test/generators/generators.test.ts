/**
 * The generators against the coercion model, for every argument of every documented endpoint:
 * every valid value is valid, every invalid value stays invalid after WordPress-style
 * coercion (never an input a correct server may accept), boundary values are the documented
 * ones; seeds make output repeatable.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allEndpoints, endpointById } from '../../schemas/catalog/index.ts';
import type { ArgSpec } from '../../schemas/types.ts';
import { boundaryValues, coerceLikeWordPress, invalidArb, propertyParams, seededFaker, validArb } from '../../generators/index.ts';

const SAMPLES = 150;

const documented: { name: string; arg: ArgSpec }[] = allEndpoints().flatMap(({ endpoint }) =>
  endpoint.args === 'not-shown' ? [] : Object.entries(endpoint.args).map(([name, arg]) => ({ name: `${endpoint.id}.${name}`, arg })),
);

describe('generators prove out against the coercion model', () => {
  it('covers the catalog', () => expect(documented.length).toBeGreaterThan(150));

  it.each(documented)('$name: valid values are valid', ({ arg }) => {
    for (const v of fc.sample(validArb(arg), { seed: 1, numRuns: SAMPLES })) expect(coerceLikeWordPress(arg, v), JSON.stringify(v)).toBe('valid');
  });

  it.each(documented)('$name: invalid values stay invalid after coercion', ({ arg }) => {
    const arb = invalidArb(arg);
    if (!arb) return;
    for (const v of fc.sample(arb, { seed: 2, numRuns: SAMPLES })) expect(coerceLikeWordPress(arg, v), JSON.stringify(v)).toBe('invalid');
  });

  it.each(documented)('$name: boundary values are classified as labelled', ({ arg }) => {
    const b = boundaryValues(arg);
    for (const v of b.valid) expect(coerceLikeWordPress(arg, v), JSON.stringify(v)).toBe('valid');
    for (const v of b.invalid) expect(coerceLikeWordPress(arg, v), JSON.stringify(v)).toBe('invalid');
  });
});

describe('boundary values', () => {
  const q = endpointById('cms.posts.collection.list').endpoint.args as Record<string, ArgSpec>;
  it('minimum, maximum and one past each', () => {
    expect(boundaryValues(q.per_page!)).toEqual({ valid: [1, 100], invalid: [0, 101, 'abc'] });
    expect(boundaryValues(q.page!)).toEqual({ valid: [1], invalid: [0, 'abc'] });
  });
  it('every enum member, and one value outside', () => {
    const b = boundaryValues(q.orderby!);
    expect(b.valid).toEqual(q.orderby!.enum);
    expect(b.invalid).toHaveLength(1);
    const s = boundaryValues(q.status!);
    expect(s.valid).toEqual(expect.arrayContaining(q.status!.items!.enum!.map((m) => [m])));
  });
  it('duplicates where items must be unique', () => expect(boundaryValues(q.format!).invalid).toContainEqual(['standard', 'standard']));
  it('both forms of a term filter, never the ambiguous empty list', () => {
    const b = boundaryValues(q.categories!);
    expect(b.valid).toContainEqual({ terms: [] });
    expect(b.valid).not.toContainEqual([]);
    expect(b.invalid).toContainEqual({ xbogus: '1' });
  });
  it('no invalid value where none exists', () => {
    expect(invalidArb(q.search!)).toBeNull();
    expect(invalidArb(q.slug!)).toBeNull();
    expect(boundaryValues(q.search!).invalid).toEqual([]);
  });
});

describe('seeds make output repeatable', () => {
  const perPage = endpointById('cms.posts.collection.list').endpoint.args as Record<string, ArgSpec>;
  it('same seed, same values; another seed, other values', () => {
    for (const arg of Object.values(perPage)) {
      const a = fc.sample(validArb(arg), { seed: 9, numRuns: 20 });
      expect(fc.sample(validArb(arg), { seed: 9, numRuns: 20 })).toEqual(a);
      const inv = invalidArb(arg);
      if (inv) expect(fc.sample(inv, { seed: 9, numRuns: 20 })).toEqual(fc.sample(inv, { seed: 9, numRuns: 20 }));
    }
    expect(fc.sample(validArb(perPage.per_page!), { seed: 9, numRuns: 20 })).not.toEqual(fc.sample(validArb(perPage.per_page!), { seed: 10, numRuns: 20 }));
  });
  it('seeded Faker', () => {
    const take = (seed: number) => {
      const f = seededFaker(seed);
      return [f.lorem.words(3), f.lorem.sentence(), f.string.alpha(8), f.lorem.slug()];
    };
    expect(take(5)).toEqual(take(5));
    expect(take(5)).not.toEqual(take(6));
  });
  it('propertyParams: --seed and --runs', () => {
    expect(propertyParams({ config: { seed: 123, runs: 7 } })).toEqual({ seed: 123, numRuns: 7 });
  });
});
