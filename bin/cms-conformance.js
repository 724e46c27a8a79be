#!/usr/bin/env node
// Entry point: load the CLI (bundled from its TypeScript sources: ./build.js), then hand over to it.
import { setFlagsFromString } from 'node:v8';
import { loadCli } from './build.js';

// A smaller young generation for this process and the suite worker threads it starts (unless
// NODE_OPTIONS says otherwise): about 150 MB less peak memory for a full run, no more CPU measured.
if (!/--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? '')) setFlagsFromString('--max-semi-space-size=2');
// The old generation grows by a fifth before the next full collection, not by V8's own factor of up
// to 4 on a machine with this much memory: a full run against the reference server peaked at 436 MB,
// now about 325 MB, for about 0.3 CPU-s more of collection (BENCHMARKS.md).
if (!/--heap-growing-percent/.test(process.env.NODE_OPTIONS ?? '')) setFlagsFromString('--heap-growing-percent=20');

// Vite's native transformer (rolldown) allocates with mimalloc, which by default commits its
// first 1 GiB arena eagerly in huge pages: about 80 MB of resident memory this process never uses.
process.env.MIMALLOC_ARENA_EAGER_COMMIT ??= '0';

// Output piped into a command that stops reading (`cms-conformance list | head`), or whose reader
// went away with a parent that was killed: the rest of the output is dropped quietly, and a run
// still finishes and cleans up after itself.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e) => {
    if (e.code !== 'EPIPE') throw e;
  });

const { main, stopRequested } = await loadCli();
process.exitCode = await main(process.argv.slice(2));
// A run that was stopped (a signal, its parent gone, its target gone) has written its reports and
// stopped its target: it ends now, even if a suite worker given up on still holds the process.
if (stopRequested?.()) setTimeout(() => process.exit(), 500).unref();
