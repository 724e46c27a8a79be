/**
 * When a run must stop before it is done, how it learns so, and what the stop sets going
 * (RunStop): a signal (SIGINT, SIGTERM, SIGHUP), the parent npm going away without passing its
 * signal on (`npm run conformance` killed with SIGTERM kills the `sh` between them, not this
 * process), or a target that stops answering for good (every request refused or unanswered for
 * --unreachable-after). The run is cancelled, its cleanup hooks and the sweep by tag delete what
 * they still can, and the reports are written with what the run has, marked incomplete.
 */
import { readFileSync } from 'node:fs';
import type { RunConfig } from '../core/config.ts';
import type { Reporter, TestCase } from 'vitest/node';
import type { Incomplete } from '../../results/results.ts';
import { SIGNAL_EXIT_CODES, type StopSignal } from '../../results/verdict.ts';
import { failureKindOfCase } from '../engine/collect.ts';

/** What stops a run (results.json `incomplete` holds it with the count of behaviours not run). */
export type StopCause = Omit<Incomplete, 'notRun'>;

export const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
export type { StopSignal };

/** The exit code of a process ended by a signal, as shells report it: 128 + the signal's number (130 SIGINT, 143 SIGTERM, 129 SIGHUP). */
export const signalExitCode = (s: StopSignal): number => SIGNAL_EXIT_CODES[s];

/** After a stop, how long the cleanup hooks of the running suite files may take before the run is given up (the sweep by tag then deletes what it can). */
export const STOP_GRACE_MS = 4000;
/** --unreachable-after by default. */
export const DEFAULT_UNREACHABLE_AFTER_MS = 30_000;

let requested = false;
/** A stop was asked in this process (bin/cms-conformance.js then exits even if a stuck handle would keep it alive). */
export const stopRequested = () => requested;
export const markStopRequested = () => void (requested = true);

// ---------------------------------------------------------------- the parent going away

let gone: string | undefined;
/** Set once the parent went away (watchParent): the SIGTERM that follows says so. */
export const parentGone = () => gone;

/** State letter and parent of a process (Linux /proc), or undefined when it is gone. */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

const alive = (pid: number) => {
  const s = procStat(pid);
  return s !== undefined && s.state !== 'Z';
};

/** The nearest ancestor (up to 3 levels: npm -> sh -> node) that runs npm or npx, on Linux. */
function npmAncestor(): number | undefined {
  let pid = process.ppid;
  for (let i = 0; i < 3 && pid > 1; i++) {
    if (/(^|[/\s])(npm|npx)(-cli\.js|\.js)?(\s|$)/.test(cmdline(pid))) return pid;
    pid = procStat(pid)?.ppid ?? 0;
  }
  return undefined;
}

/** Until SIGINT or SIGTERM reaches `signals`: what a server the CLI serves waits for (Ctrl+C). */
export function untilInterrupted(signals: NodeJS.EventEmitter): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      signals.off('SIGINT', stop);
      signals.off('SIGTERM', stop);
      resolve();
    };
    signals.on('SIGINT', stop);
    signals.on('SIGTERM', stop);
  });
}

/**
 * When this process runs under an npm script (`npm run conformance`: npm -> sh -> node), npm
 * killed with SIGTERM does not pass the signal on; its `sh` dies and this process would go on as an
 * orphan. So, every half second: has the parent changed (this process was re-parented) or has the
 * npm above it gone? Then `onGone` (the CLI raises SIGTERM on itself: the same stop as a signal).
 * Outside npm a parent that exits is not a reason to stop (`nohup … &`); CMSC_WATCH_PARENT=1
 * watches the parent anyway, CMSC_WATCH_PARENT=0 never.
 */
