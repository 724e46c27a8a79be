/**
 * Deviations (results/deviations.ts): failing behaviours grouped by the documented item that broke.
 * The canned runs in test/fixtures/deviations/ are real runs cut down to what the grouping reads
 * (every failed behaviour with its covers, message and recorded requests; the passed behaviours
 * that are evidence for the items those touch; the cut gives the same deviations as the whole
 * run): the reference server behind faults of the classes in issue 25, and the WordPress 7.1 site.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Deviation } from '../results/results.ts';
import { cannedRun } from './helpers/canned-deviations.ts';
import { deviationHeadline, groupDeviations } from '../results/deviations.ts';
import { cannedResults } from './reporters/canned.ts';
import { compareDeviations } from './helpers/real-targets.ts';
import { expectationsFile } from './helpers/plugin-target.ts';

const run = cannedRun;

const byKey = (ds: Deviation[], key: string) => {
  const d = ds.find((x) => x.key === key);
  if (!d) throw new Error(`no deviation ${key}; got ${ds.map((x) => x.key).join(', ')}`);
  return d;
};

/** Every failed behaviour is in exactly one deviation, and nothing else is (CLIENT findings are readiness, never a deviation). */
function partitions(r: ReturnType<typeof run>, ds: Deviation[]) {
  const ids = ds.flatMap((d) => d.behaviours);
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual(r.behaviours.filter((b) => b.status === 'failed' && b.level !== 'CLIENT').map((b) => b.id).sort());
}


