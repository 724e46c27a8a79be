import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUITE_AREAS, moduleCache, suiteFiles, workerConcurrency, workerCount } from '../src/engine/suite-files.ts';
import { runCli } from './helpers/cli.ts';

describe('suite workers', () => {
  it('share --concurrency exactly: the shares of all workers add up to it, each at least 1', () => {
    for (let c = 1; c <= 20; c++)
      for (const inProcessTarget of [false, true]) {
        const workers = workerCount(c, { inProcessTarget });
        expect(workers).toBeLessThanOrEqual(c);
        const shares = Array.from({ length: workers }, (_, i) => workerConcurrency(c, workers, i + 1));
        expect(shares.reduce((a, b) => a + b, 0), `--concurrency ${c} over ${workers} workers: ${shares}`).toBe(c);
        expect(Math.min(...shares)).toBeGreaterThanOrEqual(1);
      }
  });
});

describe('the transformed suite files kept on disk', () => {
  it('are kept in .cache/vitest-modules of the package, and not at all where that folder cannot be made', () => {
    const root = mkdtempSync(join(tmpdir(), 'cmsc-module-cache-'));
    try {
      expect(moduleCache(root)).toEqual({ experimental: { fsModuleCache: true, fsModuleCachePath: join(root, '.cache', 'vitest-modules') } });
      const blocked = join(root, 'blocked');
      writeFileSync(blocked, ''); // a file where the .cache folder would be
      expect(moduleCache(join(blocked, 'pkg'))).toEqual({});
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('suite files selected by --only', () => {
  it('narrows to the areas of literal, anchored prefixes and loads everything otherwise', () => {
    expect(suiteFiles(undefined)).toEqual(['suites/**/*.spec.ts']);
    expect(suiteFiles('^cms\\.')).toEqual(['suites/cms/**/*.spec.ts']);
    expect(suiteFiles('^(batch|oembed)\\.')).toEqual(['suites/core/**/*.spec.ts']);
    expect(suiteFiles('^(disc\\.args|cms\\.posts\\.query) ')).toEqual(['suites/cms/**/*.spec.ts', 'suites/discovery/**/*.spec.ts']);
    expect(suiteFiles('^(cms|disc)\\.')).toEqual(['suites/cms/**/*.spec.ts', 'suites/discovery/**/*.spec.ts']);
    for (const p of ['cms\\.', '^cms', '^c.s\\.', '^(cms|.*)\\.', '^cms\\.|batch', '^unknown\\.', '^(cms', '^[a-z]+\\.'])
      expect(suiteFiles(p), p).toEqual(['suites/**/*.spec.ts']);
  });

  it('every behaviour is declared under the folder of its ID prefix', async () => {
    const run = await runCli(['list', '--json']);
    const { behaviours } = JSON.parse(run.stdout) as { behaviours: { id: string; file: string }[] };
    expect(behaviours.length).toBeGreaterThan(500);
    for (const b of behaviours) {
      const area = SUITE_AREAS[b.id.split('.')[0]!];
      expect(area, `${b.id} has an unknown prefix`).toBeDefined();
      expect(b.file.startsWith(`${area}/`), `${b.id} is declared in ${b.file}, outside ${area}`).toBe(true);
    }
  });
});
