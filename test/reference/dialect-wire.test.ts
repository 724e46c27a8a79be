/**
 * The two dialect switches of the wire (issue 34, item 2): `query-arrays=form` reads arrays in a
 * query only without brackets (a comma list, repeated keys) and objects as `o[k]=v`;
 * `text-fields=object` takes title, content and excerpt of posts and pages on write only as the
 * documented object. And what the default dialect keeps of WordPress: both query forms, both text
 * forms, and a title object with an empty raw changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFormQuery, parseQuery } from '../../targets/reference/http.ts';
import { startApi, type Api } from './helpers.ts';

describe('query strings as a server from the spec reads them (query-arrays=form)', () => {
  it('reads a comma list as its text, repeated keys as an array, o[k]=v as an object, and no a[]', () => {
    expect(parseFormQuery('a=1,2&b=1&b=2&o[k]=v&o[j]=1,2&c[]=3&d[k][]=4&e')).toEqual({ a: '1,2', b: ['1', '2'], o: { k: 'v', j: '1,2' }, 'c[]': '3', 'd[k][]': '4', e: '' });
    // PHP's reading of the same string, for comparison: a[] is the array, the last of repeated keys wins.
    expect(parseQuery('b=1&b=2&c[]=3')).toEqual({ b: '2', c: ['3'] });
  });
});

describe('the wire dialects of the reference server', () => {
  let form: Api;
  let object: Api;
  let wp: Api;
  beforeAll(async () => {
    [form, object, wp] = await Promise.all([startApi({ queryArrays: 'form' }), startApi({ textFields: 'object' }), startApi()]);
  });
  afterAll(async () => Promise.all([form?.stop(), object?.stop(), wp?.stop()]));

  const ids = async (api: Api, query: string) => {
    const r = await api.call('GET', '/cms/v2/posts', { query });
    expect(r.status, r.text).toBe(200);
    return (r.body as { id: number }[]).map((p) => p.id).sort((a, b) => a - b);
  };

  it('query-arrays=form: comma lists and repeated keys are arrays, a[]= is an unknown parameter', async () => {
    const made = await Promise.all(['a', 'b'].map((t) => form.post('/cms/v2/posts', { title: { raw: `wire ${t}` }, status: 'draft' })));
    const [a, b] = made.map((r) => (r.body as { id: number }).id) as [number, number];
    expect(await ids(form, `include=${a},${b}&status=draft,publish`)).toEqual([a, b]);
    expect(await ids(form, `include=${a}&include=${b}&status=draft&status=publish`)).toEqual([a, b]);
    // status[]=draft is not the status filter: the default (publish) holds, so the drafts are not listed.
    expect(await ids(form, `include=${a},${b}&status[]=draft`)).toEqual([]);
    // An object as o[k]=v, its array as a comma list.
    const r = await form.call('GET', '/cms/v2/posts', { query: `categories[terms]=1,2&categories[operator]=AND` });
    expect(r.status, r.text).toBe(200);
  });

  it('text-fields=object: a bare string is refused as an invalid parameter, the object is stored', async () => {
    for (const field of ['title', 'content', 'excerpt']) {
      const r = await object.post('/cms/v2/posts', { [field]: 'a bare string' });
      expect(r.status, r.text).toBe(400);
      expect(r.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { [field]: expect.any(String) } } });
    }
    const ok = await object.post('/cms/v2/posts', { title: { raw: 'T' }, content: { raw: 'C' }, excerpt: { raw: 'E' } });
    expect(ok.status, ok.text).toBe(201);
    const id = (ok.body as { id: number }).id;
    const item = await object.call('GET', `/cms/v2/posts/${id}`, { query: 'context=edit' });
    expect(item.body).toMatchObject({ title: { raw: 'T' }, content: { raw: 'C' }, excerpt: { raw: 'E' } });
    // Autosaves and batch items too.
    expect((await object.post(`/cms/v2/posts/${id}/autosaves`, { content: 'bare' })).status).toBe(400);
    const batch = await object.post('/batch/v1', { requests: [{ path: `/cms/v2/posts/${id}`, body: { title: 'bare' } }, { path: `/cms/v2/posts/${id}`, body: { title: { raw: 'T2' } } }] });
    expect((batch.body as { responses: { status: number }[] }).responses.map((x) => x.status)).toEqual([400, 200]);
    // The object reading stores an empty raw as the empty text.
    await object.post(`/cms/v2/posts/${id}`, { title: { raw: '' } });
    expect((await object.call('GET', `/cms/v2/posts/${id}`, { query: 'context=edit' })).body.title.raw).toBe('');
  });

  it('the default dialect takes both forms, and a title with an empty raw changes nothing (WordPress)', async () => {
    const r = await wp.post('/cms/v2/posts', { title: 'bare', content: { raw: 'C' }, status: 'draft' });
    expect(r.status, r.text).toBe(201);
    const id = (r.body as { id: number }).id;
    // PHP's a[]= and the comma list alike.
    expect(await ids(wp, `include[]=${id}&status[]=draft`)).toEqual([id]);
    expect(await ids(wp, `include=${id}&status=draft`)).toEqual([id]);
    await wp.post(`/cms/v2/posts/${id}`, { title: { raw: '' }, excerpt: { raw: '' }, content: { raw: '' } });
    const item = (await wp.call('GET', `/cms/v2/posts/${id}`, { query: 'context=edit' })).body;
    expect(item).toMatchObject({ title: { raw: 'bare' }, content: { raw: '' }, excerpt: { raw: '' } });
  });
});