describe('groupDeviations', () => {
  it('the footnotes meta key missing (stored fields, defaults, advertised args: 12 behaviours) is one deviation', () => {
    const r = run('footnotes-missing');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(ds.map((d) => d.key).sort()).toEqual(['field:post.meta']);
    const meta = byKey(ds, 'field:post.meta');
    expect(meta.behaviours).toHaveLength(12);
    expect(meta.behaviours.filter((id) => /fields\.(create|update)-stored$/.test(id))).toHaveLength(4);
    expect(meta.behaviours.filter((id) => /footnotes-default$/.test(id))).toHaveLength(2);
    expect(meta.behaviours.filter((id) => id.startsWith('disc.args.'))).toHaveLength(6);
    expect(meta.kind).toBe('field');
    expect(meta.spec).toMatch(/core-routes\.md § 2\. Resources/);
    expect(meta.level).toBe('MUST');
  });

  it('four query args neither advertised nor honoured are four deviations, each with its discovery and .values checks (format: the filter over the post field\'s values is that field)', () => {
    const r = run('args-missing');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(ds).toHaveLength(4);
    expect(deviationHeadline(ds)).toBe('4 deviations in 12 failing behaviours');
    expect(byKey(ds, 'field:post.format').behaviours).toEqual([
      'disc.args.cms.posts.autosaves.collection.create.format',
      'disc.args.cms.posts.collection.create.format',
      'disc.args.cms.posts.collection.list.format',
      'disc.args.cms.posts.item.update.format',
    ]);
    expect(byKey(ds, 'arg:cms.posts.collection.list.search_semantics').behaviours).toEqual([
      'cms.pages.query.search_semantics.values',
      'cms.posts.query.search_semantics.values',
      'disc.args.cms.pages.collection.list.search_semantics',
      'disc.args.cms.posts.collection.list.search_semantics',
    ]);
    expect(byKey(ds, 'arg:cms.posts.collection.list.ignore_sticky').behaviours).toEqual(['cms.posts.query.ignore_sticky.values', 'disc.args.cms.posts.collection.list.ignore_sticky']);
    expect(byKey(ds, 'arg:cms.posts.item.read.excerpt_length').behaviours).toEqual(['disc.args.cms.pages.item.read.excerpt_length', 'disc.args.cms.posts.item.read.excerpt_length']);
  });

  it('a settings write that answers success and stores nothing (every round trip, type and toggle check) is one deviation: the endpoint', () => {
    const r = run('settings-noop');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(ds).toHaveLength(1);
    const d = ds[0]!;
    expect(d.key).toBe('endpoint:suite.settings.update');
    expect(d.kind).toBe('endpoint');
    expect(d.item).toContain('/suite/v4/settings');
    expect(d.behaviours).toHaveLength(292);
    expect(d.behaviours.filter((id) => id.startsWith('suite.settings.roundtrip.'))).toHaveLength(99);
    expect(d.behaviours.filter((id) => id.startsWith('suite.modules.toggle-type.'))).toHaveLength(43);
  });

  it('a module toggle route that changes nothing (one failure per module) is one deviation: the endpoint', () => {
    const r = run('module-toggle-ignored');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(ds.map((d) => d.key).sort()).toEqual(['endpoint:suite.module.active.update']);
    const d = byKey(ds, 'endpoint:suite.module.active.update');
    expect(d.behaviours.filter((id) => id.startsWith('suite.modules.toggle.'))).toHaveLength(43);
    expect(d.item).toContain('/suite/v4/module/<slug>/active');
  });

  it('a listing that ignores include (its filter, orderby and .values checks; fixtures are found by their own route) is one deviation', () => {
    const r = run('include-ignored');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(ds).toHaveLength(1);
    expect(ds[0]!.key).toBe('arg:cms.posts.collection.list.include');
    expect(ds[0]!.behaviours).toHaveLength(8);
    // The representative message is of a behaviour that checks include itself.
    expect(ds[0]!.behaviours).toContain('cms.posts.filter.include');
    expect(ds[0]!.message).toMatch(/include/);
  });

  it('every write route of a namespace refused alike is one deviation: the namespace\'s writes, joining the items it broke', () => {
    const r = run('suite-writes-refused');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(ds.map((d) => d.key)).toEqual(['routes:suite/v4:write']);
    const d = ds[0]!;
    expect(d.kind).toBe('routes');
    expect(d.item).toMatch(/^every write route of suite\/v4 \(\d+ documented items fail alike\)$/);
    expect(d.items!.length).toBeGreaterThan(10);
    expect(d.items!.every((k) => /^(arg|param|endpoint):suite\./.test(k))).toBe(true);
  });

  it('every read route of a namespace failing with a server error is one deviation (its security checks skip: nothing was served to anyone)', () => {
    const r = run('suite-reads-broken');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(ds.map((d) => d.key)).toEqual(['routes:suite/v4:read']);
    expect(r.behaviours.some((b) => b.id.startsWith('suite.security.') && b.status === 'failed')).toBe(false);
  });

  it('a rule broken on every item it is made for (no required arg enforced) is one deviation: the rule', () => {
    const r = run('suite-required-not-enforced');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(ds.map((d) => d.key)).toEqual(['rule:suite.params.required.*']);
    expect(ds[0]!.kind).toBe('rule');
    expect(ds[0]!.behaviours.filter((id) => id.startsWith('suite.params.required.'))).toHaveLength(16);
    expect(ds[0]!.items!.every((k) => k.startsWith('arg:suite.'))).toBe(true);
  });

  it('a flag advertised wrongly on a family of endpoints is one deviation: allow_batch on every revision and autosave route (12 behaviours, 6 items)', () => {
    const r = run('allow-batch-subroutes');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(ds).toHaveLength(1);
    expect(ds[0]!.kind).toBe('rule');
    expect(ds[0]!.behaviours).toHaveLength(12);
    expect(ds[0]!.items).toHaveLength(6);
    expect(ds[0]!.item).toMatch(/^allow_batch advertised otherwise than documented on every endpoint of cms\/v2 documented not batchable/);
    // Only the revision routes: one deviation of that sub-resource, the autosaves untouched.
    const revisions = { ...r, behaviours: r.behaviours.map((b) => (b.status === 'failed' && b.id.includes('.autosaves.') ? { ...b, status: 'passed' as const } : b)) };
    const only = groupDeviations(revisions);
    expect(only).toHaveLength(1);
    expect(only[0]!.item).toMatch(/every revisions endpoint of cms\/v2/);
    // The batchable ones pass: the family's own flag, not every allow_batch check.
    expect(r.behaviours.filter((b) => b.status === 'passed' && /^disc\.allow-batch\.cms\.(posts|pages)\.(collection|item)\./.test(b.id)).length).toBeGreaterThan(0);
  });

  it('a wider cause needs the evidence: a few items of a kind failing among many that pass stay apart', () => {
    // The 7.1 site fails 4 of its 99 setting default checks and 2 write endpoints of suite/v4 among many that work.
    const ds = groupDeviations(run('wordpress-7.1'));
    expect(ds.some((d) => d.kind === 'routes' || d.kind === 'rule')).toBe(false);
  });

  it('unrelated failures stay apart: the WordPress 7.1 site (37 failing behaviours, and a CLIENT finding) has 24 deviations, one per documented item', () => {
    const r = run('wordpress-7.1');
    const ds = groupDeviations(r);
    partitions(r, ds);
    expect(deviationHeadline(ds)).toBe('24 deviations in 37 failing behaviours');
    // Four wrong setting defaults on one endpoint are four items: GET /settings answers the other defaults right.
    for (const s of ['button_style', 'count_roles', 'sharing_label', 'show']) expect(byKey(ds, `suite.setting.${s}`).behaviours).toEqual([`suite.settings.default.${s.replace(/_/g, '-')}`]);
    // Five settings answered with the wrong value: five items, not GET /settings.
    for (const s of ['analytics_tracking_id', 'custom', 'post_by_email_address', 'suite_protect_global_whitelist', 'suite_protect_key']) expect(byKey(ds, `suite.setting.${s}`).behaviours).toHaveLength(1);
    expect(ds.some((d) => d.kind === 'endpoint' && d.key.startsWith('endpoint:suite.settings'))).toBe(false);
    // One item in several places: the geo-location module (not advertised as an arg of two routes, not in /settings, not answered by /module/<slug>).
    expect(byKey(ds, 'suite.module.geo-location').behaviours).toEqual([
      'disc.args.suite.module.item.update.geo-location',
      'disc.args.suite.settings.update.geo-location',
      'suite.modules.value.geo-location',
      'suite.read.module.item',
    ]);
    // The stats interval as a query arg and as a path segment: one documented set of values.
    expect(byKey(ds, 'arg:spamfilter.stats.read.interval').behaviours).toHaveLength(6);
    // A setting refused neither through /settings nor through /module/<slug>: one item.
    expect(byKey(ds, 'suite.setting.highlander_comment_form_prompt').behaviours).toEqual(['suite.settings.module-route.highlander-comment-form-prompt', 'suite.settings.type.highlander-comment-form-prompt']);
    // A check whose candidates are all args of one endpoint, failing nowhere else: the endpoint.
    expect(byKey(ds, 'endpoint:cms.posts.collection.create').behaviours).toEqual(['cms.posts.create.slug-only']);
    expect(byKey(ds, 'arg:oembed.proxy.read.maxwidth').behaviours).toEqual(['oembed.proxy.maxwidth.validated']);
    expect(byKey(ds, 'arg:oembed.proxy.read.maxheight').behaviours).toEqual(['oembed.proxy.maxheight.validated']);
  });

  it('is a function of the behaviours alone: the same deviations in any order of the behaviours', () => {
    for (const name of ['wordpress-7.1', 'include-ignored']) {
      const r = run(name);
      const shuffled = { ...r, behaviours: [...r.behaviours].reverse() };
      expect(groupDeviations(shuffled)).toEqual(groupDeviations(r));
    }
  });

  it('orders the worst level first, then the most behaviours; a failure no item explains is its own deviation', () => {
    const ds = groupDeviations(cannedResults());
    const failed = cannedResults().behaviours.filter((b) => b.status === 'failed');
    expect(ds.flatMap((d) => d.behaviours).sort()).toEqual(failed.map((b) => b.id).sort());
    const rank = { SECURITY: 0, MUST: 1, SHOULD: 2, CLIENT: 3 } as const;
    for (let i = 1; i < ds.length; i++) expect(rank[ds[i - 1]!.level]).toBeLessThanOrEqual(rank[ds[i]!.level]);
    expect(groupDeviations({ behaviours: [] })).toEqual([]);
    const lone = groupDeviations({ behaviours: [{ ...failed[0]!, covers: [], exchanges: [] }] });
    expect(lone).toEqual([expect.objectContaining({ key: `behaviour:${failed[0]!.id}`, kind: 'behaviour', behaviours: [failed[0]!.id] })]);
  });
});

