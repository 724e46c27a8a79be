/**
 * The verdicts against the real site, pinned: a full run (seed 1, a fresh site) against
 * `../shared/targets/boot.sh` (WordPress 7.1 with Akismet, Contact Form 7 and Jetpack), every
 * gating failure listed with its reason in test/expectations/wordpress-7.1-plugins.json
 * (test/helpers/real-targets.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { PLUGIN_TARGET_AVAILABLE, PLUGIN_TARGET_MISSING, bootPluginTarget, type PluginTarget } from './helpers/plugin-target.ts';
import { RUN_MS, compareWithExpectations } from './helpers/real-targets.ts';

describe.skipIf(!PLUGIN_TARGET_AVAILABLE)(`the real site: WordPress 7.1 with Akismet, Contact Form 7 and Jetpack${PLUGIN_TARGET_AVAILABLE ? '' : ` (skipped: ${PLUGIN_TARGET_MISSING})`}`, () => {
  let site: PluginTarget;
  beforeAll(async () => {
    site = await bootPluginTarget();
  }, 10 * 60_000);
  afterAll(() => site?.stop());

  it('every gating failure of a full run is a listed, genuine deviation', async () => {
    // Each boot is a fresh site: the defaults of site state are checked too.
    const run = await runCli(['run', '--target', site.url, '--user', site.user, '--app-password', site.appPassword, '--seed', '1', '--fresh-site'], { timeoutMs: RUN_MS });
    expect(run.stderr).not.toMatch(/internal error/i);
    compareWithExpectations(run.results(), 'wordpress-7.1-plugins.json');
  }, RUN_MS);
});
