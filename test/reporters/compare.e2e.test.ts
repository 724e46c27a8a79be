/**
 * The real demonstration of `cms-conformance compare`: WordPress 6.1.9 (Debian package, with
 * Akismet 5.0.2) against 6.5.5 (npm build), both booted locally, same seed; then the same
 * comparison from the two results files, swapped (so B regresses and the exit code says so), and
 * a results file against a live URL (the run takes the file's seed).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../../results/compare.ts';
import { runCli } from '../helpers/cli.ts';

type WP = Awaited<ReturnType<typeof import('../../targets/wordpress/index.ts').bootWordPress>>;

describe('compare WordPress 6.1.9 with 6.5.5', () => {
  let old: WP;
  let cur: WP;
  const out = mkdtempSync(join(tmpdir(), 'cmsc-compare-'));
  const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as Comparison;

  beforeAll(async () => {
    const { bootWordPress } = await import('../../targets/wordpress/index.ts');
    [old, cur] = await Promise.all([bootWordPress({ version: '6.1.9' }), bootWordPress({ version: '6.5.5' })]);
  }, 300_000);
  afterAll(async () => {
    await Promise.all([old?.stop(), cur?.stop()]);
  });

  it('runs both with the same seed and groups every behaviour; 6.5.5 fails nothing 6.1.9 passes', async () => {
    const dir = join(out, 'live');
    const r = await runCli(
      ['compare', old.url, cur.url, '--a-user', old.user, '--a-app-password', old.appPassword, '--b-user', cur.user, '--b-app-password', cur.appPassword, '--only', '^disc\\.', '--seed', '5', '--report-dir', dir],
      { timeoutMs: 110_000 },
    );
    const c = read(dir);
    expect(c.a.seed).toBe(5);
    expect(c.b.seed).toBe(5);
    expect(c.a.summary.total).toBe(c.b.summary.total);
    expect(Object.values(c.counts).reduce((a, b) => a + b, 0)).toBe(c.behaviours.length);
    // 6.1.9 lacks what the spec documents and 6.5 added (e.g. the footnotes meta of posts and pages)
    expect(c.counts['only-a-fails']).toBeGreaterThan(0);
    expect(c.counts['both-pass']).toBeGreaterThan(0);
    const regressions = c.behaviours.filter((x) => x.group === 'only-b-fails' && x.level === 'MUST');
    expect(r.code, r.stdout).toBe(regressions.length ? 1 : 0);
    // discovery diff: 6.5 advertises the font library, 6.1 does not
    expect(c.advertised!.routes.find((x) => x.route === '/cms/v2/font-families')?.change).toBe('only-b');
    expect(readFileSync(join(dir, 'compare.md'), 'utf8')).toContain('```diff');
    expect(readFileSync(join(dir, 'compare.html'), 'utf8')).toContain('id="advertised-diff"');
    expect(readFileSync(join(dir, 'a', 'results.json'), 'utf8')).not.toContain(old.appPassword);
    expect(r.stdout).toMatch(/only-a-fails: \d+ · only-b-fails: \d+ · both-fail: \d+ · both-pass: \d+ · not-compared: \d+/);
  });

  it('compares results files without running anything; swapped, B regresses and the exit code is 1', async () => {
    const live = read(join(out, 'live'));
    const dir = join(out, 'files');
    const r = await runCli(['compare', join(out, 'live', 'b', 'results.json'), join(out, 'live', 'a'), '--report-dir', dir]);
    const c = read(dir);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(c.behaviours.filter((x) => x.group === 'only-b-fails').map((x) => x.id)).toEqual(live.behaviours.filter((x) => x.group === 'only-a-fails').map((x) => x.id));
    expect(c.advertised!.routes.find((x) => x.route === '/cms/v2/font-families')?.change).toBe('only-a');
    expect(r.stdout).toContain('only B fails: ');
  });

  it('a results file against a live URL runs the URL with the file\'s seed and selection', async () => {
    const dir = join(out, 'mixed');
    const r = await runCli(['compare', join(out, 'live', 'b'), cur.url, '--b-user', cur.user, '--b-app-password', cur.appPassword, '--report-dir', dir, '--report', 'json']);
    const c = read(dir);
    expect(c.b.seed).toBe(5);
    expect(c.warnings).toEqual([]);
    expect(c.counts['only-a-fails'] + c.counts['only-b-fails']).toBe(0); // same version, same inputs: same outcome
    expect(r.code).toBe(0);
  });
});
