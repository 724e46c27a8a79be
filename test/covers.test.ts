/**
 * Coverage is only honest when every `covers` ID of every behaviour names a catalog item: a
 * typo would silently cover nothing. Checked on the declarations (no target needed).
 */
import { describe, expect, it } from 'vitest';
import { catalogItems, resolveCover } from '../results/coverage.ts';
import { listBehaviours } from '../src/engine/list.ts';

describe('covers IDs', () => {
  it('every covers ID of every declared behaviour names at least one catalog item', async () => {
    const { behaviours, errors } = await listBehaviours();
    expect(errors).toEqual([]);
    expect(behaviours.length).toBeGreaterThan(900);
    const items = catalogItems();
    const unknown = new Map<string, string[]>();
    for (const b of behaviours) for (const c of b.covers) if (!resolveCover(c, items).length) unknown.set(c, [...(unknown.get(c) ?? []), b.id]);
    expect(Object.fromEntries(unknown)).toEqual({});
    // The prefix index resolves every covers ID to what a scan of every item finds (issue 28).
    const SEP = new Set(['.', '#', '@', ':']);
    const scan = (cover: string) => items.filter((i) => i.id === cover || (i.id.startsWith(cover) && SEP.has(i.id.charAt(cover.length)))).map((i) => i.id);
    const covers = new Set(behaviours.flatMap((b) => b.covers.filter((c) => !c.startsWith('route:'))));
    for (const c of [...covers, 'arg:cms', 'endpoint', 'arg:cms.posts.after', 'setting:x']) expect(resolveCover(c, items), c).toEqual(scan(c));
  }, 120_000);

  it('a covers ID that names nothing is told apart (the check can fail)', () => {
    const items = catalogItems();
    expect(resolveCover('arg:cms.posts.after', items)).toEqual([]);
    expect(resolveCover('arg:cms.posts.collection.list.after', items).length).toBeGreaterThan(0);
  });
});
