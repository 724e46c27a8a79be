// The suite worker thread of a fleet engine (src/engine/kept-threads.ts): vitest's own thread worker
// (node_modules/vitest/dist/workers/threads.js, through the documented custom-pool API `vitest/worker`),
// except that when vitest stops it at the end of a run the thread is not done: it waits for the next
// run's "start" (the next site of the fleet), with its dependencies (vitest, fast-check, undici, ajv,
// faker: node_modules) still loaded. The modules of cms-conformance are evaluated afresh for each
// suite file as before (src/engine/module-isolation.ts), so no state passes from one site to the next.
// Plain JavaScript: node loads it as a worker thread's entry point, without a TypeScript loader.
import { parentPort } from 'node:worker_threads';
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';

if (!parentPort) throw new Error('src/engine/kept-worker.mjs runs as a worker thread');
const port = parentPort;

/** One run of vitest on this thread: from its "start" to its "stop". */
function session() {
  const listeners = new Set();
  init({
    post: (response) => port.postMessage(response),
    on: (callback) => {
      listeners.add(callback);
      port.on('message', callback);
    },
    off: (callback) => {
      listeners.delete(callback);
      port.off('message', callback);
    },
    // vitest's "stop" has been answered: the run's listeners go, and the thread waits for the next run.
    teardown: () => {
      for (const callback of listeners) port.off('message', callback);
      listeners.clear();
      session();
    },
    runTests: (state, traces) => runBaseTests('run', state, traces).finally(() => release(state)),
    collectTests: (state, traces) => runBaseTests('collect', state, traces),
    setup: setupEnvironment,
  });
}

/**
 * After a suite file's run, its worker state lets go of the run's data (the provided RunInfo with the
 * site's index, the file list, the task tree of the file): vitest keeps each file's test runner,
 * and with it that state, in a cancel callback for the thread's lifetime (rpc.onCancel), which was
 * nothing while a thread lived for one run only. Measured (heap in use after a full collection, at
 * the start of each run, read-only reference sites): it grew by about 4 MB a site without this; with
 * it, 7 MB before the first site, 27-29 MB before the second, then flat at 32-34 MB from the 4th site
 * to the 14th (src/engine/kept-threads.ts also bounds it by the runs a thread serves).
 */
function release(state) {
  state.ctx = { ...state.ctx, providedContext: {}, files: [] };
  state.providedContext = {};
  state.current = undefined;
}

session();