describe('the pinned deviations of the real sites (test/expectations/*.json)', () => {
  for (const [fixture, file] of [
    ['wordpress-7.1', 'wordpress-7.1-plugins.json'],
    ['wordpress-6.5.5', 'wordpress-6.5.5.json'],
  ] as const) {
    const expected = JSON.parse(readFileSync(expectationsFile(file), 'utf8'));
    it(`${file}: the measured run gives exactly the listed deviations, each with a reason`, () => {
      const r = run(fixture);
      compareDeviations(r as never, expected, file);
      // The listed behaviours are the run's own, and every gating failure is in a listed deviation.
      const ds = groupDeviations(r);
      for (const d of expected.deviations) expect(ds.find((x) => x.key === d.key)?.behaviours).toEqual(d.behaviours);
      const pinned = new Set(expected.deviations.flatMap((d: { behaviours: string[] }) => d.behaviours));
      for (const f of expected.failures) expect(pinned.has(f.id), f.id).toBe(true);
    });
    it(`${file}: a deviation not listed, or a listed one gone, fails the comparison`, () => {
      const r = run(fixture);
      const fewer = { ...expected, deviations: expected.deviations.slice(1) };
      expect(() => compareDeviations(r as never, fewer, file)).toThrow(/not in (test\/expectations|targets\/wordpress\/expectations)/);
      const more = { ...expected, deviations: [...expected.deviations, { key: 'arg:cms.posts.collection.list.include', item: 'include', level: 'MUST', reason: 'a deviation this site does not have', behaviours: [] }] };
      expect(() => compareDeviations(r as never, more, file)).toThrow(/no longer occur/);
    });
  }
});
