/** When a run decides that its target stopped answering for good (src/run/stop.ts TargetWatch), and the exit codes of a stopped run. */
import { describe, expect, it } from 'vitest';
import type { TestCase } from 'vitest/node';
import { TargetWatch, signalExitCode } from '../src/run/stop.ts';
import { exitCodeFor, type BehaviourResult } from '../results/results.ts';

/** A finished behaviour as the watch sees it. */
function ended(state: 'passed' | 'failed' | 'skipped', opts: { requests?: number; message?: string; failureKind?: string } = {}): TestCase {
  return {
    result: () => ({ state, ...(state === 'failed' ? { errors: [{ message: opts.message ?? 'failed' }] } : {}) }),
    meta: () => ({ behaviour: { id: 'cms.x', requests: opts.requests ?? 1, ...(opts.failureKind ? { failureKind: opts.failureKind } : {}) } }),
  } as unknown as TestCase;
}
const refused = () => ended('failed', { failureKind: 'target', message: 'GET http://127.0.0.1:9/index.php?rest_route=/cms/v2/posts failed: ECONNREFUSED' });

function watch(afterMs = 30_000) {
  let now = 0;
  const fired: string[] = [];
  const w = new TargetWatch(afterMs, (m) => fired.push(m), () => now);
  return { w, fired, at: (t: number) => ((now = t), w.check()) };
}

describe('a target that stops answering for good', () => {
  it('is declared gone once no request got an answer for --unreachable-after, once', () => {
    const { w, fired, at } = watch();
    w.onTestCaseResult(ended('passed'));
    at(1000);
    w.onTestCaseResult(refused());
    at(30_999);
    expect(fired).toEqual([]);
    at(31_000);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatch(/answered no request for 30 s .*ECONNREFUSED in cms\.x/);
    at(60_000);
    expect(fired).toHaveLength(1);
  });

  it('an answer in between starts the count again; timeouts count as no answer', () => {
    const { w, fired, at } = watch();
    w.onTestCaseResult(refused());
    at(20_000);
    w.onTestCaseResult(ended('failed', { failureKind: 'conformance', message: 'answered 404, documented 200', requests: 3 })); // an answer, if a wrong one
    at(40_000);
    expect(fired).toEqual([]);
    w.onTestCaseResult(ended('failed', { failureKind: 'target', message: 'no response within 10000 ms: GET http://x/' }));
    at(69_999);
    expect(fired).toEqual([]);
    at(70_000);
    expect(fired).toHaveLength(1);
  });

  it('behaviours that send no request, skips and other target trouble (a 500) tell nothing', () => {
    const { w, fired, at } = watch(1000);
    w.onTestCaseResult(ended('failed', { failureKind: 'target', message: 'GET /cms/v2/posts answered 500' }));
    w.onTestCaseResult(ended('skipped'));
    at(5000);
    expect(fired).toEqual([]);
    w.onTestCaseResult(refused());
    w.onTestCaseResult(ended('passed', { requests: 0 })); // a check of the index read at the start
    at(6000);
    expect(fired).toHaveLength(1);
  });

  it('--unreachable-after 0 never stops a run', () => {
    const { w, fired, at } = watch(0);
    w.onTestCaseResult(refused());
    at(1e9);
    expect(fired).toEqual([]);
  });
});

describe('exit codes of a stopped run', () => {
  const b = (status: BehaviourResult['status'], failureKind?: BehaviourResult['failureKind']) => ({ id: 'x', level: 'MUST', status, ...(failureKind ? { failureKind } : {}) }) as BehaviourResult;
  const incomplete = { reason: 'target-unreachable' as const, message: 'gone', at: '', notRun: 5 };
  it('an unreachable target: 3, unless a gating behaviour failed before (1)', () => {
    expect(exitCodeFor({ behaviours: [b('passed')], errors: [], incomplete }, 'must')).toBe(3);
    expect(exitCodeFor({ behaviours: [b('passed'), b('error', 'harness')], errors: [], incomplete }, 'must')).toBe(3);
    expect(exitCodeFor({ behaviours: [b('failed', 'conformance')], errors: [], incomplete }, 'must')).toBe(1);
  });
  it('a signal: 128 + its number, as shells report a process it ended', () => {
    expect([signalExitCode('SIGINT'), signalExitCode('SIGTERM'), signalExitCode('SIGHUP')]).toEqual([130, 143, 129]);
  });
});
