/**
 * Faults of suite/v4 settings and modules: settings of the wrong type or outside their allowed
 * values accepted, settings and toggles not stored, the reads of /settings broken, the module
 * toggle routes (/module/<slug>/active, /module/all/active), and a fresh site whose settings are
 * not their defaults.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { fitsAfterCoercion, isBooleanish } from '../../schemas/values.ts';
import { invalidParam, success } from '../kit.ts';
import type { Fault, FaultRequest } from '../proxy.ts';
import { SUITE_SETTINGS, idPart, isModuleKey, isWrite, settingByTarget, type Marked } from './common.ts';

/** A module's own write route, /module/<slug> (not /module/all, /active, /data or /key/check). */
const MODULE_ROUTE = /^\/suite\/v4\/module\/(?!all$)[a-z-]+$/;

/**
 * Drop from a write to `route` the setting keys `drop` picks (stored as if never sent); a body left
 * with no key is answered success without reaching the server.
 */
function dropKeys(req: FaultRequest, route: string | RegExp, drop: (s: (typeof catalog.settings)[number], v: unknown) => boolean) {
  if (!(typeof route === 'string' ? req.route === route : route.test(req.route)) || !isWrite(req) || !req.json || typeof req.json !== 'object') return undefined;
  const keys = Object.keys(req.json).filter((k) => {
    const st = settingByTarget(req, k);
    return st !== undefined && drop(st, req.json[k]);
  });
  if (!keys.length) return undefined;
  for (const k of keys) delete req.json[k];
  return Object.keys(req.json).filter((k) => k !== 'context').length ? undefined : success();
}

/** Setting keys of a POST /settings body that violate `check`. */
function violating(req: FaultRequest, check: (s: (typeof catalog.settings)[number], v: unknown) => boolean): string[] {
  if (req.route !== SUITE_SETTINGS || !isWrite(req) || !req.json || typeof req.json !== 'object') return [];
  return Object.keys(req.json).filter((k) => {
    const s = settingByTarget(req, k);
    return s !== undefined && check(s, req.json[k]);
  });
}

const nonBooleanTypeIds = catalog.settings.filter((s) => s.type !== 'boolean').map((s) => `suite.settings.type.${idPart(s.name)}`);

/**
 * A wrong-type value made into one of the type, as a careless server would store it; for a
 * setting with allowed values, the last one that is not the default.
 */
function coerce(setting: (typeof catalog.settings)[number], v: unknown): unknown {
  if (setting.enum) return [...setting.enum].reverse().find((e) => e !== setting.default);
  switch (setting.type) {
    case 'string':
      return typeof v === 'object' ? JSON.stringify(v) : String(v);
    case 'integer':
      return Number.isInteger(Number(v)) ? Number(v) : 0;
    case 'array':
      return v && typeof v === 'object' ? Object.values(v) : [v];
    default:
      return {};
  }
}

