/**
 * "depends on" holds at run level (issue 34): a skip that names an owner which passed in the same
 * run is a failure of the skipping behaviour, in a run's results (src/engine/collect.ts) and in results
 * merged from shards (src/fleet/merge.ts); a skip whose owner failed, skipped, errored or did not
 * run stays a skip.
 */
import type { TestCase, TestModule } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { buildResults } from '../src/engine/collect.ts';
import { mergeSiteResults } from '../src/fleet/merge.ts';
import { reconcileDependencies } from '../results/dependencies.ts';
import type { BehaviourResult, Results } from '../results/results.ts';

const b = (id: string, status: BehaviourResult['status'], extra: Partial<BehaviourResult> = {}) =>
  ({ id, status, level: 'MUST', namespace: 'cms/v2', title: id, spec: 'x', specRef: { doc: 'core', section: '2' }, requests: 0, durationMs: 0, file: 'f', ...extra }) as BehaviourResult;

describe('reconcileDependencies', () => {
  it('turns a skip whose owner passed into a failure of its own, naming why', () => {
    const out = reconcileDependencies([
      b('owner.passed', 'passed'),
      b('dep.on-passed', 'skipped', { dependsOn: 'owner.passed', reason: 'depends on owner.passed: the list asc holds 3 revisions, desc 4' }),
      b('dep.prereq', 'skipped', { dependsOn: 'owner.passed', reason: 'depends on owner.passed, which failed: no answer' }),
    ]);
    expect(out[0]).toEqual(b('owner.passed', 'passed'));
    for (const d of out.slice(1)) {
      expect(d.status).toBe('failed');
      expect(d.failureKind).toBe('conformance');
      expect(d.ownerPassed).toBe(true);
      expect(d.reason).toMatch(/, but owner\.passed passed in this run, so the finding is this check's own\)$/);
    }
    expect(out[1]!.reason).toMatch(/^the list asc holds 3 revisions, desc 4 \(this check skipped as depending on owner\.passed/);
    expect(out[2]!.reason).toMatch(/^no answer \(/);
  });

  it('leaves a skip whose owner failed, skipped, errored or is not in the run', () => {
    const input = [
      b('o.failed', 'failed'),
      b('o.skipped', 'skipped', { reason: 'no credentials' }),
      b('o.error', 'error'),
      ...['o.failed', 'o.skipped', 'o.error', 'o.elsewhere'].map((o) => b(`d.${o}`, 'skipped', { dependsOn: o, reason: `depends on ${o}: x` })),
      b('plain.skip', 'skipped', { reason: 'writes not allowed' }),
    ];
    expect(reconcileDependencies(input)).toEqual(input);
  });
});

describe('the rule is applied to every run and every merge', () => {
  const testCase = (id: string, state: string, meta: Record<string, unknown> = {}, note?: string): TestCase =>
    ({
      name: `${id} ${id}`,
      options: { mode: 'run' },
      module: { relativeModuleId: 'suites/x.spec.ts' },
      meta: () => ({ behaviour: { id, level: 'MUST', namespace: 'cms/v2', title: id, spec: { doc: 'core', section: '2' }, requests: 1, ...meta } }),
      result: () => ({ state, errors: [], ...(note ? { note } : {}) }),
      diagnostic: () => undefined,
    }) as unknown as TestCase;
  const module = (cases: TestCase[]) => ({ relativeModuleId: 'suites/x.spec.ts', errors: () => [], children: { allTests: () => cases } }) as unknown as TestModule;
  const header = { tool: { name: 'cms-conformance', version: '0' }, target: { url: 'http://x' }, seed: 1, config: {}, startedAt: new Date(0) } as any;

  it('buildResults: the summary and deviations count the failure', () => {
    const r = buildResults(header, [module([testCase('a.owner', 'passed'), testCase('a.dep', 'skipped', { dependsOn: 'a.owner' }, 'depends on a.owner: found nothing')])], []);
    expect(r.behaviours.find((x) => x.id === 'a.dep')).toMatchObject({ status: 'failed', ownerPassed: true });
    expect(r.summary.failed).toBe(1);
    expect(r.deviations!.flatMap((d) => d.behaviours)).toContain('a.dep');
  });

  it('mergeSiteResults: an owner that passed in another shard', () => {
    const part = (behaviours: BehaviourResult[]) => ({ ...buildResults(header, [], []), behaviours }) as Results;
    const merged = mergeSiteResults([part([b('s.owner', 'passed')]), part([b('s.dep', 'skipped', { dependsOn: 's.owner', reason: 'depends on s.owner: x' })])]);
    expect(merged.behaviours.find((x) => x.id === 's.dep')?.status).toBe('failed');
    expect(merged.summary.failed).toBe(1);
  });
});
