/**
 * The suite/v4 settings routes as the checks address them: POST/GET /settings, the module route
 * that takes the same settings, and what every write check requires.
 */
import { catalog, endpointById } from '../../../schemas/catalog/index.ts';
import type { ArgSpec, SettingSpec } from '../../../schemas/types.ts';
import type { BehaviourContext, BehaviourDecl, BehaviourOptions } from '../../../src/sdk/behaviour.ts';
import { SUITE, idPart } from './support.ts';

export const SETTINGS = '/suite/v4/settings';
const SECTION = catalog.settings[0]!.spec;
const WRITE = endpointById('suite.settings.update');

/** Settings stored together with a spam filter setting of the same name (spamfilter/v1/settings). */
export const sharesSpamfilterStorage = (s: SettingSpec): boolean => s.name.startsWith('spamfilter_');

export const start = (t: BehaviourContext) => {
  t.requireNamespace(SUITE);
  t.requireCredentials();
  t.requireWrites();
};

export const MODULE_WRITE = endpointById('suite.module.item.update');
export const MODULE_WRITE_ARGS: Record<string, ArgSpec> = MODULE_WRITE.endpoint.args === 'not-shown' ? {} : MODULE_WRITE.endpoint.args;

/** The setting's key on the target. */
export const targetKey = (t: BehaviourContext, s: SettingSpec) => t.run.profile.toTargetSetting(s.name);

/**
 * The arg-attribute items of an arg that a write-and-refuse check exercises: every stated
 * attribute but the default (a default of site state is observed only on a fresh site).
 */
export function argItems(endpointId: string, name: string, arg: ArgSpec): string[] {
  return Object.keys(arg)
    .filter((k) => k !== 'note' && k !== 'default')
    .map((k) => `arg:${endpointId}.${name}#${k}`);
}

/** Declares one behaviour (in the phase it was made for); its location is where this is called. */
export type Declare = (decl: BehaviourDecl, fn: (t: BehaviourContext) => unknown, options?: BehaviourOptions) => void;

/** One setting's behaviours: their ID part, the fields they share, the items a write covers. */
export interface OneSetting {
  s: SettingSpec;
  id: string;
  common: { level: 'MUST'; namespace: string; route: string; spec: SettingSpec['spec'] };
  writes: string[];
  concurrent: boolean;
}

export function oneSetting(s: SettingSpec, concurrent: boolean): OneSetting {
  // Each write check reads the setting back from GET /settings and fails when it does not read as
  // written (or as it was): they validate the field of the answer, so they cover it too.
  const writes = [s.id, `endpoint:${WRITE.endpoint.id}`, `arg:${WRITE.endpoint.id}.${s.name}`, `field:resource.suite.settings.${s.name}`];
  return { s, id: idPart(s.name), common: { level: 'MUST', namespace: SUITE, route: SETTINGS, spec: SECTION }, writes, concurrent };
}