export const suiteSettingsFaults: Fault[] = [
  {
    id: 'ext.suite.setting-outside-enum-accepted',
    title: 'accepts a setting value outside its allowed values (answers success without storing)',
    caughtBy: ['suite.settings.enum.*'],
    request: (req) => (violating(req, (s, v) => !!s.enum && !s.enum.includes(v as string)).length ? success() : undefined),
  },
  {
    id: 'ext.suite.setting-wrong-type-accepted',
    title: 'accepts a setting value of the wrong type (answers success without storing)',
    caughtBy: ['suite.settings.type.*'],
    request: (req) => (violating(req, (s, v) => !fitsAfterCoercion(s.type, v)).length ? success() : undefined),
  },
  {
    id: 'ext.suite.setting-wrong-type-stored',
    title: 'refuses a string, integer, array or object setting of the wrong type but stores it coerced (42 → "42", "ten" → 0, {x: 1} → [1], 5 → {}; an allowed value other than the default)',
    caughtBy: nonBooleanTypeIds,
    request(req) {
      const bad = violating(req, (s, v) => s.type !== 'boolean' && !fitsAfterCoercion(s.type, v));
      for (const k of bad) req.json[k] = coerce(settingByTarget(req, k)!, req.json[k]);
      if (bad.length) (req as Marked).marked = bad[0];
    },
    response(req, res) {
      const k = (req as Marked).marked;
      if (typeof k === 'string') Object.assign(res, invalidParam(k));
    },
  },
  {
    id: 'ext.suite.setting-not-stored',
    title: 'answers success for valid setting writes through /settings but does not store them',
    caughtBy: ['suite.settings.roundtrip.*'],
    request(req) {
      if (req.route !== SUITE_SETTINGS || !isWrite(req) || !req.json) return;
      const keys = Object.keys(req.json);
      const valid = (k: string) => {
        const s = settingByTarget(req, k);
        return !!s && !isModuleKey(req, k) && fitsAfterCoercion(s.type, req.json[k]) && (!s.enum || s.enum.includes(req.json[k]));
      };
      if (keys.length && keys.every(valid)) return success();
    },
  },
  {
    id: 'ext.suite.settings-read-missing',
    title: 'leaves lang_id out of GET /settings',
    caughtBy: ['suite.settings.value.lang-id'],
    response(req, res) {
      if (req.route === SUITE_SETTINGS && req.method === 'GET' && res.json && typeof res.json === 'object') delete res.json[req.profile.toTargetSetting('lang_id')];
    },
  },
  {
    id: 'ext.suite.settings-not-object',
    title: 'answers GET /settings with a list of values instead of an object of settings',
    caughtBy: ['suite.settings.read'],
    response(req, res) {
      if (req.route === SUITE_SETTINGS && req.method === 'GET' && res.json && typeof res.json === 'object') res.json = Object.values(res.json);
    },
  },
  {
    id: 'ext.suite.settings-values-wrong-type',
    title: 'answers every documented setting on GET /settings as null',
    caughtBy: ['suite.settings.value.*'],
    response(req, res) {
      if (req.route !== SUITE_SETTINGS || req.method !== 'GET' || !res.json || typeof res.json !== 'object') return;
      for (const st of catalog.settings) res.json[req.profile.toTargetSetting(st.name)] = null;
    },
  },
  {
    id: 'ext.suite.module-toggles-missing',
    title: 'leaves the module toggles out of GET /settings',
    caughtBy: ['suite.modules.value.*'],
    response(req, res) {
      if (req.route !== SUITE_SETTINGS || req.method !== 'GET' || !res.json || typeof res.json !== 'object') return;
      for (const m of catalog.modules) delete res.json[req.profile.toTargetModule(m.slug)];
    },
  },
  {
    id: 'ext.suite.settings-writes-refused',
    title: 'refuses every write to POST /settings (400 rest_invalid_param naming the first key), valid or not',
    caughtBy: ['suite.settings.type.*', 'suite.settings.enum.*'],
    request(req) {
      if (req.route === SUITE_SETTINGS && isWrite(req) && req.json && typeof req.json === 'object') return invalidParam(Object.keys(req.json)[0] ?? 'context');
    },
  },
  // Every allowed value, not one (issue 40): values the checks of one value never wrote.
  {
    id: 'ext.suite.setting-late-enum-value-not-stored',
    title: 'answers success for the last allowed value of a setting that allows three or more (transparent, delete, official) written through /settings, without storing it',
    caughtBy: catalog.settings.filter((x) => (x.enum?.length ?? 0) >= 3).map((x) => `suite.settings.roundtrip.${idPart(x.name)}`),
    request: (req) => dropKeys(req, SUITE_SETTINGS, (st, v) => !!st.enum && st.enum.length >= 3 && v === st.enum[st.enum.length - 1]),
  },
  {
    id: 'ext.suite.module-route-enum-values-ignored',
    title: 'stores through /module/<slug> only the default of a setting with allowed values: answers success for the others without storing them',
    caughtBy: ['suite.settings.module-values.*'],
    request: (req) => dropKeys(req, MODULE_ROUTE, (st, v) => !!st.enum && st.enum.includes(v as string) && v !== st.default),
  },
  {
    id: 'ext.suite.per-module-route-ignored',
    title: 'answers success for settings written through /settings/<slug> but does not store them',
    caughtBy: ['suite.settings.per-module-values.*'],
    request: (req) => dropKeys(req, /^\/suite\/v4\/settings\/[a-z-]+$/, (st) => !!st),
  },
  {
    id: 'ext.suite.module-write-ignored',
    title: 'answers success for settings written through /module/<slug> but does not store them',
    caughtBy: ['suite.settings.via-module'],
    request: (req) => (/^\/suite\/v4\/module\/(?!all$)[a-z-]+$/.test(req.route) && isWrite(req) ? success() : undefined),
  },
];

const ACTIVE = /^\/suite\/v4\/module\/(?!all\/)([^/]+)\/active$/;
const ALL_ACTIVE = '/suite/v4/module/all/active';

