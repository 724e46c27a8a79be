/**
 * src/sdk/fixtures.ts autosaveRecovering: an autosave met by trouble that may have come after the
 * application acted is not sent again blindly; the item's autosaves are read first.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../src/http/client.ts';
import { TargetError } from '../src/core/errors.ts';
import { autosaveRecovering } from '../src/sdk/fixtures.ts';
import { textFields } from '../src/http/wire.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A site with one item's autosaves; the first `troubled` POSTs are answered with a gateway's 502, after (`acts`) or before the work. */
async function site(troubled: number, acts: boolean) {
  const autosaves: { id: number; content: { raw: string } }[] = [];
  let posts = 0;
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(autosaves));
      }
      posts++;
      const gateway = posts <= troubled;
      if (!gateway || acts) autosaves.push({ id: 100 + autosaves.length, content: { raw: JSON.parse(data).content.raw } });
      if (gateway) {
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end('<html><body>502 Bad Gateway</body></html>');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(autosaves.at(-1)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () => new Promise<void>((r) => server.close(() => r()));
  const client = new Client({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, retries: 1 });
  return { client, autosaves, posts: () => posts };
}

const body = textFields({ title: 'cmsc-x autosave', content: '<p>cmsc-x words of its own</p>' });

describe('autosaveRecovering', () => {
  it('takes the autosave the first attempt made, found by its words, and sends nothing again', async () => {
    const s = await site(1, true);
    const res = await autosaveRecovering(s.client, '/cms/v2/posts/7/autosaves', body);
    expect(res.body.id).toBe(100);
    expect(s.posts()).toBe(1);
    expect(s.autosaves).toHaveLength(1);
  });

  it('sends it again when the first attempt made nothing', async () => {
    const s = await site(1, false);
    const res = await autosaveRecovering(s.client, '/cms/v2/posts/7/autosaves', body);
    expect(res.status).toBe(200);
    expect(s.posts()).toBe(2);
    expect(s.autosaves).toHaveLength(1);
  });

  it('gives up as the target error after three attempts that made nothing', async () => {
    const s = await site(9, false);
    await expect(autosaveRecovering(s.client, '/cms/v2/posts/7/autosaves', body)).rejects.toBeInstanceOf(TargetError);
    expect(s.posts()).toBe(3);
  });
});
