/**
 * The one way a behaviour is declared: a thin layer over vitest's `test` that carries the
 * behaviour's stable ID, level, spec section and namespace, records where it is declared,
 * attributes requests to it, insists that every skip names its reason, and lets behaviours
 * share a prerequisite that one of them owns (the others skip with `depends on <ID>`).
 */
import { TestRunner, afterAll, expect, inject, test, type TestContext } from 'vitest';
import { getProfile, type Profile } from '../../schemas/profiles.ts';
import type { BehaviourDecl, BehaviourMeta, FailureKind } from '../../results/results.ts';
import { idempotentUpdates, type Client, type Exchange } from '../http/client.ts';
import { clientFor } from '../http/run-client.ts';
import { failureKindOf, recordExchange, targetTrouble } from '../http/failure-kind.ts';
import { explainIds, isConformanceFailure, judgedExchanges, judging, missingRoute, nameJudgedRequest, noteJudged, quoteRoutesSent, recordedExchanges } from './failure-message.ts';
import { siteOfCaller } from './declaration-site.ts';
import { ConformanceFailure } from '../core/errors.ts';
import { eventWriter } from '../http/events.ts';
import { Fixtures, scopeFor, tagFor, type FixtureError } from './fixtures.ts';
import type { RunInfo } from '../core/run-info.ts';
import { Limiter } from '../http/pacing.ts';
import { withTargetRoutes } from './route-names.ts';
import { MAX_FILE_CONCURRENCY, workerConcurrency, workerCount } from '../engine/suite-files.ts';
import { setNoRouteAnswer } from '../core/no-route.ts';
import { workerIndex, workerRate } from './worker-state.ts';
import { exchangeHooks, useRunLedger } from '../http/ledger-watch.ts';

export type { BehaviourDecl, BehaviourMeta, Level, RecordedExchange } from '../../results/results.ts';

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

// ---------------------------------------------------------------- fixtures, per suite file

/** Fixtures of each suite file (keyed by its path), so files can share a worker without isolation. */
const fileFixtures = new Map<string, Fixtures>();
const cleanupRegistered = new Set<string>();

/** The suite file being collected or run. */
function currentFile(): string {
  return TestRunner.getCurrentSuite()?.file?.filepath ?? expect.getState().testPath ?? '(unknown file)';
}

/**
 * The fixtures of a suite file (default: the one running): tagged with the run ID and
 * force-deleted after the file (afterAll), also when behaviours fail. Creation is attributed to
 * whichever client is passed; cleanup requests to "fixtures".
 */
export function fixtures(file = expect.getState().testPath ?? currentFile()): Fixtures {
  let fx = fileFixtures.get(file);
  if (!fx) {
    const run = runContext();
    fileFixtures.set(file, (fx = new Fixtures(run.client.fork('fixtures'), tagFor(run.info.runId), scopeFor(file))));
  }
  return fx;
}

/** Register the file's cleanup once, while the file is collected. */
function registerCleanup(file: string): void {
  if (cleanupRegistered.has(file)) return;
  cleanupRegistered.add(file);
  afterAll(async () => {
    const fx = fileFixtures.get(file);
    fileFixtures.delete(file);
    cleanupRegistered.delete(file);
    const failed = (await fx?.cleanup()) ?? [];
    // The kind travels with the error: the target's trouble when a delete met it, else ours.
    if (failed.length) throw Object.assign(new Error(`could not delete fixtures: ${failed.join(', ')} (the CLI sweeps them by tag)`), { failureKind: fx!.cleanupTrouble });
  });
}

/**
 * Let up to `n` concurrent behaviours of the file being collected run at once (call at the top of
 * a suite file); by default vitest's 5. vitest's maxConcurrency (src/engine/suite-engine.ts) is one limit for
 * every file, the largest any file may ask for; behaviour() keeps each file to its own.
 */
export function fileConcurrency(n: number): void {
  fileLimits.set(currentFile(), Math.max(1, Math.min(MAX_FILE_CONCURRENCY, n)));
}
const fileLimits = new Map<string, number>();
const fileLimiters = new Map<string, Limiter>();
function fileLimiter(file: string): Limiter {
  let l = fileLimiters.get(file);
  if (!l) fileLimiters.set(file, (l = new Limiter(fileLimits.get(file) ?? 5)));
  return l;
}

