/** Coverage: the denominator is the whole catalog; covers IDs map to items by the documented rules. */
import { describe, expect, it } from 'vitest';
import { allEndpoints, catalog } from '../../schemas/catalog/index.ts';
import { catalogItems, computeCoverage, groupByReason, resolveCover, uncoveredCount } from '../../results/coverage.ts';
import { UNCOVERED_REASONS, uncoveredReason } from '../../schemas/catalog/uncovered.ts';

const items = catalogItems();
const ids = new Set(items.map((i) => i.id));
const run = (covers: string[], status: 'passed' | 'failed' | 'skipped' = 'passed', requests = 1) => ({ id: 'b', status, covers, requests });

describe('catalog items', () => {
  it('counts every route x method, arg x stated attribute, setting, module and limit of the catalog', () => {
    const kind = (k: string) => items.filter((i) => i.kind === k).length;
    expect(kind('route-method')).toBe(allEndpoints().reduce((n, { endpoint }) => n + endpoint.methods.length, 0));
    const attrs = allEndpoints().reduce(
      (n, { endpoint }) => n + (endpoint.args === 'not-shown' ? 0 : Object.values(endpoint.args).reduce((m, a) => m + Object.keys(a).filter((k) => k !== 'note').length, 0)),
      0,
    );
    expect(kind('arg-attribute')).toBe(attrs);
    expect(kind('setting')).toBe(catalog.settings.length);
    expect(kind('module')).toBe(catalog.modules.length);
    expect(kind('limit')).toBe(catalog.limits.length);
    expect(kind('index-field')).toBe(catalog.indexFields.length);
    expect(kind('route-param')).toBe(catalog.routes.reduce((n, r) => n + Object.keys(r.params ?? {}).length, 0));
    expect(ids.size).toBe(items.length);
  });
  it('splits fields by stated context and keeps fields without contexts as one item', () => {
    expect(ids.has('field:post.title.raw@edit')).toBe(true);
    expect(ids.has('field:post.title.rendered@view')).toBe(true);
    expect(ids.has('field:post.title')).toBe(false); // its sub-properties carry the contexts
    expect(ids.has('field:post.slug')).toBe(true);
  });
});

describe('covers → items', () => {
  it('a coarse arg ID covers every stated attribute of the arg, and nothing of a longer-named arg', () => {
    const hits = resolveCover('arg:cms.posts.collection.list.per_page', items);
    expect(hits.sort()).toEqual(items.filter((i) => i.id.startsWith('arg:cms.posts.collection.list.per_page#')).map((i) => i.id).sort());
    expect(hits).toContain('arg:cms.posts.collection.list.per_page#maximum');
    expect(resolveCover('arg:cms.posts.collection.list.per', items)).toEqual([]);
  });
  it('route:<id> covers each method of each endpoint of the route; endpoint:<id> only its own', () => {
    const route = catalog.routes.find((r) => r.endpoints.length > 1)!;
    const all = route.endpoints.flatMap((e) => e.methods.map((m) => `endpoint:${e.id}:${m}`));
    expect(resolveCover(`route:${route.id}`, items).sort()).toEqual(all.sort());
    const e = route.endpoints[0]!;
    expect(resolveCover(`endpoint:${e.id}`, items).sort()).toEqual(e.methods.map((m) => `endpoint:${e.id}:${m}`).sort());
  });
  it('exact IDs of settings, modules, index fields and namespaces', () => {
    for (const id of [catalog.settings[0]!.id, catalog.modules[0]!.id, 'index.field.name', 'namespace.cms/v2', 'authentication.application-passwords'])
      expect(resolveCover(id, items)).toEqual([id]);
  });
});

describe('computeCoverage', () => {
  it('counts only executed behaviours: a skip covers nothing, a failure does', () => {
    const id = catalog.settings[0]!.id;
    expect(computeCoverage([run([id], 'skipped')]).covered).toBe(0);
    expect(computeCoverage([run([id], 'failed')]).covered).toBe(1);
  });
  it('reports percent, per kind, per namespace, the uncovered list and unknown covers IDs', () => {
    const c = computeCoverage([run(['arg:cms.posts.collection.list.per_page', 'no.such.thing']), run(['index.field.name'], 'passed', 0)]);
    const perPage = resolveCover('arg:cms.posts.collection.list.per_page', items).length;
    expect(c.items).toBe(items.length);
    expect(c.covered).toBe(perPage + 1);
    expect(c.coveredByRequests).toBe(perPage);
    expect(c.percent).toBe(Math.round(((perPage + 1) / items.length) * 1000) / 10);
    expect(c.byKind['arg-attribute'].covered).toBe(perPage);
    expect(c.byNamespace['cms/v2']!.covered).toBe(perPage);
    expect(uncoveredCount(c)).toBe(items.length - c.covered);
    expect(c.uncovered.flatMap((g) => g.ids)).not.toContain('index.field.name');
    expect(c.unknownCovers).toEqual([{ id: 'no.such.thing', behaviours: ['b'] }]);
  });
  it('lists every item not exercised by a request with its stated reason; items without one under reason null, last', () => {
    const c = computeCoverage([run(['arg:cms.posts.collection.list.per_page']), run(['index.field.name'], 'passed', 0)]);
    const gaps = c.behavioural.uncovered;
    const listed = gaps.flatMap((g) => g.ids);
    expect(listed.length).toBe(items.length - c.behavioural.covered);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toContain('index.field.name'); // covered only without requests
    expect(listed).not.toContain('arg:cms.posts.collection.list.per_page#maximum');
    for (const g of gaps) for (const id of g.ids) expect(uncoveredReason(id) ?? null).toBe(g.reason);
    expect(gaps.findIndex((g) => g.reason === null)).toBeOneOf([-1, gaps.length - 1]);
  });
  it('groups by reason in order of first appearance, the unexplained group last', () => {
    const some = items.slice(0, 4);
    const reasons: Record<string, string> = { [some[0]!.id]: 'r1', [some[2]!.id]: 'r1', [some[3]!.id]: 'r2' };
    expect(groupByReason(some, (id) => reasons[id])).toEqual([
      { reason: 'r1', ids: [some[0]!.id, some[2]!.id] },
      { reason: 'r2', ids: [some[3]!.id] },
      { reason: null, ids: [some[1]!.id] },
    ]);
  });
  it('every stated reason applies to some catalog item and is a fact, not a promise', () => {
    for (const r of UNCOVERED_REASONS) {
      expect(items.some((i) => r.items.test(i.id)), String(r.items)).toBe(true);
      expect(r.reason).not.toMatch(/not (yet )?written|todo|later/i);
    }
  });
});
