/** Batch v1 (wordpress-behaviour.md §8) and oEmbed (§9) on the reference server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type Api } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.stop());

describe('batch', () => {
  it('runs items in order and answers 207 with their envelopes', async () => {
    const res = await api.post('/batch/v1', {
      requests: [
        { path: '/cms/v2/posts', body: { title: 'Batch 1', status: 'publish' } },
        { method: 'DELETE', path: '/cms/v2/posts/999999' },
        { path: '/cms/v2/media', body: {} },
        { path: '/batch/v1', body: { requests: [] } },
      ],
    });
    expect(res.status).toBe(207);
    const [a, b, c, d] = res.body.responses;
    expect(a.status).toBe(201);
    expect(a.body.title.raw).toBe('Batch 1');
    expect(a.headers.Location).toContain(`/cms/v2/posts/${a.body.id}`);
    expect(b.status).toBe(404);
    expect(c.body.code).toBe('rest_batch_not_allowed');
    expect(d.body.code).toBe('rest_batch_not_allowed');
  });

  it('runs nothing in require-all-validate mode when an item is invalid', async () => {
    const before = (await api.get('/cms/v2/posts', 'search=Validate+all')).body.length;
    const res = await api.post('/batch/v1', {
      validation: 'require-all-validate',
      requests: [
        { path: '/cms/v2/posts', body: { title: 'Validate all', status: 'publish' } },
        { path: '/cms/v2/posts', body: { title: 'Validate all', status: 'nope' } },
      ],
    });
    expect(res.status).toBe(207);
    expect(res.body.failed).toBe('validation');
    expect(res.body.responses[0]).toBeNull();
    expect(res.body.responses[1].body.code).toBe('rest_invalid_param');
    expect((await api.get('/cms/v2/posts', 'search=Validate+all')).body.length).toBe(before);
  });

  it('refuses an invalid envelope with 400', async () => {
    const many = await api.post('/batch/v1', { requests: Array.from({ length: 26 }, () => ({ path: '/cms/v2/posts' })) });
    expect(many.status).toBe(400);
    expect(many.body.data.params.requests).toBe('requests must contain at most 25 items.');
    const get = await api.post('/batch/v1', { requests: [{ method: 'GET', path: '/cms/v2/posts' }] });
    expect(get.body.data.params.requests).toBe('requests[0][method] is not one of POST, PUT, PATCH, and DELETE.');
    const noPath = await api.post('/batch/v1', { requests: [{ method: 'POST' }] });
    expect(noPath.body.data.params.requests).toBe('path is a required property of requests[0].');
    expect((await api.post('/batch/v1', {})).body.code).toBe('rest_missing_callback_param');
  });

  it('inherits the outer authentication', async () => {
    const res = await api.call('POST', '/batch/v1', { json: { requests: [{ path: '/cms/v2/posts', body: { title: 'x' } }] }, auth: false });
    expect(res.status).toBe(207);
    expect(res.body.responses[0].status).toBe(401);
  });
});

describe('oEmbed', () => {
  it('embeds the site own posts with a clamped width', async () => {
    const url = encodeURIComponent(`${api.server.url}/?p=1`);
    const def = await api.get('/oembed/1.0/embed', `url=${url}`);
    expect(def.body).toMatchObject({ version: '1.0', type: 'rich', width: 600, height: 338, title: 'Hello world!' });
    expect((await api.get('/oembed/1.0/embed', `url=${url}&maxwidth=100`)).body).toMatchObject({ width: 200, height: 200 });
    const xml = await api.get('/oembed/1.0/embed', `url=${url}&format=xml`);
    expect(xml.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(xml.text).toContain('<version>1.0</version>');
    const unknown = await api.get('/oembed/1.0/embed', `url=${encodeURIComponent('https://example.com/x')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('oembed_invalid_url');
  });

  it('needs a user for the proxy, after validating params', async () => {
    expect((await api.get('/oembed/1.0/proxy')).status).toBe(400);
    const url = encodeURIComponent(`${api.server.url}/?p=1`);
    expect((await api.get('/oembed/1.0/proxy', `url=${url}`)).body.code).toBe('rest_forbidden');
    expect((await api.get('/oembed/1.0/proxy', `url=${url}&discover=maybe`)).status).toBe(400);
    expect((await api.get('/oembed/1.0/proxy', `url=${url}`, true)).body.width).toBe(600);
  });
});
