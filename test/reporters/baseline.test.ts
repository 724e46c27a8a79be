/** Baselines gate only new failures and report entries that now pass. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyBaseline, baselineFromResults, loadBaseline, parseBaseline, writeBaselineFile } from '../../src/run/baseline.ts';
import { exitCodeFor, gatingFailures } from '../../results/results.ts';
import { UsageError } from '../../src/core/errors.ts';
import { cannedBehaviours, cannedResults } from './canned.ts';

const failing = ['cms.posts.create.title-stored', 'cms.posts.per-page.bounds', 'disc.args.cms.pages.collection.list', 'spamfilter.key.verify'];

describe('baseline files', () => {
  it('rejects files without reasons, duplicates and bad JSON as usage errors', () => {
    expect(() => parseBaseline('{', 'b.json')).toThrow(UsageError);
    expect(() => parseBaseline('{"failures":[{"id":"a"}]}', 'b.json')).toThrow(/no "reason"/);
    expect(() => parseBaseline('{"failures":[{"id":"a","reason":"r"},{"id":"a","reason":"r"}]}', 'b.json')).toThrow(/twice/);
    expect(() => parseBaseline('{"nope":1}', 'b.json')).toThrow(/expected/);
    expect(() => loadBaseline('/nonexistent/b.json')).toThrow(/cannot read/);
    expect(parseBaseline('[{"id":"a","reason":"r","link":"https://x"}]', 'b.json').failures).toEqual([{ id: 'a', reason: 'r', link: 'https://x' }]);
  });
});

describe('applying a baseline', () => {
  const base = {
    schemaVersion: 1 as const,
    failures: [
      { id: 'cms.posts.per-page.bounds', reason: 'tracked upstream', link: 'https://tracker.example/1' },
      { id: 'disc.args.cms.pages.collection.list', reason: 'arrives in 6.6' },
      { id: 'spamfilter.key.verify', reason: 'offline' },
      { id: 'cms.posts.list.default', reason: 'was broken' },
      { id: 'suite.settings.read', reason: 'no suite' },
      { id: 'gone.behaviour', reason: 'removed' },
    ],
  };
  it('splits failures into known and new, and lists entries that now pass or did not run', () => {
    const r = cannedResults();
    const o = applyBaseline(r, base, 'known.json');
    expect(o.known.map((k) => k.id).sort()).toEqual(['cms.posts.per-page.bounds', 'disc.args.cms.pages.collection.list', 'spamfilter.key.verify']);
    expect(o.newFailures).toEqual(['cms.posts.create.title-stored']);
    expect(o.nowPassing).toEqual([{ id: 'cms.posts.list.default', reason: 'was broken' }]);
    expect(o.notRun).toEqual([
      { id: 'suite.settings.read', status: 'skipped' },
      { id: 'gone.behaviour', status: 'not run' },
    ]);
  });
  it('gates only on failures the baseline does not list, at the --fail-on level', () => {
    const withErrors = cannedBehaviours();
    const r = cannedResults({ behaviours: withErrors.filter((b) => b.status !== 'error') });
    expect(exitCodeFor(r, 'must')).toBe(1);
    r.baseline = applyBaseline(r, base, 'known.json');
    // the only unlisted failure is a SHOULD: gating with --fail-on should only
    expect(gatingFailures(r, 'must')).toEqual([]);
    expect(exitCodeFor(r, 'must')).toBe(0);
    expect(exitCodeFor(r, 'should')).toBe(1);
    r.baseline = applyBaseline(r, { ...base, failures: base.failures.filter((f) => f.id !== 'spamfilter.key.verify') }, 'k.json');
    expect(gatingFailures(r, 'must').map((b) => b.id)).toEqual(['spamfilter.key.verify']);
    expect(exitCodeFor(r, 'must')).toBe(1);
    r.baseline = applyBaseline(r, base, 'known.json');
    // Checks that could not be made never gate as failures: 4 for a harness bug, 3 for target trouble.
    r.errors = [{ message: 'suite failed to load', kind: 'harness' }];
    expect(exitCodeFor(r, 'must')).toBe(4);
    r.errors = [{ message: 'Hook timed out', kind: 'target' }];
    expect(exitCodeFor(r, 'must')).toBe(3);
    r.errors = [];
    expect(exitCodeFor(r, 'must')).toBe(0);
    expect(exitCodeFor({ ...r, behaviours: withErrors }, 'must')).toBe(3);
    // --fail-on security: only SECURITY failures gate
    r.baseline = undefined;
    expect(exitCodeFor(r, 'security')).toBe(0);
    expect(exitCodeFor({ ...r, behaviours: r.behaviours.map((b) => (b.level === 'SECURITY' ? { ...b, status: 'failed' as const } : b)) }, 'security')).toBe(1);
  });
  it('--write-baseline records every failure and keeps the reasons and links already written', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cmsc-bl-')), 'known.json');
    writeFileSync(file, JSON.stringify(base));
    const data = writeBaselineFile(file, cannedResults());
    expect(data.failures.map((f) => f.id).sort()).toEqual(failing);
    const onDisk = loadBaseline(file);
    expect(onDisk.failures.find((f) => f.id === 'cms.posts.per-page.bounds')).toMatchObject({ reason: 'tracked upstream', link: 'https://tracker.example/1' });
    expect(onDisk.failures.find((f) => f.id === 'cms.posts.create.title-stored')?.reason).toMatch(/expected/);
    // One reason to edit per deviation: a failure carries a reason of its own only where the old file gave it one its deviation does not have.
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.deviations.every((d: { reason: string }) => d.reason.length > 0)).toBe(true);
    expect(written.failures.every((f: { reason?: string; deviation?: string }) => f.deviation && (f.reason === undefined || f.reason === 'tracked upstream' || base.failures.some((b) => b.reason === f.reason)))).toBe(true);
    // and a run with it passes the MUST gate
    const r = cannedResults({ behaviours: cannedBehaviours().filter((b) => b.status !== 'error') });
    r.baseline = applyBaseline(r, onDisk, file);
    expect(exitCodeFor(r, 'should')).toBe(0);
  });

  it('a baseline of deviations: each failure takes the reason of the deviation that lists it; files of earlier versions read as before', () => {
    const file = parseBaseline(
      JSON.stringify({
        schemaVersion: 1,
        deviations: [{ key: 'arg:x', item: 'x', level: 'MUST', reason: 'x arrives in 2.0', link: 'https://t/1', behaviours: ['a.one', 'a.two'] }],
        failures: [{ id: 'a.one', deviation: 'arg:x' }, { id: 'b.own', reason: 'its own' }],
      }),
      'b.json',
    );
    expect(file.failures).toEqual([
      { id: 'a.one', deviation: 'arg:x', reason: 'x arrives in 2.0', link: 'https://t/1' },
      { id: 'b.own', reason: 'its own' },
      { id: 'a.two', deviation: 'arg:x', level: 'MUST', reason: 'x arrives in 2.0', link: 'https://t/1' },
    ]);
    // deviations alone are a baseline; a failure no deviation gives a reason for is a usage error
    expect(parseBaseline('{"deviations":[{"key":"k","item":"k","reason":"r","behaviours":["a"]}]}', 'b.json').failures).toEqual([{ id: 'a', reason: 'r', deviation: 'k' }]);
    expect(() => parseBaseline('{"deviations":[{"key":"k","item":"k","behaviours":["a"]}],"failures":[{"id":"a"}]}', 'b.json')).toThrow(/no "reason"/);
    expect(() => parseBaseline('{"deviations":{}}', 'b.json')).toThrow(/must be a list/);
  });
  it('a recorded reason is the same on the next run: no port, no item IDs, no run tokens', () => {
    const r = cannedResults();
    const one = r.behaviours.find((b) => b.status === 'failed')!;
    const at = (port: number, id: number, token: string) => ({ ...r, behaviours: r.behaviours.map((b) => (b.id === one.id ? { ...b, reason: `search=${token}: got [o2(${id}), ${id + 9}] at http://127.0.0.1:${port}/index.php?rest_route=/wp/v2/pages/${id} [request: GET /wp/v2/pages/${id}]` } : b)) });
    const a = baselineFromResults(at(9840, 216, 'cmscmwxuo6z7d5c3gghble2'));
    const b = baselineFromResults(at(41234, 514, 'cmscab12cd34ef56'));
    const reasonOf = (f: typeof a) => f.deviations!.find((d) => d.behaviours.includes(one.id))!.reason;
    expect(reasonOf(a)).toBe(reasonOf(b));
    expect(reasonOf(a)).toBe('search=<token>: got [o2, <id>] at /index.php?rest_route=/wp/v2/pages/<id>');
  });
});
