/**
 * suite.settings.via-module: a setting written through POST /module/<slug> reads back on GET
 * /settings ("The same set of settings is read and written through the module, settings and
 * per-module routes").
 */
import { catalog, endpointById } from '../../../schemas/catalog/index.ts';
import { asBoolean } from '../../../schemas/values.ts';
import { behaviour } from '../../../src/sdk/behaviour.ts';
import { SUITE, answered, brief, expectAnswered, show } from './support.ts';
import { exclusive, withRestore } from './restore.ts';
import { SETTINGS, start } from './settings-route.ts';
import { sameValue } from './setting-values.ts';
import { currentValue, writeSetting } from './settings-io.ts';
import { MODULES_LOCK, activeRoute, moduleLock, settingLock } from './setting-owner.ts';
import { SETTINGS_OBJECT, settingValue } from './settings-read.ts';
import { moduleState, moduleToggle, restoreModule, setModule, skipIfActivationImpossible } from './modules.ts';


const viaModule = catalog.settings.find((s) => s.type === 'boolean' && catalog.modules.some((m) => s.name.startsWith(`${m.slug.replace(/-/g, '_')}_`)))!;
const viaModuleSlug = catalog.modules.find((m) => viaModule.name.startsWith(`${m.slug.replace(/-/g, '_')}_`))!.slug;
const MODULE_WRITE = endpointById('suite.module.item.update');

/**
 * "The same set of settings is read and written through the module, settings and per-module
 * routes": a setting written through POST /module/<slug> reads back on GET /settings. The module
 * is activated first where it is not (the reference implementation refuses writes to an inactive
 * module's route, 409), and set back afterwards. Concurrent; holds the setting's and the module's locks.
 */
export function declareViaModule(): void {
  behaviour(
    {
      id: 'suite.settings.via-module',
      level: 'MUST',
      namespace: SUITE,
      route: MODULE_WRITE.route.path,
      title: `a setting written through POST /module/<slug> (${viaModule.name} through ${viaModuleSlug}, active) reads back on GET /settings`,
      spec: viaModule.spec,
      covers: [viaModule.id, `endpoint:${MODULE_WRITE.endpoint.id}`],
    },
    async (t) => {
      start(t);
      await t.need(SETTINGS_OBJECT);
      await t.need(settingValue(viaModule));
      await t.need(moduleToggle(viaModuleSlug));
      // Locks are always taken in one order, a module's (or a setting's) before the modules' lock.
      await exclusive([await settingLock(viaModule), moduleLock(viaModuleSlug)], () => exclusive([MODULES_LOCK], async () => {
        const key = t.run.profile.toTargetSetting(viaModule.name);
        const route = `/suite/v4/module/${t.run.profile.toTargetModule(viaModuleSlug)}`;
        const wasActive = await moduleState(t, viaModuleSlug);
        const original = await currentValue(t, viaModule);
        const value = !(asBoolean(original) ?? false);
        await withRestore(
          async () => {
            if (!wasActive) {
              const what = `setting up: POST ${activeRoute(t, viaModuleSlug)} {active: true}`;
              const res = await setModule(t, viaModuleSlug, true);
              await skipIfActivationImpossible(t, viaModuleSlug, res, what);
              if (!answered(res) || !(await moduleState(t, viaModuleSlug)))
                t.dependsOn(`suite.modules.toggle.${viaModuleSlug}`, `${what} answered ${brief(res)}: could not activate ${viaModuleSlug}`);
            }
            const res = await t.client.post(route, { [key]: value });
            expectAnswered(t, res, `POST ${route} {${key}: ${value}}`);
            const after = await currentValue(t, viaModule);
            if (!sameValue(viaModule, after, value)) t.fail(`wrote ${key} = ${value} through ${route} (answered ${res.status}); GET ${SETTINGS} reads back ${show(after)}`);
          },
          async () => {
            const problems: string[] = [];
            if (!sameValue(viaModule, await currentValue(t, viaModule), original)) {
              const res = await writeSetting(t, viaModule, original);
              if (!answered(res)) problems.push(`POST ${SETTINGS} {${key}: ${show(original)}} answered ${brief(res)}`);
            }
            const p = await restoreModule(t, viaModuleSlug, wasActive);
            if (p) problems.push(p);
            return problems.length ? problems.join('; ') : undefined;
          },
        );
      }));
    },
    { concurrent: true },
  );
}
