/**
 * Defaults of the suite's site state (extensions part 2 › Suite module settings: each setting's
 * default; "Module toggles (boolean, default false, one per module slug)"): on a site nobody has
 * changed, GET /settings answers each setting with its documented default and each module toggle
 * as false. They are the defaults of the settings args of POST /settings and POST /module/<slug>.
 *
 * Only observable on a fresh site: one the suite booted itself, or one the user vouches for with
 * --fresh-site (src/core/fresh-site.ts); elsewhere every check skips with that reason. The values
 * compared are those of GET /settings as the run's setup read it, before any behaviour ran (so
 * before any behaviour wrote a setting), never a read racing with the write checks. A value
 * missing or not of its type is the value checks' failure (suite.settings.value.*,
 * suite.modules.value.*): the default check skips naming them.
 */
import { catalog, endpointById } from '../../schemas/catalog/index.ts';
import type { SettingSpec } from '../../schemas/types.ts';
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { sameValue } from './lib/setting-values.ts';
import { SETTINGS } from './lib/settings-route.ts';
import { SUITE, idPart, show } from './lib/support.ts';
import { asBoolean, hasType } from '../../schemas/values.ts';

const SETTINGS_WRITE = endpointById('suite.settings.update').endpoint.id;
const MODULE_WRITE = endpointById('suite.module.item.update').endpoint.id;
const SECTION = catalog.settings[0]!.spec;

/** GET /settings as the run found it (fresh site only); skips with the reason otherwise. */
function snapshot(t: BehaviourContext): Record<string, unknown> {
  const fresh = t.run.info.freshSite;
  if (!fresh.fresh) t.skip(fresh.reason);
  const snap = fresh.suiteSettings;
  if (!snap) t.dependsOn('suite.settings.read', `the run's setup could not read GET ${SETTINGS} before the behaviours`);
  const body = snap.body;
  if (snap.status < 200 || snap.status >= 300 || !body || typeof body !== 'object' || Array.isArray(body))
    t.dependsOn('suite.settings.read', `GET ${SETTINGS} answered ${snap.status} at the start of the run, not an object of settings`);
  t.checksSetupAnswer();
  return body as Record<string, unknown>;
}

const argDefaults = (name: string) => [`arg:${SETTINGS_WRITE}.${name}#default`, `arg:${MODULE_WRITE}.${name}#default`];

for (const s of catalog.settings.filter((x): x is SettingSpec & { default: unknown } => 'default' in x)) {
  behaviour(
    {
      id: `suite.settings.default.${idPart(s.name)}`,
      level: 'MUST',
      namespace: SUITE,
      route: SETTINGS,
      title: `on a fresh site GET /settings answers ${s.name} with its default ${show(s.default)}`,
      spec: SECTION,
      covers: argDefaults(s.name),
    },
    async (t) => {
      t.requireNamespace(SUITE);
      t.requireCredentials();
      const snap = snapshot(t);
      const key = t.run.profile.toTargetSetting(s.name);
      if (!Object.prototype.hasOwnProperty.call(snap, key) || !hasType(s.type, snap[key]) || (s.enum && !s.enum.includes(snap[key] as string)))
        t.dependsOn(`suite.settings.value.${idPart(s.name)}`, `it checks this value: GET ${SETTINGS} answered ${key} = ${show(snap[key])} at the start of the run, not a value of its type`);
      if (!sameValue(s, snap[key], s.default))
        t.fail(`on a fresh site (${t.run.info.freshSite.reason}) GET ${SETTINGS} answered ${key} = ${show(snap[key])} at the start of the run; the documented default is ${show(s.default)}`);
    },
    { concurrent: true },
  );
}

for (const m of catalog.modules) {
  behaviour(
    {
      id: `suite.modules.default.${idPart(m.slug)}`,
      level: 'MUST',
      namespace: SUITE,
      route: SETTINGS,
      title: `on a fresh site GET /settings answers the module toggle ${m.slug} as ${m.default} (its default)`,
      spec: m.spec,
      covers: argDefaults(m.slug),
    },
    async (t) => {
      t.requireNamespace(SUITE);
      t.requireCredentials();
      const snap = snapshot(t);
      const key = t.run.profile.toTargetModule(m.slug);
      if (asBoolean(snap[key]) === undefined) t.dependsOn(`suite.modules.value.${idPart(m.slug)}`, `it checks this value: GET ${SETTINGS} answered ${key} = ${show(snap[key])} at the start of the run, not a boolean`);
      if (asBoolean(snap[key]) !== m.default)
        t.fail(`on a fresh site (${t.run.info.freshSite.reason}) GET ${SETTINGS} answered ${key} = ${show(snap[key])} at the start of the run; its default is ${m.default}`);
    },
    { concurrent: true },
  );
}

