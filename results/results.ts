/**
 * The results model: what a conformance run produces (`results.json`, described by
 * results.schema.json beside this file). It is the ground floor every other part stands on:
 * suites declare behaviours with these types, the runner collects results of these types, and
 * every reporter renders from a `Results` value alone (never from the run that made it).
 *
 * Fields are only ever added; none is renamed or removed without a deprecation period.
 */
import type { Coverage } from './coverage.ts';
import type { SpecRef } from '../schemas/types.ts';
import type { NetworkSummary, NetworkTrouble } from './network.ts';
import type { LeftBehind } from './left-behind.ts';
import type { ClientReadiness, ClientReliance } from './clients.ts';
import { LEVELS, type FailureKind, type Level, type Status, type StopSignal } from './verdict.ts';

export { describeNetwork, networkSummary, type NetworkSummary, type NetworkTrouble } from './network.ts';
export { describeLeftItem, leftBehindLines, type LeftBehind, type LeftItem } from './left-behind.ts';

// ---------------------------------------------------------------- levels and statuses

// Levels, statuses, failure kinds, what gates and the exit codes: results/verdict.ts.
export {
  EXIT,
  CONFORMANCE_LEVELS,
  FAIL_ON,
  LEVELS,
  LEVEL_BASIS,
  SIGNAL_EXIT_CODES,
  STATUSES,
  STATUS_RANK,
  exitCodeFor,
  gatingFailures,
  gatingLevels,
  harnessErrors,
  runExitCode,
  statusOfFailure,
  worstStatus,
  type FailOn,
  type FailOnClients,
  type FailureKind,
  type Level,
  type Status,
  type StopSignal,
} from './verdict.ts';

/**
 * A behaviour about credentials: who may read or write with which credentials (SECURITY, the
 * `auth.*` checks of part 5, `cms.<type>.auth.*`, the password of protected items). Every other
 * behaviour's verdict must not depend on whether the run was given credentials: it may skip
 * without them (and says so), but where it runs both ways it ends the same (test/dialects.test.ts).
 */
export function aboutCredentials(b: { id: string; level: Level }): boolean {
  return b.level === 'SECURITY' || /^auth\.|^cms\.[^.]+\.(auth|password)\.|\.anonymous[-.]|\.security\./.test(b.id);
}

// ---------------------------------------------------------------- behaviours

export interface BehaviourDecl {
  /** Stable ID: lowercase, dot-separated. Listed in behaviours.md; never renamed silently. */
  id: string;
  level: Level;
  /** Namespace the behaviour belongs to ('' for the site index and batch). */
  namespace: string;
  title: string;
  spec: SpecRef;
  /** The spec sentence (or table row) the behaviour checks, when it is not the title itself. */
  sentence?: string;
  /** Documented route shape, for grouping in reports. */
  route?: string;
  /** Catalog items (route, endpoint, arg, field, setting IDs) this behaviour exercises. */
  covers?: string[];
  /**
   * For a CLIENT behaviour: what the spec says of it (stated, silent, contrary) and the client code
   * that relies on it (package, version, file, function; the flows that break), as every other
   * behaviour traces to its spec section (results/clients.ts).
   */
  client?: ClientReliance;
}

/** One HTTP exchange of a failed behaviour, as kept in results (bodies truncated, never credentials). */
export interface RecordedExchange {
  tag?: string;
  method: string;
  /** The URL actually sent (the target's own route names). */
  url: string;
  /** The target's route. */
  route: string;
  auth: 'none' | 'configured' | 'other';
  requestBody?: string;
  /** The documented arguments the request sent with a wrong value on purpose (a refusal check's input; RequestOptions.invalid). */
  invalid?: string[];
  /** 0 when no response arrived. */
  status: number;
  responseHeaders: Record<string, string>;
  responseText: string;
  /** Size of the response body in bytes (as read; by Content-Length when it was over --max-body). */
  responseBytes?: number;
  /** The body was larger than --max-body and was read no further (`responseText` is empty). */
  bodyOverLimit?: boolean;
  durationMs: number;
  error?: string;
  curl: string;
  /** The check judged this exchange's answer (the request its failure names); absent in results of earlier versions. */
  judged?: boolean;
}

