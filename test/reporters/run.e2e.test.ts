/**
 * One real run through the CLI against the embedded WordPress, as a CI job would use it: the
 * default report directory (reports/<timestamp>/ and reports/latest), every format, JUnit with one
 * testcase per behaviour, the event log, no secret in any file, and the baseline gate.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Results } from '../../results/results.ts';
import { sharedWordPress } from '../helpers/harness.ts';
import { BIN, ROOT, exec } from '../helpers/cli.ts';

const schema = JSON.parse(readFileSync(join(ROOT, 'results/results.schema.json'), 'utf8'));

const cli = (args: string[], cwd: string) => exec(process.execPath, [BIN, ...args], { cwd, timeoutMs: 100_000 });

const ONLY = '^disc\\.';

describe('usage errors of the report options exit 2 with one line', () => {
  const cases: [string[], RegExp][] = [
    [['run', '--report', 'html,pdf'], /--report takes a comma-separated list/],
    [['run', '--baseline', 'missing.json'], /cannot read --baseline missing.json/],
    [['compare', 'http://127.0.0.1:9'], /compare takes two sides/],
    [['compare', 'nope.json', 'http://127.0.0.1:9'], /neither a URL/],
    [['compare', 'wordpress@5.0', 'wordpress@6.5.5'], /6.5.5 or 6.1.9/],
    [['compare', 'http://127.0.0.1:9', 'http://127.0.0.1:10', '--baseline', 'b.json'], /apply to run/],
  ];
  for (const [args, msg] of cases)
    it(args.join(' '), async () => {
      let err = '';
      const sink = new PassThrough();
      const errSink = new PassThrough().on('data', (d) => (err += d));
      expect(await main(args, sink, errSink)).toBe(2);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toMatch(msg);
    });
});

describe('a run against the embedded WordPress', () => {
  const wp = sharedWordPress();
  const cwd = mkdtempSync(join(tmpdir(), 'cmsc-e2e-'));
  const secret = () => wp().appPassword!;
  const creds = () => ['--target', wp().url, '--user', wp().user!, '--app-password', secret(), '--only', ONLY, '--seed', '3'];

  it('writes every format to reports/<timestamp>/, points reports/latest at it, and records a baseline', async () => {
    const r = await cli(['run', ...creds(), '--write-baseline', 'known.json'], cwd);
    expect(r.code, r.stderr).toBe(1); // WordPress 6.5.5 has genuine MUST discovery failures
    const dirs = readdirSync(join(cwd, 'reports')).filter((d) => /^\d{4}-\d\d-\d\dT/.test(d));
    expect(dirs).toHaveLength(1);
    const dir = join(cwd, 'reports', dirs[0]!);
    expect(realpathSync(join(cwd, 'reports/latest'))).toBe(realpathSync(dir));
    expect(readdirSync(dir).sort()).toEqual(['events.ndjson', 'junit.xml', 'report.html', 'report.md', 'results.json']);
    const own = readdirSync(join(cwd, 'reports')).find((d) => d.startsWith('latest-'))!;
    expect(own).toBe(`latest-127.0.0.1-${new URL(wp().url).port}`);
    expect(realpathSync(join(cwd, 'reports', own))).toBe(realpathSync(dir));
    expect(r.stdout).toContain(`reports: reports/${dirs[0]} (also reports/latest, the newest run, and reports/${own}, the newest against this target)`);

    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    expect(ajv.validate(schema, results), JSON.stringify(ajv.errors?.slice(0, 3))).toBe(true);
    expect(results.coverage!.covered).toBeGreaterThan(0);
    expect(results.coverage!.items).toBeGreaterThan(results.coverage!.covered);
    expect(results.advertised!.routes['/cms/v2/posts']).toBeDefined(); // spec names
    expect(r.stdout).toContain(`behavioural coverage: ${results.coverage!.behavioural.percent} %`);
    expect(r.stdout).toContain(`with discovery: ${results.coverage!.percent} %`);

    // JUnit: one testcase per behaviour that ran, named by ID, with level and spec; every skip with its reason
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(results.behaviours.length);
    expect(junit.match(/<failure /g)).toHaveLength(results.summary.failed);
    expect(junit.match(/<skipped message="[^"]+"\/>/g)).toHaveLength(results.summary.skipped);
    expect(junit).not.toContain('<skipped/>');
    const failed = results.behaviours.find((b) => b.status === 'failed')!;
    expect(junit).toMatch(new RegExp(`<testcase classname="${failed.namespace || '\\(site\\)'}"[^>]*name="${failed.id.replace(/\./g, '\\.')} `));
    expect(junit).toContain(`<property name="id" value="${failed.id}"/>`);
    expect(junit).toContain('<property name="level" value="MUST"/>');
    // rendered from results.json: no vitest noise in failure bodies
    expect(junit).not.toContain('Serialized Error');
    expect(junit).toContain(`<property name="location" value="${failed.location}"/>`);
    expect(junit).toContain('<property name="spec" value="core-routes.md § ');

    // event log: the index fetch and the sweeps, one JSON object per line
    const events = readFileSync(join(dir, 'events.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(events[0]).toMatchObject({ behaviour: 'setup', method: 'GET', status: 200 });
    expect(events.some((e) => e.behaviour === 'sweep')).toBe(true);

    // Markdown and HTML name every failure
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    for (const b of results.behaviours.filter((x) => x.status === 'failed')) {
      expect(md).toContain(`\`${b.id}\``);
      expect(html).toContain(`id="b-${b.id}"`);
    }

    // no secret in any file the run wrote
    for (const f of [...readdirSync(dir).map((n) => join(dir, n)), join(cwd, 'known.json')]) expect(readFileSync(f, 'utf8'), f).not.toContain(secret());

    const baseline = JSON.parse(readFileSync(join(cwd, 'known.json'), 'utf8'));
    expect(baseline.failures.map((f: { id: string }) => f.id).sort()).toEqual(results.behaviours.filter((b) => b.status === 'failed').map((b) => b.id).sort());
    expect(r.stdout).toContain('baseline written:');
  });

  it('with the baseline the run passes, and entries that now pass are reported; only the chosen formats go to exactly --report-dir', async () => {
    const known = JSON.parse(readFileSync(join(cwd, 'known.json'), 'utf8'));
    known.failures.push({ id: 'disc.index.field.name', reason: 'was broken once', link: 'https://tracker.example/1' });
    writeFileSync(join(cwd, 'known.json'), JSON.stringify(known));
    const out = join(cwd, 'exact');
    const r = await cli(['run', ...creds(), '--baseline', 'known.json', '--report', 'json,md', '--report-dir', out], cwd);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['report.md', 'results.json']);
    expect(r.stdout).toMatch(/baseline known\.json: \d+ known failure\(s\) still fail, 0 new failure\(s\), 1 entry now passes/);
    expect(r.stdout).toContain('now passes (remove it from the baseline): disc.index.field.name');
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(results.baseline!.newFailures).toEqual([]);
    expect(results.baseline!.nowPassing).toEqual([{ id: 'disc.index.field.name', reason: 'was broken once', link: 'https://tracker.example/1' }]);
    // nothing new fails, but the selection checks no SECURITY behaviour: never a bare PASS
    expect(readFileSync(join(out, 'report.md'), 'utf8').split('\n')[0]).toMatch(/^## ⚠️ cms-conformance: PASS, SECURITY NOT CHECKED — \d+ known deviations? \(listed in known\.json\), 0 new$/);
    expect(readdirSync(join(cwd, 'reports')).filter((d) => /^\d{4}/.test(d))).toHaveLength(1); // --report-dir made no timestamped directory
    expect(existsSync(join(out, 'report.html'))).toBe(false);
  });
});
