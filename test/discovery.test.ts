import { describe, expect, it } from 'vitest';
import {
  checkIndexField,
  compareArg,
  compareArgs,
  describeDeviation,
  findAdvertisedRoute,
  routeParams,
  routeShape,
  segmentMatches,
  segmentSamples,
  siteAddress,
} from '../src/sdk/discovery.ts';
import { endpointById } from '../schemas/catalog/index.ts';
import { routeKeyRegex } from '../schemas/route-keys.ts';
import type { IndexFieldSpec } from '../schemas/types.ts';

describe('route shapes', () => {
  it('replaces named groups, including nested parentheses and classes', () => {
    expect(routeShape('/wp/v2/posts/(?P<id>[\\d]+)')).toBe('/wp/v2/posts/<id>');
    expect(routeShape('/x/(?P<a>(foo|bar))/y/(?P<b>[)]+)')).toBe('/x/<a>/y/<b>');
    expect(routeShape('/akismet/v1/settings/')).toBe('/akismet/v1/settings');
    expect(routeShape('/')).toBe('/');
    expect(routeParams('/a/(?P<id>[\\d]+)/b/(?P<x>[a-z\\-]+)').map((p) => [p.name, p.source])).toEqual([
      ['id', '[\\d]+'],
      ['x', '[a-z\\-]+'],
    ]);
  });
  it("reads keys in the spec's notation too", () => {
    expect(routeShape('/cms/v2/posts/<parent>/revisions/<id>')).toBe('/cms/v2/posts/<parent>/revisions/<id>');
    expect(routeParams('/cms/v2/posts/<parent>/revisions/<id>').map((p) => [p.name, p.notation, p.source])).toEqual([
      ['parent', 'spec', undefined],
      ['id', 'spec', undefined],
    ]);
    // A named group's body is not read as the spec's notation; a lookbehind is no parameter.
    expect(routeParams('/a/(?P<x>(?<=a)[^<]+)/<id>').map((p) => [p.name, p.notation])).toEqual([
      ['x', 'regex'],
      ['id', 'spec'],
    ]);
    const index = { routes: { '/suite/v4/plugin/<plugin>': { n: 1 }, '/cms/v2/posts/<id>': { n: 2 } } };
    expect(findAdvertisedRoute(index, '/suite/v4/plugin/<plugin>')?.entry).toEqual({ n: 1 });
    expect(findAdvertisedRoute(index, '/cms/v2/posts/<id>')?.key).toBe('/cms/v2/posts/<id>');
    expect(routeKeyRegex('/cms/v2/posts/<id>')!.test('/cms/v2/posts/12')).toBe(true);
    expect(routeKeyRegex('/cms/v2/posts/<id>')!.test('/cms/v2/posts/12/x')).toBe(false);
    expect(routeKeyRegex('/oembed/1.0/<x>')!.test('/oembed/1x0/a')).toBe(false);
    expect(routeKeyRegex('/cms/v2/posts/(?P<id>[\\d]+)')!.test('/cms/v2/posts/12')).toBe(true);
    expect(routeKeyRegex('/cms/v2/posts/(?P<id>[\\d]+)')!.test('/cms/v2/posts/ab')).toBe(false);
  });
  it('finds a route whatever its parameter names, preferring the same names', () => {
    const index = { routes: { '/n/a/(?P<x>\\d+)': { n: 1 }, '/n/a/(?P<id>\\d+)': { n: 2 } } };
    expect(findAdvertisedRoute(index, '/n/a/<id>')?.entry).toEqual({ n: 2 });
    expect(findAdvertisedRoute({ routes: { '/n/a/(?P<x>\\d+)': { n: 1 } } }, '/n/a/<id>')?.entry).toEqual({ n: 1 });
    expect(findAdvertisedRoute(index, '/n/b/<id>')).toBeUndefined();
  });
});

