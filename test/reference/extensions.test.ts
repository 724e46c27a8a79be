/** Spam filter, contact forms and the suite on the reference server. */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMain } from '../../src/cli/serve.ts';
import { startApi, type Api } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.stop());

describe('spam filter', () => {
  it('stores a 12-character key and refuses other lengths', async () => {
    expect((await api.get('/spamfilter/v1/key', undefined, true)).body).toBe(false);
    for (const key of ['short', 'thirteen-char']) {
      const res = await api.post('/spamfilter/v1/key', { key });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    expect((await api.get('/spamfilter/v1/key', undefined, true)).body).toBe(false);
    expect((await api.post('/spamfilter/v1/key', { key: 'abcdef123456' })).body).toBe('abcdef123456');
    expect((await api.get('/spamfilter/v1/key', undefined, true)).body).toBe('abcdef123456');
    expect((await api.call('DELETE', '/spamfilter/v1/key')).body).toBe(true);
  });

  it('reads and writes the settings, and stats by interval in query and path', async () => {
    const res = await api.post('/spamfilter/v1/settings', { spamfilter_strictness: 'false' });
    expect(res.body.spamfilter_strictness).toBe(false);
    expect((await api.post('/spamfilter/v1/settings', { spamfilter_strictness: 'yes' })).status).toBe(400);
    for (const interval of ['60-days', '6-months', 'all']) {
      expect((await api.get('/spamfilter/v1/stats', `interval=${interval}`, true)).body).toHaveProperty(interval);
      expect((await api.get(`/spamfilter/v1/stats/${interval}`, undefined, true)).status).toBe(200);
    }
    expect((await api.get('/spamfilter/v1/stats', 'interval=1-day', true)).status).toBe(400);
    expect((await api.get('/spamfilter/v1/stats/a', undefined, true)).status).toBe(404);
    expect((await api.get('/spamfilter/v1/settings')).status).toBe(401);
  });
});

describe('contact forms', () => {
  it('creates, reads, updates and deletes a form', async () => {
    // Without context "save" the answer shows the form, but nothing is stored (as Contact Form 7).
    const dry = await api.post('/contactform/v1/contact-forms', { title: 'Dry run' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ id: null, title: 'Dry run' });
    expect((await api.get('/contactform/v1/contact-forms', undefined, true)).body.map((f: any) => f.title)).not.toContain('Dry run');
    const created = await api.post('/contactform/v1/contact-forms', { title: 'Mine', context: 'save' });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body.properties.form.fields.map((f: any) => f.name)).toContain('your-email');
    expect((await api.get(`/contactform/v1/contact-forms/${id}`, undefined, true)).body.title).toBe('Mine');
    expect((await api.post(`/contactform/v1/contact-forms/${id}`, { title: 'Not stored' })).body.title).toBe('Not stored');
    expect((await api.get(`/contactform/v1/contact-forms/${id}`, undefined, true)).body.title).toBe('Mine');
    expect((await api.post(`/contactform/v1/contact-forms/${id}`, { title: 'Renamed', context: 'save' })).body.title).toBe('Renamed');
    expect((await api.get(`/contactform/v1/contact-forms/${id}`, undefined, true)).body.title).toBe('Renamed');
    expect((await api.get('/contactform/v1/contact-forms', undefined, true)).body.map((f: any) => f.id)).toContain(id);
    expect((await api.get('/contactform/v1/contact-forms')).status).toBe(403);
    expect((await api.call('DELETE', `/contactform/v1/contact-forms/${id}`)).body).toEqual({ deleted: true });
    const gone = await api.get(`/contactform/v1/contact-forms/${id}`, undefined, true);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('wpcf7_not_found');
  });

  it('takes feedback as multipart only, and serves the schema and refill', async () => {
    const id = (await api.get('/contactform/v1/contact-forms', undefined, true)).body[0].id;
    const json = await api.call('POST', `/contactform/v1/contact-forms/${id}/feedback`, { json: { a: 1 }, auth: false });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.set('_wpcf7_unit_tag', 'wpcf7-f1-o1');
    form.set('your-name', 'Ann');
    const invalid = await api.call('POST', `/contactform/v1/contact-forms/${id}/feedback`, { body: form, auth: false, headers: { 'user-agent': 'test' } });
    expect(invalid.status).toBe(200);
    expect(invalid.body.status).toBe('validation_failed');
    expect(invalid.body.invalid_fields.map((f: any) => f.field)).toEqual(['your-email', 'your-subject']);
    form.set('your-email', 'ann@example.org');
    form.set('your-subject', 'Hi');
    const sent = await api.call('POST', `/contactform/v1/contact-forms/${id}/feedback`, { body: form, auth: false, headers: { 'user-agent': 'test' } });
    expect(sent.body.status).toBe('mail_sent');
    expect((await api.get(`/contactform/v1/contact-forms/${id}/feedback/schema`)).body.rules.length).toBeGreaterThan(0);
    expect((await api.get(`/contactform/v1/contact-forms/${id}/refill`)).body).toEqual([]);
    expect((await api.get('/contactform/v1/contact-forms/999999/refill')).body.code).toBe('wpcf7_not_found');
  });
});

