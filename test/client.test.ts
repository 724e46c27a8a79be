import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, RateLimiter, curlFor, retryAfterMs, routeUrl, serializeQuery } from '../src/http/client.ts';
import { TargetError } from '../src/core/errors.ts';
import { textFields } from '../src/http/wire.ts';

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
  it('puts the route in rest_route and serialises arrays as comma lists, objects as o[k]=v (never a[]=)', () => {
    expect(routeUrl('http://h', '/cms/v2/posts')).toBe('http://h/index.php?rest_route=/cms/v2/posts');
    expect(serializeQuery({ include: [1, 2], categories: { terms: [3, 4], operator: 'AND' }, sticky: true, skip: undefined })).toBe(
      'include=1,2&categories%5Bterms%5D=3,4&categories%5Boperator%5D=AND&sticky=true',
    );
    expect(serializeQuery({ exclude: [] })).toBe('exclude=');
    expect(serializeQuery({ status: ['publish'], slug: ['a-b', 'c%d'] })).toBe('status=publish&slug=a-b,c%25d');
    expect(routeUrl('http://h', '/a b', { q: 'x&y' }, 'raw=1')).toBe('http://h/index.php?rest_route=/a%20b&q=x%26y&raw=1');
    // A scalar may hold a comma (a search is not a list); an array item may not: a comma list cannot carry it.
    expect(serializeQuery({ search: 'a, b' })).toBe('search=a%2C%20b');
    expect(() => serializeQuery({ slug: ['a,b'] })).toThrow(/holds a comma or white space/);
    expect(() => serializeQuery({ slug: ['a b'] })).toThrow(/holds a comma or white space/);
    expect(() => serializeQuery({ include: [[1]] })).toThrow(/cannot be sent as a comma list/);
  });

  it('writes the text fields of posts and pages as the documented object', () => {
    expect(textFields({ title: 't', content: { raw: 'c' }, excerpt: 3, status: 'draft' })).toEqual({ title: { raw: 't' }, content: { raw: 'c' }, excerpt: 3, status: 'draft' });
    const body = { slug: 's' };
    expect(textFields(body)).toBe(body);
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

  it("never retries the application's own error status (its JSON error body): a server failure is a finding", async () => {
    let hits = 0;
    const url = await serve((_q, res) => {
      hits++;
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"internal_server_error","message":"There has been a critical error.","data":{"status":500}}');
    });
    const client = new Client({ baseUrl: url, retries: 3 });
    const r = await client.get('/');
    expect(r.status).toBe(500);
    expect(r.body.code).toBe('internal_server_error');
    expect(hits).toBe(1);
    expect(client.retried).toBe(0);
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

  it('times out with a clear message: a read is sent again, a write is not (it may have reached the application)', async () => {
    let hits = 0;
    const url = await serve(() => {
      hits++;
    });
    const client = new Client({ baseUrl: url, timeoutMs: 200, retries: 2 });
    await expect(client.get('/')).rejects.toThrow(/no response within 200 ms \(3 attempts\)/);
    expect(hits).toBe(3);
    expect(client.retried).toBe(2);
    expect(client.gaveUp).toBe(1);
    hits = 0;
    await expect(client.post('/x', { a: 1 })).rejects.toThrow(/no response within 200 ms/);
    expect(hits).toBe(1);
    await client.close();
  });

  it('a batch gets the timeout once per request it carries (its answer may take each in turn)', async () => {
    const url = await serve((_q, res) => {
      setTimeout(() => res.end('{"responses":[]}'), 450);
    });
    const client = new Client({ baseUrl: url, timeoutMs: 200, retries: 0 });
    expect((await client.post('/batch/v1', { requests: ['/a', '/b', '/c', '/d', '/e'].map((path) => ({ path })) })).status).toBe(200);
    await expect(client.post('/batch/v1', { requests: [{ path: '/a' }] })).rejects.toThrow(/no response within 200 ms/);
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

describe('transient trouble of the target (issue 24)', () => {
  const GATEWAY_PAGE = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';

  it("retries a gateway's HTML 502 on a read and returns the application's answer", async () => {
    const url = await serve((_q, res, n) => {
      if (n <= 2) res.writeHead(502, { 'content-type': 'text/html' }).end(GATEWAY_PAGE);
      else res.writeHead(200, { 'content-type': 'application/json' }).end('[1]');
    });
    const client = new Client({ baseUrl: url, retries: 3 });
    const r = await client.get('/cms/v2/posts');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([1]);
    expect(client.retried).toBe(2);
    expect(client.totals.retried).toBe(2);
    expect(client.gaveUp).toBe(0);
    await client.close();
  });

  it('a gateway answer that persists is a TargetError naming the trouble, never an answer a check could read as a refusal', async () => {
    let hits = 0;
    const url = await serve((_q, res) => {
      hits++;
      res.writeHead(504, { 'content-type': 'text/html' }).end('<h1>Gateway Timeout</h1>');
    });
    const client = new Client({ baseUrl: url, retries: 2 });
    const err = await client.get('/cms/v2/posts').catch((e) => e);
    expect(err).toBeInstanceOf(TargetError);
    expect(err.message).toMatch(/GET \/cms\/v2\/posts answered 504 with text\/html, not the application's JSON error .* 3 times/);
    expect(hits).toBe(3);
    expect(client.gaveUp).toBe(1);
    // The exchange is kept (the behaviour shows the gateway's page).
    expect(client.log.at(-1)).toMatchObject({ status: 504 });
    await client.close();
    // --retries 0: sent once, still the target's trouble, not an answer.
    hits = 0;
    const c0 = new Client({ baseUrl: url, retries: 0 });
    await expect(c0.get('/x')).rejects.toBeInstanceOf(TargetError);
    expect(hits).toBe(1);
    await c0.close();
  });

  it('a write that met a gateway answer is not sent again (the application may have done it), a 503 with Retry-After included; a 429 is', async () => {
    let hits = 0;
    const url = await serve((req, res, n) => {
      hits++;
      if (req.url!.includes('gw')) res.writeHead(502, { 'content-type': 'text/html' }).end(GATEWAY_PAGE);
      else if (req.url!.includes('busy') && n === 2) res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '0' }).end('<h1>busy</h1>');
      else if (req.url!.includes('slow') && n === 3) res.writeHead(429, { 'content-type': 'text/html', 'retry-after': '0' }).end('<h1>slow down</h1>');
      else res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":5}');
    });
    const client = new Client({ baseUrl: url, retries: 3 });
    await expect(client.post('/gw', { a: 1 })).rejects.toThrow(/answered 502 .*a write is not sent again/);
    expect(hits).toBe(1);
    // A gateway may answer 503 with Retry-After after the application acted (issue 35).
    await expect(client.post('/busy', { a: 1 })).rejects.toThrow(/answered 503 with Retry-After.*a write is not sent again/);
    expect(hits).toBe(2);
    // A 429 refuses before the work: sent again.
    const r = await client.post('/slow', { a: 1 });
    expect(r.status).toBe(201);
    expect(hits).toBe(4);
    // A GET with ?_method=DELETE is a write.
    hits = 0;
    await expect(client.get('/gw', { query: { _method: 'DELETE' } })).rejects.toBeInstanceOf(TargetError);
    expect(hits).toBe(1);
    await client.close();
  });

  it('an HTML page with 200 (a captive portal) is retried on reads and never returned as the answer', async () => {
    const url = await serve((_q, res, n) => {
      if (n === 1) res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in to the Wi-Fi</body></html>');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"site"}');
    });
    const client = new Client({ baseUrl: url, retries: 1 });
    expect((await client.get('/')).body).toEqual({ name: 'site' });
    await client.close();
    const url2 = await serve((_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
    const c2 = new Client({ baseUrl: url2, retries: 1 });
    await expect(c2.get('/')).rejects.toThrow(/HTML page, not the application's JSON/);
    // anyAnswer: the caller judges (the index fetch).
    expect((await c2.get('/', { anyAnswer: true })).status).toBe(200);
    await c2.close();
  });

  it('a body cut off mid-way, or sent slowly past the timeout, is retried on reads', async () => {
    const url = await serve((req, res, n) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '20' });
      if (n === 1) res.write('{"a":', () => req.socket.destroy());
      else if (n === 2) {
        res.write('{"a":');
        setTimeout(() => res.end('1}              '), 600).unref();
      } else res.end('{"a":2}             ');
    });
    const client = new Client({ baseUrl: url, retries: 3, timeoutMs: 300 });
    expect((await client.get('/')).body).toEqual({ a: 2 });
    expect(client.retried).toBe(2);
    await client.close();
  });

  it('reads a body over --max-body no further: status kept, size recorded, the body a TargetError, memory bounded', async () => {
    const total = 50 * 1024 * 1024;
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const url = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no Content-Length to go by
      const pump = () => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => res.destroy());
      pump();
    });
    const before = process.memoryUsage().rss;
    const client = new Client({ baseUrl: url, maxBodyBytes: 1024 * 1024 });
    const r = await client.get('/cms/v2/posts');
    expect(r.status).toBe(200);
    expect(() => r.body).toThrow(TargetError);
    expect(() => r.text).toThrow(/over the --max-body limit of 1\.0 MB: read no further/);
    expect(r.exchange.bodyOverLimit).toBe(true);
    expect(r.exchange.responseBytes).toBeGreaterThan(1024 * 1024);
    expect(r.exchange.responseText).toBe('');
    expect(client.oversized).toBe(1);
    expect(sent).toBeLessThan(total);
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
    await client.close();
  });

  it('a Content-Length over --max-body is not read at all', async () => {
    const url = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(30 * 1024 * 1024) });
      res.write('[');
    });
    const client = new Client({ baseUrl: url, maxBodyBytes: 1024 * 1024 });
    const r = await client.get('/');
    expect(r.exchange.responseBytes).toBe(30 * 1024 * 1024);
    expect(() => r.body).toThrow(/30\.0 MB \(its Content-Length\), over the --max-body limit/);
    await client.close();
  });
});