export function runContext(): RunContext {
  if (shared) return shared;
  const info = inject('run');
  if (!info) throw new Error('no run information: suites are started by the cms-conformance CLI');
  const profile = getProfile(info.profile);
  const c = info.config;
  const workers = info.workers ?? workerCount(c.concurrency);
  const index = workerIndex(info, profile);
  setNoRouteAnswer(info.noRoute);
  shared = {
    info,
    profile,
    index,
    client: clientFor(info.targetUrl, c, {
      repeatable: idempotentUpdates(info.index, (ns) => profile.toSpecNamespace(ns)),
      // --concurrency is the limit for the whole run: share it between the suite workers.
      concurrency: workerConcurrency(c.concurrency, workers, Number(process.env.VITEST_POOL_ID ?? 1)),
      // --max-rps is for the whole run, too: each worker takes its share, one pace for all its
      // suite files (the modules, and this client, are made anew for each file; the pace is kept
      // on the worker's global object).
      ...(c.maxRps ? { rate: workerRate(info.runId, c.maxRps / workers) } : {}),
      mapRoute: (r) => profile.toTargetRoute(r),
      // A run that may not write sends no write, whatever a check tries (the check skips).
      ...(info.writes.allowed ? {} : { readOnly: info.writes.reason }),
      // One line per request in the run's events.ndjson; each item a request creates in the run's ledger as soon as its answer is read (forks inherit them; each fork tags its behaviour ID).
      ...exchangeHooks(info.eventLog && eventWriter(info.eventLog, 'suite'), useRunLedger(info.ledger, (r) => profile.toTargetRoute(r))),
    }),
  };
  return shared;
}

// ---------------------------------------------------------------- prerequisites

/** Why a prerequisite is not met: the owner fails (or errs, or skips) with it; the others skip, naming the owner. */
export class Unmet extends Error {
  override name = 'Unmet';
  constructor(
    message: string,
    readonly outcome: 'failed' | 'skipped' | 'error',
    readonly failureKind?: FailureKind,
  ) {
    super(message);
  }
}

/**
 * Something several behaviours need (a settings read, the module list, the shape of an item),
 * checked once per worker and owned by one behaviour: when it is not met, the owner fails with
 * the reason and every other behaviour that needs it skips with `depends on <owner>, which
 * failed: <reason>`. So one deviation of the target is reported once.
 *
 * `compute` throws `ConformanceFailure` (the owner fails), `Unmet` with outcome 'skipped' (the
 * owner skips too, e.g. credentials not allowed), or anything else (an error: target trouble or
 * a harness bug).
 */
export interface Prerequisite<T> {
  owner: string;
  compute(client: Client, run: RunContext): Promise<T>;
}

export function prerequisite<T>(owner: string, compute: (client: Client, run: RunContext) => Promise<T>): Prerequisite<T> {
  return { owner, compute };
}

interface Settled<T> {
  value?: T;
  unmet?: Unmet;
  /** The prerequisite's own requests, shown by the owner when it fails. */
  exchanges: Exchange[];
  /** The target's trouble its requests met (counted for the owner). */
  network: { retried: number; gaveUp: number; oversized: number };
}

const networkOf = (c: Client) => ({ retried: c.retried, gaveUp: c.gaveUp, oversized: c.oversized });

const settled = new Map<Prerequisite<unknown>, Promise<Settled<unknown>>>();

function settle<T>(p: Prerequisite<T>): Promise<Settled<T>> {
  let s = settled.get(p as Prerequisite<unknown>) as Promise<Settled<T>> | undefined;
  if (!s) {
    const run = runContext();
    const client = run.client.fork(p.owner);
    s = p.compute(client, run).then(
      (value) => ({ value, exchanges: client.log.slice(), network: networkOf(client) }),
      (err: unknown) => {
        const e = err as Error;
        const unmet =
          err instanceof Unmet
            ? err
            : e?.name === 'WritesNotAllowed'
              ? new Unmet(e.message, 'skipped')
            : e?.name === 'ConformanceFailure' || e?.name === 'AssertionError'
              ? new Unmet(e.message, 'failed', 'conformance')
              : new Unmet(e?.message ?? String(err), 'error', failureKindOf(err, client.log));
        return { unmet, exchanges: client.log.slice(), network: networkOf(client) };
      },
    );
    settled.set(p as Prerequisite<unknown>, s as Promise<Settled<unknown>>);
  }
  return s;
}

