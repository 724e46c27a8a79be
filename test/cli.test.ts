/** The CLI as users script against it: exit codes, one-line errors, results.json, no secrets in files. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedDeclared, expandSuiteGlobs } from '../src/engine/declared.ts';
import { suiteFiles } from '../src/engine/suite-files.ts';
import { runCli } from './helpers/cli.ts';
import { serveIndex } from './helpers/index-server.ts';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/wordpress-7.1-index.json', import.meta.url), 'utf8'));
const schema = JSON.parse(readFileSync(new URL('../results/results.schema.json', import.meta.url), 'utf8'));

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
    [['run', '--concurrency', '-3'], /--concurrency must be at least 1, got -3/],
    [['--concurrency', '-3'], /--concurrency must be at least 1, got -3/],
    [['run', '--seed', '-1'], /--seed must be at least 0, got -1/],
    [['run', '--max-rps', '-5'], /--max-rps must be at least 0, got -5/],
    [['run', '--timeout', '-2s'], /--timeout must be a duration/],
    [['run', '--runs', '1.5'], /--runs must be a whole number/],
    [['list', '--only'], /--only needs a value/],
    [['run', '--report-dir', 'package.json'], /--report-dir: cannot write to .*package\.json is not a folder/],
    [['run', '--write-baseline', 'package.json/known.json'], /--write-baseline: cannot write to .*is not a folder/],
    [['run', '--fail-on', 'may'], /--fail-on must be one of security, must, should/],
    [['run', '--quiet=maybe'], /Option '--quiet' does not take an argument/],
    [['list', '--bogus'], /Unknown option '--bogus' \(see cms-conformance list --help\)/],
    [['selftest', '--seed', '-1'], /--seed must be a whole number, got "-1"/],
    [['selftest', '--faults', '^no-such-fault'], /names no fault/],
    [['compare', 'a'], /compare takes two sides/],
    [['help', 'frobnicate'], /unknown command "frobnicate"/],
  ];
  for (const [args, msg] of cases) {
    it(args.join(' '), async () => {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      oneLineError(r.stderr);
      expect(r.stderr).toMatch(msg);
    });
  }
  it('serve says what is wrong with a bad port in one line', async () => {
    const r = await runCli(['serve', '--port', '-1']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('cms-conformance serve: --port must be a port number (0-65535), got "-1"');
  });
  it('--help documents every command, flag and exit code, and how to try the reference server', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const s of ['run', 'list', 'compare', 'selftest', 'serve', '--target', '--app-password', '--auth-header', '--profile', '--only', '--seed', '--report-dir', '--quiet', 'TARGET_URL', 'Exit codes', '--target reference', 'SECURITY', 'error'])
      expect(r.stdout).toContain(s);
    for (const code of ['0', '1', '2', '3', '4']) expect(r.stdout).toMatch(new RegExp(`^  ${code}  `, 'm'));
  });
  it('each command has its own help', async () => {
    const global = (await runCli(['--help'])).stdout;
    for (const [cmd, first] of [
      ['run', 'Usage: cms-conformance run [options]'],
      ['list', 'Usage: cms-conformance list'],
      ['compare', 'Usage: cms-conformance compare <A> <B>'],
      ['selftest', 'Usage: cms-conformance selftest'],
      ['serve', 'Usage: cms-conformance serve'],
    ] as const) {
      const r = await runCli([cmd, '--help']);
      expect(r.code, cmd).toBe(0);
      expect(r.stdout.split('\n')[0], cmd).toMatch(new RegExp(`^${first.replace(/[[\]]/g, '\\$&')}`));
      expect(r.stdout).not.toBe(global);
      expect((await runCli(['help', cmd])).stdout, `help ${cmd}`).toBe(r.stdout);
    }
  });
  it('help rows are aligned: each block of options starts its text in one column', async () => {
    for (const cmd of ['--help', 'run --help', 'list --help', 'compare --help', 'selftest --help']) {
      const text = (await runCli(cmd.split(' '))).stdout;
      const blocks = text.split(/\n(?=\S)/); // a block starts with a heading
      for (const block of blocks) {
        const rows = block.split('\n').filter((l) => /^  --?\w/.test(l));
        const columns = new Set(rows.map((l) => /^  \S.*?\S {2,}(?=\S)/.exec(l)?.[0].length).filter((c) => c !== undefined));
        expect(columns.size, `${cmd}: ${[...columns].join(', ')} in\n${block}`).toBeLessThanOrEqual(1);
        for (const l of block.split('\n')) if (!/^\s+npx /.test(l)) expect(l.length, l).toBeLessThanOrEqual(100);
      }
    }
  });
});

describe('an --only that selects nothing is a usage error before anything runs', () => {
  it('exits 2 without contacting the target or writing a report', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cmsc-only-'));
    // The target cannot be reached: had the run started, the exit code would be 3.
    const r = await runCli(['run', '--target', 'http://127.0.0.1:9', '--only', '^nothing-matches'], { cwd });
    expect(r.code).toBe(2);
    oneLineError(r.stderr);
    expect(r.stderr).toMatch(/--only "\^nothing-matches" selects none of the [\d,]+ behaviours/);
    expect(readdirSync(r.reportDir)).toEqual([]);
    expect(existsSync(join(cwd, 'reports'))).toBe(false);
  });
  it('without --target the embedded WordPress is not booted', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cmsc-only-'));
    const r = await runCli(['run', '--only', 'nothing-matches-this'], { cwd });
    expect(r.code).toBe(2);
    oneLineError(r.stderr);
    expect(r.stderr).not.toMatch(/booting/);
    expect(existsSync(join(cwd, 'reports'))).toBe(false);
  });
  it('list says so too, counting every declared behaviour (not those of the suite files the pattern narrows the loading to)', async () => {
    // `^spamfilter\.` loads suites/extensions only; the `$` pins an ID that does not exist.
    const r = await runCli(['list', '--only', '^spamfilter\\.no-such-behaviour$']);
    expect(r.code).toBe(2);
    oneLineError(r.stderr);
    const all = cachedDeclared(expandSuiteGlobs(suiteFiles(undefined))!);
    expect(all, 'the listing recorded every suite file').toBeDefined();
    expect(r.stderr).toContain(`selects none of the ${all!.length.toLocaleString('en-US')} behaviours`);
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

  it('quotes the route the target was sent, with the spec name beside it, in the output and every report', async () => {
    // An exact ID: the `$` ends the ID (it used to be tried on "<id> <title>" only, and selected nothing).
    const r = await runCli(['run', '--target', server.url, '--only', '^spamfilter\\.stats\\.path$', '--user', 'admin', '--app-password', secret, '--seed', '1']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.results().behaviours.map((x) => x.id)).toEqual(['spamfilter.stats.path']); // not spamfilter.stats.path-enum
    const [b] = r.results().behaviours;
    const sent = 'GET /akismet/v1/stats/60-days (spec /spamfilter/v1/stats/60-days) answered 404';
    expect(b!.reason).toContain(sent);
    expect(r.stderr).toContain(`FAIL  MUST     spamfilter.stats.path: ${sent}`); // as it happens
    // JUnit is rendered from results.json: a failure body is the message and the requests, without vitest's serialized error
    const junit = readFileSync(join(r.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<failure message="GET \/akismet\/v1\/stats\/60-days \(spec /);
    expect(junit).not.toMatch(/Serialized Error|details: undefined/);
    expect(r.stdout + r.stderr).not.toMatch(/JUNIT report written/i);
    const files = { md: 'report.md', junit: 'junit.xml', html: 'report.html', json: 'results.json' };
    for (const f of Object.values(files)) {
      const text = readFileSync(join(r.reportDir, f), 'utf8');
      expect(text, f).toContain('/akismet/v1/stats/60-days (spec /spamfilter/v1/stats/60-days)');
      expect(text, f).not.toMatch(/GET \/spamfilter\/v1\/stats\/60-days answered/);
    }
  });

  it('shows its own progress and summary, none of vitest\'s output, and nothing while running with --quiet', async () => {
    const r = await runCli(['run', '--target', server.url, '--only', '^disc\\.index\\.', '--seed', '1']);
    const all = r.stdout + r.stderr;
    for (const noise of ['Test Files', 'Duration', 'RUN ', 'JUNIT report written', 'Serialized Error', '⎯', ' FAIL ', '·\u001b', '✓']) expect(all, noise).not.toContain(noise);
    const total = r.results().summary.total;
    const line = new RegExp(`^${total}/${total} behaviours \\(100 %\\) · \\d+ failed · \\d+ skipped · \\d+ requests · \\d+:\\d\\d elapsed \\| (.+)$`, 'm').exec(r.stderr);
    expect(line, r.stderr).not.toBeNull();
    // Done/total per namespace (the index behaviours name the namespace of what they check), summing to the run's.
    const parts = line![1]!.split(' · ').map((p) => /^(\S+) (\d+)\/(\d+)$/.exec(p));
    expect(parts.every((p) => p && p[2] === p[3]), line![1]).toBe(true);
    expect(parts.reduce((n, p) => n + Number(p![3]), 0)).toBe(total);
    expect(r.stdout).toMatch(new RegExp(`^${total} behaviours: `, 'm'));
    expect(readFileSync(join(r.reportDir, 'junit.xml'), 'utf8')).not.toMatch(/Serialized Error|details: undefined/);
    const q = await runCli(['run', '--target', server.url, '--only', '^disc\\.index\\.', '--seed', '1', '--quiet']);
    expect(q.stderr).not.toMatch(/behaviours \(|^FAIL/m);
    expect(q.stdout).toMatch(new RegExp(`^${total} behaviours: `, 'm'));
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
