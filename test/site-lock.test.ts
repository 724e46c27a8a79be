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

describe('acrossFiles, fair and by several keys', () => {
  it('a waiter is served before a holder that asks again at once (no file starves another)', async () => {
    const run = `test-fair-${process.pid}-${Date.now()}`;
    const order: string[] = [];
    // "File" A takes the lock ten times back to back; "file" B asks once, just after A's first turn began.
    const a = (async () => {
      for (let i = 0; i < 10; i++) await acrossFiles(run, 'k', async () => (order.push(`a${i}`), sleep(30)));
    })();
    await sleep(10);
    const b = acrossFiles(run, 'k', async () => order.push('b'));
    await Promise.all([a, b]);
    // B waits for A's turn in progress, and for at most one more of A's (which asked before B's ticket was seen).
    expect(order.indexOf('b')).toBeLessThanOrEqual(2);
    expect(order).toHaveLength(11);
  });

  it('takes several keys in one order: two holders asking for the same keys in opposite orders both finish, never at once', async () => {
    const run = `test-keys-${process.pid}-${Date.now()}`;
    let inside = 0;
    let most = 0;
    const hold = (keys: string[]) =>
      acrossFiles(run, keys, async () => {
        most = Math.max(most, ++inside);
        await sleep(20);
        inside--;
      });
    await Promise.all([hold(['x', 'y']), hold(['y', 'x']), hold(['y']), hold(['x', 'y'])]);
    expect(most).toBe(1);
  });
});