/** The items a read behaviour checked: its own fixtures, or the site's content (`detail` names them). */
export type Subjects = { source: 'fixtures' | 'site'; detail?: string };

/** What a behaviour attaches to itself while it runs (and at declaration). */
export interface BehaviourMeta extends BehaviourDecl {
  /** Where behaviour() was called: "suites/cms/contexts.spec.ts:72". */
  location?: string;
  requests: number;
  /** Sum of the latencies of this behaviour's requests (ms). */
  latencyMs?: number;
  /** The last exchanges of a failed behaviour. */
  exchanges?: RecordedExchange[];
  /** A shrunk counterexample of a failed property. */
  counterexample?: unknown;
  failureKind?: FailureKind;
  /** The behaviour whose failure made this one skip (`depends on <ID>`). */
  dependsOn?: string;
  /** It skipped depending on `dependsOn`, which passed: the run made it a failure of its own (results/dependencies.ts). */
  ownerPassed?: boolean;
  /** It checks an answer the run's setup requested for it (counted once, in the setup's requests). */
  setupAnswer?: boolean;
  /** What a read behaviour that runs on either checked: its fixtures, or the site's own content. */
  subjects?: Subjects;
  /** Transient trouble of the target this behaviour's requests met (absent when none). */
  network?: NetworkTrouble;
}

export interface BehaviourResult extends Omit<BehaviourMeta, 'spec'> {
  /** "core-routes.md § 4. Endpoints › Posts" */
  spec: string;
  /** What its level rests on (LEVEL_BASIS): for a SHOULD, "a WordPress convention the specification does not state". */
  basis?: string;
  specRef: SpecRef;
  status: Status;
  /** Why it failed, errored or was skipped (always present for those). */
  reason?: string;
  /** The complete failure message when it says more than `reason` (truncated). */
  message?: string;
  /** Expected/actual diff of a failed assertion (truncated). */
  diff?: string;
  /** Structured details a check attached to its failure (t.fail(message, details)). */
  details?: unknown;
  durationMs: number;
  /** The suite file the behaviour ran in. */
  file: string;
}

export const specString = (s: SpecRef): string => `${s.doc === 'core' ? 'core-routes.md' : 'extension-namespaces.md'} § ${s.section}`;

// ---------------------------------------------------------------- a run

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Behaviours that could not be checked (target trouble or a harness bug); absent in results of earlier versions. */
  error: number;
  total: number;
}
export const emptyCounts = (): Counts => ({ passed: 0, failed: 0, skipped: 0, error: 0, total: 0 });

/** What a site advertises in its index (spec names), for comparing two runs (results/advertised.ts). One arg as a signature: `type=integer; default=10; minimum=1; maximum=100`. */
export type ArgSignature = string;
export interface AdvertisedEndpoint {
  args: Record<string, ArgSignature>;
  allowBatch?: boolean;
}
export interface Advertised {
  namespaces: string[];
  /** Route key -> methods joined with ',' -> endpoint. */
  routes: Record<string, Record<string, AdvertisedEndpoint>>;
}

export interface BaselineEntry {
  id: string;
  /**
   * Why the failure is accepted. Required unless a deviation of the file lists the entry (by its
   * `deviation` key or in its `behaviours`) and gives the reason: one reason to edit per broken thing.
   * A file read by cms-conformance has it on every entry (taken from the deviation where the entry has none).
   */
  reason: string;
  /** The key of the deviation of the file that holds this failure (written by --write-baseline). */
  deviation?: string;
  /** Issue or ticket tracking it. */
  link?: string;
  level?: Level;
  /** The failure message when the entry was recorded (files of earlier versions). */
  message?: string;
  /** Date the entry was recorded (YYYY-MM-DD). */
  recorded?: string;
}

/** A deviation of a baseline file: one broken thing the release accepts, with the one reason to edit. */
export interface BaselineDeviation {
  key: string;
  item: string;
  level?: Level;
  /** Why the deviation is accepted: the reason of each of its failures that gives none of its own. */
  reason: string;
  link?: string;
  /** The IDs of its failing behaviours. */
  behaviours: string[];
}

