/**
 * The reference server is built from the catalog: every catalog endpoint has a handler, every
 * catalog route is advertised with its documented args, and a fact changed in the catalog
 * changes what is served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, catalog } from '../../schemas/catalog/index.ts';
import { compareArgs, findAdvertisedRoute, advertisedEndpoint } from '../../src/sdk/discovery.ts';
import { createReferenceHandler } from '../../targets/reference/index.ts';
import { Router } from '../../targets/reference/router.ts';
import { startApi, type Api } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.stop());

describe('handler coverage', () => {
  it('has a handler for every catalog endpoint', () => {
    const { router } = createReferenceHandler();
    const served = new Set(router.routes.flatMap((r) => r.endpoints.filter((e) => e.impl).map((e) => e.id)));
    const missing = allEndpoints()
      .map((x) => x.endpoint.id)
      .filter((id) => !served.has(id));
    expect(missing).toEqual([]);
  });

  it('refuses to build without a handler for a catalog endpoint', () => {
    expect(() => new Router({}, { handler: () => null })).toThrow(/no handler for catalog endpoint/);
  });
});

describe('the index advertises the catalog', () => {
  let index: any;
  beforeAll(async () => {
    index = (await api.get('/')).body;
  });

  it('advertises every namespace of both documents', () => {
    for (const ns of [...catalog.namespaces.core, ...catalog.namespaces.extensions]) expect(index.namespaces).toContain(ns);
  });

  it('advertises every catalog route with its methods, documented args and allow_batch', () => {
    const problems: string[] = [];
    for (const route of catalog.routes) {
      const hit = findAdvertisedRoute(index, route.path);
      if (!hit) {
        problems.push(`${route.path} missing`);
        continue;
      }
      for (const ep of route.endpoints) {
        for (const m of ep.methods) {
          const adv = advertisedEndpoint(hit.entry, m);
          if (!adv) problems.push(`${m} ${route.path} missing`);
          else {
            if (ep.args !== 'not-shown') problems.push(...compareArgs(ep.args, adv.args).map((d) => `${route.path}: ${JSON.stringify(d)}`));
            if (ep.allowBatch !== undefined && (adv.allow_batch?.v1 === true) !== ep.allowBatch) problems.push(`${m} ${route.path} allow_batch`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every route entry a namespace, methods, endpoints and _links.self[].href', () => {
    for (const [key, e] of Object.entries<any>(index.routes)) {
      expect(typeof e.namespace, key).toBe('string');
      expect(Array.isArray(e.methods), key).toBe(true);
      expect(typeof e._links?.self?.[0]?.href, key).toBe('string');
    }
    expect(index.routes['/'].namespace).toBe('');
    expect(index.routes['/batch/v1'].namespace).toBe('');
  });

  it('carries the site fields with their documented types', () => {
    expect(typeof index.gmt_offset).toBe('number');
    expect(index.timezone_string).not.toBe('');
    expect(index.authentication['application-passwords'].endpoints.authorization).toMatch(
      new RegExp(`^${api.server.url}/[^/]+/authorize-application\\.php$`),
    );
  });

  it('serves the namespace index of namespaces whose routes are not shown', async () => {
    const res = await api.get('/cms-abilities/v1');
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('cms-abilities/v1');
    const suite = await api.get('/suite/v4');
    expect(Object.keys(suite.body.routes)).toContain('/suite/v4/settings');
  });
});