export function watchParent(onGone: (what: string) => void, intervalMs = 500): () => void {
  const env = process.env.CMSC_WATCH_PARENT;
  const underNpm = Boolean(process.env.npm_lifecycle_event || process.env.npm_command);
  if (env === '0' || (!underNpm && env !== '1') || process.platform === 'win32') return () => undefined;
  const parent = process.ppid;
  if (parent <= 1) return () => undefined;
  const npm = underNpm ? npmAncestor() : undefined;
  const timer = setInterval(() => {
    const reparented = process.ppid !== parent;
    if (!reparented && !(npm !== undefined && !alive(npm))) return;
    clearInterval(timer);
    gone = npm !== undefined ? `the parent npm (pid ${npm}) went away` : `the parent process (pid ${parent}) went away`;
    onGone(npm !== undefined ? `the parent npm (pid ${npm}) went away` : `the parent process (pid ${parent}) went away`);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

// ---------------------------------------------------------------- a target that stops answering

/** A request that got no answer at all: refused, reset, unreachable, not resolved, timed out. */
export const NO_ANSWER = /\b(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT|UND_ERR_CLOSED)\b|no response within/;

/**
 * Watches the behaviours as they end (in the CLI's process, from what the suite workers report):
 * a behaviour that ended because a request got no answer (NO_ANSWER) marks the target as down
 * since then, unless one since got an answer (a behaviour that sent requests and did not end on
 * such an error). Down for `afterMs` with no answer: `onDown`, once. Behaviours that send no
 * request (checks of the index read at the start) tell nothing either way.
 */
export class TargetWatch implements Reporter {
  private downSince?: number;
  private lastError = '';
  private fired = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly afterMs: number,
    private readonly onDown: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Look every `everyMs` (the behaviours may stop ending at all while the target is down). */
  start(everyMs = 500): void {
    this.timer ??= setInterval(() => this.check(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  onTestCaseResult(tc: TestCase): void {
    const r = tc.result();
    if (r.state !== 'passed' && r.state !== 'failed') return;
    const meta = tc.meta().behaviour;
    const message = r.state === 'failed' ? String(r.errors?.[0]?.message ?? '') : '';
    const kind = r.state === 'failed' ? failureKindOfCase(tc) : undefined;
    if (kind === 'target' && NO_ANSWER.test(message)) this.down(message, meta?.id);
    else if ((meta?.requests ?? 0) > 0) this.answered();
  }

  down(message: string, behaviour?: string): void {
    this.downSince ??= this.now();
    const code = NO_ANSWER.exec(message)?.[0] ?? 'no answer';
    this.lastError = `${code}${behaviour ? ` in ${behaviour}` : ''}`;
    this.check();
  }

  answered(): void {
    this.downSince = undefined;
  }

  check(): void {
    if (this.fired || this.downSince === undefined || this.afterMs <= 0) return;
    const down = this.now() - this.downSince;
    if (down < this.afterMs) return;
    this.fired = true;
    this.stop();
    this.onDown(`the target answered no request for ${Math.round(down / 1000)} s (since ${new Date(Date.now() - down).toISOString()}; the last: ${this.lastError})`);
  }
}

// ---------------------------------------------------------------- a run's stop

/**
 * The stop of one run: asked for once (a signal when the run owns the process, or the target gone
 * for good), it tells every phase that registered (onStop: the header is marked incomplete, the
 * engine cancels the run, the sweep by tag starts at once) and, STOP_GRACE_MS later, gives up on
 * the cleanup hooks of the running suite files (gaveUp). A second signal exits at once.
 */
export class RunStop {
  /** Why the run stopped, once it did. */
  cause?: StopCause;
  /** Sees each behaviour end, to tell when the target stopped answering (undefined with --unreachable-after 0). */
  readonly watch?: TargetWatch;
  /** Settles (with undefined) STOP_GRACE_MS after the stop. */
  readonly gaveUp: Promise<undefined>;
  private giveUp!: () => void;
  private graceTimer?: NodeJS.Timeout;
  private readonly listeners = new Set<(cause: StopCause) => void>();
  private readonly onSignal = (sig: StopSignal) => {
    if (this.cause) {
      this.log(`${sig} again: exiting now, without waiting for the cleanup`);
      process.exit(signalExitCode(sig));
    }
    const gone = parentGone();
    this.request({ reason: 'signal', signal: sig, message: gone ? `${gone} (taken as ${sig})` : `stopped by ${sig}`, at: new Date().toISOString() }, `${sig}${gone ? ` (${gone})` : ''}`);
  };

  /** `signals`: the run owns the process (a fleet's sites leave the signals to the fleet: src/fleet/fleet.ts). */
  constructor(
    private readonly log: (line: string) => void,
    cfg: Pick<RunConfig, 'unreachableAfterMs'>,
    private readonly signals: boolean,
  ) {
    this.gaveUp = new Promise<undefined>((r) => (this.giveUp = () => r(undefined)));
    if (signals) for (const sig of STOP_SIGNALS) process.on(sig, this.onSignal);
    if (cfg.unreachableAfterMs !== 0)
      this.watch = new TargetWatch(cfg.unreachableAfterMs ?? DEFAULT_UNREACHABLE_AFTER_MS, (message) =>
        this.request({ reason: 'target-unreachable', message, at: new Date().toISOString() }, message),
      );
  }

  /** Call `fn` when the run is stopped (at once when it is already); returns what unregisters it. */
  onStop(fn: (cause: StopCause) => void): () => void {
    if (this.cause) fn(this.cause);
    else this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  request(cause: StopCause, what: string): void {
    if (this.cause) return;
    this.cause = cause;
    markStopRequested();
    for (const fn of this.listeners) fn(cause);
    this.log(`\n${what}: stopping (cleanup runs first) ...`);
    this.graceTimer = setTimeout(this.giveUp, STOP_GRACE_MS);
  }

  /** The suites have ended (or been given up on): no more watching, no grace to wait out. */
  settle(): void {
    this.watch?.stop();
    clearTimeout(this.graceTimer);
    this.listeners.clear();
  }

  /** The run is over: its signal handlers go. */
  dispose(): void {
    this.settle();
    if (this.signals) for (const sig of STOP_SIGNALS) process.off(sig, this.onSignal);
  }
}
