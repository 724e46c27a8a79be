/**
 * Results from vitest's test cases: every selected behaviour is in the results, whatever state
 * its test case ended in; a selected behaviour that never reported is a harness error, never
 * silently absent (a vanished behaviour would read as "not checked" nowhere).
 */
import type { TestCase } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { behaviourResults } from '../src/engine/collect.ts';
import type { Results } from '../results/results.ts';

function testCase(id: string, state: string, mode: 'run' | 'skip' | 'todo' = 'run', extra: Record<string, unknown> = {}): TestCase {
  const behaviour = { id, level: 'MUST', namespace: 'cms/v2', title: id, spec: { doc: 'core', section: '2' }, requests: 1 };
  return {
    name: `${id} ${id}`,
    options: { mode },
    module: { relativeModuleId: 'suites/core/batch.spec.ts' },
    meta: () => ({ behaviour: { ...behaviour } }),
    result: () => ({ state, errors: [], ...extra }),
    diagnostic: () => undefined,
  } as unknown as TestCase;
}

describe('behaviourResults', () => {
  it('reports a selected behaviour that never finished as a harness error, and leaves out the unselected', () => {
    const errors: Results['errors'] = [];
    const out = behaviourResults(
      [testCase('a.passed', 'passed'), testCase('b.pending', 'pending'), testCase('c.unselected', 'pending', 'skip'), testCase('d.filtered', 'skipped', 'skip')],
      errors,
    );
    expect(out.map((b) => [b.id, b.status])).toEqual([
      ['a.passed', 'passed'],
      ['b.pending', 'error'],
    ]);
    expect(out[1]).toMatchObject({ failureKind: 'harness' });
    expect(out[1]!.reason).toMatch(/selected but the run ended before it reported/);
    expect(errors).toEqual([]);
  });
});
