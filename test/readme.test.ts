/**
 * README.md is a front page: at most 150 lines, the two commands a new user needs first (the full
 * run against the embedded target, and the tests CI runs), and every link it gives leads somewhere
 * (reference material lives in docs/, ARCHITECTURE.md and BENCHMARKS.md, linked from it).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Relative link targets of a Markdown file (no URLs, no pure anchors), with the file they are in. */
function links(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/i.test(l) && !l.startsWith('#')).map((l) => resolve(dirname(file), l.split('#')[0]!));
}

describe('README.md', () => {
  it('is a front page of at most 150 lines that starts with the two commands', () => {
    const lines = readme.split('\n');
    expect(lines.length).toBeLessThanOrEqual(151);
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(firstBlock).toMatch(/^npm install && npm run conformance/m);
    expect(firstBlock).toMatch(/^npm test\b/m);
    expect(readme.indexOf('```sh')).toBeLessThan(lines.slice(0, 15).join('\n').length);
    // .ci/run runs the README's test command.
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toMatch(/^npm test$/m);
  });

  it('every relative link of the README, docs/, ARCHITECTURE.md and BENCHMARKS.md exists', () => {
    const files = ['README.md', 'ARCHITECTURE.md', 'BENCHMARKS.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    // ../shared (the specification) stands beside the clone, not in it.
    const broken = files.flatMap((f) => links(join(ROOT, f)).filter((l) => !l.startsWith(resolve(ROOT, '..', 'shared')) && !existsSync(l)).map((l) => `${f} → ${l}`));
    expect(broken).toEqual([]);
  });
});

describe('the figures of README.md', () => {
  it("are true today: the behaviours of the catalogue, the known deviations of the embedded release", () => {
    const catalogue = readFileSync(join(ROOT, 'conformance/behaviours.yaml'), 'utf8').match(/^- id: /gm)!.length;
    const known = JSON.parse(readFileSync(join(ROOT, 'targets/wordpress/expectations/wordpress-6.5.5.json'), 'utf8')).deviations.length;
    for (const m of readme.matchAll(/\b(\d+) known deviations\b/g)) expect(Number(m[1]), m[0]).toBe(known);
    for (const m of readme.matchAll(/^The (\d+) are WordPress 6\.5\.5's own/gm)) expect(Number(m[1]), m[0]).toBe(known);
    for (const m of readme.matchAll(/^(\d+) behaviours: (\d+) passed, (\d+) failed/gm)) expect(Number(m[1]), m[0]).toBe(catalogue);
  });
});
