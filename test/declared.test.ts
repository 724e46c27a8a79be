/**
 * The cache of declared behaviours (src/declared.ts): a suite file that a run did not get to
 * collect (a run cut short by SIGINT reports it with no tests) is not recorded as declaring
 * nothing, else a later `--only` would be refused as selecting none.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { cachedDeclared, recordDeclared } from '../src/declared.ts';
import { PKG_ROOT } from '../src/paths.ts';

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
