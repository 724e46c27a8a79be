/**
 * The cache of declared behaviours (src/engine/declared.ts): a suite file that a run did not get to
 * collect (a run cut short by SIGINT reports it with no tests) is not recorded as declaring
 * nothing, else a later `--only` would be refused as selecting none.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { cachedDeclared, idsPattern, recordDeclared, selectDeclared, type Declared } from '../src/engine/declared.ts';
import { PKG_ROOT } from '../src/core/paths.ts';
import { filesSelected } from '../src/engine/selection.ts';

const moduleOf = (file: string, ids: string[]) =>
  ({
    moduleId: join(PKG_ROOT, file),
    errors: () => [],
    children: {
      allTests: () => ids.map((id) => ({ name: `${id} title`, parent: { type: 'module' }, meta: () => ({ behaviour: { id, namespace: 'cms/v2', level: 'MUST' } }) })),
    },
  }) as unknown as TestModule;

describe('declared behaviours cache', () => {
  const before = process.env.CMS_CONFORMANCE_CACHE;
  beforeAll(() => {
    process.env.CMS_CONFORMANCE_CACHE = mkdtempSync(join(tmpdir(), 'cmsc-declared-'));
  });
  afterAll(() => {
    if (before === undefined) delete process.env.CMS_CONFORMANCE_CACHE;
    else process.env.CMS_CONFORMANCE_CACHE = before;
  });

  it('records the behaviours of collected files, and not a file collected with none', () => {
    recordDeclared([moduleOf('suites/cms/a.spec.ts', ['cms.a.one', 'cms.a.two']), moduleOf('suites/cms/b.spec.ts', [])]);
    expect(cachedDeclared(['suites/cms/a.spec.ts'])?.map((d) => d.id)).toEqual(['cms.a.one', 'cms.a.two']);
    expect(cachedDeclared(['suites/cms/a.spec.ts', 'suites/cms/b.spec.ts'])).toBeUndefined();
  });
});

describe('--only: the behaviours a pattern selects', () => {
  const d = (id: string, title: string): Declared => ({ id, name: `${id} ${title}`, namespace: 'spamfilter/v1', level: 'MUST' });
  const list = [d('spamfilter.stats.path', 'GET /stats/<interval> answers'), d('spamfilter.stats.path-enum', 'refuses an interval'), d('spamfilter.key.verify', 'verifies a key')];
  const ids = (only: string) => selectDeclared(list, only).map((x) => x.id);

  it('an exact ID selects that behaviour: the pattern is tried on the ID alone too', () => {
    expect(ids('^spamfilter\\.stats\\.path$')).toEqual(['spamfilter.stats.path']);
    expect(ids('^spamfilter\\.stats\\.path-enum$')).toEqual(['spamfilter.stats.path-enum']);
  });
  it('patterns on "<id> <title>" keep working: a prefix, a trailing space, words of the title', () => {
    expect(ids('^spamfilter\\.stats\\.')).toEqual(['spamfilter.stats.path', 'spamfilter.stats.path-enum']);
    expect(ids('^spamfilter\\.stats\\.path ')).toEqual(['spamfilter.stats.path']);
    expect(ids('refuses an interval')).toEqual(['spamfilter.stats.path-enum']);
    expect(ids('^nothing')).toEqual([]);
  });
  it('vitest is handed the IDs selected: its pattern on "<id> <title>" runs exactly those', () => {
    for (const only of ['^spamfilter\\.stats\\.path$', 'refuses', '^spamfilter\\.', 'key']) {
      const re = new RegExp(idsPattern(selectDeclared(list, only)));
      expect(list.filter((x) => re.test(x.name)).map((x) => x.id), only).toEqual(ids(only));
    }
    expect(new RegExp(idsPattern([{ id: 'a.b' }])).test('aXb title')).toBe(false); // dots are escaped
  });
  it('a run loads only the suite files that declare a selected behaviour', () => {
    const byFile = { 'suites/spamfilter/stats.spec.ts': list.slice(0, 2), 'suites/spamfilter/key.spec.ts': list.slice(2) };
    expect(filesSelected(byFile, '^spamfilter\\.stats\\.path$')).toEqual(['suites/spamfilter/stats.spec.ts']);
    expect(filesSelected(byFile, 'verifies')).toEqual(['suites/spamfilter/key.spec.ts']);
    expect(filesSelected(byFile, '^spamfilter\\.')).toEqual(['suites/spamfilter/stats.spec.ts', 'suites/spamfilter/key.spec.ts']);
    expect(filesSelected(byFile, '^nothing')).toEqual([]);
  });
});
