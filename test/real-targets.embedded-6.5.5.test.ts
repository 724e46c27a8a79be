/**
 * The verdicts against the embedded WordPress 6.5.5 (the default target), pinned: a full run
 * (seed 1), every gating failure listed with its reason in test/expectations/wordpress-6.5.5.json
 * (test/helpers/real-targets.ts).
 */
import { describe, expect, it } from 'vitest';
import { SKIPPED_WITHOUT_MEDIA_AND_TAGS } from './cms/groups.ts';
import { runCli } from './helpers/cli.ts';
import { RUN_MS, compareWithExpectations } from './helpers/real-targets.ts';

describe('the embedded WordPress 6.5.5', () => {
  it('every gating failure of a full run is a listed, genuine deviation', async () => {
    const run = await runCli(['run', '--seed', '1'], { timeoutMs: RUN_MS });
    expect(run.stderr).not.toMatch(/internal error/i);
    const results = run.results();
    compareWithExpectations(results, 'wordpress-6.5.5.json');
    // The first run says what it found: the known deviations of the embedded release are its baseline (issue 41).
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')[0]).toBe(`PASS — ${results.deviations!.length} known deviations of WordPress 6.5.5 (the embedded release), 0 new`);
    // The site as booted has no media and no tag in use (the fault tests add them): the behaviours
    // that need them skip, saying why, instead of failing.
    const status = new Map(results.behaviours.map((b) => [b.id, b]));
    for (const id of Object.keys(SKIPPED_WITHOUT_MEDIA_AND_TAGS)) expect(`${id}: ${status.get(id)?.status} ${status.get(id)?.reason ?? ''}`).toMatch(new RegExp(`^${id.replace(/\./g, '\\.')}: skipped \\S`));
  }, RUN_MS);
});
