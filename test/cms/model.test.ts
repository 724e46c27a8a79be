/**
 * The model-based behaviours (cms.posts.model, cms.pages.model and their .should companions) on
 * the reference server, at the default --runs and --seed 1: all pass on the healthy server;
 * each sequence-only fault (faults/cms/model.ts) makes the behaviours it names fail with a
 * sequence shrunk to a few commands, reported with numbered requests and a curl script; no run
 * (healthy, failing or interrupted) leaves a tagged item behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmsModelFaults } from '../../faults/cms/model.ts';
import { matchesCaughtBy } from '../../faults/proxy.ts';
import type { Results } from '../../results/results.ts';
import type { CliRun } from '../helpers/cli.ts';
import { expectCaught } from '../helpers/harness.ts';
import { InProcessRunner } from '../../src/proof/proof.ts';
import { boot, interruptedRun, leftovers, type Booted } from './support.ts';

const ONLY = '^cms\\.(posts|pages)\\.model';
/** The default --runs (20); SHOULD failures gate, so a caught fault exits 1. */
const ARGS = ['--fail-on', 'should'];

/** The longest shrunk sequence (commands, the first create included) each fault may leave. */
const SHORTEST: Record<string, number> = {
  // create, trash, trash
  'cms.model.second-trash-deletes': 3,
  // create, trash, update
  'cms.model.update-restores-trashed': 3,
  // create and four updates (fewer when a batch carries several)
  'cms.model.revisions-stop-after-third': 6,
  // create, a batch of two writes of #1
  'cms.model.batch-reversed': 2,
};

describe('model-based lifecycle behaviours (reference server)', () => {
  let target: Booted;
  let baseline: CliRun;
  let baselineLeft: string[];
  const runs = new Map<string, { run: CliRun; left: string[] }>();

  beforeAll(async () => {
    target = await boot('reference');
    // The baseline and the fault runs on one suite engine in this process; the CLI itself (a run
    // interrupted by SIGINT) is the last test's.
    const runner = await InProcessRunner.open();
    try {
      baseline = await runner.run(target, { only: ONLY, args: ARGS, removeReport: true });
      baselineLeft = await leftovers(target);
      for (const fault of cmsModelFaults) {
        const run = await runner.run(target, { only: ONLY, args: ARGS, faults: [fault], removeReport: true });
        runs.set(fault.id, { run, left: await leftovers(target) });
      }
    } finally {
      await runner.close();
    }
  }, 900_000);
  afterAll(async () => target?.stop());

  it('every fault has its shortest sequence stated', () => {
    expect(Object.keys(SHORTEST).sort()).toEqual(cmsModelFaults.map((f) => f.id).sort());
  });

  it('pass on the healthy server, and leave nothing behind', () => {
    const r = baseline.results();
    expect(r.errors).toEqual([]);
    expect(r.behaviours.map((b) => `${b.id}: ${b.status}${b.reason ? ` ${b.reason}` : ''}`).sort()).toEqual(
      ['cms.pages.model', 'cms.pages.model.should', 'cms.posts.model', 'cms.posts.model.should'].map((id) => `${id}: passed`).sort(),
    );
    expect(r.behaviours.find((b) => b.id === 'cms.posts.model')!.requests).toBeGreaterThan(100);
    expect(baselineLeft).toEqual([]);
  });

  for (const fault of cmsModelFaults) {
    it(`catch ${fault.id} with a shrunk sequence: ${fault.title}`, () => {
      const { run, left } = runs.get(fault.id)!;
      expect(run.code, run.stderr.slice(-2000)).toBe(1);
      const results: Results = run.results();
      expectCaught(fault, results, baseline.results());
      for (const b of results.behaviours.filter((x) => matchesCaughtBy(fault, x.id))) {
        const commands = b.counterexample as string[];
        expect(Array.isArray(commands), `${b.id}: the counterexample is the list of commands`).toBe(true);
        expect(commands.length, `${b.id}: shrunk to ${commands.join(' | ')}`).toBeLessThanOrEqual(SHORTEST[fault.id]!);
        expect(commands[0]).toMatch(/^1\. create #1/);
        expect(b.reason).toMatch(/^step \d+ \(.+\): .+ — shortest failing sequence: \d+ commands?/);
        // The numbered requests and the script that replays them.
        expect(b.message).toMatch(/\n {2}1\. POST \/cms\/v2\/(posts|pages) \{.+\} → 201 {2}\(#1 = (post|page) \d+\)/);
        expect(b.message).toMatch(/✗ /);
        expect(b.message).toContain('-u "$TARGET_USER:$TARGET_APP_PASSWORD"');
        expect(b.message).toMatch(/ID1=\$\(r POST /);
        expect(b.message).not.toContain(target.appPassword!);
        expect((b.details as { script?: string })?.script).toMatch(/^#!\/bin\/sh\n/);
      }
      // A MUST failure: the SHOULD companion skips, depending on it.
      for (const b of results.behaviours.filter((x) => x.id.endsWith('.should') && fault.caughtBy.includes(x.id.replace(/\.should$/, ''))))
        expect(b.reason).toMatch(/^depends on cms\.(posts|pages)\.model, which failed: /);
      expect(left, `items left on the target after the run with ${fault.id}`).toEqual([]);
    });
  }

  it('an interrupted run (SIGINT mid-run) leaves no tagged item on the target', async () => {
    const run = await interruptedRun(target, ONLY);
    expect(run.signalled, run.stderr.slice(-2000)).toBe(true);
    expect(run.stderr).toMatch(/SIGINT: stopping/);
    expect(await leftovers(target)).toEqual([]);
  }, 180_000);
});
