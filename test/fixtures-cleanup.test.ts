/**
 * Fixture cleanup sends few requests: posts and pages are force-deleted up to 25 at a time through
 * POST /batch/v1 (core part 4 › Batch, part 8: at most 25 items); whatever a batch did not delete,
 * and everything when the target does not take the batch, is deleted on its own.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '../src/http/client.ts';
import { Fixtures } from '../src/sdk/fixtures.ts';

type Sent = { method: string; route: string; body?: any };

/** A client double: answers batches with `item(path)` per item (or `batch` for the whole POST), single deletes with 200. */
function target(opts: { item?: (path: string) => number; batch?: number } = {}) {
  const sent: Sent[] = [];
  const c = {
    sent,
    unanswering: false,
    mapRoute: (r: string) => r.replace('/cms/v2/', '/wp/v2/'),
    async post(route: string, body: any) {
      sent.push({ method: 'POST', route, body });
      if (opts.batch) return { status: opts.batch, body: { code: 'rest_no_route' }, text: '' };
      return { status: 207, body: { responses: body.requests.map((r: any) => ({ status: opts.item?.(r.path) ?? 200, body: {} })) }, text: '' };
    },
    async delete(route: string) {
      sent.push({ method: 'DELETE', route });
      return { status: 200, body: {}, text: '' };
    },
  };
  return c as unknown as Client & { sent: Sent[] };
}

describe('fixture cleanup', () => {
  it('deletes 31 posts and pages in two batches of DELETE ?force=true (25 and 6), in the target\'s route names, newest first; other items on their own', async () => {
    const c = target();
    const fx = new Fixtures(c, 'cmsc-t');
    for (let i = 1; i <= 31; i++) fx.track(`/cms/v2/${i % 2 ? 'posts' : 'pages'}/${i}`);
    let custom = 0;
    fx.track('/contactform/v1/contact-forms/9', async () => void custom++);
    expect(await fx.cleanup()).toEqual([]);
    expect(c.sent.map((s) => `${s.method} ${s.route}`)).toEqual(['POST /batch/v1', 'POST /batch/v1']);
    expect(c.sent[0]!.body.requests).toHaveLength(25);
    expect(c.sent[1]!.body.requests).toHaveLength(6);
    expect(c.sent[0]!.body.requests[0]).toEqual({ method: 'DELETE', path: '/wp/v2/posts/31?force=true' });
    expect(c.sent[1]!.body.requests.at(-1)).toEqual({ method: 'DELETE', path: '/wp/v2/posts/1?force=true' });
    expect(custom).toBe(1);
  });

  it('an item the batch did not delete (a 500 for it) is deleted on its own; one already gone (404) is not', async () => {
    const c = target({ item: (p) => (p.includes('/posts/2?') ? 500 : p.includes('/posts/3?') ? 404 : 200) });
    const fx = new Fixtures(c, 'cmsc-t');
    for (let i = 1; i <= 4; i++) fx.track(`/cms/v2/posts/${i}`);
    expect(await fx.cleanup()).toEqual([]);
    expect(c.sent.map((s) => `${s.method} ${s.route}`)).toEqual(['POST /batch/v1', 'DELETE /cms/v2/posts/2']);
  });

  it('a target that does not take the batch: every item deleted on its own, and no batch is tried again', async () => {
    const c = target({ batch: 404 });
    const fx = new Fixtures(c, 'cmsc-t');
    for (let i = 1; i <= 3; i++) fx.track(`/cms/v2/pages/${i}`);
    expect(await fx.cleanup()).toEqual([]);
    expect(c.sent.map((s) => `${s.method} ${s.route}`)).toEqual(['POST /batch/v1', 'DELETE /cms/v2/pages/3', 'DELETE /cms/v2/pages/2', 'DELETE /cms/v2/pages/1']);
    const again = new Fixtures(c, 'cmsc-t');
    for (let i = 4; i <= 5; i++) again.track(`/cms/v2/pages/${i}`);
    c.sent.length = 0;
    expect(await again.cleanup()).toEqual([]);
    expect(c.sent.map((s) => s.method)).toEqual(['DELETE', 'DELETE']);
  });
});
