/**
 * Each kind of discovery check fails when the advertised index deviates: the recorded 7.1
 * index, served as is and then with one named deviation at a time. A baseline that lists the
 * IDs from before the split (one behaviour per endpoint's args, one for all routes entries)
 * still covers the genuine 7.1 deviations, and a new deviation on an endpoint that already
 * deviates fails the run. The same faults are caught on the reference server in the other
 * readings of the index that core part 1 allows.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryFaults } from '../faults/discovery.ts';
import type { Results } from '../results/results.ts';
import { formerBehaviourId } from '../src/sdk/discovery.ts';
import { InProcessRunner, proveFaults, type Proof } from '../src/proof/proof.ts';
import { expectCaught } from './helpers/harness.ts';
import { serveIndex } from './helpers/index-server.ts';
import { parseDialect } from '../targets/reference/dialect.ts';
import { startReferenceServer, type ReferenceServer } from '../targets/reference/index.ts';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/wordpress-7.1-index.json', import.meta.url), 'utf8'));

describe('discovery catches deviations of the recorded 7.1 index', () => {
  let server: Awaited<ReturnType<typeof serveIndex>>;
  let baseline: Results;
  let proof: Proof;
  let inProcess: InProcessRunner;
  beforeAll(async () => {
    server = await serveIndex(fixture);
    inProcess = await InProcessRunner.open();
    // One baseline of the area, then every fault alone through the proxy, in this process (one
    // suite engine for every run of the file): the discovery checks only read the index, so a run
    // costs less than a child process would.
    proof = await proveFaults({ url: server.url, profile: 'wordpress' }, { baseline: '^disc\\.', rounds: discoveryFaults.map((f) => [f]), runner: inProcess.run });
    expect(proof.baseline.stderr).not.toMatch(/internal error/);
    baseline = proof.baseline.results();
  }, 600_000);
  afterAll(async () => {
    await inProcess?.close();
    await server?.close();
  });

  it('runs every discovery behaviour on the unmodified index', () => {
    expect(baseline.summary.total).toBeGreaterThan(200);
    expect(baseline.errors).toEqual([]);
    expect(baseline.target.profile).toBe('wordpress');
    // Genuine deviations of real WordPress 7.1 from the spec; everything else passes.
    const failed = baseline.behaviours.filter((b) => b.status === 'failed').map((b) => b.id);
    expect(failed).toEqual(
      expect.arrayContaining([
        'disc.index.routes.entries.self-link.templated',
        'disc.param.spamfilter.stats.interval.interval',
        'disc.args.suite.settings.update.subscription_options',
      ]),
    );
    // WordPress leaves _links.self out of every templated route: one failure, not one per route.
    expect(failed.filter((id) => id.startsWith('disc.index.routes.entries'))).toEqual(['disc.index.routes.entries.undocumented', 'disc.index.routes.entries.self-link.templated'].filter((id) => failed.includes(id)));
    expect(failed).not.toContain('disc.index.routes.entries.cms.posts.item');
  });

  for (const fault of discoveryFaults) {
    it(`catches ${fault.id}: ${fault.title}`, () => {
      const round = proof.roundOf.get(fault.id)!;
      if (round.error) throw round.error;
      expect(round.run!.code).toBe(1);
      expectCaught(fault, round.run!.results(), baseline);
    });
  }

  it('a baseline naming the IDs from before the split covers their parts; re-recorded, it names the parts, and a new deviation on the same endpoint fails the run', async () => {
    // The baseline a user recorded before the split: old IDs where the failing behaviour was split.
    const failures = [...new Set(baseline.behaviours.filter((b) => b.status === 'failed').map((b) => formerBehaviourId(b.id) ?? b.id))];
    expect(failures).toContain('disc.args.suite.settings.update');
    expect(failures).toContain('disc.index.routes.entries');
    const dir = mkdtempSync(join(tmpdir(), 'cmsc-baseline-'));
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ failures: failures.map((id) => ({ id, reason: `recorded before the split: ${id}` })) }));
    const sibling = discoveryFaults.find((f) => f.id === 'disc.sibling-arg-wrong')!;

    // Deprecation path: the old entries cover every part (as they did: the old ID failed for any of them).
    const known = await inProcess.run({ url: server.url, profile: 'wordpress' }, { only: '^disc\\.', args: ['--baseline', old] });
    expect(known.code, known.stderr.slice(-1000)).toBe(0);
    expect(known.results().baseline?.newFailures).toEqual([]);
    expect(known.results().baseline?.known.map((k) => k.id)).toContain('disc.args.suite.settings.update.subscription_options');
    const covered = await inProcess.run({ url: server.url, profile: 'wordpress' }, { only: '^disc\\.', faults: [sibling], args: ['--baseline', old] });
    expect(covered.code).toBe(0);

    // Re-recorded, the baseline names the parts (keeping the old reasons): a new deviation on the same endpoint fails the run.
    const renewed = join(dir, 'new.json');
    writeFileSync(renewed, readFileSync(old));
    const rec = await inProcess.run({ url: server.url, profile: 'wordpress' }, { only: '^disc\\.', args: ['--write-baseline', renewed] });
    expect(rec.code).toBe(1);
    const entries: { id: string; reason: string }[] = JSON.parse(readFileSync(renewed, 'utf8')).failures;
    expect(entries.find((e) => e.id === 'disc.args.suite.settings.update.subscription_options')?.reason).toBe('recorded before the split: disc.args.suite.settings.update');
    expect(entries.map((e) => e.id)).not.toContain('disc.args.suite.settings.update');
    const run = await inProcess.run({ url: server.url, profile: 'wordpress' }, { only: '^disc\\.', faults: [sibling], args: ['--baseline', renewed] });
    expect(run.code).toBe(1);
    expect(run.results().baseline?.newFailures).toEqual(['disc.args.suite.settings.update.carousel_background_color']);
  });
});

// The same faults against the reference server in the readings of part 1 a server may choose
// (targets/reference/dialect.ts): route keys in the spec's notation, "array of integer, or object"
// as a type union or with anyOf. Every discovery behaviour passes there, and every fault is caught.
describe('discovery catches the same deviations of the reference server in other readings of the index', () => {
  const DIALECTS = ['route-keys=spec', 'arg-unions=type-union', 'arg-unions=anyOf'];
  const proofs = new Map<string, Proof>();
  let inProcess: InProcessRunner;
  beforeAll(async () => {
    inProcess = await InProcessRunner.open();
    for (const dialect of DIALECTS) {
      const server = await startReferenceServer({ dialect: parseDialect(dialect) });
      try {
        proofs.set(dialect, await proveFaults({ url: server.url, profile: 'spec' }, { baseline: '^disc\\.', rounds: discoveryFaults.map((f) => [f]), runner: inProcess.run }));
      } finally {
        await server.stop();
      }
    }
  }, 600_000);
  afterAll(async () => inProcess?.close());

  for (const dialect of DIALECTS) {
    it(`${dialect}: passes every discovery behaviour and catches every discovery fault`, () => {
      const proof = proofs.get(dialect)!;
      const baseline = proof.baseline.results();
      expect(baseline.behaviours.filter((b) => b.status !== 'passed').map((b) => `${b.id}: ${b.reason}`)).toEqual([]);
      for (const fault of discoveryFaults) {
        const round = proof.roundOf.get(fault.id)!;
        if (round.error) throw round.error;
        expectCaught(fault, round.run!.results(), baseline);
      }
    });
  }
});
