/**
 * The third phase of a run: its session with the target, opened before any behaviour runs. The
 * target's index is fetched once, its answer to a route that does not exist asked once
 * (src/core/no-route.ts), the profile chosen, the write policy decided, the fresh site's settings
 * read (src/core/fresh-site.ts), the report folder made; what the suite workers get (RunInfo)
 * and what results.json's header says (RunHeader) come out of it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isLoopback, type RunConfig } from '../core/config.ts';
import { TargetError, UnreachableError, UsageError } from '../core/errors.ts';
import { freshness, type FreshSite } from '../core/fresh-site.ts';
import { NO_SUCH_ROUTE, type NoRouteAnswer } from '../core/no-route.ts';
import { TOOL } from '../core/paths.ts';
import type { RunInfo } from '../core/run-info.ts';
import type { RunHeader } from '../engine/collect.ts';
import type { Client, Exchange } from '../http/client.ts';
import { eventWriter } from '../http/events.ts';
import { clientFor } from '../http/run-client.ts';
import { proxyFor } from '../http/connection.ts';
import type { Results } from '../../results/results.ts';
import { digestIndex } from '../../results/advertised.ts';
import { DEFAULT_REPORTS_ROOT, REPORT_FILES, timestampedDir } from '../../reporters/index.ts';
import { detectProfile, getProfile, normalizeIndex, type ProfileName } from '../../schemas/profiles.ts';
import { workerConfig, type Log, type Plan } from './plan.ts';
import { ledgerPath } from '../core/ledger.ts';
import { tagFor } from '../sdk/fixtures.ts';
import type { ProgressReporter } from './progress.ts';
import type { RunStop } from './stop.ts';
import type { Target } from './target.ts';

export interface Session {
  /** What the suite workers get (provide/inject): the target, the configuration they run with, the profile, the write policy ... */
  info: RunInfo;
  /** What results.json says of the run besides its behaviours (marked incomplete when the run is stopped). */
  header: RunHeader;
  reportDir: string;
  /** Does the target's index advertise this namespace (spec name)? */
  advertises(namespace: string): boolean;
}

