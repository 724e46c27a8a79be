/** The self-test reports caught faults with the behaviours that caught them, and missed ones as gaps. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultById } from '../faults/index.ts';
import type { Fault } from '../faults/proxy.ts';
import { bootTarget, runSelftest, selftestMarkdown, type Target } from '../src/cli/selftest.ts';
import { runCli } from './helpers/cli.ts';

describe('selftest', () => {
  let host: Target;
  beforeAll(async () => {
    host = await bootTarget('reference', { fresh: true });
  });
  afterAll(() => host?.stop());

  it('scores caught and missed faults', async () => {
    const harmless: Fault = { id: 'disc.harmless', title: 'changes nothing', caughtBy: ['disc.args.oembed.embed.read.maxwidth'] };
    const report = await runSelftest({ host, faults: [faultById('disc.default-wrong'), harmless] });
    expect(report.baseline.total).toBeGreaterThan(100);
    // The baseline against a healthy, fresh host fails nothing (a fault proof needs its behaviours to pass without the fault).
    expect(report.baseline.failed).toBe(0);
    const [caught, missed] = report.faults;
    expect(caught).toMatchObject({ id: 'disc.default-wrong', caught: true });
    expect(caught!.caughtBy).toContain('disc.args.oembed.embed.read.maxwidth');
    expect(missed).toMatchObject({ id: 'disc.harmless', caught: false, expectedButPassed: ['disc.args.oembed.embed.read.maxwidth'] });
    expect(report.score).toBe(0.5);
    const md = selftestMarkdown(report);
    expect(md).toMatch(/mutation score 50\.0%/);
    expect(md).toMatch(/Missed faults[\s\S]*disc\.harmless/);
  });

  it('runs from the CLI and exits 0 when every fault is caught', async () => {
    const r = await runCli(['selftest', '--faults', '^oembed\\.maxwidth-default-wrong$', '--report-dir', '/tmp/cmsc-selftest-cli']);
    expect(r.stdout).toMatch(/mutation score 100\.0%: 1 of 1/);
    expect(r.code).toBe(0);
    const bad = await runCli(['selftest', '--faults', '^nothing-matches$']);
    expect(bad.code).toBe(2);
  });
});