export interface BaselineFile {
  schemaVersion: 1;
  description?: string;
  /**
   * The recorded failures grouped by the documented item that broke, each with its reason (written
   * by --write-baseline: edit these reasons). A failure a deviation lists needs no reason of its own.
   */
  deviations?: BaselineDeviation[];
  failures: BaselineEntry[];
}

/** A baseline file as written: its failures take the reason of their deviation unless they give one. */
export type BaselineFileOnDisk = Omit<BaselineFile, 'failures'> & { failures: (Omit<BaselineEntry, 'reason'> & { reason?: string })[] };

export interface BaselineOutcome {
  /** The baseline file as given. */
  file: string;
  entries: number;
  /** Failures the baseline lists: they do not gate the exit code. */
  known: { id: string; reason: string; link?: string }[];
  /** Failures the baseline does not list (of any level; --fail-on decides which gate). */
  newFailures: string[];
  /** The deviations (failing behaviours grouped by the documented item that broke) that hold a new failure; absent in results of earlier versions. */
  newDeviations?: { key: string; item: string; level: Level; newFailures: string[] }[];
  /** Entries whose behaviour passed in this run: remove them from the baseline. */
  nowPassing: { id: string; reason: string; link?: string }[];
  /** Entries whose behaviour was skipped, errored or not selected in this run (nothing is known about them). */
  notRun: { id: string; status: 'skipped' | 'error' | 'not run' }[];
  /**
   * Where the baseline came from: `file` (--baseline), or `release` (none given: the shipped known
   * deviations of the embedded target's release, `release` names it). Absent in results of earlier versions.
   */
  source?: 'file' | 'release';
  /** The release whose known deviations the baseline holds ("WordPress 6.5.5"), for source `release`. */
  release?: string;
  /**
   * The run's deviations whose every failure the baseline lists, with the baseline's reason: what
   * the first lines of a report call "known deviations". Absent in results of earlier versions.
   */
  knownDeviations?: { key: string; item: string; level: Level; reason: string; link?: string; behaviours: string[] }[];
}

/** Which share of a sharded run a results file holds (`--shard i/n`). */
export interface ShardInfo {
  /** 1-based. */
  index: number;
  count: number;
  /** What was shared out: the sites of a targets file, or the behaviours (suite files) of one site. */
  by: 'site' | 'behaviour';
}

/** What a deviation is about: the documented item that broke (results/deviations.ts says how it is found). */
export type DeviationKind =
  | 'arg'
  | 'param'
  | 'field'
  | 'setting'
  | 'module'
  | 'index-field'
  | 'namespace'
  | 'authentication'
  | 'limit'
  | 'endpoint'
  | 'route'
  | 'resource'
  /** Every read or write route of a namespace failing alike (`routes:<ns>:write`). */
  | 'routes'
  /** One check failing on (nearly) every item it is made for (`rule:suite.params.required.*`). */
  | 'rule'
  /** One specific answer of the target to the checks of several items (`answer:400 rest_post_invalid_page_number`). */
  | 'answer'
  | 'behaviour';

/**
 * One deviation of the target: failing behaviours grouped by the documented item that broke.
 * One item missing everywhere (an arg on six endpoints, a field in three contexts) is one
 * deviation; so is one endpoint that fails the same way for every item it carries.
 */
export interface Deviation {
  /** Stable key: the documented item's catalog ID (`arg:cms.posts.collection.list.format`, `suite.setting.show`, `endpoint:suite.settings.update`), or `behaviour:<ID>` for a failure no item explains. */
  key: string;
  kind: DeviationKind;
  /** The documented item, for people: "format (arg of GET /cms/v2/posts)". */
  item: string;
  /** Where the spec documents it: "core-routes.md § 4. Endpoints › Posts". */
  spec: string;
  /** The spec sentence, when a behaviour records it. */
  sentence?: string;
  /** The worst level among its behaviours. */
  level: Level;
  /** One representative failure message (of a behaviour of that level). */
  message: string;
  /** IDs of its failing behaviours (sorted). */
  behaviours: string[];
  /** The documented route of the representative behaviour. */
  route?: string;
  /** For a deviation of kind `routes` or `rule`: the keys of the documented items it joins (each would be a deviation of its own). */
  items?: string[];
}

