/**
 * The behaviours as declared, and the committed catalogue of them (conformance/behaviours.yaml):
 * - IDs are unique and well-formed, levels known, and every behaviour says where it is declared
 *   (location "path:line", in the area's folder);
 * - the IDs that baselines may still name from before a split (src/sdk/discovery.ts
 *   splitBehaviourIds) are no longer declared, and every part they stand for is;
 * - the committed catalogue is exactly what the declarations and the named faults give. After
 *   adding or changing behaviours or faults: `npm run catalogue`, and commit the file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CATALOGUE_COMMAND, CATALOGUE_FILE, renderCatalogue, type CatalogueEntry } from '../conformance/catalogue.ts';
import { splitBehaviourIds } from '../src/sdk/discovery.ts';
import type { ListedBehaviour } from '../src/engine/list.ts';
import { SUITE_AREAS } from '../src/engine/suite-files.ts';
import { LEVELS } from '../results/verdict.ts';
import { runCli } from './helpers/cli.ts';

describe('behaviours', async () => {
  const run = await runCli(['list', '--json']);
  const listed = JSON.parse(run.stdout || '{"behaviours":[],"errors":["no output"]}') as { behaviours: ListedBehaviour[]; errors: string[] };
  const behaviours = listed.behaviours;

  it('are listed without errors', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(listed.errors).toEqual([]);
    expect(behaviours.length).toBeGreaterThan(0);
  });

  it('have unique, well-formed IDs of a known level, each located in its area', () => {
    const ids = behaviours.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const b of behaviours) {
      expect(b.id).toMatch(/^[a-z0-9][a-z0-9._<>-]*$/);
      expect(LEVELS).toContain(b.level);
      // A CLIENT behaviour names the client code that relies on it, as every other names its spec section.
      if (b.level === 'CLIENT') expect(b.client?.reliedOnBy.length, b.id).toBeGreaterThan(0);
      expect(b.location, b.id).toMatch(new RegExp(`^${SUITE_AREAS[b.id.split('.')[0]!]}/[^:]+\\.ts:\\d+$`));
    }
  });

  it('keep the IDs a baseline may name from before a split resolvable', () => {
    const ids = new Set(behaviours.map((b) => b.id));
    for (const [former, parts] of splitBehaviourIds()) {
      expect(ids.has(former), `${former} is an alias of its parts, not a behaviour`).toBe(false);
      expect(parts.filter((p) => !ids.has(p)), `parts of ${former} that are not declared`).toEqual([]);
    }
  });

  it(`are catalogued in conformance/behaviours.yaml as declared (else: ${CATALOGUE_COMMAND})`, () => {
    const expected = renderCatalogue(behaviours);
    const committed = readFileSync(CATALOGUE_FILE, 'utf8');
    if (committed === expected) return;
    const byId = (text: string) => new Map((parse(text) as CatalogueEntry[]).map((e) => [e.id, JSON.stringify(e)]));
    const [now, was] = [byId(expected), byId(committed)];
    const changed = [...new Set([...now.keys(), ...was.keys()])].filter((id) => now.get(id) !== was.get(id)).sort();
    const shown = changed.slice(0, 10).map((id) => `  ${id}: ${!was.has(id) ? 'not catalogued' : !now.has(id) ? 'no longer declared' : 'changed'}`);
    expect.fail(
      `conformance/behaviours.yaml is stale (${changed.length ? `${changed.length} entr${changed.length === 1 ? 'y' : 'ies'}` : 'its header or order'}): run \`${CATALOGUE_COMMAND}\` and commit it\n${shown.join('\n')}${changed.length > 10 ? `\n  … and ${changed.length - 10} more` : ''}`,
    );
  });
});
