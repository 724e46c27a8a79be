/**
 * The one way a behaviour is declared: a thin layer over vitest's `test` that carries the
 * behaviour's stable ID, level, spec section and namespace, attributes requests to it, and
 * insists that every skip names its reason.
 */
import { afterAll, inject, test } from 'vitest';
import type { SpecRef } from '../schemas/types.ts';
import { Client, curlFor, type Exchange } from './client.ts';
import { ConformanceFailure } from './errors.ts';
import { Fixtures, tagFor } from './fixtures.ts';
import { getProfile, normalizeIndex, type Profile } from './profiles.ts';
import type { RunInfo } from './run-info.ts';
import { workerCount } from './suite-files.ts';
import { eventWriter } from '../reporters/events.ts';

export type Level = 'MUST' | 'SHOULD';

export interface BehaviourDecl {
  /** Stable ID: lowercase, dot-separated. Pinned by a snapshot test; never renamed silently. */
  id: string;
  level: Level;
  /** Namespace the behaviour belongs to ('' for the site index and batch). */
  namespace: string;
  title: string;
  spec: SpecRef;
  /** Documented route shape, for grouping in reports. */
  route?: string;
  /** Catalog items (route, endpoint, arg, field, setting IDs) this behaviour exercises. */
  covers?: string[];
}

export interface RecordedExchange extends Omit<Exchange, 'requestBody' | 'responseText'> {
  requestBody?: string;
  responseText: string;
  curl: string;
}

export interface BehaviourMeta extends BehaviourDecl {
  requests: number;
  /** Sum of the latencies of this behaviour's requests (ms). */
  latencyMs?: number;
  /** The last exchanges of a failed behaviour, bodies truncated, credentials never included. */
  exchanges?: RecordedExchange[];
  /** A shrunk counterexample of a failed property. */
  counterexample?: unknown;
  failureKind?: 'conformance' | 'target' | 'harness';
}

declare module 'vitest' {
  interface TaskMeta {
    behaviour?: BehaviourMeta;
  }
}

/** Per-worker state, built once from what the CLI provided. */
export interface RunContext {
  info: RunInfo;
  profile: Profile;
  /** The target index translated to spec names. */
  index: any;
  client: Client;
}

let shared: RunContext | undefined;
let fileFixtures: Fixtures | undefined;
let cleanupRegistered = false;

/**
 * The fixtures of the current suite file: tagged with the run ID and force-deleted after the
 * file (afterAll), also when behaviours fail. Creation is attributed to whichever client is
 * passed; cleanup requests to "fixtures".
 */
export function fixtures(): Fixtures {
  const run = runContext();
  return (fileFixtures ??= new Fixtures(run.client.fork('fixtures'), tagFor(run.info.runId)));
}

function registerCleanup(): void {
  if (cleanupRegistered) return;
  cleanupRegistered = true;
  afterAll(async () => {
    const failed = (await fileFixtures?.cleanup()) ?? [];
    if (failed.length) throw new Error(`could not delete fixtures: ${failed.join(', ')} (the CLI sweeps them by tag)`);
  });
}

export function runContext(): RunContext {
  if (shared) return shared;
  const info = inject('run');
  if (!info) throw new Error('no run information: suites are started by the cms-conformance CLI');
  const profile = getProfile(info.profile);
  const c = info.config;
  shared = {
    info,
    profile,
    index: normalizeIndex(info.index, profile),
    client: new Client({
      baseUrl: info.targetUrl,
      credentials: { user: c.user, appPassword: c.appPassword, authHeader: c.authHeader },
      timeoutMs: c.timeoutMs,
      // --concurrency is the limit for the whole run: share it between the suite workers.
      concurrency: Math.max(1, Math.ceil(c.concurrency / workerCount(c.concurrency))),
      // --max-rps is for the whole run, too: each worker takes its share.
      maxRps: c.maxRps ? c.maxRps / workerCount(c.concurrency) : undefined,
      mapRoute: (r) => profile.toTargetRoute(r),
      // One line per request in the run's events.ndjson (forks inherit it; each fork tags its behaviour ID).
      ...(info.eventLog ? { onExchange: eventWriter(info.eventLog, 'suite') } : {}),
    }),
  };
  return shared;
}

export interface BehaviourContext {
  decl: BehaviourDecl;
  run: RunContext;
  /** Client whose requests are attributed to this behaviour. */
  client: Client;
  /** Spec-named index of the target. */
  index: any;
  /** Skip with a reason (required). Never returns. */
  skip(reason: string): never;
  /** Fail as a conformance failure (the server does not do what is documented). */
  fail(message: string, details?: Record<string, unknown>): never;
  /** Skip unless the target advertises the namespace. */
  requireNamespace(ns: string): void;
  /** Skip unless writes are allowed on this target. */
  requireWrites(): void;
  /** Skip unless credentials were given. */
  requireCredentials(): void;
  /** Record catalog items exercised (for coverage). */
  covers(...ids: string[]): void;
  /** Record the minimal failing input of a property. */
  counterexample(value: unknown): void;
  /** Create a tagged post or page through this behaviour's client; deleted after the file. */
  create(collection: string, fields?: Record<string, unknown>): Promise<any>;
  /** Track an item created some other way, for deletion after the file. */
  track(route: string): void;
}