export const suiteModuleFaults: Fault[] = [
  {
    id: 'ext.suite.module-toggle-ignored',
    title: 'answers success on /module/<slug>/active but does not change the module',
    caughtBy: ['suite.modules.toggle.*'],
    request: (req) => (ACTIVE.test(req.route) && isWrite(req) ? success() : undefined),
  },
  {
    id: 'ext.suite.settings-toggle-ignored',
    title: 'ignores module toggles written through POST /settings',
    caughtBy: ['suite.modules.toggle.*'],
    request(req) {
      if (req.route !== SUITE_SETTINGS || !isWrite(req) || !req.json) return;
      const toggles = Object.keys(req.json).filter((k) => isModuleKey(req, k));
      if (toggles.length && toggles.length === Object.keys(req.json).length) return success();
    },
  },
  {
    id: 'ext.suite.all-active-modules-not-validated',
    title: 'accepts /module/all/active without modules, or with modules that is not an array',
    caughtBy: ['suite.modules.all-active.requires-modules', 'suite.modules.all-active.modules-type'],
    request: (req) => (req.route === ALL_ACTIVE && isWrite(req) && !Array.isArray(req.json?.modules) ? success() : undefined),
  },
  {
    id: 'ext.suite.all-active-wrong-default',
    title: 'defaults active to false on /module/all/active',
    caughtBy: ['suite.modules.all-active.default-active'],
    request(req) {
      if (req.route === ALL_ACTIVE && isWrite(req) && req.json && !('active' in req.json)) req.json.active = false;
    },
  },
  {
    id: 'ext.suite.all-active-ignores-active',
    title: 'activates the modules on /module/all/active whatever active says',
    caughtBy: ['suite.modules.all-active.deactivate'],
    request(req) {
      if (req.route === ALL_ACTIVE && isWrite(req) && req.json && 'active' in req.json) req.json.active = true;
    },
  },
  {
    id: 'ext.suite.module-active-default-ignored',
    title: 'answers success on /module/<slug>/active without active but changes nothing',
    caughtBy: ['suite.modules.active.default'],
    request: (req) => (ACTIVE.test(req.route) && isWrite(req) && (req.json === undefined || !('active' in req.json)) ? success() : undefined),
  },
  {
    id: 'ext.suite.module-active-type-accepted',
    title: 'takes any truthy active on /module/<slug>/active as true',
    caughtBy: ['suite.modules.active.type'],
    request(req) {
      if (ACTIVE.test(req.route) && isWrite(req) && req.json && 'active' in req.json && !isBooleanish(req.json.active)) req.json.active = Boolean(req.json.active);
    },
  },
  {
    id: 'ext.suite.all-active-refuse-all',
    title: 'refuses every request to /module/all/active (400 rest_invalid_param naming modules), valid or not',
    caughtBy: ['suite.modules.all-active.*'],
    request: (req) => (req.route === ALL_ACTIVE && isWrite(req) ? invalidParam('modules') : undefined),
  },
  {
    id: 'ext.suite.module-active-refuse-all',
    title: 'refuses every request to /module/<slug>/active (400 rest_invalid_param naming active), valid or not',
    caughtBy: ['suite.modules.active.type', 'suite.modules.active.default', 'suite.modules.toggle.*'],
    request: (req) => (ACTIVE.test(req.route) && isWrite(req) ? invalidParam('active') : undefined),
  },
];

/** Another value of the setting's type (and allowed values) than `v`: what a site that is not fresh might hold. */
function otherValue(setting: (typeof catalog.settings)[number], v: unknown): unknown {
  switch (setting.type) {
    case 'boolean':
      return !(v === true || v === 1 || v === '1');
    case 'integer':
      return (typeof v === 'number' ? v : 0) + 1;
    case 'array':
      return Array.isArray(v) && v.length ? [] : setting.items?.type === 'string' ? ['cmsc'] : [7];
    case 'object':
      return Object.fromEntries((setting.keys ?? ['cmsc']).map((k) => [k, setting.name === 'advanced_seo_title_formats' ? [{ type: 'string', value: 'cmsc' }] : 'cmsc']));
    default:
      return setting.enum ? (setting.enum.find((e) => e !== v) ?? v) : `${typeof v === 'string' ? v : ''}cmsc`;
  }
}

/** Checked only on a fresh site (--fresh-site, or a target the suite boots): proven in test/extensions/fresh-site.test.ts. */
export const freshSiteFaults: Fault[] = [
  {
    id: 'ext.suite.settings-defaults-wrong',
    title: 'a fresh site whose settings are not their defaults: GET /settings answers every setting with another value of its type, and every module toggle as true',
    caughtBy: [
      ...catalog.settings.filter((x) => 'default' in x && x.name !== 'cloud_newsletter_categories').map((x) => `suite.settings.default.${idPart(x.name)}`),
      'suite.modules.default.*',
    ],
    response(req, res) {
      if (req.route !== SUITE_SETTINGS || req.method !== 'GET' || !res.json || typeof res.json !== 'object' || Array.isArray(res.json)) return;
      for (const k of Object.keys(res.json)) {
        if (isModuleKey(req, k)) res.json[k] = true;
        const setting = settingByTarget(req, k);
        if (setting) res.json[k] = otherValue(setting, res.json[k]);
      }
    },
  },
];
