/**
 * Fault runs for the cms suites: one baseline run against a target, then one CLI run per
 * group of faults through the fault-injecting proxy (`--only` the behaviours the group's
 * faults name), run one after the other; after every run, the target is checked to hold no
 * tagged item (live-target safety: a full run, and runs with failures, leave nothing behind).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmsFaults } from '../../faults/cms/index.ts';
import { matchesCaughtBy, type Fault } from '../../faults/proxy.ts';
import { Client } from '../../src/http/client.ts';
import { listTagged } from '../../src/run/leftovers.ts';
import { NON_GMT_TIMEZONE, bootTarget, type Target as BootedTarget, type TargetKind } from '../../src/run/target.ts';
import { proveFaults, type Proof } from '../../src/proof/proof.ts';
import { getProfile } from '../../schemas/profiles.ts';
import type { Results } from '../../results/results.ts';
import { BIN, exec } from '../helpers/cli.ts';
import { expectCaught, type Target } from '../helpers/harness.ts';

export type Booted = BootedTarget;
/** The reference server of the fault proofs is a site whose timezone is not GMT (src/run/target.ts): dates show the offset. */
export const boot = (kind: Extract<TargetKind, 'wordpress' | 'reference'>, content?: 'blog'): Promise<Booted> =>
  bootTarget(kind, { ...(kind === 'reference' ? { timezone: NON_GMT_TIMEZONE } : {}), ...(content ? { content } : {}) });

/** Few random values per property: the boundary values (always run) catch every fault. */
export const RUN_ARGS = ['--runs', '2', '--fail-on', 'should'];
const RUN_TIMEOUT_MS = 240_000;

/** Tagged items left on the target (posts and pages, any status, trash included). */
export async function leftovers(target: Target): Promise<string[]> {
  const profile = getProfile(target.profile);
  const client = new Client({ baseUrl: target.url, credentials: { user: target.user, appPassword: target.appPassword }, mapRoute: (r) => profile.toTargetRoute(r) });
  try {
    const out: string[] = [];
    for (const collection of ['/cms/v2/posts', '/cms/v2/pages']) {
      const items = await listTagged(client, collection);
      if (!items) throw new Error(`could not list ${collection} on ${target.url}`);
      out.push(...items.map((p) => `${collection}/${p.id} (${p.slug})`));
    }
    return out;
  } finally {
    await client.close();
  }
}

export const faultById = (id: string): Fault => {
  const f = cmsFaults.find((x) => x.id === id);
  if (!f) throw new Error(`no cms fault ${id}`);
  return f;
};

export interface CmsFaultSuite {
  target: 'wordpress' | 'reference';
  /** --only of the baseline run. */
  baseline: string;
  groups: string[][];
  /** Behaviours expected to fail in the baseline (genuine deviations), and why. */
  genuine?: Record<string, string>;
  /** Behaviours expected to skip in the baseline, and why. */
  skipped?: Record<string, string>;
  /** Also run the interrupted-run check (SIGINT mid-run, then count tagged items). */
  interrupted?: boolean;
  /** Prepare the target before the baseline (content the suite cannot create itself). */
  prepare?: (target: Booted) => Promise<void>;
  /** What the reference site starts with: a small real blog (targets/reference/blog.ts). */
  content?: 'blog';
  /** Arguments added to every run (`--read-only`). */
  args?: string[];
  /**
   * Faults whose failures must form one deviation (results.json `deviations`), and what the message
   * of each of its failing behaviours must say (the smallest failing combination).
   */
  oneDeviation?: Record<string, RegExp>;
}

