/**
 * The net under the behaviours' own restores (src/run/site-state.ts): settings a run changed besides
 * what it wrote (Jetpack's module side effects) are written back as they were. On the real 7.1
 * site a `^(suite|spamfilter)\.` run left gravatar_disable_hovercards "disabled" and
 * wpcom_publish_posts_with_markdown true without it; with it, the settings read as before the run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../src/http/client.ts';
import { SETTINGS_ROUTES, describeRestored, restoreSiteState, snapshotSiteState } from '../src/run/site-state.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A settings store per route; `refuse(route, body)` makes a POST answer 400. */
async function site(stores: Record<string, Record<string, unknown>>, refuse: (route: string, body: Record<string, unknown>) => boolean = () => false) {
  const posts: { route: string; body: Record<string, unknown> }[] = [];
  const server = createServer((req, res) => {
    const route = new URL(req.url!, 'http://x').searchParams.get('rest_route') ?? '';
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const store = stores[route];
      res.setHeader('content-type', 'application/json');
      if (!store) return res.writeHead(404).end('{"code":"rest_no_route","message":"No route"}');
      if (req.method === 'GET') return res.end(JSON.stringify(store));
      const body = JSON.parse(text) as Record<string, unknown>;
      posts.push({ route, body });
      if (refuse(route, body)) return res.writeHead(400).end('{"code":"some_updated","message":"Some settings were not updated"}');
      Object.assign(store, body);
      res.end('{"code":"success"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  const client = new Client({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, credentials: { user: 'admin', appPassword: 'x' } });
  return { client, posts };
}

describe('site state: settings written back after the run', () => {
  it('writes back every key that differs, one POST per namespace, nothing where nothing changed', async () => {
    const suite = { gravatar_disable_hovercards: 'enabled', markdown: false, stats: true };
    const cms = { title: 'Site' };
    const { client, posts } = await site({ '/suite/v4/settings': suite, '/cms/v2/settings': cms });
    const state = await snapshotSiteState(client, (ns) => ns !== 'spamfilter/v1');
    expect(state.settings.map((s) => s.route)).toEqual(['/suite/v4/settings', '/cms/v2/settings']);
    suite.gravatar_disable_hovercards = 'disabled';
    suite.markdown = true;
    const r = await restoreSiteState(client, state);
    expect(posts).toEqual([{ route: '/suite/v4/settings', body: { gravatar_disable_hovercards: 'enabled', markdown: false } }]);
    expect(suite).toEqual({ gravatar_disable_hovercards: 'enabled', markdown: false, stats: true });
    expect(r).toEqual({ restored: ['/suite/v4/settings gravatar_disable_hovercards', '/suite/v4/settings markdown'], failed: [] });
    expect(describeRestored(r)).toMatch(/^site state: 2 setting\(s\) the run changed written back as they were/);
    await client.close();
  });

  it('key by key when the joined POST is refused; a key refused alone is said, not hidden', async () => {
    const suite = { a: 1, b: 2, c: 3 };
    const { client, posts } = await site({ '/suite/v4/settings': suite }, (_r, body) => Object.keys(body).length > 1 || 'c' in body);
    const state = await snapshotSiteState(client, () => true);
    Object.assign(suite, { a: 10, c: 30 });
    const r = await restoreSiteState(client, state);
    expect(posts.map((p) => p.body)).toEqual([{ a: 1, c: 3 }, { a: 1 }, { c: 3 }]);
    expect(r).toEqual({ restored: ['/suite/v4/settings a'], failed: ['/suite/v4/settings c'] });
    expect(describeRestored(r)).toMatch(/could not write back \/suite\/v4\/settings c/);
    expect(describeRestored({ restored: [], failed: [] })).toBeUndefined();
    await client.close();
  });

  it('takes an answer already read before the behaviours (the fresh-site snapshot) instead of reading again', async () => {
    const suite = { a: 1 };
    const { client, posts } = await site({ '/suite/v4/settings': suite });
    const state = await snapshotSiteState(client, (ns) => ns === 'suite/v4', { '/suite/v4/settings': { status: 200, body: { a: 0 } } });
    expect(client.requests).toBe(0);
    await restoreSiteState(client, state);
    expect(posts.map((p) => p.body)).toEqual([{ a: 0 }]);
    await client.close();
  });

  it("the spam filter's own settings are written back last (its view of the shared options has the last word)", () => {
    expect(SETTINGS_ROUTES.map((s) => s.namespace).at(-1)).toBe('spamfilter/v1');
  });
});
