import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, RateLimiter, curlFor, retryAfterMs, routeUrl, serializeQuery } from '../src/client.ts';
import { TargetError } from '../src/errors.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<string> {
  let n = 0;
  const server = createServer((req, res) => handler(req, res, ++n));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('addressing', () => {
  it('puts the route in rest_route and serialises arrays and objects the WordPress way', () => {
    expect(routeUrl('http://h', '/cms/v2/posts')).toBe('http://h/index.php?rest_route=/cms/v2/posts');
    expect(serializeQuery({ include: [1, 2], categories: { terms: [3], operator: 'AND' }, sticky: true, skip: undefined })).toBe(
      'include%5B%5D=1&include%5B%5D=2&categories%5Bterms%5D%5B%5D=3&categories%5Boperator%5D=AND&sticky=true',
    );
    expect(serializeQuery({ exclude: [] })).toBe('exclude=');
    expect(routeUrl('http://h', '/a b', { q: 'x&y' }, 'raw=1')).toBe('http://h/index.php?rest_route=/a%20b&q=x%26y&raw=1');
  });
});

describe('requests', () => {
  it('sends JSON bodies and Basic credentials, parses JSON, counts per fork', async () => {
    const url = await serve(async (req, res) => {
      let body = '';
      for await (const c of req) body += c;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ auth: req.headers.authorization, type: req.headers['content-type'], body: JSON.parse(body || 'null'), url: req.url }));
    });
    const client = new Client({ baseUrl: url, credentials: { user: 'u', appPassword: 'p w' } });
    const fork = client.fork('b1');
    const r = await fork.post('/cms/v2/posts', { title: 't' });
    expect(r.body).toMatchObject({ auth: `Basic ${Buffer.from('u:p w').toString('base64')}`, type: 'application/json', body: { title: 't' } });
    expect(r.exchange.tag).toBe('b1');
    const anon = await fork.get('/x', { auth: 'none' });
    expect(anon.body.auth).toBeUndefined();
    expect(fork.requests).toBe(2);
    expect(client.requests).toBe(0);
    expect(client.totals.requests).toBe(2);
    await client.close();
  });

  it('never retries an HTTP error status', async () => {
    let hits = 0;
    const url = await serve((_q, res) => {
      hits++;
      res.writeHead(503).end('{}');
    });
    const client = new Client({ baseUrl: url, retries: 3 });
    expect((await client.get('/')).status).toBe(503);
    expect(hits).toBe(1);
    await client.close();
  });

  it('retries a reset connection with backoff, then reports a target error', async () => {
    const url = await serve((req, res, n) => {
      if (n < 3) req.socket.destroy();
      else res.end('{"ok":true}');
    });
    const client = new Client({ baseUrl: url, retries: 3 });
    expect((await client.get('/')).body).toEqual({ ok: true });
    await client.close();
    const url2 = await serve((req) => req.socket.destroy());
    const c2 = new Client({ baseUrl: url2, retries: 1 });
    await expect(c2.get('/')).rejects.toBeInstanceOf(TargetError);
    await c2.close();
  });

  it('times out with a clear message and does not retry a stall', async () => {
    let hits = 0;
    const url = await serve(() => {
      hits++;
    });
    const client = new Client({ baseUrl: url, timeoutMs: 200, retries: 3 });
    await expect(client.get('/')).rejects.toThrow(/no response within 200 ms/);
    expect(hits).toBe(1);
    await client.close();
  });

  it('honours 429 Retry-After, then sends again', async () => {
    const times: number[] = [];
    const url = await serve((_q, res, n) => {
      times.push(performance.now());
      if (n === 1) res.writeHead(429, { 'retry-after': '1' }).end('{}');
      else res.end('{"ok":1}');
    });
    const client = new Client({ baseUrl: url });
    const r = await client.get('/');
    expect(r.status).toBe(200);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
    expect(retryAfterMs('120', 10_000)).toBe(10_000);
    expect(retryAfterMs(undefined)).toBeUndefined();
    await client.close();
  });

  it('limits the request rate', async () => {
    const url = await serve((_q, res) => res.end('{}'));
    const client = new Client({ baseUrl: url, maxRps: 20, concurrency: 8 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 11 }, () => client.get('/')));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(450); // 11 starts at 20/s: the last one 500 ms after the first
    await client.close();
  });
});

describe('curl reproduction', () => {
  it('never contains credentials', async () => {
    const url = await serve((_q, res) => res.end('{}'));
    const client = new Client({ baseUrl: url, credentials: { user: 'admin', appPassword: 'SECRETSECRET' } });
    const r = await client.post('/cms/v2/posts', { a: "it's" });
    const curl = curlFor(r.exchange);
    expect(curl).not.toContain('SECRET');
    expect(curl).toContain('"$TARGET_USER:$TARGET_APP_PASSWORD"');
    expect(curl).toContain(`'{"a":"it'\\''s"}'`);
    const other = await client.get('/', { auth: { authHeader: 'Bearer SECRETSECRET' } });
    expect(curlFor(other.exchange)).toContain('Authorization: [redacted]');
    expect(JSON.stringify(other.exchange)).not.toContain('SECRET');
    await client.close();
  });
});

describe('--max-rps pacing (RateLimiter)', () => {
  it('never starts faster than the rate, even after the event loop was held up', async () => {
    const rate = new RateLimiter(20); // one start per 50 ms
    const starts: number[] = [];
    const waiting = Array.from({ length: 6 }, () => rate.slot().then(() => starts.push(performance.now())));
    // Hold the event loop for 300 ms: slots computed in advance would all be due afterwards.
    const until = performance.now() + 300;
    while (performance.now() < until);
    await Promise.all(waiting);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(Math.min(...gaps), `gaps ${gaps.map((g) => g.toFixed(0)).join(', ')} ms`).toBeGreaterThanOrEqual(45);
  });
});
