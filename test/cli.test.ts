/** The CLI as users script against it: exit codes, one-line errors, results.json, no secrets in files. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { serveIndex } from './helpers/index-server.ts';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/wordpress-7.1-index.json', import.meta.url), 'utf8'));
const schema = JSON.parse(readFileSync(new URL('../schemas/results.schema.json', import.meta.url), 'utf8'));

function oneLineError(stderr: string) {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^cms-conformance: /);
  expect(stderr).not.toMatch(/\n\s+at /);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}

describe('usage errors exit 2 with one line', () => {
  const cases: [string[], RegExp][] = [
    [['run', '--bogus'], /Unknown option '--bogus'/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['run', '--concurrency', '0'], /--concurrency must be at least 1/],
    [['run', '--target', 'not a url'], /--target must be an http\(s\) URL/],
    [['run', '--profile', 'drupal'], /--profile must be one of/],
    [['run', '--user', 'admin'], /go together/],
    [['run', 'extra'], /unexpected argument "extra"/],
  ];
  for (const [args, msg] of cases) {
    it(args.join(' '), async () => {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      oneLineError(r.stderr);
      expect(r.stderr).toMatch(msg);
    });
  }
  it('--help documents every command, flag and exit code', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const s of ['run', 'list', '--target', '--app-password', '--auth-header', '--profile', '--only', '--seed', '--report-dir', 'TARGET_URL', 'Exit codes']) expect(r.stdout).toContain(s);
  });
});

describe('an unreachable target exits 3 with one line', () => {
  it('connection refused', async () => {
    const r = await runCli(['run', '--target', 'http://127.0.0.1:9', '--timeout', '2s']);
    expect(r.code).toBe(3);
    oneLineError(r.stderr);
    expect(r.stderr).toMatch(/cannot reach the target/);
  });
  it('a server that is not a Content Site REST Interface', async () => {
    const server = createServer((_q, s) => s.writeHead(404, { 'content-type': 'text/html' }).end('<html>nope</html>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const r = await runCli(['run', '--target', `http://127.0.0.1:${(server.address() as AddressInfo).port}`]);
    server.close();
    expect(r.code).toBe(3);
    oneLineError(r.stderr);
    expect(r.stderr).toMatch(/answered 404/);
  });
});

describe('a run against the recorded 7.1 index', () => {
  let server: Awaited<ReturnType<typeof serveIndex>>;
  const secret = 'Zq9S3cretAppPassw0rdXYZ';
  beforeAll(async () => {
    server = await serveIndex(fixture);
  });
  afterAll(() => server?.close());

  it('writes a schema-valid results.json, exits 1 on MUST failures and keeps secrets out of every file', async () => {
    const r = await runCli(['run', '--target', server.url, '--only', '^disc\\.', '--user', 'admin', '--app-password', secret, '--seed', '42']);
    expect(r.code).toBe(1);
    const results = r.results();
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(results), JSON.stringify(validate.errors)).toBe(true);
    expect(results.seed).toBe(42);
    expect(results.target).toMatchObject({ url: server.url, profile: 'wordpress' });
    expect(results.summary.total).toBe(results.behaviours.length);
    expect(results.summary.byLevel.MUST.failed).toBeGreaterThan(0);
    for (const b of results.behaviours) if (b.status !== 'passed') expect(b.reason, b.id).toBeTruthy();
    expect(r.stderr).toMatch(/profile wordpress \(auto: /);
    expect(r.stderr + r.stdout).toMatch(/seed 42/);
    for (const f of filesUnder(r.reportDir)) expect(readFileSync(f, 'utf8')).not.toContain(secret);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(JSON.stringify(results.config)).toContain('[redacted]');
  });

  it('exits 0 when every selected behaviour passes', async () => {
    const r = await runCli(['run', '--target', server.url, '--only', '^disc\\.args\\.cms\\.posts\\.collection\\.create\\.status ']);
    expect(r.results().summary).toMatchObject({ total: 1, passed: 1 });
    expect(r.code).toBe(0);
  });

  it('keeps an --auth-header out of every file', async () => {
    const header = `Bearer ${secret}`;
    const r = await runCli(['run', '--target', server.url, '--only', '^disc\\.index', '--auth-header', header]);
    for (const f of filesUnder(r.reportDir)) expect(readFileSync(f, 'utf8')).not.toContain(secret);
  });
});
