/**
 * A vitest pool (the documented custom-pool API: `pool: { name, createPoolWorker }`) of worker
 * threads kept across the runs of one engine: a fleet shard runs site after site on one engine
 * (src/engine/suite-engine.ts, SuiteEngine), and vitest's own `threads` pool terminates its threads at the end
 * of every run, so every site paid a thread's start and the evaluation of every dependency again
 * (vitest, fast-check, undici, ajv, faker ...). Here a thread that vitest stops cleanly (its "stop"
 * answered by the worker) is parked, and the next run's worker takes it (src/engine/kept-worker.mjs waits
 * for the next "start"). The modules of cms-conformance are still evaluated afresh for each suite
 * file (src/engine/module-isolation.ts), and what a worker keeps for a run is keyed by the run's id
 * (src/sdk/worker-state.ts): nothing passes from one site to the next.
 *
 * A thread is not kept when its stop was forced (a cancelled run given up on), when it answered
 * the stop with an error, when it exited, after a run that was cancelled (retire()), or after
 * MAX_RUNS_PER_THREAD runs (whatever a run leaves behind in vitest's own worker state is bounded).
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';
import { PKG_ROOT } from '../core/paths.ts';

export const KEPT_POOL_NAME = 'cmsc-kept-threads';
/** A kept thread serves at most this many runs (sites), then a new thread takes over. */
export const MAX_RUNS_PER_THREAD = 25;
const ENTRY = join(PKG_ROOT, 'src/engine/kept-worker.mjs');

interface Parked {
  thread: Worker;
  runs: number;
}

export class KeptThreads {
  private parked: Parked[] = [];
  private live = new Set<Worker>();
  private closed = false;
  /** Bumped by retire(): threads of an earlier generation are not kept. */
  private generation = 0;
  /** Threads started, and runs that took a parked thread (for the tests and the bench). */
  readonly stats = { started: 0, reused: 0 };

  /** The pool to give vitest (`pool:`). */
  readonly initializer: PoolRunnerInitializer = {
    name: KEPT_POOL_NAME,
    createPoolWorker: (options: PoolOptions) => new KeptThreadWorker(this, options),
  };

  /** A parked thread, if any. */
  take(): Parked | undefined {
    while (!this.closed && this.parked.length) {
      const p = this.parked.pop()!;
      if (p.thread.threadId !== -1) return p; // (-1: the thread has exited while parked)
      this.live.delete(p.thread);
    }
    return undefined;
  }

  started(thread: Worker): void {
    this.live.add(thread);
  }

  /** Keep `thread` for the next run, or say no (the caller terminates it). */
  park(thread: Worker, runs: number, generation: number): boolean {
    if (this.closed || generation !== this.generation || runs >= MAX_RUNS_PER_THREAD) return false;
    thread.unref(); // a parked thread never holds the process open
    this.parked.push({ thread, runs });
    return true;
  }

  get currentGeneration(): number {
    return this.generation;
  }

  /** The threads now running are not kept after their run (a run was cancelled); parked ones end. */
  retire(): Promise<void> {
    this.generation++;
    return this.endParked();
  }

  forget(thread: Worker): void {
    this.live.delete(thread);
  }

  private async endParked(): Promise<void> {
    const parked = this.parked.splice(0);
    await Promise.all(parked.map((p) => p.thread.terminate().catch(() => undefined)));
    for (const p of parked) this.live.delete(p.thread);
  }

  /** After vitest has closed: every thread still here ends. */
  async close(): Promise<void> {
    this.closed = true;
    await this.endParked();
    await Promise.all([...this.live].map((t) => t.terminate().catch(() => undefined)));
    this.live.clear();
  }
}

/** vitest's ThreadsPoolWorker (node_modules/vitest/dist/chunks/cli-api.*.js), with a thread that may outlive it. */
class KeptThreadWorker implements PoolWorker {
  readonly name = KEPT_POOL_NAME;
  private thread?: Worker;
  private runs = 0;
  private generation = 0;
  /** The worker answered this run's "stop" without an error. */
  private stoppedCleanly = false;
  private exited = false;
  /** Listeners vitest added to the thread: removed when the thread is parked (a parked thread keeps no runner of the past). */
  private listeners: [string, (arg: any) => void][] = [];
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WritableStream;

  constructor(
    private readonly pool: KeptThreads,
    private readonly options: PoolOptions,
  ) {
    this.stdout = options.project.vitest.logger.outputStream as NodeJS.WritableStream;
    this.stderr = options.project.vitest.logger.errorStream as NodeJS.WritableStream;
  }

  private watch = (message: any) => {
    if (message?.__vitest_worker_response__ === true && message.type === 'stopped') this.stoppedCleanly = !message.error;
  };
  private onExit = () => {
    this.exited = true;
  };

  async start(): Promise<void> {
    if (this.thread) return;
    const parked = this.pool.take();
    if (parked) {
      this.thread = parked.thread;
      this.runs = parked.runs;
      this.thread.ref();
      this.pool.stats.reused++;
    } else {
      this.thread = new Worker(ENTRY, { env: this.options.env, execArgv: this.options.execArgv, stdout: true, stderr: true });
      this.pool.started(this.thread);
      this.pool.stats.started++;
    }
    this.generation = this.pool.currentGeneration;
    this.runs++;
    this.stoppedCleanly = false;
    this.thread.on('message', this.watch);
    this.thread.on('exit', this.onExit);
    adjustMaxListeners(this.stdout, 1);
    this.thread.stdout.pipe(this.stdout);
    adjustMaxListeners(this.stderr, 1);
    this.thread.stderr.pipe(this.stderr);
  }

  async stop(): Promise<void> {
    const thread = this.thread;
    if (!thread) return;
    this.thread = undefined;
    thread.stdout.unpipe(this.stdout);
    adjustMaxListeners(this.stdout, -1);
    thread.stderr.unpipe(this.stderr);
    adjustMaxListeners(this.stderr, -1);
    thread.off('message', this.watch);
    thread.off('exit', this.onExit);
    for (const [event, callback] of this.listeners.splice(0)) thread.off(event, callback);
    if (this.stoppedCleanly && !this.exited && this.pool.park(thread, this.runs, this.generation)) return;
    this.pool.forget(thread);
    await thread.terminate();
  }

  on(event: string, callback: (arg: any) => void): void {
    this.listeners.push([event, callback]);
    this.current.on(event, callback);
  }

  off(event: string, callback: (arg: any) => void): void {
    const i = this.listeners.findIndex(([e, c]) => e === event && c === callback);
    if (i >= 0) this.listeners.splice(i, 1);
    this.current.off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.current.postMessage(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  private get current(): Worker {
    if (!this.thread) throw new Error('the suite worker thread was stopped or never started');
    return this.thread;
  }
}

function adjustMaxListeners(stream: NodeJS.WritableStream, by: number): void {
  const s = stream as NodeJS.WritableStream & { getMaxListeners?: () => number; setMaxListeners?: (n: number) => void };
  if (s.getMaxListeners && s.setMaxListeners) s.setMaxListeners(Math.max(0, s.getMaxListeners() + by));
}
