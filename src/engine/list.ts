/** The behaviours the suites declare, collected without running them (no target needed): `cms-conformance list`, the OpenAPI export, the catalogue. */
import { join } from 'node:path';
import type { SpecRef } from '../../schemas/types.ts';
import type { ClientReliance } from '../../results/clients.ts';
import { PKG_ROOT } from '../core/paths.ts';
import { onlyMatcher, recordDeclared } from './declared.ts';
import { SHARED_WORKERS, moduleCache, suiteFiles } from './suite-files.ts';

export interface ListedBehaviour {
  id: string;
  level: string;
  namespace: string;
  title: string;
  spec: string;
  specRef: SpecRef;
  /** The spec sentence the behaviour checks, when the declaration gives it. */
  sentence?: string;
  /** The suite file that declares it. */
  file: string;
  /** Where behaviour() is called: "suites/extensions/lib/settings.ts:140". */
  location?: string;
  covers: string[];
  /** For a CLIENT behaviour: what the spec says of it and the client code that relies on it (results/clients.ts). */
  client?: ClientReliance;
}

/** Collect the declared behaviours (those `only` selects) without running them. */
export async function listBehaviours(only?: string): Promise<{ behaviours: ListedBehaviour[]; errors: string[] }> {
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest(
    'test',
    { root: PKG_ROOT, config: false, include: suiteFiles(only), watch: false, reporters: [], pool: 'threads', ...SHARED_WORKERS, ...moduleCache() },
    { cacheDir: join(PKG_ROOT, 'node_modules/.vite') },
  );
  const selects = only === undefined ? () => true : onlyMatcher(only);
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    recordDeclared(testModules);
    const errors = unhandledErrors.map((e) => String((e as Error).message ?? e));
    const behaviours: ListedBehaviour[] = [];
    for (const m of testModules) {
      for (const e of m.errors()) errors.push(`${m.relativeModuleId}: ${e.message}`);
      for (const tc of m.children.allTests()) {
        const b = tc.meta().behaviour;
        if (!b) {
          errors.push(`${m.relativeModuleId}: test "${tc.name}" is not declared with behaviour()`);
          continue;
        }
        if (!selects({ id: b.id, name: tc.name })) continue;
        behaviours.push({
          id: b.id,
          level: b.level,
          namespace: b.namespace,
          title: b.title,
          spec: `${b.spec.doc} § ${b.spec.section}`,
          specRef: b.spec,
          ...(b.sentence ? { sentence: b.sentence } : {}),
          file: m.relativeModuleId,
          ...(b.location ? { location: b.location } : {}),
          covers: b.covers ?? [],
          ...(b.client ? { client: b.client } : {}),
        });
      }
    }
    return { behaviours: behaviours.sort((a, b) => a.id.localeCompare(b.id)), errors };
  } finally {
    await vitest.close();
  }
}
