/**
 * Self-test by fault injection: run the suite against a healthy host once (the baseline),
 * then once per named fault through the fault-injecting proxy, and report which faults were
 * caught by which behaviours (the mutation score). A missed fault is a gap in the suite.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Results } from '../schemas/results.ts';
import { allFaults } from '../faults/index.ts';
import { matchesCaughtBy, startFaultProxy, type Fault } from '../faults/proxy.ts';
import type { ProfileName } from '../schemas/profiles.ts';
import { PKG_ROOT } from './runner.ts';

export interface Host {
  url: string;
  user: string;
  appPassword: string;
  profile: ProfileName;
  label: string;
  stop(): Promise<void>;
}

export interface FaultOutcome {
  id: string;
  title: string;
  caught: boolean;
  /** Behaviours that passed in the baseline and failed with the fault. */
  caughtBy: string[];
  /** Behaviours the fault names that did not fail (a gap, or a behaviour that cannot run here). */
  expectedButPassed: string[];
  /** Named behaviours that could not show anything: skipped or failing already in the baseline. */
  notApplicable: string[];
  /** The suite's scope for this fault (--only). */
  scope: string;
  durationMs: number;
  error?: string;
}

export interface SelftestReport {
  host: string;
  startedAt: string;
  baseline: { passed: number; failed: number; skipped: number; total: number };
  faults: FaultOutcome[];
  caught: number;
  total: number;
  /** caught ÷ total */
  score: number;
}

export async function bootHost(kind: 'reference' | 'wordpress'): Promise<Host> {
  if (kind === 'reference') {
    const { startReferenceServer } = await import('../targets/reference/index.ts');
    const s = await startReferenceServer({ port: 0 });
    return { url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec', label: 'reference server', stop: () => s.stop() };
  }
  const { bootWordPress } = await import('../targets/wordpress/index.ts');
  const wp = await bootWordPress();
  return { url: wp.url, user: wp.user, appPassword: wp.appPassword, profile: 'wordpress', label: `WordPress ${wp.version}`, stop: () => wp.stop() };
}

/** The behaviour areas a fault concerns: the first segment of each behaviour it names. */
export function scopeFor(fault: Fault): string {
  const areas = [...new Set(fault.caughtBy.map((id) => id.split('.')[0]!))];
  return `^(${areas.join('|')})\\.`;
}

/** Run the CLI (child process) against a URL; returns its results. */
export function runCliFor(url: string, host: Host, only: string | undefined, seed: number, extra: string[] = []): Promise<Results> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cmsc-selftest-'));
  // The self-test boots its host itself (and every run restores what it changes): a fresh site.
  const args = ['run', '--target', url, '--profile', host.profile, '--user', host.user, '--app-password', host.appPassword, '--seed', String(seed), '--report-dir', reportDir, '--fresh-site', ...extra];
  if (only) args.push('--only', only);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(PKG_ROOT, 'bin/cms-conformance.js'), ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as Results);
      } catch {
        reject(new Error(`run exited ${code} without results: ${stderr.trim().split('\n').pop() ?? ''}`));
      } finally {
        rmSync(reportDir, { recursive: true, force: true });
      }
    });
  });
}

export function outcome(fault: Fault, baseline: Results, faulty: Results, scope: string, durationMs: number): FaultOutcome {
  const base = new Map(baseline.behaviours.map((b) => [b.id, b.status]));
  const caughtBy = faulty.behaviours.filter((b) => b.status === 'failed' && base.get(b.id) === 'passed').map((b) => b.id);
  const named = faulty.behaviours.filter((b) => matchesCaughtBy(fault, b.id));
  const applicable = named.filter((b) => base.get(b.id) === 'passed');
  return {
    id: fault.id,
    title: fault.title,
    caught: caughtBy.length > 0,
    caughtBy,
    expectedButPassed: applicable.filter((b) => b.status === 'passed').map((b) => b.id),
    notApplicable: named.filter((b) => base.get(b.id) !== 'passed').map((b) => b.id),
    scope,
    durationMs,
  };
}

export async function runSelftest(opts: {
  host: Host;
  faults?: Fault[];
  seed?: number;
  log?: (line: string) => void;
}): Promise<SelftestReport> {
  const { host } = opts;
  const faults = opts.faults ?? allFaults;
  const seed = opts.seed ?? 1;
  const log = opts.log ?? (() => {});
  const startedAt = new Date().toISOString();
  log(`baseline: full run against the ${host.label} ...`);
  const baseline = await runCliFor(host.url, host, undefined, seed);
  const b = baseline.summary;
  log(`baseline: ${b.passed} passed, ${b.failed} failed, ${b.skipped} skipped`);
  const results: FaultOutcome[] = [];
  for (const fault of faults) {
    const scope = scopeFor(fault);
    const started = Date.now();
    const proxy = await startFaultProxy(host.url, [fault], { profile: host.profile });
    try {
      const faulty = await runCliFor(proxy.url, host, scope, seed);
      const o = outcome(fault, baseline, faulty, scope, Date.now() - started);
      results.push(o);
      log(`${o.caught ? 'caught' : 'MISSED'} ${fault.id}${o.caught ? ` by ${o.caughtBy.slice(0, 3).join(', ')}${o.caughtBy.length > 3 ? ` (+${o.caughtBy.length - 3})` : ''}` : ''}`);
    } catch (err) {
      results.push({ id: fault.id, title: fault.title, caught: false, caughtBy: [], expectedButPassed: [], notApplicable: [], scope, durationMs: Date.now() - started, error: (err as Error).message });
      log(`ERROR ${fault.id}: ${(err as Error).message}`);
    } finally {
      await proxy.close();
    }
  }
  const caught = results.filter((r) => r.caught).length;
  return {
    host: host.label,
    startedAt,
    baseline: { passed: b.passed, failed: b.failed, skipped: b.skipped, total: b.total },
    faults: results,
    caught,
    total: results.length,
    score: results.length ? caught / results.length : 0,
  };
}

export function selftestMarkdown(r: SelftestReport): string {
  const lines = [
    `# Self-test: mutation score ${(r.score * 100).toFixed(1)}% (${r.caught} of ${r.total} faults caught)`,
    '',
    `Host: ${r.host}. Baseline: ${r.baseline.passed} passed, ${r.baseline.failed} failed, ${r.baseline.skipped} skipped.`,
    '',
    '| fault | what the broken server does | caught | by |',
    '|---|---|---|---|',
    ...r.faults.map(
      (f) =>
        `| \`${f.id}\` | ${f.title.replace(/\|/g, '\\|')} | ${f.caught ? 'yes' : '**no**'} | ${f.error ? `error: ${f.error}` : f.caughtBy.slice(0, 4).join(', ')}${f.caughtBy.length > 4 ? ` (+${f.caughtBy.length - 4})` : ''} |`,
    ),
  ];
  const missed = r.faults.filter((f) => !f.caught);
  if (missed.length) lines.push('', '## Missed faults (gaps to close)', '', ...missed.map((f) => `- \`${f.id}\`: ${f.title}${f.notApplicable.length ? ` (named behaviours not applicable on this host: ${f.notApplicable.join(', ')})` : ''}`));
  return lines.join('\n') + '\n';
}
