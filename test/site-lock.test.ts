/** src/sdk/worker-state.ts: behaviours of different suite files (threads) never hold one piece of site state at once. */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { acrossFiles } from '../src/sdk/worker-state.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('acrossFiles', () => {
  it('runs holders one at a time, in this thread and in another, and frees the lock when a holder throws', async () => {
    const run = `test-${process.pid}-${Date.now()}`;
    const spans: [number, number][] = [];
    const hold = (ms: number, fail = false) =>
      acrossFiles(run, 'key', async () => {
        const start = performance.now();
        await sleep(ms);
        spans.push([start, performance.now()]);
        if (fail) throw new Error('holder failed');
      });
    // Another thread holds it first (as another suite file's worker would).
    const other = new Worker(
      `const { mkdirSync, rmSync } = require('node:fs'); const { join } = require('node:path'); const { tmpdir } = require('node:os');
       const dir = join(tmpdir(), 'cmsc-lock-${run}-key'); mkdirSync(dir); require('node:worker_threads').parentPort.postMessage('held');
       setTimeout(() => { rmSync(dir, { recursive: true }); process.exit(0); }, 150);`,
      { eval: true },
    );
    await new Promise((r) => other.once('message', r));
    const freed = performance.now() + 100;
    const results = await Promise.allSettled([hold(30, true), hold(30), hold(30)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    spans.sort((a, b) => a[0] - b[0]);
    expect(spans[0]![0]).toBeGreaterThan(freed);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1] - 1);
  });
});