describe('argument comparison', () => {
  const perPage = { type: 'integer' as const, default: 10, minimum: 1, maximum: 100 };
  it('accepts a faithful descriptor and ignores unstated attributes', () => {
    expect(compareArg('per_page', perPage, { type: 'integer', default: 10, minimum: 1, maximum: 100, description: 'x', required: false })).toEqual([]);
    expect(compareArg('maxwidth', { default: 600 }, { default: 600, type: 'integer' })).toEqual([]);
  });
  it('reports each deviating attribute', () => {
    const d = compareArg('per_page', perPage, { type: 'string', default: 20, minimum: 0, maximum: 50 });
    expect(d.map((x) => x.attribute).sort()).toEqual(['default', 'maximum', 'minimum', 'type']);
    expect(compareArg('x', { enum: ['a', 'b'] }, { enum: ['a'] })[0]?.attribute).toBe('enum');
    expect(compareArg('x', { enum: ['a', 'b'] }, { enum: ['b', 'a'] })).toEqual([]);
    expect(compareArg('x', { required: true }, {})[0]?.attribute).toBe('required');
    expect(compareArg('x', { required: false }, { required: true })[0]?.attribute).toBe('required');
    expect(compareArg('x', { type: 'string' }, undefined)[0]?.attribute).toBe('presence');
  });
  it('compares items, unique items, properties and alternatives recursively', () => {
    const doc = { type: 'array' as const, uniqueItems: true, items: { type: 'string' as const, enum: ['a', 'b'] } };
    expect(compareArg('f', doc, { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['a', 'b'] } })).toEqual([]);
    expect(compareArg('f', doc, { type: 'array', items: { type: 'string', enum: ['a'] } }).map((x) => `${x.path}:${x.attribute}`).sort()).toEqual([
      'f:uniqueItems',
      'f[]:enum',
    ]);
    const cats = endpointById('cms.posts.collection.list').endpoint.args as Record<string, any>;
    const advertised = {
      type: ['object', 'array'],
      oneOf: [
        { type: 'array', items: { type: 'integer' } },
        {
          type: 'object',
          properties: {
            terms: { type: 'array', items: { type: 'integer' }, default: [] },
            include_children: { type: 'boolean', default: false },
            operator: { type: 'string', enum: ['AND', 'OR'], default: 'OR' },
          },
          additionalProperties: false,
        },
      ],
    };
    expect(compareArg('categories', cats.categories, advertised)).toEqual([]);
    const broken = structuredClone(advertised);
    broken.oneOf[1]!.properties!.operator.enum = ['AND'];
    delete (broken.oneOf[1] as any).additionalProperties;
    expect(compareArg('categories', cats.categories, broken).map((x) => x.attribute).sort()).toEqual(['additionalProperties', 'enum']);
  });
  it('judges "array of integer, or object" by what a descriptor admits: oneOf, anyOf or a type union', () => {
    const cats = endpointById('cms.posts.collection.list').endpoint.args as Record<string, any>;
    const objectForm = {
      properties: {
        terms: { type: 'array', items: { type: 'integer' }, default: [] },
        include_children: { type: 'boolean', default: false },
        operator: { type: 'string', enum: ['AND', 'OR'], default: 'OR' },
      },
      additionalProperties: false,
    };
    const union = { type: ['array', 'object'], items: { type: 'integer' }, ...objectForm, required: false };
    const anyOf = { anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'object', ...objectForm }] };
    expect(compareArg('categories', cats.categories, union)).toEqual([]);
    expect(compareArg('categories', cats.categories, anyOf)).toEqual([]);
    expect(compareArg('categories', cats.categories, { type: ['object', 'array'], ...anyOf })).toEqual([]);

    // What is missing, in the spec's words.
    const says = (adv: unknown) => compareArg('categories', cats.categories, adv).map(describeDeviation);
    const { items: _, ...noArray } = union;
    expect(says({ ...noArray, type: 'object' })).toEqual([
      'categories: type is object, documented array or object',
      'categories: the array form (array of integer) is not advertised',
    ]);
    expect(says({ ...union, additionalProperties: true })).toEqual([
      'categories: the object form admits other keys (additionalProperties is true); the spec says no other keys than terms, include_children, operator',
    ]);
    expect(says({ anyOf: [anyOf.anyOf[0]] })).toEqual([
      'categories: admits array, documented array or object',
      'categories: the object form (object: terms (array of integer, default []), include_children (boolean, default false), operator (AND or OR, default OR); no other keys) is not advertised',
    ]);
    expect(says({ ...union, items: { type: 'string' } })).toEqual(['categories[]: type is string, documented integer']);
    expect(says({ ...union, properties: { ...objectForm.properties, operator: { type: 'string' } } })).toEqual([
      'categories.operator: enum is not advertised, documented ["AND","OR"]',
      'categories.operator: default is not advertised, documented "OR"',
    ].reverse());
    for (const m of [...says({ type: 'object' }), ...says({ ...union, items: undefined })]) expect(m).not.toMatch(/oneOf|closedProperties|is nothing/);
  });
  it('compares a documented single-type arg with the form of an advertised union that admits it', () => {
    expect(compareArg('per_page', perPage, { anyOf: [{ type: 'integer', minimum: 1, maximum: 100 }, { type: 'null' }], default: 10 })).toEqual([
      { path: 'per_page', attribute: 'type', documented: 'integer', advertised: ['integer', 'null'], message: 'admits integer or null, documented integer' },
    ]);
    expect(compareArg('per_page', perPage, { oneOf: [{ type: 'integer', minimum: 1, maximum: 100 }], default: 10 })).toEqual([]);
  });
  it('treats a scalar default of an array argument as a one-item array', () => {
    expect(compareArg('status', { type: 'array', default: 'publish' }, { type: 'array', default: ['publish'] })).toEqual([]);
    expect(compareArg('status', { type: 'array', default: 'publish' }, { type: 'array', default: 'publish' })).toEqual([]);
    expect(compareArg('status', { type: 'array', default: 'publish' }, { type: 'array', default: 'draft' })).toHaveLength(1);
  });
  it('does not count extra advertised args', () => {
    expect(compareArgs({ a: { type: 'string' } }, { a: { type: 'string' }, b: { type: 'integer' } })).toEqual([]);
  });
});

