/**
 * Every allowed value of a suite/v4 setting (extensions part 2: the "Allowed values" column),
 * written through each route that takes the settings ("The same set of settings is read and
 * written through the module, settings and per-module routes") and read back on GET /settings:
 * - suite.settings.roundtrip.<name> (settings-roundtrip.ts): through POST /settings;
 * - suite.settings.module-values.<name> (MUST): through POST /module/<slug> of the setting's module,
 *   whose documented args are "any suite setting of part 2";
 * - suite.settings.per-module-values.<name> (SHOULD): through POST /settings/<slug> of the module,
 *   the reference implementation's per-module route; its parameter table lists only context, so a
 *   server may read "per-module routes" as /module/<slug> alone.
 *
 * The values are written one after the other, the setting's own last (so that the last write
 * sets it back, verified by its read), each read back fresh (GET /settings shared with the checks
 * asking at the same moment). A module that must be active for its route to store anything is
 * activated where the target says it can be, and set back afterwards (setting-owner.ts
 * withOwnerActive); a value whose write answers naming the suite's external service (post by
 * email's create, regenerate and delete ask WordPress.com for an address) is not counted, and the
 * check skips saying which values it could show and which it could not. Each check holds its
 * setting's lock (settingLock: the module's), and the modules' lock while activating one.
 */
import { catalog } from '../../../schemas/catalog/index.ts';
import type { SettingSpec } from '../../../schemas/types.ts';
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Response } from '../../../src/sdk/http.ts';
import { answered, brief, isValidationError, remoteEvidence, show, skipIfForbidden } from './support.ts';
import { exclusive, withRestore } from './restore.ts';
import { moduleHints } from './suite-service.ts';
import { MODULE_WRITE, MODULE_WRITE_ARGS, SETTINGS, argItems, start, targetKey, type Declare, type OneSetting } from './settings-route.ts';
import { sameValue } from './setting-values.ts';
import { currentValue, restoreSetting, settingCheck, type Known } from './settings-io.ts';
import { settingLock, withOwnerActive, type Outcome } from './setting-owner.ts';
import { SETTINGS_OBJECT, settingValue } from './settings-read.ts';

/** A route the settings are written through. */
export interface Via {
  route: string;
  write: (value: unknown) => Promise<Response>;
}

/** The allowed values in the order they are written: the others in the spec's order, the current one last (it sets the setting back). */
export function valuesToWrite(s: SettingSpec, current: unknown): unknown[] {
  const allowed = [...(s.enum ?? [])];
  const own = allowed.filter((v) => sameValue(s, v, current));
  return [...allowed.filter((v) => !sameValue(s, v, current)), ...own];
}

/**
 * Write each of `values` through `via` and read it back; the original is set back afterwards (and
 * verified) whatever happens. Fails naming the first value not accepted or not read back; skips
 * when a write names the suite's external service (saying which values were shown).
 */
export async function writeEach(t: BehaviourContext, s: SettingSpec, values: unknown[], via: Via, original: unknown, known: Known): Promise<void> {
  const key = targetKey(t, s);
  const restore = () => restoreSetting(t, s, original, known);
  await withRestore(async () => {
    const remote: string[] = [];
    const shown: unknown[] = [];
    const out = await withOwnerActive(
      t,
      s,
      async (): Promise<Outcome> => {
        remote.length = 0;
        shown.length = 0;
        for (const value of values) {
          const what = `POST ${via.route} {${key}: ${show(value)}}`;
          known.value = undefined;
          const res = await via.write(value);
          if (!answered(res)) {
            const evidence = remoteEvidence(res);
            if (evidence) {
              remote.push(`${show(value)} (${evidence})`);
              continue;
            }
            return { ok: false, res, problem: `${what} answered ${brief(res)}` };
          }
          const after = await currentValue(t, s);
          known.value = { v: after };
          if (!sameValue(s, after, value)) return { ok: false, res, problem: `${what} answered ${res.status}, but GET ${SETTINGS} then reads ${key} = ${show(after)}` };
          shown.push(value);
        }
        return { ok: true };
      },
      restore,
      known,
    );
    if (!out.ok) {
      skipIfForbidden(t, out.res, `write ${key} through ${via.route}`);
      if (isValidationError(out.res, [key])) t.fail(`${out.problem}: a value the spec allows for ${s.name} (one of ${s.enum?.join(', ')}) was refused as invalid`);
      t.fail(out.problem);
    }
    if (remote.length)
      t.skip(
        `${remote.length} of the allowed values of ${key} could not be shown: POST ${via.route} answered ${remote.join('; ')}, naming a service the target is missing` +
          (shown.length ? ` (${shown.map(show).join(', ')} ${shown.length > 1 ? 'were' : 'was'} written and read back)` : ''),
      );
  }, restore);
}

/** The module whose options hold the setting (GET /module/all, where the target says); else any documented module: the route takes "any suite setting of part 2". */
async function ownerRoute(t: BehaviourContext, s: SettingSpec, base: '/suite/v4/module' | '/suite/v4/settings'): Promise<string> {
  const owner = (await moduleHints()).owners.get(s.name) ?? catalog.modules[0]!.slug;
  return `${base}/${t.run.profile.toTargetModule(owner)}`;
}

const PER_MODULE = '/suite/v4/settings/<slug>';

/** suite.settings.module-values.<name> (phase `moduleIn`) and .per-module-values.<name> (`perModuleIn`), for a setting with allowed values. */
export function declareModuleValues(moduleIn: Declare, perModuleIn: Declare, { s, id, common, writes, concurrent }: OneSetting): void {
  if (!s.enum) return;
  const moduleArg = MODULE_WRITE_ARGS[s.name];
  const routes = [
    {
      declare: moduleIn,
      id: `suite.settings.module-values.${id}`,
      level: 'MUST' as const,
      base: '/suite/v4/module' as const,
      path: MODULE_WRITE.route.path,
      spec: MODULE_WRITE.endpoint.spec,
      why: '',
      covers: [s.id, `endpoint:${MODULE_WRITE.endpoint.id}:POST`, ...(moduleArg ? argItems(MODULE_WRITE.endpoint.id, s.name, moduleArg) : [])],
    },
    {
      declare: perModuleIn,
      id: `suite.settings.per-module-values.${id}`,
      level: 'SHOULD' as const,
      base: '/suite/v4/settings' as const,
      path: PER_MODULE,
      spec: common.spec,
      why: ' (the per-module route as the reference implementation serves it; its parameter table lists only context)',
      covers: [s.id, 'endpoint:suite.settings.item.update:POST'],
    },
  ];
  for (const r of routes)
    r.declare(
      {
        ...common,
        id: r.id,
        level: r.level,
        route: r.path,
        spec: r.spec,
        title: `every allowed value of ${s.name} (${s.enum.join(', ')}) written through POST ${r.path} of its module reads back on GET /settings${r.why}`,
        covers: [...new Set([...r.covers, ...writes.filter((w) => w.startsWith('field:'))])],
      },
      async (t) => {
        start(t);
        await t.need(SETTINGS_OBJECT);
        await t.need(settingValue(s));
        const route = await ownerRoute(t, s, r.base);
        const via: Via = { route, write: (v) => t.client.post(route, { [targetKey(t, s)]: v }) };
        await exclusive([await settingLock(s)], () => settingCheck(t, s, concurrent, (original, known) => writeEach(t, s, valuesToWrite(s, original), via, original, known)));
      },
      { concurrent },
    );
}
