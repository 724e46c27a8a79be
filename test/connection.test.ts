// What a staging or production site needs to be reached (issue 41), shown with the real CLI:
// - through a proxy (a forward / CONNECT proxy here that counts what passed through it): every request
//   of a run, of a fleet (--targets) and of both sides of compare went through it; NO_PROXY is honoured;
// - with an extra header (a gateway in front of the reference server refuses any request without it):
//   every request carried it, with or without credentials; its value is in no report or event file and
//   never printed;
// - against a self-signed HTTPS target (openssl makes the certificate): one clear line without trust,
//   a run with NODE_EXTRA_CA_CERTS or with --insecure (which every run then says).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceHandler } from '../targets/reference/index.ts';
import { runCli, type CliRun } from './helpers/cli.ts';

const ONLY = '^(contactform\\.forms|auth\\.anonymous|oembed\\.embed|index\\.)';
const TOKEN = 'gw-7f3c9e21-do-not-print';
const work = mkdtempSync(join(tmpdir(), 'cmsc-connection-'));

/** The hosts the proxy knows (none of them resolves: a request that did not go through the proxy cannot arrive). */
const HOSTS = new Map<string, number>();

/** A forward (absolute-form) and CONNECT proxy resolving *.test to 127.0.0.1; it remembers the local ports of its upstream connections. */
function startProxy() {
  const stats = { forwarded: 0, tunnels: 0, ports: new Set<number>() };
  const upstream = (host: string): number | undefined => HOSTS.get(host.toLowerCase()) ?? (/^127\.0\.0\.1$/.test(host) ? -1 : undefined);
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/');
    const port = upstream(url.hostname);
    if (port === undefined) return void res.writeHead(502).end('unknown host');
    stats.forwarded++;
    const out = httpRequest({ host: '127.0.0.1', port: port === -1 ? Number(url.port) : port, method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('socket', (s) => (s.connecting ? s.once('connect', () => stats.ports.add(s.localPort!)) : stats.ports.add(s.localPort!)));
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host, p] = (req.url ?? '').split(':');
    const port = upstream(host!);
    if (port === undefined) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    stats.tunnels++;
    const up = connect(port === -1 ? Number(p) : port, '127.0.0.1', () => {
      stats.ports.add(up.localPort!);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  return { server, stats };
}

/** The reference server behind a gateway that refuses every request without the token header; it counts what arrived and from where. */
function gated(url: string) {
  const handler = createReferenceHandler({ url });
  const seen = { requests: 0, withToken: 0, remotePorts: [] as number[] };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    seen.requests++;
    seen.remotePorts.push(req.socket.remotePort!);
    if (req.headers['x-gateway-token'] !== TOKEN) return void res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>Access denied by the gateway</h1>');
    seen.withToken++;
    void handler(req, res);
  };
  return { handle, seen, user: handler.site.admin.login, password: handler.site.admin.appPasswords[0]! };
}

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
const servers: Server[] = [];
async function started<T extends Server>(s: T): Promise<[T, number]> {
  servers.push(s);
  return [s, await listen(s)];
}

/** Every file of a report folder, read as text, must not hold `secret`. */
function filesHolding(dir: string, secret: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile() && readFileSync(path, 'utf8').includes(secret)) out.push(name);
  }
  return out;
}
const events = (dir: string) => readFileSync(join(dir, 'events.ndjson'), 'utf8').trim().split('\n').length;
const lastLines = (r: CliRun) => `${r.stderr.slice(-1500)}\n${r.stdout.slice(-1500)}`;

let proxy: ReturnType<typeof startProxy>;
let proxyUrl: string;

beforeAll(async () => {
  proxy = startProxy();
  proxyUrl = `http://127.0.0.1:${(await started(proxy.server))[1]}`;
});
afterAll(async () => {
  for (const s of servers) s.closeAllConnections?.();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(work, { recursive: true, force: true });
});