export async function openSession(plan: Plan, booted: Target | undefined, ctx: { log: Log; progress: ProgressReporter; stop: RunStop; startedAt: Date }): Promise<Session> {
  const url = booted?.url ?? plan.config.target!;
  const embedded = booted?.embedded ?? null;
  const config = workerConfig(plan, booted);
  const setupExchanges: Exchange[] = [];
  const indexClient = setupClient(url, config, (e) => setupExchanges.push(e));
  const index = await fetchIndex(indexClient);
  // How the target answers a route that does not exist (src/core/no-route.ts): one request.
  const noRoute = await probeNoRoute(indexClient).finally(() => indexClient.close());
  const { profile, reason } = chooseProfile(plan.config, index);
  const names = getProfile(profile);
  const advertises = (ns: string) => Array.isArray(index?.namespaces) && index.namespaces.includes(names.toTargetNamespace(ns));
  if (Array.isArray(index?.namespaces)) ctx.progress.advertised(advertises);
  // Defaults of site state: read before any behaviour runs, on a fresh site only (src/core/fresh-site.ts).
  const freshSite = await readFreshSite(url, config, embedded, profile, advertises('suite/v4'), (e) => setupExchanges.push(e));
  booted?.setUp?.();

  // Reports: exactly --report-dir, or a new reports/<timestamp>/ (reports/latest follows it after the run).
  const reportDir = plan.reportDir ?? timestampedDir(resolve(DEFAULT_REPORTS_ROOT));
  mkdirSync(reportDir, { recursive: true });
  // A reused --report-dir keeps no report of an earlier run (a stale file would pass for this run's).
  for (const file of Object.values(REPORT_FILES)) rmSync(join(reportDir, file), { force: true });
  const eventLog = plan.config.report.includes('events') ? join(reportDir, REPORT_FILES.events) : undefined;
  if (eventLog) {
    const write = eventWriter(eventLog, 'setup');
    for (const e of setupExchanges) write(e);
  }
  let advertised: Results['advertised'] = null;
  try {
    advertised = digestIndex(normalizeIndex(index, names));
  } catch {
    advertised = null; // an index the digest cannot read is reported by the discovery behaviours
  }
  const runId = newRunId();
  const writes = writePolicy(plan.config, { url, embedded });
  const info: RunInfo = {
    runId,
    config,
    targetUrl: url,
    embedded,
    profile,
    profileReason: reason,
    index,
    ...(noRoute ? { noRoute } : {}),
    writes,
    freshSite,
    ...(eventLog ? { eventLog } : {}),
    // Every item the run creates, by id (src/core/ledger.ts; started by src/run/cleanup.ts).
    ...(writes.allowed ? { ledger: ledgerPath(tagFor(runId)) } : {}),
  };
  const what = embedded ? ` (embedded ${embedded.kind}${embedded.version ? ` ${embedded.version}` : ''})` : '';
  ctx.log(`${TOOL.name} ${TOOL.version}: target ${url}${what}`);
  ctx.log(`profile ${profile} (${reason}); seed ${plan.config.seed}; writes ${info.writes.allowed ? `allowed (${info.writes.reason}); every item created carries the tag ${tagFor(runId)}` : `not allowed (${info.writes.reason})`}`);
  for (const line of connectionLines(url, config)) ctx.log(line);

  const { selection, shard } = plan;
  const header: RunHeader = {
    tool: TOOL,
    target: { url, profile, profileReason: reason, embedded },
    seed: plan.config.seed,
    config: plan.recorded,
    mode: { credentials: plan.config.user !== undefined || plan.config.authHeader !== undefined ? 'given' : config.user !== undefined ? 'embedded' : 'none', writes: info.writes },
    startedAt: ctx.startedAt,
    setupRequests: { count: indexClient.totals.requests, latencyMs: indexClient.totals.latencyMs },
    advertised,
    ...(shard ? { shard } : {}),
    ...(plan.site ? { site: plan.site } : {}),
    ...(selection.declared && !shard ? { selected: selection.declared.selected.length } : {}),
    ...(ctx.stop.cause ? { incomplete: ctx.stop.cause } : {}),
  };
  ctx.stop.onStop((cause) => void (header.incomplete = cause));
  return { info, header, reportDir, advertises };
}

/** How the run reaches the target, when it is not plain: the proxy, extra headers (names only), TLS verification off. */
export function connectionLines(url: string, cfg: RunConfig): string[] {
  const lines: string[] = [];
  const proxy = proxyFor(url, cfg.proxy);
  if (proxy) lines.push(`through the proxy ${proxy.shown} (${proxy.from})`);
  if (cfg.headers) lines.push(`headers sent with every request: ${Object.keys(cfg.headers).join(', ')} (values not shown)`);
  if (cfg.insecure) lines.push("TLS verification is OFF (--insecure): the target's certificate is not checked");
  return lines;
}

/** A client for the run's setup requests (one at a time, not paced: the run's credentials and timeout). */
function setupClient(url: string, cfg: RunConfig, onExchange: (e: Exchange) => void, mapRoute?: (route: string) => string): Client {
  return clientFor(url, cfg, { concurrency: 1, maxRps: 0, ...(mapRoute ? { mapRoute } : {}), onExchange });
}