describe('suite', () => {
  it('reads every setting and module, and validates writes against the catalog', async () => {
    const all = (await api.get('/suite/v4/settings', undefined, true)).body;
    expect(all.carousel_background_color).toBe('black');
    expect(all.likes).toBe(false);
    const bad = await api.post('/suite/v4/settings', { carousel_background_color: 'green', admin_bar: 'yes' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.params).sort()).toEqual(['admin_bar', 'carousel_background_color']);
    expect((await api.get('/suite/v4/settings', undefined, true)).body.carousel_background_color).toBe('black');
    expect((await api.post('/suite/v4/settings', { carousel_background_color: 'white', admin_bar: 'false' })).status).toBe(200);
    const after = (await api.get('/suite/v4/settings', undefined, true)).body;
    expect(after).toMatchObject({ carousel_background_color: 'white', admin_bar: false });
    expect((await api.post('/suite/v4/settings', { not_a_setting: 1 })).body.code).toBe('some_updated');
  });

  it('toggles modules', async () => {
    expect((await api.get('/suite/v4/module/nope', undefined, true)).body.code).toBe('not_found');
    expect((await api.post('/suite/v4/module/likes/active', {})).status).toBe(200);
    expect((await api.get('/suite/v4/module/likes', undefined, true)).body.activated).toBe(true);
    expect((await api.post('/suite/v4/module/all/active', { modules: ['likes', 'sharing'], active: false })).status).toBe(200);
    expect((await api.get('/suite/v4/settings', undefined, true)).body).toMatchObject({ likes: false, sharing: false });
    expect((await api.post('/suite/v4/module/all/active', {})).body.code).toBe('rest_missing_callback_param');
    expect((await api.post('/suite/v4/module/all/active', { modules: ['nope'] })).status).toBe(400);
  });

  it('answers read-only routes and validates parameters', async () => {
    for (const route of ['/suite/v4/site', '/suite/v4/connection/test', '/suite/v4/posts/1/backup', '/suite/v4/plugins'])
      expect((await api.get(route, undefined, true)).status, route).toBe(200);
    expect((await api.get('/suite/v4/site')).status).toBe(401);
    expect((await api.get('/suite/v4/database-object/backup', 'object_type=post&object_id=x', true)).status).toBe(400);
    expect((await api.get('/suite/v4/subscribers/auth', undefined, true)).body.code).toBe('rest_missing_callback_param');
    expect((await api.post('/suite/v4/plugins', { slug: 'bad slug!' })).status).toBe(400);
  });
});

describe('serve', () => {
  it('prints the URL and credentials and stops on SIGINT', async () => {
    const out = new PassThrough();
    let printed = '';
    out.on('data', (c) => (printed += String(c)));
    const signals = new EventEmitter();
    const done = serveMain(['--port', '0', '--user', 'tester'], out, new PassThrough(), signals);
    for (let i = 0; i < 100 && !printed.includes('Ctrl+C'); i++) await new Promise((r) => setTimeout(r, 20));
    const url = /listening on (\S+)/.exec(printed)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(printed).toContain('user:                 tester');
    expect((await fetch(`${url}/index.php?rest_route=/`)).status).toBe(200);
    signals.emit('SIGINT');
    expect(await done).toBe(0);
    await expect(fetch(`${url}/index.php?rest_route=/`)).rejects.toThrow();
  });
});
