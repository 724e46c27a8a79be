/**
 * checkProperty: boundary examples first, then random values up to --runs; a failure is shrunk,
 * recorded with t.counterexample and replayed last; non-conformance errors stop the property
 * and propagate unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkProperty } from '../../generators/property.ts';
import type { BehaviourContext } from '../../src/sdk/behaviour.ts';
import { ConformanceFailure, TargetError } from '../../src/core/errors.ts';

function fakeContext(runs: number, seed = 42) {
  const recorded: { counterexample?: unknown } = {};
  const t = {
    decl: { id: 'test.property' },
    run: { info: { config: { seed, runs } } },
    counterexample(v: unknown) {
      recorded.counterexample = v;
    },
    fail(message: string): never {
      throw new ConformanceFailure(message);
    },
  } as unknown as BehaviourContext;
  return { t, recorded };
}

describe('checkProperty', () => {
  it('runs the examples first, then random values up to --runs', async () => {
    const { t } = fakeContext(10);
    const seen: number[] = [];
    await checkProperty(t, fc.integer({ min: 100, max: 200 }), async (v) => void seen.push(v), { examples: [1, 2, 3] });
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
    expect(seen).toHaveLength(10);
    expect(seen.slice(3).every((v) => v >= 100 && v <= 200)).toBe(true);
  });

  it('runs every example even when there are more than --runs', async () => {
    const { t } = fakeContext(2);
    const seen: number[] = [];
    await checkProperty(t, fc.integer(), async (v) => void seen.push(v), { examples: [1, 2, 3, 4, 5] });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('shrinks a failure, records it, replays it last and fails with it in the message', async () => {
    const { t, recorded } = fakeContext(50);
    const calls: { v: number; replay: boolean }[] = [];
    const run = checkProperty(
      t,
      fc.integer({ min: 0, max: 1000 }),
      async (v, { replay }) => {
        calls.push({ v, replay });
        if (v >= 37) throw new ConformanceFailure(`value ${v} refused`);
      },
      { examples: [500] },
    );
    await expect(run).rejects.toThrow(/value 37 refused — counterexample 37 \(after \d+ runs and \d+ shrinks; --seed 42\)/);
    expect(recorded.counterexample).toBe(37);
    expect(calls.at(-1)).toEqual({ v: 37, replay: true });
  });

  it('describes the counterexample', async () => {
    const { t, recorded } = fakeContext(5);
    await expect(
      checkProperty(t, fc.constant(1), async () => { throw new ConformanceFailure('no'); }, { describe: (v) => ({ per_page: v }) }),
    ).rejects.toThrow(/counterexample \{"per_page":1\}/);
    expect(recorded.counterexample).toEqual({ per_page: 1 });
  });

  it('a target error stops the property and propagates as is', async () => {
    const { t, recorded } = fakeContext(20);
    let calls = 0;
    const err = new TargetError('no response within 10 ms');
    await expect(
      checkProperty(t, fc.integer(), async () => {
        calls++;
        throw err;
      }),
    ).rejects.toBe(err);
    expect(calls).toBe(1);
    expect(recorded.counterexample).toBeUndefined();
  });

  it('the same seed draws the same values', async () => {
    const draw = async () => {
      const { t } = fakeContext(8, 7);
      const seen: number[] = [];
      await checkProperty(t, fc.integer(), async (v) => void seen.push(v));
      return seen;
    };
    expect(await draw()).toEqual(await draw());
  });

  it('spends at most the shrink budget after the first failure', async () => {
    const { t } = fakeContext(30);
    let after = 0;
    let failed = false;
    await expect(
      checkProperty(
        t,
        fc.array(fc.integer(), { minLength: 1 }),
        async (v) => {
          if (failed) after++;
          if (v.length > 0) {
            failed = true;
            throw new ConformanceFailure('any list fails');
          }
        },
        { shrinkBudget: 5 },
      ),
    ).rejects.toThrow(/any list fails/);
    expect(after).toBeLessThanOrEqual(5 + 1);
  });
});

describe('checkProperty and transient trouble of the target (issue 24)', () => {
  /** A fake client whose log gets one exchange per request the check "sends". */
  function withClient(runs: number) {
    const ctx = fakeContext(runs);
    const client = { requests: 0, log: [] as any[] };
    const send = (status: number) => {
      client.requests++;
      client.log.push({ method: 'GET', route: '/cms/v2/posts', status, responseHeaders: { 'content-type': 'application/json' }, responseText: '{"code":"internal_server_error","message":"x"}' });
    };
    (ctx.t as any).client = client;
    return { ...ctx, send };
  }

  it('a failure that met a 5xx and does not fail again when replayed is checked once more; passing then, the property passes', async () => {
    const { t, recorded, send } = withClient(10);
    let calls = 0;
    await checkProperty(t, fc.integer({ min: 0, max: 100 }), async () => {
      calls++;
      if (calls === 3) {
        send(500);
        throw new ConformanceFailure('server error 500');
      }
      send(200);
    });
    expect(recorded.counterexample).toBeUndefined();
    expect(calls).toBeGreaterThan(10); // the first round, the replay, and a second round
  });

  it('transient again in the second round: an error of the target that says so, never a failure', async () => {
    const { t, send } = withClient(5);
    let calls = 0;
    const run = checkProperty(t, fc.integer({ min: 0, max: 100 }), async (_v, { replay }) => {
      calls++;
      if (!replay && calls % 4 === 2) {
        send(500);
        throw new ConformanceFailure('server error 500');
      }
      send(200);
    });
    await expect(run).rejects.toBeInstanceOf(TargetError);
    await expect(run).rejects.toThrow(/GET \/cms\/v2\/posts answered 500 while checking .* did not fail again when replayed, twice: transient trouble of the target/);
  });

  it('a failure that met no trouble and does not replay is still a failure (flaky behaviour of the application)', async () => {
    const { t, send } = withClient(5);
    let calls = 0;
    const run = checkProperty(t, fc.integer({ min: 0, max: 100 }), async (_v, { replay }) => {
      calls++;
      send(200);
      if (!replay && calls === 2) throw new ConformanceFailure('wrong answer');
    });
    await expect(run).rejects.toThrow(/wrong answer \(did not fail again when replayed\)/);
  });
});
