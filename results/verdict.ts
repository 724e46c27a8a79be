/**
 * The verdict rules, each written once: the levels and which of them gate (`--fail-on`), the
 * status scale of a behaviour and its rank, the kind of a failure, and the exit-code table (the
 * numbers and what each means: the CLI's help prints them from here). results.ts re-exports them.
 */

// ---------------------------------------------------------------- levels and what gates

/**
 * SECURITY: who may do what (part 5 says which routes need authentication is not shown, so
 * these expectations are their own class, reported first and gating by default);
 * MUST: what the spec states; SHOULD: what the reference implementation does where the spec
 * is silent; CLIENT: what a named real client of the interface relies on (results/clients.ts),
 * whatever the spec says of it: a client's readiness, never a conformance failure, gating only
 * when asked (`--fail-on client`, `--fail-on-client <clients>`).
 */
export type Level = 'SECURITY' | 'MUST' | 'SHOULD' | 'CLIENT';
/** In the order reports show them. */
export const LEVELS: readonly Level[] = ['SECURITY', 'MUST', 'SHOULD', 'CLIENT'];
/** The levels of conformance to the documents (CLIENT is the readiness of named clients). */
export const CONFORMANCE_LEVELS: readonly Level[] = ['SECURITY', 'MUST', 'SHOULD'];

/** `--fail-on`: the least severe level of conformance that gates the exit code (each level gates with every more severe one). */
export type FailOn = 'security' | 'must' | 'should';
export const FAIL_ON: readonly FailOn[] = ['security', 'must', 'should'];
/** The conformance levels `--fail-on` gates on (never CLIENT: the clients that gate are asked for apart, FailOnClients). */
export function gatingLevels(failOn: FailOn): Level[] {
  return CONFORMANCE_LEVELS.slice(0, CONFORMANCE_LEVELS.indexOf(failOn.toUpperCase() as Level) + 1);
}

/**
 * The clients whose readiness gates the exit code (`--fail-on client`: every client, `'*'`;
 * `--fail-on-client wpapi,api-fetch`: those): a failed CLIENT behaviour gates when one of the
 * clients that rely on it is listed. Empty or absent: CLIENT findings never gate.
 */
export type FailOnClients = readonly string[];
/** The clients that gate as a run's configuration (results.json `config.failOnClient`) records them. */
export function clientsOfConfig(config: Record<string, unknown> | undefined): FailOnClients | undefined {
  const c = config?.failOnClient;
  return Array.isArray(c) ? c.filter((x): x is string => typeof x === 'string') : undefined;
}
/** A behaviour's clients, as far as gating looks at them (results/clients.ts ClientReliance). */
export type ReliedOnBy = { client?: { reliedOnBy?: readonly { client: string }[] } };
function gatesForClients(b: ReliedOnBy, clients: FailOnClients | undefined): boolean {
  if (!clients?.length) return false;
  return clients.includes('*') || (b.client?.reliedOnBy ?? []).some((r) => clients.includes(r.client));
}

// ---------------------------------------------------------------- statuses and failure kinds

/**
 * passed: the documented behaviour holds; failed: it does not (a conformance failure);
 * skipped: not checked, always with its reason (e.g. `depends on <ID>, which failed: …`);
 * error: the check could not be made: the target did not answer usably (failureKind "target")
 * or cms-conformance broke (failureKind "harness"). An error is never a conformance failure
 * and never gates as one.
 */
export type Status = 'passed' | 'failed' | 'skipped' | 'error';
export const STATUSES: readonly Status[] = ['passed', 'failed', 'skipped', 'error'];
/**
 * When one behaviour has several results (shards of a run, repeated runs), the merged status is
 * the highest of them: skipped < passed < failed < error.
 */
export const STATUS_RANK: Record<Status, number> = { skipped: 0, passed: 1, failed: 2, error: 3 };
export const worstStatus = (a: Status, b: Status): Status => (STATUS_RANK[a] >= STATUS_RANK[b] ? a : b);

/**
 * conformance: the server does not do what is documented; target: it did not answer usably;
 * harness: a bug in cms-conformance. Decided where the failure happens, from the error's type
 * (src/http/failure-kind.ts), and carried as it is to the results: never read back from a message.
 */
export type FailureKind = 'conformance' | 'target' | 'harness';

/** The status of a check that ended in a failure of this kind: only a conformance failure fails; the others are errors. */
export const statusOfFailure = (kind: FailureKind): 'failed' | 'error' => (kind === 'conformance' ? 'failed' : 'error');

// ---------------------------------------------------------------- exit codes

/** The exit codes of the CLI. */
export const EXIT = {
  /** Nothing gating failed and every check that ran could be made. */
  ok: 0,
  /** What the command checks failed: a behaviour of a gating level that the baseline does not list (run), a fault the suite missed (selftest), a suite file that does not load (list, openapi). */
  failed: 1,
  /** A usage or configuration error, found before anything runs. */
  usage: 2,
  /** The target did not answer usably, or cannot be reached or booted. */
  unreachable: 3,
  /** A bug in cms-conformance. */
  internal: 4,
} as const;

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
/** The exit code of a process a signal ended, as shells report it: 128 + the signal's number. */
export const SIGNAL_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/** What each exit code of `run` means, in the order the help lists them. */
export const EXIT_CODE_MEANINGS: readonly (readonly [code: number, meaning: string])[] = [
  [EXIT.ok, 'no behaviour of a gating level failed (SECURITY and MUST; with --fail-on should also SHOULD; CLIENT readiness only with --fail-on client or --fail-on-client) apart from failures listed in --baseline, and every check that ran could be made (skips name their reason and do not count)'],
  [EXIT.failed, 'a behaviour of a gating level failed that the baseline does not list'],
  [EXIT.usage, 'usage or configuration error, found before anything runs (a bad flag, an --only that selects no behaviour, an unreadable --baseline)'],
  [EXIT.unreachable, 'nothing gating failed, but some checks could not be made because the target did not answer usably; or the target cannot be reached (the embedded target cannot boot)'],
  [EXIT.internal, 'nothing gating failed, but a check could not be made because of a bug in cms-conformance (rerun with CMSC_DEBUG=1 for details)'],
  [SIGNAL_EXIT_CODES.SIGINT, 'stopped by SIGINT before its end: the reports hold what ended, marked incomplete (so do 143 and 129; a target that stops answering ends a run with 3: --unreachable-after)'],
  [SIGNAL_EXIT_CODES.SIGTERM, 'stopped by SIGTERM, or its parent npm went away'],
  [SIGNAL_EXIT_CODES.SIGHUP, 'stopped by SIGHUP'],
];

