/**
 * A conformance run: prepare the target (boot the embedded one if asked), fetch its index
 * once, choose the profile, run the suites through vitest's Node API, write results.json.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Vitest } from 'vitest/node';
import { Client } from './client.ts';
import { isLoopback, redactConfig, type RunConfig } from './config.ts';
import { TargetError, UnreachableError, UsageError } from './errors.ts';
import { sweep, tagFor } from './fixtures.ts';
import { detectProfile, getProfile, type ProfileName } from './profiles.ts';
import type { RunInfo } from './run-info.ts';
import { ResultsReporter, exitCodeFor, writeResults, type Results } from '../reporters/results.ts';

export const PKG_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const TOOL = {
  name: 'cms-conformance',
  version: (JSON.parse(readFileSync(join(PKG_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
};

export interface PreparedTarget {
  url: string;
  credentials?: { user: string; appPassword: string };
  embedded: RunInfo['embedded'];
  stop?: () => Promise<void>;
}

export type Log = (line: string) => void;

/** Boot the embedded target when no --target is given. */
export async function prepareTarget(cfg: RunConfig, log: Log): Promise<PreparedTarget> {
  if (cfg.target && cfg.target !== 'reference') return { url: cfg.target, embedded: null };
  if (cfg.target === 'reference') {
    const { startReferenceServer } = await import('../targets/reference/index.ts').catch(() => {
      throw new UsageError('--target reference: the reference server is not available in this version');
    });
    const srv = await startReferenceServer({ port: 0 });
    return {
      url: srv.url,
      credentials: { user: srv.user, appPassword: srv.appPassword },
      embedded: { kind: 'reference' },
      stop: () => srv.stop(),
    };
  }
  const { bootWordPress, TargetBootError } = await import('../targets/wordpress/index.ts');
  try {
    log('booting the embedded WordPress (first run downloads it once) ...');
    const wp = await bootWordPress({ log });
    return {
      url: wp.url,
      credentials: { user: wp.user, appPassword: wp.appPassword },
      embedded: { kind: 'wordpress', version: wp.version, plugins: wp.plugins },
      stop: () => wp.stop(),
    };
  } catch (err) {
    if (err instanceof TargetBootError) throw new UnreachableError(`cannot boot the embedded WordPress: ${err.message}`);
    throw err;
  }
}

/** Fetch the site index once; anything but a JSON object is "not a reachable target". */
export async function fetchIndex(client: Client): Promise<any> {
  let res;
  try {
    res = await client.get('/');
  } catch (err) {
    if (err instanceof TargetError) throw new UnreachableError(`cannot reach the target: ${err.message}`);
    throw err;
  }
  if (res.status === 401 || res.status === 403)
    throw new UsageError(`the target refused the credentials (${res.status} ${res.body?.code ?? ''} on GET /): check --user/--app-password`.replace(' )', ')'));
  if (res.status !== 200 || typeof res.body !== 'object' || res.body === null || Array.isArray(res.body))
    throw new UnreachableError(
      `${client.url('/')} answered ${res.status}${res.body === undefined ? ' with no JSON' : ''}: is it a Content Site REST Interface server?`,
    );
  return res.body;
}

export function chooseProfile(cfg: RunConfig, index: unknown): { profile: ProfileName; reason: string } {
  if (cfg.profile !== 'auto') return { profile: cfg.profile, reason: `--profile ${cfg.profile}` };
  const detected = detectProfile(index as { namespaces?: unknown });
  if (detected === 'wordpress') return { profile: 'wordpress', reason: 'auto: the index advertises WordPress namespace names (wp/v2)' };
  if (detected === 'spec') return { profile: 'spec', reason: 'auto: the index advertises the documented namespace names (cms/v2)' };
  return { profile: 'spec', reason: 'auto: the index advertises neither cms/v2 nor wp/v2; using the documented names' };
}

export function writePolicy(cfg: RunConfig, prepared: PreparedTarget): RunInfo['writes'] {
  if (prepared.embedded) return { allowed: true, reason: 'embedded target' };
  if (cfg.allowWrites) return { allowed: true, reason: '--allow-writes' };
  if (isLoopback(prepared.url)) return { allowed: true, reason: 'loopback target' };
  return { allowed: false, reason: 'the target is not on loopback; pass --allow-writes to allow writes' };
}

export interface RunOutcome {
  results: Results;
  resultsPath: string;
  exitCode: 0 | 1;
}