describe('garbled JSON (issue 24)', () => {
  it('a JSON answer that does not parse is read again; when it stays so it is returned as it is', async () => {
    const url = await serve((_q, res, n) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(n === 1 ? '{"a":' : '{"a":1}');
    });
    const client = new Client({ baseUrl: url, retries: 2 });
    expect((await client.get('/')).body).toEqual({ a: 1 });
    expect(client.retried).toBe(1);
    await client.close();
    const url2 = await serve((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":'));
    const c2 = new Client({ baseUrl: url2, retries: 1 });
    const r = await c2.get('/');
    expect(r.status).toBe(200);
    expect(r.body).toBeUndefined();
    expect(r.text).toBe('{"a":');
    await c2.close();
  });
});

describe('a target that is down', () => {
  it('refused connections are sent again until one request has met them through all its retries; then not, until an answer comes', async () => {
    const url = await serve((_req, res) => res.end('{}'));
    await close!();
    close = undefined;
    const client = new Client({ baseUrl: url, retries: 2 });
    await expect(client.get('/')).rejects.toThrow(/ECONNREFUSED/);
    expect(client.retried).toBe(2);
    // The target is down: the next requests (a cleanup, a sweep) fail at once instead of waiting out the backoff.
    const cleanup = client.fork('cleanup');
    await expect(cleanup.delete('/cms/v2/posts/1')).rejects.toThrow(/ECONNREFUSED/);
    expect(cleanup.retried).toBe(0);
    expect(client.totals.retried).toBe(2);
    await client.close();
  });

  it('a read that got no answer in time through all its retries: the next ones that time out are not sent again, until an answer comes', async () => {
    let hits = 0;
    let answer = false;
    const url = await serve((_req, res) => {
      hits++;
      if (answer) res.end('{}');
    });
    const client = new Client({ baseUrl: url, timeoutMs: 150, retries: 2 });
    await expect(client.get('/a')).rejects.toThrow(/no response within 150 ms \(3 attempts\)/);
    expect(hits).toBe(3);
    expect(client.unanswering).toBe(true);
    // The target has stalled: a cleanup's read waits out one timeout, not three and their backoff.
    const cleanup = client.fork('cleanup');
    await expect(cleanup.get('/b')).rejects.toThrow(/no response within 150 ms: GET/);
    expect(hits).toBe(4);
    expect(cleanup.retried).toBe(0);
    // An answer: the target is back, and reads are sent again after trouble as before.
    answer = true;
    expect((await client.get('/c')).status).toBe(200);
    expect(client.unanswering).toBe(false);
    answer = false;
    await expect(client.get('/d')).rejects.toThrow(/3 attempts/);
    await client.close();
  });
});
