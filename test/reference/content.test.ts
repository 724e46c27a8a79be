/** Posts, pages, revisions, autosaves and media on the reference server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type Api } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.stop());

const create = async (fields: Record<string, unknown>, base = '/cms/v2/posts') => {
  const res = await api.post(base, fields);
  expect(res.status, res.text).toBe(201);
  return res.body;
};

describe('create, read, update', () => {
  it('creates a draft by default, answers 201 with Location in edit context', async () => {
    const res = await api.post('/cms/v2/posts', { title: 'First', content: 'Hello' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${api.server.url}/index.php?rest_route=/cms/v2/posts/${res.body.id}`);
    expect(res.body.status).toBe('draft');
    expect(res.body.title).toEqual({ raw: 'First', rendered: 'First' });
    expect(res.body.content.raw).toBe('Hello');
    expect(res.body.content.rendered).toBe('<p>Hello</p>\n');
    expect(res.body.categories).toEqual([1]);
  });

  it('accepts a post with every writable field left out (the spec makes them all optional) and refuses an unknown write status', async () => {
    const empty = await api.post('/cms/v2/posts', { status: 'publish' });
    expect(empty.status).toBe(201);
    await api.call('DELETE', `/cms/v2/posts/${empty.body.id}`, { query: 'force=true' });
    const bad = await api.post('/cms/v2/posts', { title: 'x', status: 'trash' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
  });

  it('updates partially with POST, PUT and PATCH', async () => {
    const post = await create({ title: 'Partial', content: 'Body', status: 'publish' });
    for (const [method, title] of [['POST', 'A'], ['PUT', 'B'], ['PATCH', 'C']] as const) {
      const res = await api.call(method, `/cms/v2/posts/${post.id}`, { json: { title } });
      expect(res.status).toBe(200);
      expect(res.body.title.raw).toBe(title);
      expect(res.body.content.raw).toBe('Body');
    }
  });

  it('serves field sets by context', async () => {
    const post = await create({ title: 'Ctx', content: 'Body', status: 'publish' });
    const view = (await api.get(`/cms/v2/posts/${post.id}`)).body;
    expect(view.title).toEqual({ rendered: 'Ctx' });
    expect(view).not.toHaveProperty('password');
    expect(view.link).toBe(`${api.server.url}/?p=${post.id}`);
    const embed = (await api.get(`/cms/v2/posts/${post.id}`, 'context=embed')).body;
    expect(embed).not.toHaveProperty('content');
    expect(embed).not.toHaveProperty('status');
    expect(embed).not.toHaveProperty('date_gmt');
    const edit = await api.get(`/cms/v2/posts/${post.id}`, 'context=edit');
    expect(edit.status).toBe(401);
    expect(edit.body.code).toBe('rest_forbidden_context');
    const editAuth = (await api.get(`/cms/v2/posts/${post.id}`, 'context=edit', true)).body;
    expect(editAuth.title.raw).toBe('Ctx');
    expect(editAuth.content.block_version).toBe(0);
  });

  it('protects content with a password', async () => {
    const post = await create({ title: 'Secret', content: 'Hidden text', status: 'publish', password: 'pw' });
    const view = (await api.get(`/cms/v2/posts/${post.id}`)).body;
    expect(view.content).toEqual({ rendered: '', protected: true });
    expect(view.excerpt.rendered).toBe('');
    const right = (await api.get(`/cms/v2/posts/${post.id}`, 'password=pw')).body;
    expect(right.content.rendered).toContain('Hidden text');
    const wrong = await api.get(`/cms/v2/posts/${post.id}`, 'password=nope');
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('rest_post_incorrect_password');
  });

  it('hides drafts from anonymous readers', async () => {
    const post = await create({ title: 'Draft' });
    expect((await api.get(`/cms/v2/posts/${post.id}`)).status).toBe(401);
    const listed = await api.get('/cms/v2/posts', 'status=draft');
    expect(listed.status).toBe(400);
    expect(listed.body.data.details.status.code).toBe('rest_forbidden_status');
    const mine = await api.get('/cms/v2/posts', `status=draft&include=${post.id}`, true);
    expect(mine.body.map((p: any) => p.id)).toEqual([post.id]);
  });
});

describe('trash and force', () => {
  it('trashes first, then 410, then deletes with force', async () => {
    const post = await create({ title: 'Trash me', status: 'publish' });
    const first = await api.call('DELETE', `/cms/v2/posts/${post.id}`);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('trash');
    const second = await api.call('DELETE', `/cms/v2/posts/${post.id}`);
    expect(second.status).toBe(410);
    expect(second.body.code).toBe('rest_already_trashed');
    const forced = await api.call('DELETE', `/cms/v2/posts/${post.id}`, { query: 'force=true' });
    expect(forced.status).toBe(200);
    expect(forced.body.deleted).toBe(true);
    expect(forced.body.previous.id).toBe(post.id);
    expect((await api.get(`/cms/v2/posts/${post.id}`, undefined, true)).status).toBe(404);
    expect((await api.call('DELETE', `/cms/v2/posts/${post.id}`, { query: 'force=yes' })).status).toBe(400);
  });
});

describe('revisions and autosaves', () => {
  it('creates a revision on the first update and on changes only', async () => {
    const post = await create({ title: 'Rev', content: 'v1', status: 'publish' });
    expect((await api.get(`/cms/v2/posts/${post.id}/revisions`, undefined, true)).body).toEqual([]);
    await api.post(`/cms/v2/posts/${post.id}`, { comment_status: 'closed' });
    await api.post(`/cms/v2/posts/${post.id}`, { comment_status: 'open' });
    await api.post(`/cms/v2/posts/${post.id}`, { content: 'v2' });
    const list = await api.get(`/cms/v2/posts/${post.id}/revisions`, undefined, true);
    expect(list.body.map((r: any) => r.content.rendered)).toEqual(['<p>v2</p>\n', '<p>v1</p>\n']);
    expect(list.headers.get('x-wp-total')).toBe('2');
    const rev = list.body[0];
    expect((await api.get(`/cms/v2/posts/${post.id}/revisions/${rev.id}`, undefined, true)).body.id).toBe(rev.id);
    expect((await api.get(`/cms/v2/posts/${post.id}/revisions`)).status).toBe(401);

    const other = await create({ title: 'Other', status: 'publish' });
    const mismatch = await api.get(`/cms/v2/posts/${other.id}/revisions/${rev.id}`, undefined, true);
    expect(mismatch.status).toBe(404);
    expect(mismatch.body.code).toBe('rest_revision_parent_id_mismatch');

    const noForce = await api.call('DELETE', `/cms/v2/posts/${post.id}/revisions/${rev.id}`);
    expect(noForce.status).toBe(501);
    expect(noForce.body.code).toBe('rest_trash_not_supported');
    const forced = await api.call('DELETE', `/cms/v2/posts/${post.id}/revisions/${rev.id}`, { query: 'force=true' });
    expect(forced.body).toMatchObject({ deleted: true, previous: { id: rev.id } });
  });

  it('autosaves a published post as a revision and a draft in place', async () => {
    const post = await create({ title: 'Auto', content: 'saved', status: 'publish' });
    const auto = await api.post(`/cms/v2/posts/${post.id}/autosaves`, { content: 'unsaved' });
    expect(auto.status).toBe(200);
    expect(auto.body.parent).toBe(post.id);
    expect(auto.body.id).not.toBe(post.id);
    const list = await api.get(`/cms/v2/posts/${post.id}/autosaves`, undefined, true);
    expect(list.body.map((a: any) => a.id)).toEqual([auto.body.id]);
    const one = await api.get(`/cms/v2/posts/${post.id}/autosaves/999999`, undefined, true);
    expect(one.body.id).toBe(auto.body.id);
    expect((await api.get(`/cms/v2/posts/${post.id}`)).body.content.rendered).toBe('<p>saved</p>\n');
    const again = await api.post(`/cms/v2/posts/${post.id}/autosaves`, { content: 'saved' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(auto.body.id);

    const draft = await create({ title: 'Draft auto' });
    const inPlace = await api.post(`/cms/v2/posts/${draft.id}/autosaves`, { title: 'Draft auto 2' });
    expect(inPlace.body.id).toBe(draft.id);
    expect((await api.get(`/cms/v2/posts/${draft.id}`, 'context=edit', true)).body.title.raw).toBe('Draft auto 2');
    const none = await api.get(`/cms/v2/posts/${draft.id}/autosaves/1`, undefined, true);
    expect(none.body.code).toBe('rest_post_no_autosave');
  });
});

describe('collections', () => {
  it('paginates with X-WP-Total, X-WP-TotalPages and Link, and refuses a page past the end', async () => {
    for (let i = 0; i < 3; i++) await create({ title: `Page test ${i}`, status: 'publish' });
    const res = await api.get('/cms/v2/posts', 'per_page=2&search=Page+test');
    expect(res.headers.get('x-wp-total')).toBe('3');
    expect(res.headers.get('x-wp-totalpages')).toBe('2');
    expect(res.headers.get('link')).toContain('rel="next"');
    const past = await api.get('/cms/v2/posts', 'per_page=2&page=3&search=Page+test');
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('rest_post_invalid_page_number');
    const empty = await api.get('/cms/v2/posts', 'page=5&search=nothing-matches-this');
    expect(empty.status).toBe(200);
    expect(empty.headers.get('x-wp-total')).toBe('0');
  });

  it('filters by categories, tags, slug, include/exclude and orders', async () => {
    const a = await create({ title: 'Cat A', status: 'publish', categories: [3], tags: [4] });
    const b = await create({ title: 'Cat B', status: 'publish', categories: [2], tags: [5] });
    const ids = (res: any) => res.body.map((p: any) => p.id).sort();
    // Within the two (the sample post is in categories 2 and 3 too).
    const two = `include=${a.id},${b.id}`;
    expect(ids(await api.get('/cms/v2/posts', `${two}&categories=2`))).toEqual([b.id]);
    expect(ids(await api.get('/cms/v2/posts', `${two}&categories[terms]=2&categories[include_children]=true`))).toEqual([a.id, b.id].sort());
    expect(ids(await api.get('/cms/v2/posts', `${two}&categories=3&tags=5&tax_relation=OR`))).toEqual([a.id, b.id].sort());
    expect(ids(await api.get('/cms/v2/posts', `include[]=${a.id}&include[]=${b.id}&tags_exclude=4`))).toEqual([b.id]);
    const ordered = await api.get('/cms/v2/posts', `include=${b.id},${a.id}&orderby=include`);
    expect(ordered.body.map((p: any) => p.id)).toEqual([b.id, a.id]);
    expect((await api.get('/cms/v2/posts', 'orderby=include')).body.code).toBe('rest_orderby_include_missing_include');
    expect((await api.get('/cms/v2/posts', 'orderby=relevance')).body.code).toBe('rest_no_search_term_defined');
    expect(ids(await api.get('/cms/v2/posts', `slug=${a.slug}`))).toEqual([a.id]);
  });

  it('serves pages with parent filters and menu_order', async () => {
    const parent = await create({ title: 'Parent', status: 'publish' }, '/cms/v2/pages');
    const child = await create({ title: 'Child', status: 'publish', parent: parent.id, menu_order: 3 }, '/cms/v2/pages');
    expect((await api.get('/cms/v2/pages', `parent=${parent.id}`)).body.map((p: any) => p.id)).toEqual([child.id]);
    expect((await api.get('/cms/v2/pages', 'menu_order=3')).body.map((p: any) => p.id)).toEqual([child.id]);
    expect((await api.post('/cms/v2/pages', { title: 'Orphan', parent: 999999 })).body.code).toBe('rest_post_invalid_id');
    expect((await api.get(`/cms/v2/posts/${parent.id}`)).status).toBe(404);
  });

  it('lists and uploads media', async () => {
    const list = await api.get('/cms/v2/media');
    expect(list.status).toBe(200);
    expect(list.body[0].media_type).toBe('image');
    const up = await api.call('POST', '/cms/v2/media', {
      body: Buffer.from('hello'),
      headers: { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="note.txt"' },
    });
    expect(up.status).toBe(201);
    expect(up.body.mime_type).toBe('text/plain');
    const file = await fetch(up.body.source_url);
    expect(await file.text()).toBe('hello');
  });
});