export async function runConformance(cfg: RunConfig, log: Log = (l) => process.stderr.write(`${l}\n`)): Promise<RunOutcome> {
  const startedAt = new Date();
  const prepared = await prepareTarget(cfg, log);
  const stopTarget = once(async () => prepared.stop?.());
  const onSignal = (sig: NodeJS.Signals) => {
    log(`\n${sig}: stopping (cleanup runs first) ...`);
    void vitestRef?.cancelCurrentRun('keyboard-input');
  };
  let vitestRef: Vitest | undefined;
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const effective: RunConfig = { ...cfg, ...(prepared.credentials && !cfg.user && !cfg.authHeader ? prepared.credentials : {}) };
    const setupClient = new Client({
      baseUrl: prepared.url,
      credentials: { user: effective.user, appPassword: effective.appPassword, authHeader: effective.authHeader },
      timeoutMs: cfg.timeoutMs,
      concurrency: 1,
    });
    const index = await fetchIndex(setupClient).finally(() => setupClient.close());
    const { profile, reason } = chooseProfile(cfg, index);
    const info: RunInfo = {
      runId: `cmsc${Date.now().toString(36)}${randomBytes(2).toString('hex')}`,
      config: effective,
      targetUrl: prepared.url,
      embedded: prepared.embedded,
      profile,
      profileReason: reason,
      index,
      writes: writePolicy(cfg, prepared),
    };
    const what = prepared.embedded ? ` (embedded ${prepared.embedded.kind}${prepared.embedded.version ? ` ${prepared.embedded.version}` : ''})` : '';
    log(`${TOOL.name} ${TOOL.version}: target ${prepared.url}${what}`);
    log(`profile ${profile} (${reason}); seed ${cfg.seed}; writes ${info.writes.allowed ? 'allowed' : 'not allowed'} (${info.writes.reason})`);

    const reporter = new ResultsReporter({
      tool: TOOL,
      target: { url: prepared.url, profile, profileReason: reason, embedded: prepared.embedded },
      seed: cfg.seed,
      config: redactConfig(cfg),
      startedAt,
      setupRequests: { count: setupClient.totals.requests, latencyMs: setupClient.totals.latencyMs },
    });
    const { createVitest } = await import('vitest/node');
    const vitest = await createVitest(
      'test',
      {
        root: PKG_ROOT,
        config: false,
        include: ['suites/**/*.spec.ts'],
        watch: false,
        reporters: [process.stdout.isTTY ? 'default' : 'dot', reporter],
        testNamePattern: cfg.only,
        passWithNoTests: true,
        pool: 'threads',
        maxWorkers: Math.max(1, Math.min(cfg.concurrency, 4)),
        testTimeout: Math.max(60_000, cfg.timeoutMs * 6),
        hookTimeout: Math.max(60_000, cfg.timeoutMs * 6),
        teardownTimeout: 30_000,
      },
      { cacheDir: join(PKG_ROOT, 'node_modules/.vite') },
    );
    vitestRef = vitest;
    vitest.provide('run', info);
    const sweeper = info.writes.allowed && setupClient.hasCredentials ? sweepClient(prepared.url, effective, profile) : undefined;
    try {
      if (sweeper) await reportSweep(log, 'leftovers of earlier runs', await sweep(sweeper).catch(() => undefined));
      await vitest.start();
    } finally {
      await vitest.close();
      if (sweeper) {
        await reportSweep(log, 'items of this run', await sweep(sweeper, tagFor(info.runId)).catch(() => undefined));
        await sweeper.close();
      }
    }
    if (!reporter.results) throw new Error('the run ended without results');
    const resultsPath = resolve(cfg.reportDir, 'results.json');
    writeResults(resultsPath, reporter.results);
    return { results: reporter.results, resultsPath, exitCode: exitCodeFor(reporter.results, cfg.failOn) };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopTarget();
  }
}

function sweepClient(url: string, cfg: RunConfig, profile: ProfileName): Client {
  const p = getProfile(profile);
  return new Client({
    baseUrl: url,
    credentials: { user: cfg.user, appPassword: cfg.appPassword, authHeader: cfg.authHeader },
    timeoutMs: cfg.timeoutMs,
    concurrency: cfg.concurrency,
    mapRoute: (r) => p.toTargetRoute(r),
  });
}

async function reportSweep(log: Log, what: string, r: { deleted: number; failed: number } | undefined): Promise<void> {
  if (!r) log(`sweep of ${what}: the target did not answer the listing; nothing deleted`);
  else if (r.deleted || r.failed) log(`sweep of ${what}: deleted ${r.deleted}${r.failed ? `, could not delete ${r.failed}` : ''}`);
}

function once<T>(fn: () => Promise<T>): () => Promise<T | undefined> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}

export interface ListedBehaviour {
  id: string;
  level: string;
  namespace: string;
  title: string;
  spec: string;
  file: string;
}

/** Collect the declared behaviours without running them (no target needed). */
export async function listBehaviours(only?: string): Promise<{ behaviours: ListedBehaviour[]; errors: string[] }> {
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest(
    'test',
    { root: PKG_ROOT, config: false, include: ['suites/**/*.spec.ts'], watch: false, reporters: [], testNamePattern: only, pool: 'threads' },
    { cacheDir: join(PKG_ROOT, 'node_modules/.vite') },
  );
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    const errors = unhandledErrors.map((e) => String((e as Error).message ?? e));
    const behaviours: ListedBehaviour[] = [];
    for (const m of testModules) {
      for (const e of m.errors()) errors.push(`${m.relativeModuleId}: ${e.message}`);
      for (const tc of m.children.allTests()) {
        if (only && !new RegExp(only).test(tc.name)) continue;
        const b = tc.meta().behaviour;
        if (!b) {
          errors.push(`${m.relativeModuleId}: test "${tc.name}" is not declared with behaviour()`);
          continue;
        }
        behaviours.push({ id: b.id, level: b.level, namespace: b.namespace, title: b.title, spec: `${b.spec.doc} § ${b.spec.section}`, file: m.relativeModuleId });
      }
    }
    return { behaviours: behaviours.sort((a, b) => a.id.localeCompare(b.id)), errors };
  } finally {
    await vitest.close();
  }
}
