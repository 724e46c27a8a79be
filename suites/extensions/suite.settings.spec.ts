/**
 * suite/v4 settings and module toggles (extensions part 2 › Suite module settings, part 4 ›
 * Suite): GET /settings answers an object of settings (suite.settings.read, which everything here
 * needs); it carries each documented setting and module toggle with a value of its type (one
 * behaviour each, on one shared read); each setting round-trips through POST /settings (every
 * allowed value of a setting that has them, also through /module/<slug> and /settings/<slug>); wrong
 * types and values outside the allowed ones are refused and not stored; a setting written through
 * `/module/<slug>` reads back; module toggles, `/module/all/active` and `/module/<slug>/active`
 * (lib/modules*.ts).
 *
 * All of it is site state read and written through GET/POST /settings, so it lives in one file
 * (suite files run in parallel): behaviours that pick a module to work on run first, one at a
 * time; then the settings run concurrently, each holding the lock of the setting's module (or the
 * setting), and the modules' lock while activating one; last the module toggles, one at a time. Settings stored with the spam filter's (spamfilter_*) are declared
 * in spamfilter.spec.ts.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { behaviour, fileConcurrency } from '../../src/sdk/behaviour.ts';
import { declareViaModule } from './lib/settings-via-module.ts';
import { declareModuleToggles, declareModuleValues, declareToggleTypes } from './lib/modules-toggles.ts';
import { declareModuleSetupBehaviours } from './lib/modules-active.ts';
import { declareSettingBehaviours } from './lib/settings.ts';
import { SETTINGS_OBJECT } from './lib/settings-read.ts';
import { SETTINGS, sharesSpamfilterStorage } from './lib/settings-route.ts';
import { SUITE } from './lib/support.ts';

// The concurrent checks here mostly wait: for their setting's (or module's) lock, and for the
// shared reads of GET /settings (SettingsReads), which serve every check that asks at the same
// moment. More of them at once share more: GET /settings 653 -> 248 requests of this file against
// the reference server at 30. Requests in flight stay limited by --concurrency.
fileConcurrency(30);

declareModuleSetupBehaviours();

behaviour(
  {
    id: 'suite.settings.read',
    level: 'MUST',
    namespace: SUITE,
    route: SETTINGS,
    title: 'GET /settings answers an object of settings',
    spec: catalog.settings[0]!.spec,
    covers: ['endpoint:suite.settings.read'],
  },
  async (t) => {
    t.requireNamespace(SUITE);
    t.requireCredentials();
    await t.need(SETTINGS_OBJECT);
  },
  { concurrent: true },
);

declareViaModule();
declareSettingBehaviours((s) => !sharesSpamfilterStorage(s), { concurrent: true });
declareModuleValues();
declareToggleTypes();
// Not concurrent, after everything above has finished (module states are stored together).
declareModuleToggles();
