/**
 * Behaviours of the suite/v4 settings (extensions part 2 › Suite module settings: "The same set
 * of settings is read and written through the module, settings and per-module routes", with a
 * type, a default and for some the allowed values).
 *
 * Each documented item is checked on its own, so that one deviation is one failure:
 * - `suite.settings.read` owns "GET /settings answers an object of settings" (a prerequisite of
 *   everything below: when it fails, the rest skip naming it);
 * - `suite.settings.value.<name>` owns "GET /settings carries <name> with a value of its type
 *   (and one of the allowed values)", checked on one shared read of GET /settings;
 * - `suite.settings.roundtrip.<name>` writes another value the target can accept and reads it back
 *   (every allowed value, for a setting with allowed values);
 * - `suite.settings.module-values.<name>` / `.per-module-values.<name>`: every allowed value written
 *   through POST /module/<slug> / POST /settings/<slug> of the setting's module reads back
 *   (settings-every-value.ts);
 * - `suite.settings.type.<name>` / `.enum.<name>`: a value of the wrong type / outside the allowed
 *   values is refused and not stored, and (positive control) the setting's current value written
 *   back is accepted, so that a route refusing everything never passes.
 * The checks after the value check need only their own setting's value check.
 *
 * Values written are those the target can accept: values the spec documents (booleans, allowed
 * values, the default), the target's own (its current value, the default and allowed values its
 * index advertises for POST /settings), or, where the spec leaves the valid set open and offers no
 * other value, a plausible one: a refusal of that one is not a failure (it skips, saying so).
 *
 * Settings the target stores only while the module that owns them is active (GET /module/all
 * names a module's settings in its `options`): when a valid write does not take and the owning
 * module is inactive, the module is activated (where the target says it can be) and the write is
 * tried again; otherwise the behaviour skips with the target's own evidence. Every value and
 * module changed is read first and set back afterwards, also when the check fails. Settings of
 * one module are stored together by the reference implementation, so they are written one at a
 * time (the module's lock).
 *
 * Declared from two files: suite.settings.spec.ts (every setting), and spamfilter.spec.ts for the
 * settings that share their storage with `spamfilter/v1/settings` (so that the two never run at
 * the same time: suite files run in parallel).
 *
 * Here the order they are declared in; each kind in its own file: settings-read.ts (value),
 * settings-roundtrip.ts, settings-refusals.ts (type, enum, module route), settings-every-value.ts
 * (every allowed value through each route), over settings-io.ts
 * (reads, writes, restores), setting-values.ts (which values) and setting-owner.ts (the owning
 * module).
 */
import { catalog } from '../../../schemas/catalog/index.ts';
import type { SettingSpec } from '../../../schemas/types.ts';
import { behaviour, declarationSite } from '../../../src/sdk/behaviour.ts';
import { oneSetting, type Declare } from './settings-route.ts';
import { declareValueCheck } from './settings-read.ts';
import { declareRoundtrip } from './settings-roundtrip.ts';
import { declareRefusals } from './settings-refusals.ts';
import { declareModuleValues } from './settings-every-value.ts';


export interface DeclareOptions {
  concurrent: boolean;
}

/** The per-setting behaviours of every setting that `filter` selects. */
export function declareSettingBehaviours(filter: (s: SettingSpec) => boolean, opts: DeclareOptions): void {
  const ids = new Set<string>();
  // Declared kind by kind (every setting's value check, then every round trip, every type check,
  // enum check, module-route check), not setting by setting: the checks of one setting wait for
  // each other (its lock), so setting by setting most of the file's concurrent slots held checks
  // waiting for one lock; kind by kind they hold checks of different settings, whose reads of
  // GET /settings are then shared (SettingsReads) and whose writes can meet (SettingsWrites).
  const phases: (() => void)[][] = [[], [], [], [], [], [], []];
  const declareIn =
    (phase: number): Declare =>
    function declare(decl, fn, options = {}) {
      const location = declarationSite(declare);
      phases[phase]!.push(() => behaviour(decl, fn, { ...options, ...(location ? { location } : {}) }));
    };
  const [values, roundtrips, types, enums, moduleRoutes, moduleValues, perModuleValues] = [0, 1, 2, 3, 4, 5, 6].map(declareIn) as [Declare, Declare, Declare, Declare, Declare, Declare, Declare];
  for (const s of catalog.settings.filter(filter)) {
    const one = oneSetting(s, opts.concurrent);
    if (ids.has(one.id)) throw new Error(`two settings map to the behaviour ID part ${one.id}`);
    ids.add(one.id);
    declareValueCheck(values, one);
    declareRoundtrip(roundtrips, one);
    declareRefusals(types, enums, moduleRoutes, one);
    declareModuleValues(moduleValues, perModuleValues, one);
  }
  for (const phase of phases) for (const declare of phase) declare();
}