describe('through a proxy, with a gateway header', () => {
  it('sends every request of a run through --proxy, each with the header; the value is written and printed nowhere', async () => {
    const port = (await started(createHttpServer()))[1];
    HOSTS.set('site.test', port);
    const site = gated(`http://site.test:${port}`);
    servers.at(-1)!.on('request', site.handle);
    const before = { ...proxy.stats, ports: new Set(proxy.stats.ports) };
    const r = await runCli(['run', '--target', `http://site.test:${port}`, '--proxy', proxyUrl, '--header', `X-Gateway-Token: ${TOKEN}`, '--user', site.user, '--allow-writes', '--only', ONLY, '--seed', '1'], {
      env: { TARGET_APP_PASSWORD: site.password, HTTP_PROXY: '', HTTPS_PROXY: '', NO_PROXY: '' },
    });
    expect(r.code, lastLines(r)).toBe(0);
    const results = r.results();
    expect(results.summary.failed + results.summary.error).toBe(0);
    expect(results.summary.passed).toBeGreaterThan(10);
    // Every request went through the proxy: it arrived at the site from one of the proxy's connections
    // (site.test resolves nowhere else), and the proxy forwarded as many as the run recorded.
    const n = events(r.reportDir);
    expect(site.seen.requests).toBe(n);
    expect(proxy.stats.forwarded - before.forwarded).toBe(n);
    expect(site.seen.remotePorts.every((p) => proxy.stats.ports.has(p))).toBe(true);
    // Every request carried the gateway's header, anonymous ones (auth.anonymous) too.
    expect(site.seen.withToken).toBe(n);
    expect(readFileSync(join(r.reportDir, 'events.ndjson'), 'utf8')).toContain('"auth":"none"');
    expect(filesHolding(r.reportDir, TOKEN)).toEqual([]);
    expect(`${r.stdout}${r.stderr}`).not.toContain(TOKEN);
    expect(r.stderr).toContain(`through the proxy ${proxyUrl} (--proxy)`);
    expect(r.stderr).toContain('headers sent with every request: X-Gateway-Token (values not shown)');
    expect((results.config as Record<string, unknown>).headers).toEqual({ 'X-Gateway-Token': '[redacted]' });
  }, 180_000);

  it('honours HTTP_PROXY from the environment, and NO_PROXY over both it and --proxy', async () => {
    const port = (await started(createHttpServer()))[1];
    HOSTS.set('env.test', port);
    const site = gated(`http://env.test:${port}`);
    servers.at(-1)!.on('request', site.handle);
    const forwarded = proxy.stats.forwarded;
    const r = await runCli(['run', '--target', `http://env.test:${port}`, '--only', '^index\\.', '--seed', '1'], { env: { HTTP_PROXY: proxyUrl, CONFORMANCE_HEADERS: `X-Gateway-Token: ${TOKEN}`, NO_PROXY: 'other.test' } });
    expect(r.code, lastLines(r)).toBe(0);
    expect(proxy.stats.forwarded - forwarded).toBe(events(r.reportDir));
    expect(r.stderr).toContain(`through the proxy ${proxyUrl} (HTTP_PROXY)`);

    // The same site on 127.0.0.1, NO_PROXY naming it: reached directly, --proxy or not.
    const direct = gated(`http://127.0.0.1:${port}`);
    servers.at(-1)!.removeAllListeners('request').on('request', direct.handle);
    const d = await runCli(['run', '--target', `http://127.0.0.1:${port}`, '--proxy', proxyUrl, '--only', '^index\\.', '--seed', '1'], { env: { NO_PROXY: 'localhost,127.0.0.1', CONFORMANCE_HEADERS: `X-Gateway-Token: ${TOKEN}` } });
    expect(d.code, lastLines(d)).toBe(0);
    expect(direct.seen.requests).toBe(events(d.reportDir));
    expect(direct.seen.remotePorts.some((p) => proxy.stats.ports.has(p))).toBe(false);
    expect(d.stderr).not.toContain('through the proxy');
  }, 180_000);

  it('a fleet (--targets) and both sides of compare go through it too', async () => {
    const sites = [];
    for (const name of ['a.test', 'b.test']) {
      const [server, port] = await started(createHttpServer());
      HOSTS.set(name, port);
      const site = gated(`http://${name}:${port}`);
      server.on('request', site.handle);
      sites.push({ ...site, url: `http://${name}:${port}` });
    }
    const env = { A_USER: sites[0]!.user, A_PW: sites[0]!.password, B_USER: sites[1]!.user, B_PW: sites[1]!.password, CONFORMANCE_HEADERS: `X-Gateway-Token: ${TOKEN}`, CONFORMANCE_PROXY: proxyUrl };
    const file = join(work, 'sites.txt');
    writeFileSync(file, `${sites[0]!.url} A_USER A_PW\n${sites[1]!.url} B_USER B_PW\n`);
    const fleet = await runCli(['run', '--targets', file, '--only', '^index\\.', '--seed', '1', '--report-dir', join(work, 'fleet')], { env });
    expect(fleet.code, lastLines(fleet)).toBe(0);
    const cmp = await runCli(['compare', sites[0]!.url, sites[1]!.url, '--a-user', sites[0]!.user, '--a-app-password', sites[0]!.password, '--b-user', sites[1]!.user, '--b-app-password', sites[1]!.password, '--only', '^index\\.', '--seed', '1', '--report-dir', join(work, 'compare')], { env });
    expect(cmp.code, lastLines(cmp)).toBe(0);
    for (const s of sites) {
      expect(s.seen.requests).toBeGreaterThan(1);
      expect(s.seen.withToken).toBe(s.seen.requests);
      expect(s.seen.remotePorts.every((p) => proxy.stats.ports.has(p))).toBe(true);
    }
    expect(filesHolding(work, TOKEN)).toEqual([]);
    expect(`${fleet.stderr}${fleet.stdout}${cmp.stderr}${cmp.stdout}`).not.toContain(TOKEN);
  }, 240_000);
});

const openssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!openssl)('a self-signed HTTPS target (certificate made by openssl)', () => {
  let url: string;
  let cert: string;
  let site: ReturnType<typeof gated>;

  beforeAll(async () => {
    cert = join(work, 'cert.pem');
    const key = join(work, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=staging.test', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:staging.test'], { stdio: 'ignore' });
    const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) });
    const port = (await started(server))[1];
    url = `https://127.0.0.1:${port}`;
    HOSTS.set('staging.test', port);
    site = gated(url);
    server.on('request', site.handle);
  });

  const args = (target = url) => ['run', '--target', target, '--header', `X-Gateway-Token: ${TOKEN}`, '--only', '^index\\.', '--seed', '1'];

  it('fails cleanly without trust: one line naming NODE_EXTRA_CA_CERTS and --insecure, exit 3, no stack trace', async () => {
    const r = await runCli(args(), { env: { NODE_EXTRA_CA_CERTS: '' } });
    expect(r.code).toBe(3);
    const line = r.stderr.trim().split('\n').filter((l) => /certificate/.test(l));
    expect(line).toHaveLength(1);
    expect(line[0]).toMatch(/cannot reach the target: GET https:\/\/127\.0\.0\.1:\d+\/index\.php\?rest_route=\/ failed: DEPTH_ZERO_SELF_SIGNED_CERT \(the target's TLS certificate is not trusted: trust it, or the CA that signed it, with NODE_EXTRA_CA_CERTS=\/path\/to\/cert\.pem, or turn verification off with --insecure\)/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(`${r.stdout}${r.stderr}`).not.toContain(TOKEN);
  }, 120_000);

  it('runs when Node trusts the certificate (NODE_EXTRA_CA_CERTS), through a CONNECT proxy too', async () => {
    const r = await runCli(args(), { env: { NODE_EXTRA_CA_CERTS: cert } });
    expect(r.code, lastLines(r)).toBe(0);
    expect(r.results().summary.passed).toBeGreaterThan(0);
    expect(r.stderr).not.toContain('TLS verification is OFF');
    const tunnels = proxy.stats.tunnels;
    const seen = site.seen.requests;
    const p = await runCli([...args(url.replace('127.0.0.1', 'staging.test')), '--proxy', proxyUrl], { env: { NODE_EXTRA_CA_CERTS: cert } });
    expect(p.code, lastLines(p)).toBe(0);
    expect(proxy.stats.tunnels).toBeGreaterThan(tunnels);
    expect(site.seen.requests - seen).toBe(events(p.reportDir));
    expect(site.seen.remotePorts.slice(seen).every((port) => proxy.stats.ports.has(port))).toBe(true);
  }, 180_000);

  it('runs with --insecure, which the console and the report say', async () => {
    const r = await runCli([...args(), '--insecure'], { env: { NODE_EXTRA_CA_CERTS: '' } });
    expect(r.code, lastLines(r)).toBe(0);
    expect(r.stderr).toContain("TLS verification is OFF (--insecure): the target's certificate is not checked");
    expect((r.results().config as Record<string, unknown>).insecure).toBe(true);
    expect(readFileSync(join(r.reportDir, 'report.html'), 'utf8')).toContain('&quot;insecure&quot;: true');
    expect(readFileSync(join(r.reportDir, 'report.md'), 'utf8')).toMatch(/npx cms-conformance run --target https:\/\/127\.0\.0\.1:\d+ --profile spec --seed 1 --insecure --only '\^index\\\.'/);
    expect(filesHolding(r.reportDir, TOKEN)).toEqual([]);
  }, 120_000);
});
