/**
 * A run stops cleanly when it must (issue 27): SIGTERM to the parent npm of `npm run conformance`
 * (npm does not pass it on: the CLI notices its parent going away), and a target that dies
 * mid-run. Each ends within 10 s with the reports written (marked incomplete), what the run
 * created deleted where the target still answers, the embedded target stopped, and no process of
 * the run left (the process tree is read from /proc while the run goes, then checked). What the
 * run could not delete (the target gone) is named, and `cleanup --tag` removes it once the target is
 * back; it also removes what a run killed with SIGKILL left (issue 43).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bootTarget, type Target } from '../src/run/target.ts';
import { ledgerPath } from '../src/core/ledger.ts';
import { startFaultProxy } from '../faults/proxy.ts';
import { startReferenceServer } from '../targets/reference/index.ts';
import { PKG_ROOT } from '../src/core/paths.ts';
import { freePort } from '../targets/wordpress/proc.ts';
import type { Results } from '../results/results.ts';
import { leftovers } from './cms/support.ts';
import { runCli } from './helpers/cli.ts';
import { allGone, processes, tree, type Proc } from './helpers/procs.ts';

const STOP_MS = 10_000;
/** The CLI's node process (not the `sh -c` above it). */
const CLI = /^\S*node \S*bin\/cms-conformance\.js run/m;
const linux = process.platform === 'linux';