describe('index fields', () => {
  const f = (type: IndexFieldSpec['type'], extra: Partial<IndexFieldSpec> = {}): IndexFieldSpec => ({ id: 'i', name: 'f', type, spec: { doc: 'core', section: 's' }, ...extra });
  it('checks types, URLs, items and non-emptiness', () => {
    expect(checkIndexField(f('integer'), 0)).toBeUndefined();
    expect(checkIndexField(f('integer'), '0')).toMatch(/documented type integer/);
    expect(checkIndexField(f('number'), 5.5)).toBeUndefined();
    expect(checkIndexField(f('number'), '-3.5')).toBeUndefined();
    expect(checkIndexField(f('number'), 'abc')).toMatch(/documented/);
    expect(checkIndexField(f('number'), true)).toMatch(/documented/);
    expect(checkIndexField(f('string', { format: 'uri' }), 'not a url')).toMatch(/URL/);
    expect(checkIndexField(f('array', { items: { type: 'string' } }), ['a', 1])).toMatch(/f\[1\]/);
    expect(checkIndexField(f('string', { nonEmpty: true }), '')).toMatch(/empty/);
    expect(checkIndexField(f('string'), undefined)).toMatch(/missing/);
  });
});

describe('path segment samples', () => {
  it('derives accepted and rejected samples from a documented class', () => {
    const s = segmentSamples('[a-z-]+');
    expect(s.accept.every((x) => /^[a-z-]+$/.test(x))).toBe(true);
    expect(s.reject.length).toBeGreaterThan(3);
    expect(s.reject.every((x) => !/^[a-z-]+$/.test(x))).toBe(true);
    expect(segmentSamples('\\d+').reject).not.toContain('1');
  });
  it('matches like WordPress (anchored, case-insensitive, PHP named groups)', () => {
    expect(segmentMatches('[\\w+]', 'a')).toBe(true);
    expect(segmentMatches('[\\w+]', 'all')).toBe(false);
    expect(segmentMatches('[a-z\\-]+', 'ABC')).toBe(true);
    expect(segmentMatches('[\\d]+', '12a')).toBe(false);
  });
});

describe("the site's own address", () => {
  it('comes from the index (url, else home), not from the base URL the run was given', () => {
    expect(siteAddress({ url: 'http://127.0.0.1:9830/', home: 'http://example.test' }, 'http://localhost:9830')).toBe('http://127.0.0.1:9830');
    expect(siteAddress({ home: 'https://site.example/blog' }, 'http://proxy:1')).toBe('https://site.example/blog');
    expect(siteAddress({ url: '', home: 'not a url' }, 'http://proxy:1/')).toBe('http://proxy:1');
    expect(siteAddress(undefined, 'http://proxy:1')).toBe('http://proxy:1');
  });
});