/** What the exit code looks at of a behaviour's result. */
export interface Judged extends ReliedOnBy {
  id: string;
  level: Level;
  status: Status;
  failureKind?: FailureKind;
  reason?: string;
}

/** What the exit code looks at of a run's results. */
export interface JudgedRun {
  behaviours: readonly Judged[];
  /** The failures a baseline lists (they do not gate). */
  baseline?: { known: readonly { id: string }[] };
  errors: readonly { message: string; file?: string; kind?: FailureKind }[];
  incomplete?: { reason: 'signal' | 'target-unreachable'; signal?: StopSignal };
  /** The run's configuration (results.json `config`): `failOnClient` gates CLIENT findings when no clients are passed. */
  config?: Record<string, unknown>;
}

/**
 * Failures that gate the exit code: of a gating level (or, for CLIENT, relied on by a client that
 * gates: FailOnClients) and not listed in the baseline (if any).
 */
export function gatingFailures<B extends Pick<Judged, 'id' | 'level' | 'status' | 'client'>>(
  results: { behaviours: readonly B[]; baseline?: { known: readonly { id: string }[] }; config?: Record<string, unknown> },
  failOn: FailOn,
  clients: FailOnClients | undefined = clientsOfConfig(results.config),
): B[] {
  const known = new Set((results.baseline?.known ?? []).map((k) => k.id));
  const levels = new Set(gatingLevels(failOn));
  const gates = (b: B) => (b.level === 'CLIENT' ? gatesForClients(b, clients) : levels.has(b.level));
  return results.behaviours.filter((b) => b.status === 'failed' && gates(b) && !known.has(b.id));
}

/**
 * Behaviours and load problems that could not be checked because cms-conformance broke
 * (a harness bug), as opposed to the target's trouble.
 */
export function harnessErrors(results: Pick<JudgedRun, 'behaviours' | 'errors'>): string[] {
  return [
    ...results.behaviours.filter((b) => b.status === 'error' && b.failureKind === 'harness').map((b) => `${b.id}: ${b.reason ?? ''}`),
    ...results.errors.filter((e) => e.kind !== 'target').map((e) => `${e.file ? `${e.file}: ` : ''}${e.message}`),
  ];
}

/**
 * Exit code of a run: 1 when a gating behaviour failed (not in the baseline). Errors never gate
 * as failures; without a gating failure, a harness error gives 4 and target trouble 3, so that
 * CI tells "the target deviates" from "the check could not be made".
 */
export function exitCodeFor(results: JudgedRun, failOn: FailOn, clients?: FailOnClients): number {
  if (gatingFailures(results, failOn, clients).length > 0) return EXIT.failed;
  // The target stopped answering for good: what could not be checked is its trouble, not ours.
  if (results.incomplete?.reason === 'target-unreachable') return EXIT.unreachable;
  if (harnessErrors(results).length > 0) return EXIT.internal;
  if (results.behaviours.some((b) => b.status === 'error') || results.errors.length > 0) return EXIT.unreachable;
  return EXIT.ok;
}

/**
 * The exit code the CLI ends a run with: 128 + the signal's number (130 SIGINT, 143 SIGTERM, 129
 * SIGHUP) for a run a signal stopped before its end (or whose parent npm went away: SIGTERM), else exitCodeFor.
 */
export function runExitCode(results: JudgedRun, failOn: FailOn, clients?: FailOnClients): number {
  const i = results.incomplete;
  return i?.reason === 'signal' && i.signal ? SIGNAL_EXIT_CODES[i.signal] : exitCodeFor(results, failOn, clients);
}

/** The exit code of many runs (the sites of a fleet): a gating failure first, then a harness bug, a configuration problem, an unreachable target. */
export function combineExitCodes(codes: Iterable<number>): number {
  const set = new Set(codes);
  for (const c of [EXIT.failed, EXIT.internal, EXIT.usage, EXIT.unreachable]) if (set.has(c)) return c;
  return EXIT.ok;
}

/** The exit code of an error that ended a command: its own (a usage error, an unreachable target), else a bug in cms-conformance. */
export function exitCodeOfError(e: unknown): number {
  const code = (e as { exitCode?: unknown })?.exitCode;
  return typeof code === 'number' ? code : EXIT.internal;
}

/**
 * What a level rests on, as every report says it beside a behaviour: a SHOULD is never the spec's
 * word but a WordPress convention where the spec is silent, and never contradicts the spec.
 */
export const LEVEL_BASIS: Readonly<Record<Level, string>> = Object.freeze({
  SECURITY: 'who may read or write without credentials; the specification does not state it: taken from the reference implementation (WordPress)',
  MUST: 'stated by the specification',
  SHOULD: 'a WordPress convention the specification does not state',
  CLIENT: 'what a named real client relies on (its code is cited), whatever the specification says of it: readiness, not conformance',
});
