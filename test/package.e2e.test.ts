/**
 * The way a user installs it: `npm pack`, `npm i -D ./cms-conformance-x.tgz` in a project of
 * their own, `npx cms-conformance run --target reference`. The package holds what runs (no tests,
 * benchmark or CI files), its tarball is not committed by accident, and the installed command
 * runs the whole suite, every request of which validates against the exported OpenAPI document.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../src/openapi/build.ts';
import { ROOT, exec } from './helpers/cli.ts';
import { checkRun, describeFailure, OUTSIDE_THE_DOCUMENT } from './helpers/openapi-requests.ts';
import { NOT_OBSERVABLE_ON_SAMPLE, notPassedButUnobservable } from './helpers/not-observable.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; files: string[] };
const tgzName = `${pkg.name}-${pkg.version}.tgz`;

const sh = (cmd: string, args: string[], cwd: string, timeoutMs: number) => exec(cmd, args, { cwd, timeoutMs, env: { npm_config_update_notifier: 'false' } });

describe('installed as a dev dependency', () => {
  const work = mkdtempSync(join(tmpdir(), 'cmsc-pack-'));
  const project = join(work, 'project');
  let tgz: string;

  beforeAll(async () => {
    const packed = await sh('npm', ['pack', '--pack-destination', work, '--json'], ROOT, 120_000);
    expect(packed.code, packed.stderr).toBe(0);
    tgz = join(work, tgzName);
    expect(existsSync(tgz)).toBe(true);
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('ships what runs, and no tests, benchmark or CI files', () => {
    const files = execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    for (const needed of ['bin/cms-conformance.js', 'src/cli/main.ts', 'src/run/progress.ts', 'results/results.schema.json', 'reporters/html.ts', 'src/cli/serve.ts', 'targets/wordpress/router.php', 'targets/wordpress/expectations/wordpress-6.5.5.json', 'faults/index.ts', 'README.md'])
      expect(files, needed).toContain(needed);
    expect(files.some((f) => f.startsWith('suites/') && f.endsWith('.spec.ts'))).toBe(true);
    for (const f of files) expect(f, f).not.toMatch(/^(test|bench|\.ci|reports|node_modules)\/|^vitest\.config\.ts$|\.tgz$/);
  });

  it('its tarball is ignored by git', () => {
    expect(execFileSync('git', ['check-ignore', tgzName], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(tgzName);
  });

  it('npx cms-conformance run --target reference passes every behaviour', async () => {
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-user-project', version: '1.0.0', private: true }));
    // The registry's packages come from npm's cache when they are there (as on a developer's machine).
    const install = await sh('npm', ['i', '-D', tgz, '--prefer-offline', '--no-audit', '--no-fund'], project, 300_000);
    expect(install.code, install.stderr).toBe(0);
    const run = await sh('npx', ['cms-conformance', 'run', '--target', 'reference', '--seed', '1'], project, 400_000);
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const skipped = Object.keys(NOT_OBSERVABLE_ON_SAMPLE).length;
    const counts = /^(\d+) behaviours: (\d+) passed, 0 failed, 0 could not be checked, (\d+) skipped/m.exec(run.stdout);
    expect(counts, run.stdout.slice(-3000)).not.toBeNull();
    expect([Number(counts![2]), Number(counts![3])]).toEqual([Number(counts![1]) - skipped, skipped]);
    const dir = readdirSync(join(project, 'reports')).find((d) => /^\d{4}-/.test(d))!;
    // Everything passes but what the sample content cannot show, which skips saying so.
    const results = JSON.parse(readFileSync(join(project, 'reports', dir, 'results.json'), 'utf8'));
    expect(notPassedButUnobservable(results.behaviours).map((b: { id: string; reason?: string }) => `${b.id}: ${b.reason}`)).toEqual([]);
    expect(readdirSync(join(project, 'reports', dir)).sort()).toEqual(['events.ndjson', 'junit.xml', 'report.html', 'report.md', 'results.json']);
    // the rerun command in the report runs where the package is installed
    expect(readFileSync(join(project, 'reports', dir, 'report.md'), 'utf8')).toContain('npx cms-conformance run --target reference --profile spec --seed 1');
    // Every request of this full reference run validates against the exported OpenAPI document
    // (issue 34, item 2), apart from the arguments refusal checks send wrong on purpose, which
    // violate it on exactly those (test/helpers/openapi-requests.ts; its yardstick:
    // test/openapi-requests.test.ts).
    const events = readFileSync(join(project, 'reports', dir, 'events.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const judged = checkRun(buildOpenApi({ profile: 'spec' }), events);
    expect(judged.failures.map(describeFailure)).toEqual([]);
    expect(judged.checked).toBeGreaterThan(3000);
    expect(judged.declaredInvalid).toBeGreaterThan(500);
    expect(Object.keys(judged.outside).length).toBeLessThanOrEqual(OUTSIDE_THE_DOCUMENT.length);
  }, 720_000);
});