const TRUNCATE = 2000;
const truncate = (s: string | undefined) => (s === undefined || s.length <= TRUNCATE ? s : `${s.slice(0, TRUNCATE)}… [${s.length - TRUNCATE} more characters]`);

export function recordExchange(e: Exchange): RecordedExchange {
  return { ...e, requestBody: truncate(e.requestBody), responseText: truncate(e.responseText) ?? '', curl: curlFor(e) };
}

/** Did the target misbehave at the transport or format level in these exchanges? Returns what it did. */
export function targetTrouble(log: readonly Exchange[]): string | undefined {
  for (const e of [...log].reverse()) {
    if (e.error) return e.error;
    if (e.status >= 500 || e.status === 429) return `${e.method} ${e.route} answered ${e.status}`;
    const type = e.responseHeaders['content-type'] ?? '';
    if (e.responseText && /json/.test(type)) {
      try {
        JSON.parse(e.responseText);
      } catch {
        return `${e.method} ${e.route} answered malformed JSON`;
      }
    }
    if (e.responseText && !/json/.test(type) && e.method !== 'HEAD') return `${e.method} ${e.route} answered ${type || 'no content type'}, not JSON`;
  }
  return undefined;
}

/**
 * conformance: the server does not do what is documented (an assertion or t.fail);
 * target: the target did not answer usably (network error, timeout, or garbage that stopped the check);
 * harness: any other exception — a bug in cms-conformance.
 */
export function failureKindOf(err: unknown, log: readonly Exchange[] = []): BehaviourMeta['failureKind'] {
  const name = (err as Error)?.name;
  if (name === 'ConformanceFailure' || name === 'AssertionError') return 'conformance';
  if (name === 'TargetError') return 'target';
  if (targetTrouble(log)) return 'target';
  return 'harness';
}

export interface BehaviourOptions {
  timeout?: number;
  /** Run alongside the other concurrent behaviours of the file (only for behaviours that share no mutable state). */
  concurrent?: boolean;
}

export function behaviour(decl: BehaviourDecl, fn: (t: BehaviourContext) => unknown, options: BehaviourOptions = {}): void {
  registerCleanup();
  const declared: BehaviourMeta = { ...decl, covers: [...(decl.covers ?? [])], requests: 0 };
  test(`${decl.id} ${decl.title}`, { timeout: options.timeout ?? 60_000, concurrent: options.concurrent, meta: { behaviour: declared } }, async (ctx) => {
    const meta: BehaviourMeta = (ctx.task.meta.behaviour ??= declared);
    const run = runContext();
    const client = run.client.fork(decl.id);
    const skip = (reason: string): never => {
      if (!reason) throw new Error(`behaviour ${decl.id} skipped without a reason`);
      ctx.skip(reason);
      throw new Error('unreachable');
    };
    const t: BehaviourContext = {
      decl,
      run,
      client,
      index: run.index,
      skip,
      fail(message, details) {
        throw new ConformanceFailure(message, details);
      },
      requireNamespace(ns) {
        const advertised: string[] = run.index?.namespaces ?? [];
        if (!advertised.includes(ns)) skip(`namespace ${ns} is not advertised by the target`);
      },
      requireWrites() {
        if (!run.info.writes.allowed) skip(`writes not allowed: ${run.info.writes.reason}`);
      },
      requireCredentials() {
        if (!client.hasCredentials) skip('no credentials: give --user and --app-password (or --auth-header)');
      },
      covers(...ids) {
        meta.covers!.push(...ids);
      },
      counterexample(value) {
        meta.counterexample = value;
      },
      create(collection, fields) {
        t.requireWrites();
        return fixtures().create(collection, fields, client);
      },
      track(route) {
        fixtures().track(route);
      },
    };
    try {
      await fn(t);
    } catch (err) {
      if ((err as { code?: string })?.code !== 'VITEST_PENDING') {
        meta.failureKind = failureKindOf(err, client.log);
        if (meta.failureKind === 'target' && (err as Error)?.name !== 'TargetError') {
          const e = err as Error;
          e.message = `${targetTrouble(client.log)}; the check could not go on (${e.message})`;
        }
        meta.exchanges = client.log.slice(-3).map(recordExchange);
      }
      throw err;
    } finally {
      meta.requests = client.requests;
      meta.latencyMs = Math.round(client.latencyMs);
    }
  });
}
