/**
 * The reference server in other readings of the documents (targets/reference/dialect.ts): route
 * keys in the spec's notation, "array of integer, or object" as a type union or anyOf, other status
 * codes, and none of WordPress's conventions. Routing and stored content are the same in each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDialect } from '../../targets/reference/dialect.ts';
import { startApi, type Api } from './helpers.ts';

const dialects: Record<string, Api> = {};
beforeAll(async () => {
  for (const d of ['default', 'route-keys=spec', 'arg-unions=type-union', 'arg-unions=anyOf', 'statuses=alternative', 'conventions=none'])
    dialects[d] = await startApi(parseDialect(d));
});
afterAll(() => Promise.all(Object.values(dialects).map((a) => a.stop())));

const create = async (api: Api, fields: Record<string, unknown> = { title: 'x', status: 'publish' }) => {
  const res = await api.post('/cms/v2/posts', fields);
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
};

describe('route-keys=spec', () => {
  it("keys the index, the namespace indexes and the self links in the spec's notation, and routes as before", async () => {
    const api = dialects['route-keys=spec']!;
    const index = (await api.get('/')).body;
    expect(Object.keys(index.routes)).toContain('/cms/v2/posts/<parent>/revisions/<id>');
    expect(Object.keys(index.routes)).toContain('/suite/v4/plugin/<plugin>');
    expect(Object.keys(index.routes).filter((k) => k.includes('(?P<'))).toEqual([]);
    expect(index.routes['/cms/v2/posts/<id>']._links.self[0].href).toBe(`${api.server.url}/index.php?rest_route=/cms/v2/posts/<id>`);
    expect(Object.keys((await api.get('/cms/v2')).body.routes)).toContain('/cms/v2/pages/<id>/autosaves');
    const post = await create(api);
    expect((await api.get(`/cms/v2/posts/${post.id}`)).status).toBe(200);
    expect((await api.get('/cms/v2/posts/1x')).body.code).toBe('rest_no_route');
    // The default keeps WordPress's regexes.
    expect(Object.keys((await dialects.default!.get('/')).body.routes)).toContain('/cms/v2/posts/(?P<id>\\d+)');
  });
});

describe('arg-unions', () => {
  const categories = async (api: Api) => (await api.get('/')).body.routes['/cms/v2/posts'].endpoints[0].args.categories;
  it('advertises "array of integer, or object" as a type union, or with anyOf', async () => {
    const union = await categories(dialects['arg-unions=type-union']!);
    expect(union).toMatchObject({ type: ['array', 'object'], items: { type: 'integer' }, additionalProperties: false });
    expect(Object.keys(union.properties)).toEqual(['terms', 'include_children', 'operator']);
    expect(union.oneOf).toBeUndefined();
    const anyOf = await categories(dialects['arg-unions=anyOf']!);
    expect(anyOf.anyOf.map((a: any) => a.type)).toEqual(['array', 'object']);
    expect(anyOf.oneOf).toBeUndefined();
    expect((await categories(dialects.default!)).oneOf).toHaveLength(2);
  });
  it('admits the same values in every form: either form, and no other keys in the object', async () => {
    for (const d of ['default', 'arg-unions=type-union', 'arg-unions=anyOf']) {
      const api = dialects[d]!;
      expect((await api.get('/cms/v2/posts', 'categories[]=1&categories[]=2')).status, d).toBe(200);
      expect((await api.get('/cms/v2/posts', 'categories[terms][]=1&categories[operator]=AND')).status, d).toBe(200);
      expect((await api.get('/cms/v2/posts', 'categories[terms][]=1&categories[cmsc]=1')).status, d).toBe(400);
      expect((await api.get('/cms/v2/posts', 'categories[]=x')).status, d).toBe(400);
    }
  });
});

describe('statuses=alternative', () => {
  it('answers 403 to anonymous refusals, 422 to invalid input, 200 to a create and 204 to a force delete', async () => {
    const api = dialects['statuses=alternative']!;
    const anonymous = await api.post('/cms/v2/posts', { title: 'x' }, false);
    expect(anonymous.status).toBe(403);
    // A wrong credential is no anonymous request: refused as WordPress does.
    expect((await api.post('/cms/v2/posts', { title: 'x' }, `Basic ${Buffer.from('admin:wrong').toString('base64')}`)).status).toBe(401);
    const invalid = await api.get('/cms/v2/posts', 'per_page=0');
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 422 } });
    expect((await api.post('/cms/v2/posts', { status: 'nope' })).status).toBe(422);
    const created = await api.post('/cms/v2/posts', { title: 'x' });
    expect(created.status).toBe(200);
    const trashed = await api.call('DELETE', `/cms/v2/posts/${created.body.id}`);
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe('trash');
    const gone = await api.call('DELETE', `/cms/v2/posts/${created.body.id}`, { query: 'force=true' });
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expect((await api.get(`/cms/v2/posts/${created.body.id}`, undefined, true)).status).toBe(404);
    // The same statuses inside a batch.
    const batch = await api.post('/batch/v1', { requests: [{ path: '/cms/v2/posts', body: { title: 'y' } }, { path: '/cms/v2/posts', body: { status: 'nope' } }] });
    expect(batch.body.responses.map((r: any) => r.status)).toEqual([200, 422]);
    await api.call('DELETE', `/cms/v2/posts/${batch.body.responses[0].body.id}`, { query: 'force=true' });
  });
});

describe('conventions=none', () => {
  it("leaves out WordPress's headers, error body, links and unlisted fields, and its global parameters", async () => {
    const api = dialects['conventions=none']!;
    const post = await create(api);
    const list = await api.get('/cms/v2/posts', '_fields=id');
    for (const h of ['x-wp-total', 'x-wp-totalpages', 'link', 'allow']) expect(list.headers.get(h), h).toBeNull();
    const item = list.body.find((p: any) => p.id === post.id);
    // _fields is not read; the listed fields are there, WordPress's extras are not.
    expect(item).toMatchObject({ id: post.id, slug: expect.any(String), title: { rendered: 'x' } });
    for (const f of ['_links', 'guid', 'type', 'class_list']) expect(item, f).not.toHaveProperty(f);
    const error = await api.get('/cms/v2/posts', 'per_page=0');
    expect(error.status).toBe(400);
    expect(error.body).toEqual({ error: { message: expect.stringContaining('per_page') } });
    const index = (await api.get('/')).body;
    expect(index._links).toBeUndefined();
    expect(index.routes['/cms/v2/posts']._links.self[0].href).toMatch(/rest_route=\/cms\/v2\/posts$/);
    // _method is not read: a GET stays a GET.
    expect((await api.get(`/cms/v2/posts/${post.id}`, '_method=DELETE', true)).status).toBe(200);
    expect((await api.get(`/cms/v2/posts/${post.id}`, undefined, true)).status).toBe(200);
    const batch = await api.post('/batch/v1', { requests: [{ path: '/cms/v2/posts', body: { status: 'nope' } }] });
    expect(batch.body.responses[0]).toEqual({ status: 400, headers: {}, body: { error: { message: expect.any(String) } } });
  });
});