// ---------------------------------------------------------------- the behaviour context

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
  /**
   * Say that the check judges this answer: a failure names its request (method, URL, body) and the
   * report shows it with its curl, not the last request sent. Returns `res`. (Answers described with
   * `answerOf` or `whyNotAccepted` are noted without it; see src/sdk/failure-message.ts.)
   */
  judge<R extends { exchange?: Exchange }>(res: R): R;
  /** Skip unless the target advertises the namespace. */
  requireNamespace(ns: string): void;
  /** Skip unless writes are allowed on this target. */
  requireWrites(): void;
  /** Skip unless credentials were given. */
  requireCredentials(): void;
  /**
   * The value of a shared prerequisite. When it is not met: the owner behaviour fails (or
   * skips/errs) with the reason; any other behaviour skips with `depends on <owner>`.
   */
  need<T>(p: Prerequisite<T>): Promise<T>;
  /** Record catalog items exercised (for coverage). */
  covers(...ids: string[]): void;
  /** Record the minimal failing input of a property. */
  counterexample(value: unknown): void;
  /**
   * This behaviour checks an answer the run's setup requested for it before any behaviour ran
   * (the fresh-site snapshot, src/core/fresh-site.ts): it exercised the target (coverage), though that
   * one request is counted once, under the setup, not again per behaviour.
   */
  checksSetupAnswer(): void;
  /**
   * Skip because another behaviour checks (and reports) what this one needs and found it unmet:
   * "depends on <owner>: <why>", recorded as `dependsOn` in the results. For a need that is a
   * behaviour's own verdict rather than a shared computation (else use `need`).
   */
  dependsOn(owner: string, why: string): never;
  /** Create a tagged post or page through this behaviour's client; deleted after the file. */
  create(collection: string, fields?: Record<string, unknown>): Promise<any>;
  /** Track an item created some other way, for deletion after the file. */
  track(route: string): void;
  /** Say what this read behaviour checks: its fixtures, or the site's own content (which items). Recorded as `subjects`. */
  subjects(source: 'fixtures' | 'site', detail?: string): void;
}

export { failureKindOf, recordExchange, targetTrouble } from '../http/failure-kind.ts';

export interface BehaviourOptions {
  /** Run alongside the other concurrent behaviours of the file (only for behaviours that share no mutable state). */
  concurrent?: boolean;
  /** The declaration site, where behaviour() is called later on its declarer's behalf (see declarationSite(); default: behaviour()'s caller). */
  location?: string;
}

/** Where behaviour() was called, or where `above` was (src/sdk/declaration-site.ts). */
export const declarationSite = (above: Function = behaviour): string | undefined => siteOfCaller(above);

