/**
 * suite/v4 settings and module toggles (extensions part 2 › Suite module settings, part 4 ›
 * Suite): GET /settings carries every documented setting and toggle with a value of its type;
 * each setting round-trips through POST /settings; wrong types and values outside the allowed
 * ones are refused and not stored; a setting written through `/module/<slug>` reads back; module
 * toggles, `/module/all/active` and `/module/<slug>/active` (suite-modules.ts).
 *
 * All of it is site state read and written through GET/POST /settings, so it lives in one file
 * (suite files run in parallel): behaviours that compare every module run first, one at a time;
 * the rest run concurrently, each holding the locks of the setting or module it changes.
 * Settings stored with the spam filter's (spamfilter_*) are declared in spamfilter.spec.ts.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { behaviour } from '../../src/behaviour.ts';
import { declareModuleSetupBehaviours, declareModuleToggles, declareViaModule } from './suite-modules.ts';
import { SETTINGS, declareSettingBehaviours, readSettings, sharesSpamfilterStorage } from './suite-settings.ts';
import { SUITE, asBoolean, hasType, show } from './support.ts';

declareModuleSetupBehaviours();

behaviour(
  {
    id: 'suite.settings.read',
    level: 'MUST',
    namespace: SUITE,
    route: SETTINGS,
    title: 'GET /settings carries every documented setting and module toggle, each with a value of its type',
    spec: catalog.settings[0]!.spec,
    covers: ['endpoint:suite.settings.read', 'field:resource.suite.settings'],
  },
  async (t) => {
    t.requireNamespace(SUITE);
    t.requireCredentials();
    const all = await readSettings(t);
    const problems: string[] = [];
    for (const s of catalog.settings) {
      const key = t.run.profile.toTargetSetting(s.name);
      if (!Object.prototype.hasOwnProperty.call(all, key)) problems.push(`${key} is missing`);
      else if (!hasType(s.type, all[key])) problems.push(`${key} = ${show(all[key])} is not a ${s.type}`);
      else if (s.enum && !s.enum.includes(all[key] as string)) problems.push(`${key} = ${show(all[key])} is not one of ${s.enum.join(', ')}`);
    }
    for (const m of catalog.modules) {
      const key = t.run.profile.toTargetModule(m.slug);
      if (!Object.prototype.hasOwnProperty.call(all, key)) problems.push(`module toggle ${key} is missing`);
      else if (asBoolean(all[key]) === undefined) problems.push(`module toggle ${key} = ${show(all[key])} is not a boolean`);
    }
    if (problems.length) t.fail(`${problems.length} problem(s): ${problems.join('; ')}`, { problems });
  },
  { concurrent: true },
);

declareViaModule();
declareSettingBehaviours((s) => !sharesSpamfilterStorage(s), { concurrent: true });
declareModuleToggles();