export function cmsFaultSuite(name: string, opts: CmsFaultSuite): void {
  const isolated = process.env.CMSC_ISOLATED_FAULTS === '1';
  const groups: Fault[][] = (isolated ? opts.groups.flat().map((id) => [id]) : opts.groups).map((g) => g.map(faultById));

  describe(name, () => {
    let target: Booted;
    let baseline: Results;
    let proof: Proof<string[]>;

    beforeAll(async () => {
      target = await boot(opts.target, opts.content);
      await opts.prepare?.(target);
      const args = [...RUN_ARGS, ...(opts.args ?? [])];
      proof = await proveFaults(target, {
        baseline: opts.baseline,
        rounds: groups,
        baselineArgs: args,
        roundArgs: args,
        timeoutMs: RUN_TIMEOUT_MS,
        // Live-target safety: after every run (a full one, and runs with failures) nothing tagged is left.
        after: (t) => leftovers(t),
        // In this process, on one suite engine: no CLI start per run (the CLI itself, and a run
        // interrupted by SIGINT, are checked by model.test.ts and the interrupted-run check).
        inProcess: true,
      });
      expect(proof.baseline.stderr).not.toMatch(/internal error/);
      baseline = proof.baseline.results();
    }, 900_000);
    afterAll(async () => target?.stop());

    it('groups: the faults of a group name disjoint behaviours', () => {
      for (const g of opts.groups) {
        const named = g.flatMap((id) => faultById(id).caughtBy);
        expect(new Set(named).size, `group ${g.join(', ')} names a behaviour twice`).toBe(named.length);
      }
    });

    it(`baseline: every behaviour passes except the genuine deviations and the stated skips`, () => {
      expect(baseline.errors).toEqual([]);
      expect(baseline.behaviours.length).toBeGreaterThan(0);
      const got = (status: string) => baseline.behaviours.filter((b) => b.status === status);
      const describeAll = (list: typeof baseline.behaviours) => list.map((b) => `${b.id}: ${b.status} ${b.failureKind ?? ''} ${b.reason ?? ''}`).join('\n');
      expect(got('failed').map((b) => b.id).sort(), describeAll(got('failed'))).toEqual(Object.keys(opts.genuine ?? {}).sort());
      expect(got('skipped').map((b) => b.id).sort(), describeAll(got('skipped'))).toEqual(Object.keys(opts.skipped ?? {}).sort());
      for (const b of got('failed')) expect(b.failureKind, `${b.id} must fail as a conformance failure: ${b.reason}`).toBe('conformance');
    });

    it('a full run leaves no tagged item on the target', () => {
      expect(proof.baselineAfter).toEqual([]);
    });

    for (const id of opts.groups.flat()) {
      const fault = faultById(id);
      it(`catches ${fault.id}: ${fault.title}`, () => {
        const round = proof.roundOf.get(fault.id);
        expect(round, `fault ${fault.id} did not run`).toBeDefined();
        if (round!.error) throw round!.error;
        expect(round!.run!.code, round!.run!.stderr.slice(-2000)).toBe(1);
        expectCaught(fault, round!.run!.results(), baseline);
        expect(round!.after, `items left on the target after the run with ${fault.id}`).toEqual([]);
      });
    }

    for (const [id, message] of Object.entries(opts.oneDeviation ?? {})) {
      const fault = faultById(id);
      it(`${id} is one deviation, each message naming the smallest failing combination`, () => {
        const results = proof.roundOf.get(id)!.run!.results();
        const named = results.behaviours.filter((b) => matchesCaughtBy(fault, b.id) && b.status === 'failed');
        const devs = (results.deviations ?? []).filter((d) => d.behaviours.some((b) => named.some((n) => n.id === b)));
        expect(devs.map((d) => `${d.key}: ${d.behaviours.join(', ')}`)).toHaveLength(1);
        for (const b of named) expect(b.reason, b.id).toMatch(message);
      });
    }

    if (opts.interrupted) {
      it('an interrupted run (SIGINT mid-run) leaves no tagged item on the target', async () => {
        const run = await interruptedRun(target);
        expect(run.signalled, run.stderr.slice(-2000)).toBe(true);
        expect(run.stderr).toMatch(/SIGINT: stopping/);
        expect(await leftovers(target)).toEqual([]);
      }, 180_000);
    }
  });
}

/**
 * Start a full cms run, wait until it has created tagged items, send SIGINT, and wait for the
 * CLI to exit (it cancels the run, deletes the fixtures in afterAll and sweeps by tag).
 */
export async function interruptedRun(target: Target, only = '^cms\\.'): Promise<{ code: number | null; signalled: boolean; stderr: string }> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cmsc-report-'));
  let signalled = false;
  const run = await exec(
    process.execPath,
    [BIN, 'run', '--target', target.url, '--profile', target.profile, '--user', target.user!, '--app-password', target.appPassword!, '--only', only, '--seed', '1', '--report-dir', reportDir],
    {
      // 120 s to see 10 tagged items, then 90 s for the CLI to clean up and exit.
      timeoutMs: 210_000,
      onSpawn: (child) => {
        void (async () => {
          const deadline = Date.now() + 120_000;
          while (Date.now() < deadline && child.exitCode === null) {
            const left = await leftovers(target).catch(() => []);
            if (left.length >= 10) {
              child.kill('SIGINT');
              signalled = true;
              return;
            }
            await new Promise((r) => setTimeout(r, 250));
          }
        })();
      },
    },
  );
  return { code: run.code, signalled, stderr: run.stderr };
}

/** Every cms fault is proven somewhere, exactly once. */
export function allFaultsGrouped(all: string[][]): { missing: string[]; twice: string[] } {
  const listed = all.flat();
  return {
    missing: cmsFaults.map((f) => f.id).filter((id) => !listed.includes(id)),
    twice: listed.filter((id, i) => listed.indexOf(id) !== i),
  };
}

export { matchesCaughtBy };

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * Give the embedded WordPress what the suite cannot create through documented routes, through
 * WordPress's own ones: `media` uploaded images and a tag carried by one (untagged) post.
 */
export async function addMediaAndTag(target: Booted, media = 11): Promise<void> {
  const auth = `Basic ${Buffer.from(`${target.user}:${target.appPassword}`).toString('base64')}`;
  const url = (route: string) => `${target.url}/index.php?rest_route=${route}`;
  const post = async (route: string, body: BodyInit, headers: Record<string, string>) => {
    const res = await fetch(url(route), { method: 'POST', body, headers: { authorization: auth, ...headers } });
    if (res.status !== 201) throw new Error(`POST ${route}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as { id: number };
  };
  for (let i = 0; i < media; i++) await post('/wp/v2/media', PNG, { 'content-type': 'image/png', 'content-disposition': `attachment; filename="harness-${i}.png"` });
  const tag = await post('/wp/v2/tags', JSON.stringify({ name: 'harness tag' }), { 'content-type': 'application/json' });
  await post('/wp/v2/posts', JSON.stringify({ title: 'harness post with a tag', status: 'publish', tags: [tag.id] }), { 'content-type': 'application/json' });
}
