/**
 * Fixtures verify themselves (src/sdk/fixtures.ts verifyStored): the fields a fixture was created with
 * are checked in the create answer (a read back only when the answer lacks one); a field the target
 * did not store names the behaviour that owns storing it.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '../src/http/client.ts';
import { FixtureError, storedFieldOwner, verifyStored } from '../src/sdk/fixtures.ts';

/** A client double that answers GETs with `item` and counts them. */
function reader(item: unknown): Client & { reads: number } {
  const c = {
    reads: 0,
    async get() {
      c.reads++;
      return { status: 200, body: item, text: JSON.stringify(item) };
    },
  };
  return c as unknown as Client & { reads: number };
}

const sent = { status: 'publish', password: 'pw', title: 'cmsc-x a title', content: '<p>c</p>', date: '2001-03-01T10:00:00', tags: [3, 1], meta: { footnotes: '' }, slug: 'cmsc-x-1' };
const stored = { id: 7, status: 'publish', password: 'pw', title: { raw: 'cmsc-x a title', rendered: 'cmsc-x a title' }, content: { raw: '<p>c</p>' }, date: '2001-03-01T10:00:00', tags: [1, 3], meta: { footnotes: '' }, slug: 'cmsc-x-1-2' };

describe('fixtures verify themselves', () => {
  it('accepts a create answer that stored what was sent, without another request (the slug is the target\'s to make unique)', async () => {
    const c = reader(undefined);
    await expect(verifyStored(c, '/cms/v2/posts', sent, stored)).resolves.toBe(stored);
    expect(c.reads).toBe(0);
  });

  it('fails naming the owner of the field that was not stored, status first', async () => {
    const err = await verifyStored(reader(undefined), '/cms/v2/pages', sent, { ...stored, status: 'draft', password: '' }).catch((e) => e);
    expect(err).toBeInstanceOf(FixtureError);
    expect(err.owner).toBe('cms.pages.write.statuses');
    expect(err.message).toMatch(/status: sent "publish", stored "draft"; password: sent "pw", stored ""/);
    const meta = await verifyStored(reader(undefined), '/cms/v2/posts', sent, { ...stored, meta: [] }).catch((e) => e);
    expect(meta.owner).toBe('cms.posts.fields.create-stored');
    expect(meta.message).toMatch(/meta.footnotes: sent "", stored undefined/);
  });

  it('reads the item back (edit context) only when the answer does not carry a field sent', async () => {
    const { password: _, ...view } = stored;
    const c = reader(stored);
    await expect(verifyStored(c, '/cms/v2/posts', sent, view)).resolves.toBe(view);
    expect(c.reads).toBe(1);
    const gone = await verifyStored(reader(view), '/cms/v2/posts', sent, view).catch((e) => e);
    expect(gone.owner).toBe('cms.posts.fields.create-stored');
    expect(gone.message).toMatch(/password: sent "pw", not in the item read back/);
  });

  it('checks only posts and pages, and leaves out the fields asked to (what the target made of them is the caller\'s)', async () => {
    await expect(verifyStored(reader(undefined), '/contactform/v1/contact-forms', { status: 'publish' }, { id: 1 })).resolves.toEqual({ id: 1 });
    await expect(verifyStored(reader(undefined), '/cms/v2/posts', { status: 'future' }, { id: 1, status: 'publish' }, ['status'])).resolves.toEqual({ id: 1, status: 'publish' });
    expect(storedFieldOwner('/cms/v2/posts', 'content')).toBe('cms.posts.create.optional-fields');
  });
});
