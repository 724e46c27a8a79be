/** The cut real runs of test/fixtures/deviations/ (README there) as behaviours, and as whole results for the reporters. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarize, type BehaviourResult, type Results } from '../../results/results.ts';
import { groupDeviations } from '../../results/deviations.ts';
import { cannedResults } from '../reporters/canned.ts';

interface Fixture {
  note: string;
  profile: string;
  failed: (Partial<BehaviourResult> & { id: string })[];
  /** [ID, covers, declaration site (when a failure shares it)] */
  passed: ([string, string[]] | [string, string[], string])[];
}

export function cannedRun(name: string): { target: { profile: string }; behaviours: BehaviourResult[] } {
  const f = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/deviations', `${name}.json`), 'utf8')) as Fixture;
  const mk = (b: Partial<BehaviourResult> & { id: string }, status: 'passed' | 'failed'): BehaviourResult =>
    ({ namespace: '', title: `${b.id} title`, spec: 'spec § x', specRef: { doc: 'core', section: 'x' }, requests: 1, durationMs: 1, file: 'x', level: 'MUST', ...b, status }) as BehaviourResult;
  return { target: { profile: f.profile }, behaviours: [...f.failed.map((b) => mk(b, 'failed')), ...f.passed.map(([id, covers, location]) => mk({ id, covers, ...(location ? { location } : {}) }, 'passed'))] };
}

/** A whole results object around a cut run, with its deviations, as the CLI writes it. */
export function cannedRunResults(name: string, over: Partial<Results> = {}): Results {
  const r = cannedRun(name);
  const base = cannedResults({ behaviours: r.behaviours, summary: summarize(r.behaviours), ...over });
  return { ...base, target: { ...base.target, profile: r.target.profile }, deviations: groupDeviations({ ...r, ...over }) };
}