/** Fetch the site index once; anything but a JSON object is "not a reachable target". */
export async function fetchIndex(client: Client, attempts = 5): Promise<any> {
  let res;
  // The index is setup, not a behaviour under test: a passing 5xx, a garbled answer or a lost
  // connection is tried again (briefly) before the target is declared unusable.
  for (let i = 1; ; i++) {
    try {
      res = await client.get('/', { anyAnswer: true });
    } catch (err) {
      if (!(err instanceof TargetError)) throw err;
      if (i >= attempts) throw new UnreachableError(`cannot reach the target: ${err.message}`);
      await new Promise((r) => setTimeout(r, 300 * i));
      continue;
    }
    const transient = res.status >= 500 || (res.status === 200 && res.body === undefined);
    if (!transient || i >= attempts) break;
    await new Promise((r) => setTimeout(r, 300 * i));
  }
  if (res.status === 407)
    throw new UsageError(`the proxy refused the request (407 Proxy Authentication Required on GET /): give its credentials in the proxy's URL, http://user:password@host:port`);
  if (res.status === 401 || res.status === 403)
    throw new UsageError(`the target refused the credentials (${res.status} ${res.body?.code ?? ''} on GET /): check --user/--app-password`.replace(' )', ')'));
  if (res.status !== 200 || typeof res.body !== 'object' || res.body === null || Array.isArray(res.body))
    throw new UnreachableError(
      `${client.url('/')} answered ${res.status}${res.body === undefined ? ' with no JSON' : ''}: is it a Content Site REST Interface server?`,
    );
  return res.body;
}

/** The target's answer to a route that does not exist, or undefined when it gave none (a 5xx, no answer). */
export async function probeNoRoute(client: Client): Promise<NoRouteAnswer | undefined> {
  try {
    const res = await client.get(NO_SUCH_ROUTE, { anyAnswer: true });
    return res.status >= 400 && res.status < 500 ? { status: res.status, text: res.text } : undefined;
  } catch (err) {
    if (err instanceof TargetError) return undefined;
    throw err;
  }
}

export function chooseProfile(cfg: Pick<RunConfig, 'profile'>, index: unknown): { profile: ProfileName; reason: string } {
  if (cfg.profile !== 'auto') return { profile: cfg.profile, reason: `--profile ${cfg.profile}` };
  const detected = detectProfile(index as { namespaces?: unknown });
  if (detected === 'wordpress') return { profile: 'wordpress', reason: 'auto: the index advertises WordPress namespace names (wp/v2)' };
  if (detected === 'spec') return { profile: 'spec', reason: 'auto: the index advertises the documented namespace names (cms/v2)' };
  return { profile: 'spec', reason: 'auto: the index advertises neither cms/v2 nor wp/v2; using the documented names' };
}

export function writePolicy(cfg: Pick<RunConfig, 'readOnly' | 'allowWrites'>, target: { url: string; embedded: RunInfo['embedded'] }): RunInfo['writes'] {
  if (cfg.readOnly) return { allowed: false, reason: '--read-only' };
  if (target.embedded) return { allowed: true, reason: 'embedded target' };
  if (cfg.allowWrites) return { allowed: true, reason: '--allow-writes' };
  if (isLoopback(target.url)) return { allowed: true, reason: 'loopback target' };
  return { allowed: false, reason: 'the target is not on loopback; pass --allow-writes to allow writes' };
}

/**
 * Is the site fresh, and (if so, and its index advertises suite/v4) its suite settings before any
 * behaviour: one GET /suite/v4/settings, which the default checks compare with the documented defaults.
 */
async function readFreshSite(url: string, cfg: RunConfig, embedded: RunInfo['embedded'], profile: ProfileName, advertisesSuite: boolean, onExchange: (e: Exchange) => void): Promise<FreshSite> {
  const base = freshness(cfg, embedded);
  if (!base.fresh || !advertisesSuite) return base;
  const names = getProfile(profile);
  const client = setupClient(url, cfg, onExchange, (r) => names.toTargetRoute(r));
  try {
    const res = await client.get('/suite/v4/settings');
    return { ...base, suiteSettings: { status: res.status, body: res.body } };
  } catch {
    return base; // no snapshot: the default checks skip, depending on suite.settings.read, which reports the target's trouble
  } finally {
    await client.close();
  }
}

/** A run's ID: its start time (8 base-36 digits) and 4 random hex digits. The run tag `cmsc-<ID>` carries it, so a sweep can tell old runs from live ones. */
export function newRunId(now = Date.now()): string {
  return `cmsc${now.toString(36).padStart(8, '0')}${randomBytes(2).toString('hex')}`;
}
