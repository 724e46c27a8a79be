/**
 * The progress shown while a run goes (src/run/progress.ts): done of total per namespace, requests,
 * elapsed and an estimate, failures as they happen; a live line on a terminal, a line every few
 * seconds elsewhere, nothing with quiet.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestCase, TestModule, TestSpecification } from 'vitest/node';
import { ProgressReporter, clock, type ProgressStream } from '../src/run/progress.ts';

type Fake = { id: string; ns: string; state: 'passed' | 'failed' | 'skipped'; kind?: 'conformance' | 'target' | 'harness'; message?: string; requests?: number; mode?: 'run' | 'skip' };

function testCase(f: Fake): TestCase {
  return {
    name: `${f.id} title`,
    options: { mode: f.mode ?? 'run' },
    meta: () => ({ behaviour: { id: f.id, level: 'MUST', namespace: f.ns, title: 'title', spec: { doc: 'core', section: 's' }, requests: f.requests ?? 2, ...(f.kind ? { failureKind: f.kind } : {}) } }),
    result: () => (f.state === 'failed' ? { state: 'failed', errors: [{ message: f.message ?? 'broken' }] } : { state: f.state }),
  } as unknown as TestCase;
}

function module(cases: TestCase[]): TestModule {
  return { children: { allTests: () => cases[Symbol.iterator]() } } as unknown as TestModule;
}

const specs = (n: number) => Array.from({ length: n }) as unknown as TestSpecification[];

function sink(tty: boolean): ProgressStream & { text: string } {
  const s = { text: '', isTTY: tty, columns: 200, write: (x: string) => ((s.text += x), true) };
  return s;
}

describe('progress', () => {
  let now = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    now = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('formats durations as a clock', () => {
    expect(clock(75_000)).toBe('1:15');
    expect(clock(3_725_000)).toBe('1:02:05');
  });

  it('without a terminal: a line every few seconds with done/total per namespace, requests, elapsed and an estimate; failures as they happen', () => {
    const out = sink(false);
    const p = new ProgressReporter({ stream: out, totals: { '(site)': 2, 'cms/v2': 8 }, intervalMs: 5000, now: () => now });
    p.onTestRunStart(specs(3));
    now = 4000;
    p.onTestCaseResult(testCase({ id: 'index.a', ns: '', state: 'passed', requests: 3 }));
    p.onTestCaseResult(testCase({ id: 'index.b', ns: '', state: 'skipped' }));
    p.onTestCaseResult(testCase({ id: 'cms.a', ns: 'cms/v2', state: 'failed', kind: 'conformance', message: 'GET /wp/v2/posts (spec /cms/v2/posts) answered 500\nmore' }));
    p.onTestCaseResult(testCase({ id: 'cms.b', ns: 'cms/v2', state: 'failed', kind: 'target', message: 'no response within 10000 ms' }));
    p.onTestCaseResult(testCase({ id: 'cms.c', ns: 'cms/v2', state: 'passed' }));
    p.onTestCaseResult(testCase({ id: 'cms.x', ns: 'cms/v2', state: 'skipped', mode: 'skip' })); // not selected: not counted
    expect(out.text).toBe('FAIL  MUST     cms.a: GET /wp/v2/posts (spec /cms/v2/posts) answered 500\nERROR MUST     cms.b: no response within 10000 ms\n');
    now = 5000;
    vi.advanceTimersByTime(5000);
    const line = out.text.split('\n')[2]!;
    expect(line).toBe('5/10 behaviours (50 %) · 1 failed · 1 could not be checked · 1 skipped · 11 requests · 0:05 elapsed, about 0:06 left | (site) 2/2 · cms/v2 3/8');
    // 4 checked in 5 s; still to check: cms/v2's 5 (all of its done ones were checked) -> 5 / 4 * 5 = 6.25 s
    p.onTestRunEnd();
    expect(out.text).not.toContain('\r');
  });

  it('on a terminal: one live line redrawn in place, failures printed above it, erased at the end', () => {
    const out = sink(true);
    const p = new ProgressReporter({ stream: out, totals: { 'cms/v2': 2 }, now: () => now, redrawMs: 0 });
    p.onTestRunStart(specs(1));
    p.onTestCaseResult(testCase({ id: 'cms.a', ns: 'cms/v2', state: 'failed', kind: 'conformance' }));
    p.onTestRunEnd();
    // drawn, erased for the failure line, drawn again (finished namespaces leave the live line), erased at the end
    expect(out.text).toMatch(/^\r\x1b\[K0\/2 behaviours \(0 %\)[^\n]*\r\x1b\[KFAIL  MUST     cms\.a: broken\n\r\x1b\[K1\/2 behaviours \(50 %\)[^\n]*\| cms\/v2 1\/2\r\x1b\[K$/);
  });

  it('without known totals, counts what the loaded suite files select, as "at least" until every file is loaded', () => {
    const out = sink(false);
    const p = new ProgressReporter({ stream: out, now: () => now });
    p.onTestRunStart(specs(2));
    p.onTestModuleCollected(module([testCase({ id: 'cms.a', ns: 'cms/v2', state: 'passed' }), testCase({ id: 'cms.z', ns: 'cms/v2', state: 'skipped', mode: 'skip' })]));
    p.onTestCaseResult(testCase({ id: 'cms.a', ns: 'cms/v2', state: 'passed' }));
    expect(p.line()).toMatch(/^1\/≥1 behaviours · 0 failed · 0 skipped · 2 requests · 0:00 elapsed · 1 of 2 suite files loaded \| cms\/v2 1\/≥1$/);
    p.onTestModuleCollected(module([testCase({ id: 'index.a', ns: '', state: 'passed' })]));
    expect(p.line()).toMatch(/^1\/2 behaviours \(50 %\) .*\| \(site\) 0\/1 · cms\/v2 1\/1$/);
  });

  it('estimates the time left from the pace of the checked behaviours: the skips of a namespace the target does not advertise cost nothing', () => {
    const out = sink(false);
    const p = new ProgressReporter({ stream: out, totals: { 'cms/v2': 10, 'suite/v4': 90 }, intervalMs: 5000, now: () => now });
    p.onTestRunStart(specs(2));
    for (let i = 0; i < 10; i++) p.onTestCaseResult(testCase({ id: `suite.${i}`, ns: 'suite/v4', state: 'skipped' }));
    now = 10_000;
    for (let i = 0; i < 5; i++) p.onTestCaseResult(testCase({ id: `cms.${i}`, ns: 'cms/v2', state: 'passed' }));
    // 5 checked in 10 s; cms/v2 has 5 to check, suite/v4's 80 left skip as its 10 done did: 10 s, not
    // the 57 s that counting every behaviour alike gives (10 s / 15 done * 85 left).
    expect(p.line()).toContain('0:10 elapsed, about 0:10 left');
    // Checks of the index the run read once (no request of their own) cost nothing either.
    const d = new ProgressReporter({ stream: sink(false), totals: { '(site)': 90, 'cms/v2': 10 }, now: () => now });
    now = 0;
    d.onTestRunStart(specs(2));
    for (let i = 0; i < 10; i++) d.onTestCaseResult(testCase({ id: `disc.${i}`, ns: '', state: 'passed', requests: 0 }));
    now = 10_000;
    for (let i = 0; i < 5; i++) d.onTestCaseResult(testCase({ id: `cms.${i}`, ns: 'cms/v2', state: 'passed' }));
    expect(d.line()).toContain('0:10 elapsed, about 0:10 left');
    // A namespace not begun counts by the run's share: suite/v4 not begun, cms/v2 half skipped.
    const q = new ProgressReporter({ stream: sink(false), totals: { 'cms/v2': 20, 'suite/v4': 10 }, now: () => now });
    now = 0;
    q.onTestRunStart(specs(2));
    now = 8000;
    for (let i = 0; i < 8; i++) q.onTestCaseResult(testCase({ id: `cms.${i}`, ns: 'cms/v2', state: i % 2 ? 'skipped' : 'passed' }));
    // 4 checked in 8 s; to check: cms/v2 12 * 0.5 + suite/v4 10 * 0.5 = 11 -> 22 s
    expect(q.line()).toContain('0:08 elapsed, about 0:22 left');
  });

  it('on a first run (no totals yet) estimates from the catalogue\'s expected totals while the count stays "at least"', () => {
    const p = new ProgressReporter({ stream: sink(false), expected: { 'cms/v2': 20, 'suite/v4': 80 }, now: () => now });
    p.onTestRunStart(specs(3));
    p.onTestModuleCollected(module([...Array(10)].map((_, i) => testCase({ id: `cms.${i}`, ns: 'cms/v2', state: 'passed' }))));
    now = 10_000;
    for (let i = 0; i < 5; i++) p.onTestCaseResult(testCase({ id: `cms.${i}`, ns: 'cms/v2', state: 'passed' }));
    // 5 checked in 10 s; cms/v2 15 left, suite/v4 80 not begun at the run's share (1): 95 -> 190 s
    expect(p.line()).toContain('5/≥10 behaviours · 0 failed · 0 skipped · 10 requests · 0:10 elapsed, about 3:10 left');
    // Once the index says suite/v4 is not advertised, its behaviours are expected to skip: 15 left -> 30 s.
    p.advertised((ns) => ns !== 'suite/v4');
    expect(p.line()).toContain('0:10 elapsed, about 0:30 left');
    const q = new ProgressReporter({ stream: sink(false), now: () => now });
    q.onTestRunStart(specs(3));
    q.onTestModuleCollected(module([...Array(10)].map((_, i) => testCase({ id: `cms.${i}`, ns: 'cms/v2', state: 'passed' }))));
    for (let i = 0; i < 5; i++) q.onTestCaseResult(testCase({ id: `cms.${i}`, ns: 'cms/v2', state: 'passed' }));
    expect(q.line()).not.toContain('left'); // nothing to go by
  });

  it('prints nothing when quiet', () => {
    const out = sink(false);
    const p = new ProgressReporter({ stream: out, quiet: true, totals: { 'cms/v2': 1 }, now: () => now });
    p.onTestRunStart(specs(1));
    p.onTestCaseResult(testCase({ id: 'cms.a', ns: 'cms/v2', state: 'failed', kind: 'conformance' }));
    vi.advanceTimersByTime(60_000);
    p.onTestRunEnd();
    expect(out.text).toBe('');
  });
});
