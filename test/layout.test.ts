/**
 * The layout the README describes, held against the code's own imports:
 * - each top folder imports only from the folders the README puts under it (data flows one way:
 *   catalog → suites → results → reporters; no arrow runs back up);
 * - no import cycle between files (static imports and dynamic `import()` of relative paths);
 * - no source file over 400 lines, but for those listed here with the reason they are long.
 */
import { readFileSync, readdirSync } from 'node:fs';
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

/** Source files allowed over 400 lines, and why. */
const LONG_FILES: Record<string, string> = {
  'schemas/catalog/core.ts': 'the core document as data, one table per part, in the order of the document',
  'schemas/catalog/extensions.ts': 'the extension document as data, one table per part, in the order of the document',
  'src/run/runner.ts': 'one run from target preparation to results.json (vitest Node API); the speed work of issue 16 is reshaping it',
  'suites/cms/lib/model-commands.ts': 'the command set of the model-based test (one small class per documented write), read as one',
  'suites/cms/lib/model.ts': 'the model of part 3 (states, trash, filters) the commands are checked against, read as one',
  'suites/cms/lib/filters.ts': 'one check per documented collection filter, over one shared set of fixtures',
  'suites/cms/lib/filters-site.ts': 'one check per documented collection filter on the site\'s own content, the counterpart of filters.ts read as one with it',
  'suites/extensions/lib/settings.ts': 'the suite/v4 settings behaviours, one declaration per documented setting fact, over shared prerequisites',
  'suites/extensions/lib/modules.ts': 'the suite/v4 module behaviours, one declaration per documented module fact, over shared prerequisites',
  'suites/extensions/lib/support.ts': 'the shared helpers of the three extension suites (answer classes, typed values, restore, probe)',
  'suites/extensions/spamfilter.spec.ts': 'the whole spamfilter/v1 namespace (key, settings, statistics) in one file, under the shared key state',
  'targets/reference/suite.ts': 'the suite/v4 namespace of the reference server (settings, modules, parameters) as Jetpack answers it',
  'targets/reference/validate.ts': "a port of WordPress's rest_validate/sanitize_value_from_schema, kept in the order of rest-api.php",
};

const FOLDERS = Object.keys(MAY_IMPORT);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (e.name.endsWith('.ts')) out.push(rel);
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
  });
});
