import { describe, expect, it } from 'vitest';
import { LockTurns } from '../../suites/extensions/support.ts';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LockTurns (the settings checks take their locks in declaration order)', () => {
  it('queues turns on a shared lock in the order they were taken, not the order they got ready', async () => {
    const turns = new LockTurns();
    const order: string[] = [];
    const run = async (name: string, readyAfterMs: number) => {
      const turn = turns.take();
      try {
        await tick(readyAfterMs); // its shared reads, answered sooner or later
        await turn.lock(['module:stats'], async () => {
          order.push(name);
          await tick(1);
        });
      } finally {
        turn.end();
      }
    };
    await Promise.all([run('roundtrip', 30), run('type', 1), run('module-route', 10)]);
    expect(order).toEqual(['roundtrip', 'type', 'module-route']);
  });

  it('lets the later turns go on when one gives up before locking, and keeps their order', async () => {
    const turns = new LockTurns();
    const order: string[] = [];
    const run = async (name: string, readyAfterMs: number, skips = false) => {
      const turn = turns.take();
      try {
        await tick(readyAfterMs);
        if (skips) throw new Error('skipped');
        await turn.lock(['setting:x'], async () => void order.push(name));
      } finally {
        turn.end();
      }
    };
    const results = await Promise.allSettled([run('a', 20), run('b', 1, true), run('c', 5)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(order).toEqual(['a', 'c']);
  });

  it('does not hold back turns on other locks longer than the earlier turns take to queue', async () => {
    const turns = new LockTurns();
    const order: string[] = [];
    let releaseA!: () => void;
    const held = new Promise<void>((r) => (releaseA = r));
    const a = (async () => {
      const turn = turns.take();
      await turn.lock(['module:a'], () => held.then(() => void order.push('a')));
    })();
    const b = (async () => {
      const turn = turns.take();
      await turn.lock(['module:b'], async () => void order.push('b'));
    })();
    await b;
    expect(order).toEqual(['b']);
    releaseA();
    await a;
    expect(order).toEqual(['b', 'a']);
  });
});
