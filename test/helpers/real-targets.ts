/**
 * The verdicts against real implementations, pinned (test/real-targets.*.test.ts, one file per
 * target so that the two runs can go to both test workers): a full run (seed 1) compared with
 * committed expectations listing every gating (SECURITY and MUST) failure with a one-line reason
 * it is genuine: the spec sentence and the observed answer. It fails on a gating failure the
 * expectations do not list (a false failure, or a new deviation to explain) and on a listed one
 * that now passes (remove it), and on any check that could not be made because of a bug of
 * cms-conformance. The same for the gating deviations (failing behaviours grouped by the
 * documented item that broke): one not listed, or a listed one gone, fails.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Results } from '../../results/results.ts';
import { deviationsOf } from '../../results/deviations.ts';
import { relative } from 'node:path';
import { ROOT } from './cli.ts';
import { expectationsFile } from './plugin-target.ts';

const shownExpectations = (file: string) => relative(ROOT, expectationsFile(file));

interface Expectations {
  target: string;
  seed: number;
  /** Gating deviations (results.json `deviations` of level SECURITY or MUST), each with why it is genuine. */
  deviations: { key: string; item: string; level: string; reason: string; behaviours: string[] }[];
  failures: { id: string; level: string; reason: string }[];
}

export const RUN_MS = 20 * 60_000;

export function compareWithExpectations(results: Results, file: string): void {
  const expected: Expectations = JSON.parse(readFileSync(expectationsFile(file), 'utf8'));
  for (const f of expected.failures) expect(f.reason.length, `${file}: ${f.id} needs a reason`).toBeGreaterThan(20);
  const listed = new Set(expected.failures.map((f) => f.id));
  const status = new Map(results.behaviours.map((b) => [b.id, b]));
  const gating = results.behaviours.filter((b) => b.status === 'failed' && (b.level === 'MUST' || b.level === 'SECURITY'));
  const unlisted = gating.filter((b) => !listed.has(b.id)).map((b) => `${b.id} (${b.level}): ${b.reason}`);
  const nowPassing = expected.failures.filter((f) => status.get(f.id)?.status !== 'failed').map((f) => `${f.id}: now ${status.get(f.id)?.status ?? 'not run'} ${status.get(f.id)?.reason ?? ''}`);
  const harness = results.behaviours.filter((b) => b.status === 'error' && b.failureKind === 'harness').map((b) => `${b.id}: ${b.reason}`);
  expect(unlisted, `gating failures not in ${shownExpectations(file)} (a false failure to fix, or a genuine one to list with its reason)`).toEqual([]);
  expect(nowPassing, `listed in ${shownExpectations(file)} but no longer failing (remove them)`).toEqual([]);
  expect(harness, 'checks that could not be made because of a bug of cms-conformance').toEqual([]);
  expect(results.errors).toEqual([]);
  compareDeviations(results, expected, file);
}

/**
 * The run's gating deviations against the listed ones: a deviation not listed (a new broken item,
 * or a grouping that splits one item in two) or a listed one that no longer occurs fails.
 */
export function compareDeviations(results: Pick<Results, 'behaviours' | 'deviations' | 'target'>, expected: Pick<Expectations, 'deviations'>, file: string): void {
  for (const d of expected.deviations) expect(d.reason.length, `${file}: deviation ${d.key} needs a reason`).toBeGreaterThan(20);
  const gating = deviationsOf(results).filter((d) => d.level === 'MUST' || d.level === 'SECURITY');
  const listed = new Set(expected.deviations.map((d) => d.key));
  const found = new Map(gating.map((d) => [d.key, d]));
  const unlisted = gating.filter((d) => !listed.has(d.key)).map((d) => `${d.key} (${d.level}, ${d.item}): ${d.behaviours.join(', ')}: ${d.message}`);
  const gone = expected.deviations.filter((d) => !found.has(d.key)).map((d) => `${d.key} (${d.item})`);
  expect(unlisted, `deviations not in ${shownExpectations(file)} (list each with its reason)`).toEqual([]);
  expect(gone, `deviations listed in ${shownExpectations(file)} that no longer occur (remove them)`).toEqual([]);
}

