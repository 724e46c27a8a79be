import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript, run before any TypeScript can be loaded
import { sourceKey } from '../bin/build.js';

describe('the CLI build (bin/build.js)', () => {
  const root = mkdtempSync(join(tmpdir(), 'cmsc-build-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, 'bin'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{"name":"cms-conformance"}');
  writeFileSync(join(root, 'bin/build.js'), '');
  writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\n');

  it('is the same build while the sources are unchanged, and a new one when one changes', () => {
    const key = sourceKey(root);
    expect(sourceKey(root)).toBe(key);
    utimesSync(join(root, 'src/a.ts'), new Date(), new Date(Date.now() + 5_000));
    const touched = sourceKey(root);
    expect(touched).not.toBe(key);
    writeFileSync(join(root, 'src/b.ts'), 'export const b = 1;\n');
    const added = sourceKey(root);
    expect(added).not.toBe(touched);
    // esbuild reads tsconfig.json too.
    writeFileSync(join(root, 'tsconfig.json'), '{}');
    expect(sourceKey(root)).not.toBe(added);
  });

  it('is a new build for the same sources in another folder (the build names them by path)', () => {
    const moved = `${root}-moved`;
    cpSync(root, moved, { recursive: true, preserveTimestamps: true });
    try {
      expect(sourceKey(moved)).not.toBe(sourceKey(root));
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });
});
