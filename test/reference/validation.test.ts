/** Routing, authentication and WordPress-compatible validation (wordpress-behaviour.md §1–§3). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuery } from '../../targets/reference/http.ts';
import { validateValue, sanitizeValue } from '../../targets/reference/validate.ts';
import { startApi, type Api } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.stop());

describe('query strings as PHP parses them', () => {
  it('reads a[]=, o[k]=, nested and plain keys', () => {
    expect(parseQuery('a[]=1&a[]=2&o[k]=v&o[t][]=3&x=y+z&e=')).toEqual({ a: ['1', '2'], o: { k: 'v', t: ['3'] }, x: 'y z', e: '' });
    expect(parseQuery('a.b=1&c%5B0%5D=x')).toEqual({ a_b: '1', c: ['x'] });
  });
});

describe('value validation', () => {
  it('coerces query-string values like WordPress', () => {
    expect(validateValue('true', { type: 'boolean' }, 'b')).toBe(true);
    expect(validateValue('yes', { type: 'boolean' }, 'b')).toMatchObject({ code: 'rest_invalid_type', message: 'b is not of type boolean.' });
    expect(sanitizeValue('0', { type: 'boolean' }, 'b')).toBe(false);
    expect(validateValue('1e1', { type: 'integer' }, 'i')).toBe(true);
    expect(validateValue('1.5', { type: 'integer' }, 'i')).toMatchObject({ message: 'i is not of type integer.' });
    expect(sanitizeValue('1,2 3', { type: 'array', items: { type: 'integer' } }, 'a')).toEqual([1, 2, 3]);
    expect(validateValue('', { type: 'array' }, 'a')).toBe(true);
    expect(validateValue(5, { type: 'string' }, 's')).toMatchObject({ code: 'rest_invalid_type' });
  });
  it('words bounds, enums and dates as WordPress does', () => {
    expect(validateValue('0', { type: 'integer', minimum: 1, maximum: 100 }, 'per_page')).toMatchObject({
      code: 'rest_out_of_bounds',
      message: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
    });
    expect(validateValue('x', { type: 'string', enum: ['asc', 'desc'] }, 'order')).toMatchObject({ message: 'order is not one of asc and desc.' });
    expect(validateValue('x', { type: 'string', enum: ['exact'] }, 's')).toMatchObject({ message: 's is not exact.' });
    expect(validateValue('2020-01-01', { type: 'string', format: 'date-time' }, 'after')).toMatchObject({ code: 'rest_invalid_date' });
    expect(validateValue('2020-01-01T10:00:00', { type: 'string', format: 'date-time' }, 'after')).toBe(true);
  });
});

describe('errors', () => {
  it('answers an unknown route and a wrong method with 404 rest_no_route', async () => {
    for (const res of [await api.get('/cms/v2/nothing'), await api.call('PUT', '/cms/v2/posts'), await api.get('/cms/v2/posts/abc')]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    }
  });

  it('answers invalid params with rest_invalid_param, params and details', async () => {
    const res = await api.get('/cms/v2/posts', 'per_page=101&order=up');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.message).toBe('Invalid parameter(s): per_page, order');
    expect(res.body.data.params.per_page).toBe('per_page must be between 1 (inclusive) and 100 (inclusive)');
    expect(res.body.data.details.order).toEqual({ code: 'rest_not_in_enum', message: 'order is not one of asc and desc.', data: null });
  });

  it('answers a missing required param with rest_missing_callback_param and a list', async () => {
    const res = await api.get('/oembed/1.0/embed');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): url', data: { status: 400, params: ['url'] } });
  });

  it('checks params before permissions', async () => {
    const res = await api.call('POST', '/spamfilter/v1/key', { json: {}, auth: false });
    expect(res.status).toBe(400);
    expect((await api.call('GET', '/spamfilter/v1/key', { auth: false })).status).toBe(401);
  });

  it('rejects an invalid JSON body', async () => {
    const res = await api.call('POST', '/cms/v2/posts', { body: '{', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_json');
  });

  it('explains a taxonomy filter that matches neither form', async () => {
    const res = await api.get('/cms/v2/posts', 'categories[operator]=XOR');
    expect(res.status).toBe(400);
    expect(res.body.data.params.categories).toBe(
      'categories is not a valid Term ID Taxonomy Query. Reason: categories[operator] is not one of AND and OR.',
    );
    expect(res.body.data.details.categories.code).toBe('rest_no_matching_schema');
    expect((await api.get('/cms/v2/posts', 'categories[foo]=1')).status).toBe(400);
    expect((await api.get('/cms/v2/posts', 'categories=1,2')).status).toBe(200);
  });
});

describe('authentication', () => {
  it('fails every route with a wrong application password, public ones included', async () => {
    const wrong = `Basic ${Buffer.from(`${api.server.user}:wrongwrongwrongwrongwron`).toString('base64')}`;
    const res = await api.get('/', undefined, wrong);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('incorrect_password');
    const unknown = await api.get('/', undefined, `Basic ${Buffer.from('nobody:x').toString('base64')}`);
    expect(unknown.body.code).toBe('invalid_username');
  });

  it('accepts the spaced form of the password and ignores other schemes', async () => {
    const spaced = api.server.appPassword.replace(/(.{4})(?=.)/g, '$1 ');
    const res = await api.get('/cms/v2/posts', 'context=edit', `Basic ${Buffer.from(`${api.server.user}:${spaced}`).toString('base64')}`);
    expect(res.status).toBe(200);
    expect((await api.get('/cms/v2/posts', 'context=edit', 'Bearer x')).status).toBe(401);
  });

  it('answers anonymous writes with 401 and the WordPress codes', async () => {
    expect((await api.call('POST', '/cms/v2/posts', { json: { title: 't' }, auth: false })).body.code).toBe('rest_cannot_create');
    expect((await api.call('POST', '/cms/v2/posts/1', { json: { title: 't' }, auth: false })).body.code).toBe('rest_cannot_edit');
    expect((await api.call('DELETE', '/cms/v2/posts/1', { auth: false })).body.code).toBe('rest_cannot_delete');
    expect((await api.call('DELETE', '/cms/v2/posts/99999', { auth: false })).body.code).toBe('rest_post_invalid_id');
  });
});

describe('request conventions', () => {
  it('honours _method, HEAD, OPTIONS, _fields and _envelope', async () => {
    const viaMethod = await api.call('GET', '/cms/v2/posts', { query: '_method=POST', auth: false });
    expect(viaMethod.body.code).toBe('rest_cannot_create');
    const head = await fetch(`${api.server.url}/index.php?rest_route=/cms/v2/posts`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-wp-total')).not.toBeNull();
    const options = await api.call('OPTIONS', '/cms/v2/posts', { auth: false });
    expect(options.status).toBe(200);
    expect(options.headers.get('allow')).toBe('GET');
    const fields = await api.get('/cms/v2/posts', '_fields=id,title.rendered');
    expect(Object.keys(fields.body[0])).toEqual(['id', 'title']);
    expect(Object.keys(fields.body[0].title)).toEqual(['rendered']);
    const env = await api.get('/cms/v2/posts/99999', '_envelope=1');
    expect(env.status).toBe(200);
    expect(env.body.status).toBe(404);
  });
});
