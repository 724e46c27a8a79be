/**
 * The declaration site of a behaviour (src/sdk/declaration-site.ts): the source line of the caller,
 * found once per position in the code as run and then from the thread's cache.
 */
import { describe, expect, it } from 'vitest';
import { siteOfCaller } from '../src/sdk/declaration-site.ts';

function declare(): string | undefined {
  return siteOfCaller(declare);
}
const cache = () => (globalThis as { __cmscDeclarationSites?: Map<string, string> }).__cmscDeclarationSites!;

describe('declaration sites', () => {
  it('name the source line of the caller, the same from the cache at the same position', () => {
    const sites: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) sites.push(declare());
    const other = declare();
    expect(sites[0]).toBe('test/declaration-site.test.ts:16');
    expect(sites).toEqual([sites[0], sites[0], sites[0]]);
    expect(other).toBe('test/declaration-site.test.ts:17');
    // One entry per position: the loop's three calls share one.
    expect([...cache().values()].filter((s) => s.startsWith('test/declaration-site.test.ts:'))).toEqual([sites[0], other]);
  });

  it('a caller that is no source file (node calling a callback) is found deeper, and not cached', async () => {
    const before = cache().size;
    const site = await new Promise<string | undefined>((resolve) => {
      const callback = () => resolve(siteOfCaller(callback));
      setImmediate(callback);
    });
    expect(site).toBe('test/declaration-site.test.ts:28');
    expect(cache().size).toBe(before);
  });
});
