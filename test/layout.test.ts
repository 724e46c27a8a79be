/**
 * The layout ARCHITECTURE.md describes, held against the code's own imports:
 * - each top folder imports only from the folders ARCHITECTURE.md puts under it (data flows one way:
 *   catalog → suites → results → reporters; no arrow runs back up);
 * - inside src/, each role folder imports only from the folders under it (SRC_MAY_IMPORT), and
 *   suites/ and generators/ come into src/ through src/sdk/ alone;
 * - no import cycle between files (static imports and dynamic `import()` of relative paths);
 * - no source file over 400 lines, but for those listed here with the reason they are long (none
 *   in src/), and no src/ folder of more than 12 files.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.ts';

/** What each folder may import (besides itself). `test/` may import anything. */
const MAY_IMPORT: Record<string, string[]> = {
  schemas: [],
  results: ['schemas'],
  reporters: ['schemas', 'results'],
  faults: ['schemas'],
  targets: ['schemas'],
  src: ['schemas', 'results', 'reporters', 'faults', 'targets'],
  generators: ['schemas', 'src'],
  suites: ['schemas', 'results', 'src', 'generators'],
  conformance: ['schemas', 'results', 'faults', 'src'],
  bench: ['schemas', 'results', 'reporters', 'faults', 'targets', 'src'],
};

/**
 * The role folders of src/, ground floor first, and what each may import of src/ besides itself
 * (ARCHITECTURE.md, "Layout", draws the same table).
 */
const SRC_MAY_IMPORT: Record<string, string[]> = {
  core: [],
  openapi: ['core'],
  http: ['core'],
  engine: ['core', 'http'],
  sdk: ['core', 'http', 'engine'],
  run: ['core', 'http', 'engine', 'sdk'],
  fleet: ['core', 'http', 'engine', 'sdk', 'run'],
  proof: ['core', 'http', 'engine', 'sdk', 'run'],
  cli: ['core', 'openapi', 'http', 'engine', 'sdk', 'run', 'fleet', 'proof'],
};
/** The one folder of src/ that suites/ and generators/ may import. */
const SDK = 'sdk';
const SRC_MAX_FILES = 12;

/** Source files allowed over 400 lines, and why. */
const LONG_FILES: Record<string, string> = {
  'schemas/catalog/core.ts': 'the core document as data, one table per part, in the order of the document',
  'schemas/catalog/extensions.ts': 'the extension document as data, one table per part, in the order of the document',
  'suites/cms/lib/model-commands.ts': 'the command set of the model-based test (one small class per documented write), read as one',
  'suites/cms/lib/model.ts': 'the model of part 3 (states, trash, filters) the commands are checked against, read as one',
  'targets/reference/suite.ts': 'the suite/v4 namespace of the reference server (settings, modules, parameters) as Jetpack answers it',
  'targets/reference/validate.ts': "a port of WordPress's rest_validate/sanitize_value_from_schema, kept in the order of rest-api.php",
};

const FOLDERS = Object.keys(MAY_IMPORT);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|mjs)$/.test(e.name)) out.push(rel);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), (m[1] ?? m[2])!)));
}

describe('the layout', () => {
  const files = [...FOLDERS, 'test'].flatMap(sources);
  const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(join(ROOT, f), 'utf8')).filter((t) => files.includes(t))]));

  it('has no import running back up', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = file.split('/')[0]!;
      if (from === 'test') continue;
      for (const t of targets) {
        const to = t.split('/')[0]!;
        if (to !== from && !MAY_IMPORT[from]!.includes(to)) wrong.push(`${file} imports ${t}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].join(' -> '));
        return;
      }
      state.set(f, 'open');
      for (const t of graph.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of graph.keys()) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it('has no source file over 400 lines without a reason', () => {
    const long = files
      .filter((f) => !f.startsWith('test/'))
      .filter((f) => readFileSync(join(ROOT, f), 'utf8').split('\n').length > 401 && !(f in LONG_FILES))
      .map((f) => relative('.', f));
    expect(long, 'split the file, or give the reason it is long in LONG_FILES').toEqual([]);
    const stale = Object.keys(LONG_FILES).filter((f) => !existsSync(join(ROOT, f)) || readFileSync(join(ROOT, f), 'utf8').split('\n').length <= 401);
    expect(stale, 'LONG_FILES names files that are no longer long: remove them').toEqual([]);
  });

  describe('src/', () => {
    const srcFolder = (f: string) => (f.startsWith('src/') ? f.split('/')[1]! : undefined);

    it('has role folders that import only the folders under them', () => {
      expect(Object.keys(SRC_MAY_IMPORT).sort()).toEqual(readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort());
      const wrong: string[] = [];
      for (const [file, targets] of graph) {
        const from = srcFolder(file);
        if (!from) continue;
        for (const t of targets) {
          const to = srcFolder(t);
          if (to && to !== from && !SRC_MAY_IMPORT[from]!.includes(to)) wrong.push(`${file} imports ${t}`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it('is entered from suites/ and generators/ through src/sdk/ alone', () => {
      const wrong: string[] = [];
      for (const [file, targets] of graph)
        if (file.startsWith('suites/') || file.startsWith('generators/'))
          for (const t of targets) if (srcFolder(t) && srcFolder(t) !== SDK) wrong.push(`${file} imports ${t}`);
      expect(wrong).toEqual([]);
    });

    it(`has no folder of more than ${SRC_MAX_FILES} files and no file over 400 lines`, () => {
      const counts = new Map<string, number>();
      for (const f of sources('src')) counts.set(dirname(f), (counts.get(dirname(f)) ?? 0) + 1);
      expect([...counts].filter(([, n]) => n > SRC_MAX_FILES).map(([d, n]) => `${d}: ${n} files`)).toEqual([]);
      const long = sources('src').filter((f) => readFileSync(join(ROOT, f), 'utf8').split('\n').length > 401);
      expect(long).toEqual([]);
    });
  });
});