export function behaviour(decl: BehaviourDecl, fn: (t: BehaviourContext) => unknown, options: BehaviourOptions = {}): void {
  const file = currentFile();
  registerCleanup(file);
  const location = options.location ?? declarationSite();
  const declared: BehaviourMeta = { ...decl, covers: [...(decl.covers ?? [])], ...(location ? { location } : {}), requests: 0 };
  // No time limit of its own: every request has --timeout, so a behaviour ends; the runner's limit only guards against a hang of the harness.
  test(`${decl.id} ${decl.title}`, { concurrent: options.concurrent, meta: { behaviour: declared } }, (ctx) =>
    options.concurrent ? fileLimiter(file).run(() => run(ctx)) : run(ctx),
  );
  async function run(ctx: TestContext): Promise<void> {
    const meta: BehaviourMeta = (ctx.task.meta.behaviour ??= declared);
    const run = runContext();
    const client = run.client.fork(decl.id);
    /** Requests of a prerequisite this behaviour owns, computed (maybe for another behaviour) before it ran. */
    let inherited = { requests: 0, latencyMs: 0, network: { retried: 0, gaveUp: 0, oversized: 0 } };
    /** Requests of the run's setup whose answer this behaviour checks. */
    const skip = (reason: string): never => {
      if (!reason) throw new Error(`behaviour ${decl.id} skipped without a reason`);
      ctx.skip(withTargetRoutes(reason, run.profile));
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
      judge(res) {
        noteJudged(res);
        return res;
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
      async need(p) {
        const s = await settle(p);
        if (p.owner === decl.id) inherited = { requests: s.exchanges.length, latencyMs: s.exchanges.reduce((n, e) => n + e.durationMs, 0), network: s.network };
        if (!s.unmet) return s.value as never;
        const u = s.unmet;
        if (p.owner !== decl.id) {
          meta.dependsOn = p.owner;
          skip(`depends on ${p.owner}, which ${u.outcome === 'failed' ? 'failed' : u.outcome === 'skipped' ? 'was skipped' : 'could not be checked'}: ${u.message}`);
        }
        if (u.outcome === 'skipped') skip(u.message);
        client.log.push(...s.exchanges);
        if (u.outcome === 'failed') throw new ConformanceFailure(u.message);
        meta.failureKind = u.failureKind ?? 'harness';
        throw new Error(u.message);
      },
      covers(...ids) {
        meta.covers!.push(...ids);
      },
      counterexample(value) {
        meta.counterexample = value;
      },
      dependsOn(owner, why) {
        meta.dependsOn = owner;
        return skip(`depends on ${owner}: ${why}`);
      },
      checksSetupAnswer() {
        meta.setupAnswer = true;
      },
      create(collection, fields) {
        t.requireWrites();
        return fixtures(file).create(collection, fields, client);
      },
      track(route) {
        fixtures(file).track(route);
      },
      subjects(source, detail) {
        meta.subjects = detail ? { source, detail } : { source };
      },
    };
    const judged = judging(decl.id, async () => fn(t));
    try {
      await judged.done;
    } catch (err) {
      // A write the run may not send was refused before it went out: not checked here.
      if ((err as Error)?.name === 'WritesNotAllowed') skip((err as Error).message);
      // A fixture that could not be made: the behaviour that owns creating it reports that; this one skips.
      if ((err as Error)?.name === 'FixtureError') {
        const owner = (err as FixtureError).owner;
        if (owner === decl.id) err = new ConformanceFailure((err as Error).message);
        else {
          if (owner) meta.dependsOn = owner;
          skip(`${owner ? `depends on ${owner}: ` : ''}could not set up: ${(err as Error).message}`);
        }
      }
      // A finding made on a documented route the target does not have (not in its index, and it
      // answered 404): the route's own behaviour reports that, once; this one skips, naming it.
      if (isConformanceFailure(err)) {
        const missing = missingRoute(client.log, run);
        if (missing && missing.owner !== decl.id) {
          meta.dependsOn = missing.owner;
          skip(`depends on ${missing.owner}: ${missing.why} (${(err as Error).message})`);
        }
      }
      if ((err as { code?: string })?.code !== 'VITEST_PENDING') {
        meta.failureKind ??= failureKindOf(err, client.log);
        if (meta.failureKind === 'target' && (err as Error)?.name !== 'TargetError') {
          const e = err as Error;
          const trouble = targetTrouble(client.log);
          if (trouble && !e.message.startsWith(trouble)) e.message = `${trouble}; the check could not go on (${e.message})`;
        }
        // The request whose answer the check judged, not the last one it sent (src/sdk/failure-message.ts).
        const judgedOnes = isConformanceFailure(err) && typeof (err as Error).message === 'string' ? judgedExchanges((err as Error).message, client.log, judged.list, (r) => run.profile.toSpecRoute(r)) : [];
        meta.exchanges = recordedExchanges(client.log, judgedOnes);
        if (isConformanceFailure(err)) {
          explainIds(err);
          nameJudgedRequest(err as Error, judgedOnes, client.log, run.profile);
        }
        quoteRoutesSent(err, run.profile);
      }
      throw err;
    } finally {
      meta.requests = client.requests + inherited.requests;
      const net = { retried: client.retried + inherited.network.retried, gaveUp: client.gaveUp + inherited.network.gaveUp, oversized: client.oversized + inherited.network.oversized };
      if (net.retried || net.gaveUp || net.oversized) meta.network = net;
      meta.latencyMs = Math.round(client.latencyMs + inherited.latencyMs);
    }
  }
}