interface Event {
  method: string;
  url: string;
  status: number;
  requestBody?: string;
  responseBody?: string;
}
const events = (dir: string): Event[] => {
  try {
    return readFileSync(join(dir, 'events.ndjson'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Event);
  } catch {
    return [];
  }
};
const routeOf = (url: string) => decodeURIComponent(/rest_route=([^&]*)/.exec(url)?.[1] ?? '');

/** Items the run created in posts and pages (POST to the collection answered 201), and those it deleted (alone or in a batch) or found gone. */
function createdAndDeleted(dir: string): { created: string[]; deleted: Set<string> } {
  const created: string[] = [];
  const deleted = new Set<string>();
  for (const e of events(dir)) {
    const route = routeOf(e.url);
    if (e.method === 'POST' && e.status === 201 && /\/(posts|pages)$/.test(route)) {
      const id = /^\{"id":(\d+)/.exec(e.responseBody ?? '')?.[1];
      if (id) created.push(`${route}/${id}`);
    }
    if (e.method === 'DELETE' && [200, 404, 410].includes(e.status)) deleted.add(route);
    if ([404, 410].includes(e.status)) deleted.add(route); // found gone
    if (route === '/batch/v1' && (e.status === 207 || e.status === 200)) {
      // deleted in a batch (cms.posts.model): {"requests":[{"method":"DELETE","path":"/wp/v2/posts/11?force=true"}]}
      const sent = (() => {
        try {
          return JSON.parse(e.requestBody ?? '') as { requests?: { method?: string; path?: string }[] };
        } catch {
          return {};
        }
      })();
      for (const r of sent.requests ?? []) if (r.method === 'DELETE' && r.path) deleted.add(r.path.split('?')[0]!);
    }
  }
  return { created, deleted };
}

/** Behaviours done, from the progress lines (printed every 5 s in CI). */
const done = (output: string) => Math.max(0, ...[...output.matchAll(/(?:^|\n)(\d+)\/≥?[\d,]+ behaviours/g)].map((m) => Number(m[1])));

/**
 * Resolves once the run has created an item on the target (it has fixtures to delete when stopped)
 * and a behaviour has ended (results to keep). The runs are paced (--max-rps) so that this comes
 * well before their end on an idle machine too.
 */
async function untilCreated(dir: string, child: ChildProcess, output: () => string, ms = 240_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!createdAndDeleted(dir).created.length || done(output()) < 1) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('the run ended before it created anything');
    if (Date.now() > deadline) throw new Error(`no item created within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface NpmRun {
  npm: ChildProcess;
  /** The run's --report-dir. */
  dir: string;
  output: () => string;
  closed: Promise<void>;
}

const started: NpmRun[] = [];
const dirs: string[] = [];
/** A report folder for one run, removed after the test. */
const reportDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cmsc-stop-'));
  dirs.push(d);
  return d;
};
/** A test that failed before its stop leaves no run going: SIGTERM to the CLI (it cleans up), SIGKILL to what is left. */
afterEach(async () => {
  for (const run of started.splice(0)) {
    // Found by the run's report folder on its command line (npm may be gone, the CLI re-parented).
    const procs = processes().filter((p) => p.cmd.includes(run.dir));
    const kill = (p: Proc, sig: NodeJS.Signals) => {
      try {
        process.kill(p.pid, sig);
      } catch {
        // gone
      }
    };
    for (const p of procs.filter((x) => CLI.test(x.cmd))) kill(p, 'SIGTERM');
    await allGone(procs, 15_000).catch(() => procs.forEach((p) => kill(p, 'SIGKILL')));
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `npm run conformance -- ARGS` as a user types it, in its own process group (so that only npm is signalled). */
function npmRun(args: string[]): NpmRun {
  const dir = args[args.indexOf('--report-dir') + 1]!;
  const npm = spawn('npm', ['run', 'conformance', '--', ...args], { cwd: PKG_ROOT, env: { ...process.env, CI: '1' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
  npm.stderr!.setEncoding('utf8').on('data', (d) => (out += d));
  // 'close': every holder of npm's output has ended: npm, its sh and the CLI below them.
  const closed = new Promise<void>((r) => npm.on('close', () => r()));
  const run = { npm, dir, output: () => out, closed };
  started.push(run);
  return run;
}

/** SIGTERM to npm alone, as a CI job's time limit does; resolves with how long until every process of the run had ended. */
async function sigtermNpm(run: NpmRun): Promise<{ ms: number; procs: Proc[] }> {
  const procs = tree(run.npm.pid!);
  expect(procs.map((p) => p.cmd).join('\n'), 'the CLI runs below npm').toMatch(CLI);
  const t0 = performance.now();
  process.kill(run.npm.pid!, 'SIGTERM');
  const ms = await allGone(procs, STOP_MS + 20_000, t0);
  await run.closed;
  return { ms, procs };
}

function expectIncompleteReports(dir: string, reason: 'signal' | 'target-unreachable'): Results {
  for (const f of ['results.json', 'report.html', 'report.md', 'junit.xml']) expect(existsSync(join(dir, f)), f).toBe(true);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(join(PKG_ROOT, 'results/results.schema.json'), 'utf8')));
  expect(validate(results), JSON.stringify(validate.errors)).toBe(true);
  expect(results.incomplete?.reason).toBe(reason);
  expect(results.incomplete!.notRun).toBeGreaterThan(0);
  expect(results.behaviours.length).toBeGreaterThan(0);
  // What did not run is counted, not reported as a bug of cms-conformance.
  expect(results.behaviours.filter((b) => b.failureKind === 'harness').map((b) => `${b.id}: ${b.reason}`)).toEqual([]);
  return results;
}

describe.runIf(linux)('a run stops cleanly when it must', () => {
  it('SIGTERM to the parent npm during a run against the embedded WordPress: within 10 s, reports written (incomplete), fixtures deleted, the site stopped, no process left', async () => {
    const dir = reportDir();
    const run = npmRun(['--only', '^cms\\.posts\\.', '--seed', '1', '--max-rps', '40', '--report-dir', dir]);
    try {
      await untilCreated(dir, run.npm, run.output);
    } catch (e) {
      throw new Error(`${(e as Error).message}: ${run.output().slice(-2000)}`);
    }
    const cli = tree(run.npm.pid!).find((p) => CLI.test(p.cmd))!;
    const sites = readdirSync(tmpdir())
      .filter((n) => n.startsWith('cms-conformance-wp-'))
      .map((n) => join(tmpdir(), n))
      .filter((d) => {
        try {
          return JSON.parse(readFileSync(join(d, 'owner.json'), 'utf8')).node === cli.pid;
        } catch {
          return false;
        }
      });
    expect(sites, 'the embedded site of this run').toHaveLength(1);
    const { ms, procs } = await sigtermNpm(run);
    expect(procs.some((p) => /php.* -S 127\.0\.0\.1:/.test(p.cmd)), 'php -S was among the processes of the run').toBe(true);
    expect(ms, run.output().slice(-3000)).toBeLessThan(STOP_MS);
    expect(run.output()).toMatch(/SIGTERM \(the parent npm \(pid \d+\) went away\): stopping/);
    const results = expectIncompleteReports(dir, 'signal');
    expect(results.incomplete).toMatchObject({ signal: 'SIGTERM', message: expect.stringMatching(/parent npm/) });
    expect(run.output()).toMatch(/INCOMPLETE: /);
    // Every post or page the run created was deleted before the site was stopped.
    const { created, deleted } = createdAndDeleted(dir);
    expect(created.length).toBeGreaterThan(0);
    expect(created.filter((c) => !deleted.has(c))).toEqual([]);
    expect(existsSync(sites[0]!), 'the embedded site folder is removed').toBe(false);
  }, 300_000);

  describe('against a target outside the run', () => {
    let host: Target;
    beforeAll(async () => {
      host = await bootTarget('reference');
    });
    afterAll(async () => host?.stop());

    it('SIGTERM to the parent npm: within 10 s, reports written (incomplete), no tagged item left on the target, no process left', async () => {
      const dir = reportDir();
      const run = npmRun(['--target', host.url, '--user', host.user, '--app-password', host.appPassword, '--only', '^cms\\.', '--seed', '1', '--max-rps', '40', '--report-dir', dir]);
      await untilCreated(dir, run.npm, run.output);
      const { ms } = await sigtermNpm(run);
      expect(ms, run.output().slice(-3000)).toBeLessThan(STOP_MS);
      const results = expectIncompleteReports(dir, 'signal');
      expect(await leftovers(host)).toEqual([]);
      // Deleted by id (its ledger) and swept: nothing named as left, the ledger gone (issue 43).
      expect(results.leftBehind).toMatchObject({ items: [] });
      expect(results.leftBehind!.created).toBeGreaterThan(0);
      expect(existsSync(ledgerPath(results.leftBehind!.tag))).toBe(false);
    }, 300_000);

    it('SIGKILL (no chance to clean): cleanup --target --tag removes what the run left, by its ledger and its tag, and says how many', async () => {
      const dir = reportDir();
      let output = '';
      const run = await runCli(['run', '--target', host.url, '--user', host.user, '--app-password', host.appPassword, '--only', '^cms\\.', '--seed', '1', '--max-rps', '40', '--report-dir', dir], {
        timeoutMs: 240_000,
        onSpawn: (child) => void (child.stderr!.on('data', (d) => (output += d)), untilCreated(dir, child, () => output)).then(() => child.kill('SIGKILL'), () => undefined),
      });
      expect(run.signal, run.stderr.slice(-2000)).toBe('SIGKILL');
      // The run says its tag at its start: what a user has of a run that was killed.
      const tag = /every item created carries the tag (cmsc-[0-9a-z]+)/.exec(output)?.[1];
      expect(tag, output.slice(0, 1000)).toBeDefined();
      const left = await leftovers(host);
      expect(left.length, 'a killed run leaves its items').toBeGreaterThan(0);
      expect(existsSync(ledgerPath(tag!)), 'its ledger').toBe(true);
      const clean = await runCli(['cleanup', '--target', host.url, '--user', host.user, '--app-password', host.appPassword, '--tag', tag!]);
      expect(clean.code, clean.stdout + clean.stderr).toBe(0);
      const removed = new RegExp(`^removed (\\d+) items? of the run tagged ${tag} from ${host.url} \\((\\d+) by the ids of its ledger`).exec(clean.stdout);
      expect(removed, clean.stdout).not.toBeNull();
      expect(Number(removed![1])).toBeGreaterThanOrEqual(left.length);
      expect(Number(removed![2])).toBeGreaterThan(0);
      expect(await leftovers(host)).toEqual([]);
      expect(existsSync(ledgerPath(tag!)), 'the ledger, once nothing is left').toBe(false);
      console.log(`SIGKILL: ${left.length} tagged item(s) left; cleanup: ${clean.stdout.trim()}`);
    }, 300_000);
  });

  it('a target that dies mid-run (connection refused from then on): within 10 s of --unreachable-after, exit 3, reports written (incomplete), what could not be deleted named; back, cleanup --tag removes it', async () => {
    // The site stays (its state in memory); what dies is the address the run talks to, as a site's
    // front does. It comes back on the same address.
    const site = await startReferenceServer({ port: 0 });
    const creds = ['--user', site.user, '--app-password', site.appPassword];
    const direct = { url: site.url, user: site.user, appPassword: site.appPassword, profile: 'spec' } as Target;
    const port = await freePort();
    let front = await startFaultProxy(site.url, [], { profile: 'spec', port });
    let up = true;
    const url = `http://127.0.0.1:${port}`;
    try {
      const dir = reportDir();
      let killedAt = 0;
      let procs: Proc[] = [];
      let output = '';
      const run = await runCli(['run', '--target', url, ...creds, '--only', '^cms\\.', '--seed', '1', '--max-rps', '40', '--unreachable-after', '2s', '--report-dir', dir], {
        timeoutMs: 240_000,
        onSpawn: (child) =>
          void (child.stderr!.on('data', (d) => (output += d)), untilCreated(dir, child, () => output)).then(async () => {
            procs = tree(child.pid!);
            killedAt = performance.now();
            up = false;
            await front.close().catch(() => undefined); // the target dies: every connection is refused from now on
          }, () => void ((up = false), front.close().catch(() => undefined))),
      });
      const ms = performance.now() - killedAt;
      expect(killedAt, run.stderr.slice(-2000)).toBeGreaterThan(0);
      expect(run.code, run.stderr.slice(-2000)).toBe(3);
      expect(ms, run.stderr.slice(-3000)).toBeLessThan(2000 + STOP_MS);
      expect(run.stderr).toMatch(/the target answered no request for \d+ s .*ECONN(REFUSED|RESET).*: stopping/);
      const results = expectIncompleteReports(dir, 'target-unreachable');
      expect(results.incomplete!.message).toMatch(/ECONN(REFUSED|RESET)/);
      expect(await allGone(procs, 1000)).toBeGreaterThanOrEqual(0);
      // Each item on the site is named as left (by its route, or a create whose answer was lost, by its tag), with the command (issue 43).
      const lb = results.leftBehind!;
      const onSite = await leftovers(direct);
      expect(onSite.length, 'the run could not delete what it had made').toBeGreaterThan(0);
      const named = new Set(lb.items.map((i) => (i.id === undefined ? i.tag : i.route)));
      expect(onSite.filter((s) => !named.has(s.split(' ')[0]!) && !named.has(/\((.*)\)$/.exec(s)?.[1])), JSON.stringify(lb.items)).toEqual([]);
      expect(lb.command).toBe(`npx cms-conformance cleanup --target ${url} --tag ${lb.tag}`);
      expect(run.stdout.trimEnd().split('\n').slice(-2)).toEqual([expect.stringMatching(/^remove them with the run's credentials/), `  ${lb.command}`]);
      expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(/> \*\*Left on the target\*\*: \d+ items? this run created could not be deleted/);
      // The target comes back: the documented way removes them, by the run's ledger, and says how many.
      front = await startFaultProxy(site.url, [], { profile: 'spec', port });
      up = true;
      const clean = await runCli(['cleanup', '--target', url, ...creds, '--tag', lb.tag]);
      expect(clean.code, clean.stdout + clean.stderr).toBe(0);
      // (What the listings show is a lower bound: the ledger knows every item by its id.)
      const removed = new RegExp(`^removed (\\d+) items? of the run tagged ${lb.tag} from ${url} \\((\\d+) by the ids of its ledger`).exec(clean.stdout);
      expect(Number(removed?.[1]), clean.stdout).toBeGreaterThanOrEqual(onSite.length);
      expect(await leftovers(direct)).toEqual([]);
      console.log(`target gone mid-run: ${onSite.length} left, ${lb.items.length} named; cleanup: ${clean.stdout.trim()}`);
    } finally {
      if (up) await front.close();
      await site.stop();
    }
  }, 300_000);
});
