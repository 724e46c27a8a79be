/** Baselines gate only new failures and report entries that now pass. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyBaseline, loadBaseline, parseBaseline, writeBaselineFile } from '../../src/run/baseline.ts';
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
    expect(JSON.parse(readFileSync(file, 'utf8')).failures.every((f: { reason: string }) => f.reason.length > 0)).toBe(true);
    // and a run with it passes the MUST gate
    const r = cannedResults({ behaviours: cannedBehaviours().filter((b) => b.status !== 'error') });
    r.baseline = applyBaseline(r, onDisk, file);
    expect(exitCodeFor(r, 'should')).toBe(0);
  });
});
