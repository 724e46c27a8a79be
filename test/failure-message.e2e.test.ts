/**
 * The rules of a failure message (test/helpers/message-rules.ts) on real runs: the reference
 * server behind named faults of every kind of check (a filter's id lists, a field read back, a
 * refused valid query, a date, a batch, a stored key, an index arg), each failure read as an
 * implementer reads it. The 30-message sample of issue 41 held them too (its note in the issue).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultById } from '../faults/index.ts';
import { bootTarget, type Target } from '../src/run/target.ts';
import { inProcessRuns, onlyFor } from './helpers/harness.ts';
import { messageProblems } from './helpers/message-rules.ts';

const FAULTS = [
  'cms.filter-ignored.include',
  'cms.password-dropped',
  'cms.arg-rejected.exclude',
  'cms.date-offset-dropped',
  'batch.requests-optional',
  'ext.spamfilter.stats-query-rejects-documented',
  'disc.default-wrong',
];

describe('failure messages on real runs keep the rules', () => {
  let target: Target;
  // The runs on one suite engine in this process: the messages are results.json's, as the CLI writes them.
  const runSuite = inProcessRuns();
  beforeAll(async () => {
    target = await bootTarget('reference', { fresh: true });
  });
  afterAll(() => target?.stop());

  it('every failure of each named fault names its judged request, explains its IDs, has no internal prefix', async () => {
    const broken: string[] = [];
    let failures = 0;
    for (const id of FAULTS) {
      const fault = faultById(id);
      const run = await runSuite(target, { faults: [fault], only: onlyFor(fault.caughtBy) });
      for (const b of run.results().behaviours.filter((x) => x.status === 'failed')) {
        failures++;
        const problems = messageProblems(b.reason ?? '');
        if (problems.length) broken.push(`${id} ${b.id}: ${problems.join('; ')}: ${b.reason}`);
        // results.json marks the judged exchange, which the report shows with its curl
        if (!problems.length && /\[request: (GET|POST|PUT|PATCH|DELETE) \/\S/.test(b.reason ?? '') && !/the site index/.test(b.reason ?? '')) expect(b.exchanges?.some((e) => e.judged), `${b.id}: no judged exchange`).toBe(true);
      }
    }
    expect(failures).toBeGreaterThan(FAULTS.length);
    expect(broken).toEqual([]);
  }, 600_000);
});