/**
 * How the run met the target: with credentials or without (`embedded`: those of the target the
 * run booted itself), and whether it could write (and why, or why not). What it left unchecked
 * follows from it (reporters/headline.ts).
 */
export interface RunMode {
  credentials: 'none' | 'given' | 'embedded';
  writes: { allowed: boolean; reason: string };
}

export interface Results {
  schemaVersion: 1;
  tool: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  target: { url: string; profile: string; profileReason: string; embedded: unknown };
  seed: number;
  config: Record<string, unknown>;
  /** With or without credentials, writes or read-only; absent in results of earlier versions. */
  mode?: RunMode;
  summary: Counts & { byLevel: Record<Level, Counts>; byNamespace: Record<string, Counts> };
  requests: { count: number; latencyMs: number };
  behaviours: BehaviourResult[];
  /** The failed behaviours grouped by the documented item that broke (results/deviations.ts); absent in results of earlier versions. */
  deviations?: Deviation[];
  /** The readiness of each real client (results/clients.ts), from the CLIENT behaviours; absent when none ran (and in results of earlier versions). */
  clients?: ClientReadiness[];
  /** Problems outside any behaviour (a suite file that failed to load, a hook that broke). */
  errors: { message: string; file?: string; kind?: FailureKind }[];
  /** Catalog coverage of the executed behaviours (results/coverage.ts). */
  coverage?: Coverage;
  /** What the target advertises (spec names), for comparing two runs; null when the index was not usable. */
  advertised?: Advertised | null;
  /** The outcome against --baseline, when one was given. */
  baseline?: BaselineOutcome;
  /** The site's ID in a targets file (`run --targets`). */
  site?: string;
  /** The share of a sharded run (`--shard i/n`) this file holds; absent for a whole run. */
  shard?: ShardInfo;
  /** Present when the run stopped before every selected behaviour ended (src/run/stop.ts). */
  incomplete?: Incomplete;
  /**
   * How noisy the target was (retries, requests given up, oversized answers) over the
   * behaviours, and which behaviours met such trouble. Absent in results of earlier versions.
   */
  network?: NetworkSummary;
  /**
   * What the run created on the target and could not delete, each item named, with the command that
   * removes them (results/left-behind.ts). Present when the run could write to a target it did not
   * boot; absent in results of earlier versions.
   */
  leftBehind?: LeftBehind;
}

/**
 * A run that stopped before every selected behaviour ended: on a signal (or its parent npm went
 * away: SIGTERM), or because the target stopped answering for good. `behaviours` holds those that
 * ended; `notRun` counts the others.
 */
export interface Incomplete {
  reason: 'signal' | 'target-unreachable';
  signal?: StopSignal;
  message: string;
  /** When the stop was asked (ISO time). */
  at: string;
  notRun: number;
}

export type ReportFormat = 'html' | 'junit' | 'md' | 'json' | 'events';
export const REPORT_FORMATS: readonly ReportFormat[] = ['html', 'junit', 'md', 'json', 'events'];

// ---------------------------------------------------------------- pure functions of results

/** Counts of a list of behaviours, overall, per level and per namespace ('(site)' for the index and batch). */
export function summarize(behaviours: readonly Pick<BehaviourResult, 'status' | 'level' | 'namespace'>[]): Results['summary'] {
  const byLevel = Object.fromEntries(LEVELS.map((l) => [l, emptyCounts()])) as Record<Level, Counts>;
  const summary = { ...emptyCounts(), byLevel, byNamespace: {} as Record<string, Counts> };
  for (const b of behaviours) {
    const ns = (summary.byNamespace[b.namespace || '(site)'] ??= emptyCounts());
    for (const c of [summary, (byLevel[b.level] ??= emptyCounts()), ns]) {
      c[b.status] = (c[b.status] ?? 0) + 1;
      c.total++;
    }
  }
  return summary;
}

/** Counts of a results file, also of one written before `error` existed. */
export const countsOf = (c: Partial<Counts> | undefined): Counts => ({ ...emptyCounts(), ...c });
