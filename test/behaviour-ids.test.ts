/**
 * Pins the set of behaviour IDs (with level and spec section): an ID never changes silently.
 * After adding or deliberately changing behaviours: `npx vitest run test/behaviour-ids.test.ts -u`.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';

describe('behaviour IDs', () => {
  it('are unique, well-formed and pinned', async () => {
    const run = await runCli(['list', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { behaviours, errors } = JSON.parse(run.stdout) as { behaviours: { id: string; level: string; spec: string }[]; errors: string[] };
    expect(errors).toEqual([]);
    const ids = behaviours.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9][a-z0-9._<>-]*$/);
    for (const b of behaviours) expect(['SECURITY', 'MUST', 'SHOULD']).toContain(b.level);
    await expect(behaviours.map((b) => `${b.id} ${b.level} ${b.spec}`).join('\n') + '\n').toMatchFileSnapshot('./__snapshots__/behaviour-ids.txt');
  });
});
