/** Baseline entries that name a behaviour ID from before a split cover its parts (src/run/baseline.ts, src/sdk/discovery.ts). */
import { describe, expect, it } from 'vitest';
import { applyBaseline, baselineFromResults, resolveBaseline } from '../src/run/baseline.ts';
import { formerBehaviourId, splitBehaviourIds } from '../src/sdk/discovery.ts';
import type { Status } from '../results/results.ts';

const result = (id: string, status: Status) => ({ id, status, level: 'MUST' as const, reason: status === 'failed' ? `${id} deviates` : undefined });
const base = (ids: string[]) => ({ schemaVersion: 1 as const, failures: ids.map((id) => ({ id, reason: `known: ${id}` })) });

describe('split behaviour IDs', () => {
  it('map each part to the old ID', () => {
    const split = splitBehaviourIds();
    expect(split.get('disc.args.cms.posts.collection.list')).toContain('disc.args.cms.posts.collection.list.per_page');
    expect(split.get('disc.index.routes.entries')).toEqual(expect.arrayContaining(['disc.index.routes.entries.cms.posts.item', 'disc.index.routes.entries.undocumented', 'disc.index.routes.entries.self-link.templated']));
    expect(formerBehaviourId('disc.args.cms.posts.collection.list.per_page')).toBe('disc.args.cms.posts.collection.list');
    // Endpoint IDs that extend one another stay apart.
    expect(formerBehaviourId('disc.args.spamfilter.stats.interval.read.interval')).toBe('disc.args.spamfilter.stats.interval.read');
    expect(formerBehaviourId('disc.args.spamfilter.stats.read.interval')).toBe('disc.args.spamfilter.stats.read');
    expect(formerBehaviourId('cms.posts.query.per_page.values')).toBeUndefined();
  });

  it('an old entry covers the failing parts (known, under their own IDs) and now passes only when every part passes', () => {
    const old = 'disc.args.cms.posts.collection.list';
    const behaviours = [result(`${old}.per_page`, 'failed'), result(`${old}.order`, 'passed'), result('disc.args.oembed.embed.read.maxwidth', 'failed')];
    const o = applyBaseline({ behaviours } as any, base([old, 'disc.index.routes.entries']), 'b.json');
    expect(o.known).toEqual([{ id: `${old}.per_page`, reason: `known: ${old}` }]);
    expect(o.newFailures).toEqual(['disc.args.oembed.embed.read.maxwidth']);
    expect(o.nowPassing).toEqual([]);
    expect(o.notRun).toEqual([{ id: 'disc.index.routes.entries', status: 'not run' }]);

    const passing = applyBaseline({ behaviours: [result(`${old}.per_page`, 'passed'), result(`${old}.order`, 'passed')] } as any, base([old]), 'b.json');
    expect(passing.nowPassing).toEqual([{ id: old, reason: `known: ${old}` }]);
    const skipped = applyBaseline({ behaviours: [result(`${old}.per_page`, 'skipped'), result(`${old}.order`, 'passed')] } as any, base([old]), 'b.json');
    expect(skipped.notRun).toEqual([{ id: old, status: 'skipped' }]);
  });

  it('re-recording keeps the old entry\'s reason on each failing part', () => {
    const old = 'disc.args.cms.posts.collection.list';
    const file = baselineFromResults({ behaviours: [result(`${old}.per_page`, 'failed')], finishedAt: '2025-01-02T00:00:00Z', target: { url: 'http://x', embedded: null } } as any, base([old]));
    // The old entry's reason is the reason of the deviation that holds the failing part (one reason to edit).
    expect(file.deviations!.map((d) => [d.behaviours, d.reason])).toEqual([[[`${old}.per_page`], `known: ${old}`]]);
    expect(resolveBaseline(file).failures.map((f) => [f.id, f.reason])).toEqual([[`${old}.per_page`, `known: ${old}`]]);
  });
});
