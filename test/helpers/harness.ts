/**
 * Running the suite against a target, optionally through the fault-injecting proxy, from the
 * project's own tests — the way a user runs it (the real CLI in a child process).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { matchesCaughtBy, startFaultProxy, type Fault, type ProxyStats } from '../../faults/proxy.ts';
import type { ProfileName } from '../../schemas/profiles.ts';
import type { Results } from '../../schemas/results.ts';
import { runCli, type CliRun } from './cli.ts';

export interface Target {
  url: string;
  user?: string;
  appPassword?: string;
  profile: ProfileName;
}

export interface SuiteRun extends CliRun {
  stats?: ProxyStats;
}

/** A regular expression selecting exactly the behaviours a fault names (for --only). */
export function onlyFor(caughtBy: string[]): string {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `^(${caughtBy.map((c) => (c.endsWith('*') ? `${esc(c.slice(0, -1))}\\S*` : esc(c))).join('|')}) `;
}

export async function runSuite(target: Target, opts: { only?: string; faults?: Fault[]; args?: string[]; env?: Record<string, string> } = {}): Promise<SuiteRun> {
  const proxy = opts.faults ? await startFaultProxy(target.url, opts.faults, { profile: target.profile }) : undefined;
  try {
    const args = ['run', '--target', proxy?.url ?? target.url, '--profile', target.profile, '--seed', '1'];
    if (target.user && target.appPassword) args.push('--user', target.user, '--app-password', target.appPassword);
    if (opts.only) args.push('--only', opts.only);
    const run = await runCli([...args, ...(opts.args ?? [])], { env: opts.env });
    return Object.assign(run, { stats: proxy?.stats });
  } finally {
    await proxy?.close();
  }
}

export function statuses(results: Results): Record<string, string> {
  return Object.fromEntries(results.behaviours.map((b) => [b.id, b.status]));
}

/**
 * Assert a fault is caught: every behaviour it names ran and failed as a conformance failure
 * (not a harness error), and the same behaviours pass without the fault (`baseline`).
 */
export function expectCaught(fault: Fault, faulty: Results, baseline: Results): void {
  const named = faulty.behaviours.filter((b) => matchesCaughtBy(fault, b.id));
  expect(named.length, `fault ${fault.id}: no behaviour named by caughtBy ran`).toBeGreaterThan(0);
  const base = statuses(baseline);
  for (const b of named) {
    expect(base[b.id], `fault ${fault.id}: ${b.id} must pass without the fault`).toBe('passed');
    expect(b.status, `fault ${fault.id}: ${b.id} should fail (${b.reason ?? ''})`).toBe('failed');
    expect(b.failureKind, `fault ${fault.id}: ${b.id} failed as ${b.failureKind}: ${b.reason}`).toBe('conformance');
  }
  expect(faulty.errors).toEqual([]);
}

/** Boot the embedded WordPress once for a test file. */
export function sharedWordPress(): () => Target & { stop(): Promise<void> } {
  let wp: (Target & { stop(): Promise<void> }) | undefined;
  beforeAll(async () => {
    const { bootWordPress } = await import('../../targets/wordpress/index.ts');
    const booted = await bootWordPress();
    wp = { url: booted.url, user: booted.user, appPassword: booted.appPassword, profile: 'wordpress', stop: () => booted.stop() };
  }, 300_000);
  afterAll(async () => wp?.stop());
  return () => {
    if (!wp) throw new Error('WordPress did not boot');
    return wp;
  };
}
