/**
 * Faults in the extension namespaces (spamfilter/v1, contactform/v1, suite/v4): each breaks one
 * documented behaviour the way a real server might (a key of the wrong length accepted, settings
 * that are not stored, an enum that is not enforced, a toggle that is ignored, a route pattern that
 * is too permissive...). Routes are in spec names; setting keys and module slugs in bodies are
 * the target's own (translated through `req.profile`).
 */
import { catalog } from '../schemas/catalog/index.ts';
import { extensionAnonymousAccess } from '../schemas/catalog/extensions.ts';
import type { ArgSpec, DeclaredType, RouteSpec } from '../schemas/types.ts';
import { fitsAfterCoercion, isBooleanish } from '../schemas/values.ts';
import { json, type Fault, type FaultRequest } from './proxy.ts';

const noRoute = () => json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
const serverError = () => json(500, { code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 500 } });
const invalidParam = (param: string) =>
  json(400, { code: 'rest_invalid_param', message: `Invalid parameter(s): ${param}`, data: { status: 400, params: { [param]: `Invalid parameter.` } } });
const success = () => json(200, { code: 'success', message: 'The requested data updates were successful.' });

const WRITE = new Set(['POST', 'PUT', 'PATCH']);
const isWrite = (req: FaultRequest) => WRITE.has(req.method);
/** The request's parameters: the JSON body of a write, else the query string. */
function params(req: FaultRequest): Record<string, unknown> {
  if (req.method !== 'GET' && req.method !== 'DELETE' && req.json && typeof req.json === 'object') return req.json;
  return Object.fromEntries(req.query);
}
/** A request a fault changed on its way in (so that its response hook changes the answer too). */
type Marked = FaultRequest & { marked?: string | boolean };

// --- spam filter ----------------------------------------------------------------------------

const KEY = '/spamfilter/v1/key';
const SPAM_SETTINGS = '/spamfilter/v1/settings';
const STATS = '/spamfilter/v1/stats';
const KEY_LENGTH = 12;
const INTERVALS = ['60-days', '6-months', 'all'];

const spamSettingKeys = (req: FaultRequest) => ['spamfilter_strictness', 'spamfilter_show_user_comments_approved'].map((n) => req.profile.toTargetSetting(n));

export const spamfilterFaults: Fault[] = [
  {
    id: 'ext.spamfilter.index-missing',
    title: 'has no spamfilter/v1 namespace index route',
    caughtBy: ['spamfilter.index'],
    request: (req) => (req.route === '/spamfilter/v1' ? noRoute() : undefined),
  },
  {
    id: 'ext.spamfilter.key-read-broken',
    title: 'fails on GET /key',
    caughtBy: ['spamfilter.key.read'],
    request: (req) => (req.route === KEY && req.method === 'GET' ? serverError() : undefined),
  },
  {
    id: 'ext.spamfilter.key-wrong-length-accepted',
    title: 'accepts a key of any length (without storing it)',
    caughtBy: ['spamfilter.key.length'],
    request(req) {
      const key = req.json?.key;
      if (req.route === KEY && isWrite(req) && typeof key === 'string' && key.length !== KEY_LENGTH) return json(200, key);
    },
  },
  {
    id: 'ext.spamfilter.key-wrong-length-stored',
    title: 'refuses a key of the wrong length but stores it (padded to 12 characters)',
    caughtBy: ['spamfilter.key.length'],
    request(req) {
      const key = req.json?.key;
      if (req.route === KEY && isWrite(req) && typeof key === 'string' && key.length !== KEY_LENGTH) {
        req.json.key = key.padEnd(KEY_LENGTH, '0').slice(0, KEY_LENGTH);
        (req as Marked).marked = true;
      }
    },
    response(req, res) {
      if ((req as Marked).marked && res.status < 300) Object.assign(res, json(400, { code: 'invalid_key', message: 'The value provided is not a valid and registered API key.', data: { status: 400 } }));
    },
  },
  {
    id: 'ext.spamfilter.key-not-stored',
    title: 'answers success for a 12-character key but does not store it',
    caughtBy: ['spamfilter.key.accept'],
    request(req) {
      const key = req.json?.key;
      if (req.route === KEY && isWrite(req) && typeof key === 'string' && key.length === KEY_LENGTH) return json(200, key);
    },
  },
  {
    id: 'ext.spamfilter.key-delete-broken',
    title: 'fails on DELETE /key',
    // The anonymous DELETE fails too: a server error where a refusal belongs.
    caughtBy: ['spamfilter.key.delete', 'spamfilter.security.key.delete'],
    request: (req) => (req.route === KEY && req.method === 'DELETE' ? serverError() : undefined),
  },
  {
    id: 'ext.spamfilter.key-delete-ignored',
    title: 'answers success on DELETE /key but keeps the key',
    // Anonymous ones too: a DELETE accepted without credentials.
    caughtBy: ['spamfilter.key.delete', 'spamfilter.security.key.delete'],
    request: (req) => (req.route === KEY && req.method === 'DELETE' ? json(200, true) : undefined),
  },
  {
    id: 'ext.spamfilter.settings-non-boolean-accepted',
    title: 'accepts non-boolean settings (answers success without storing)',
    caughtBy: ['spamfilter.settings.type.*'],
    request(req) {
      if (req.route !== SPAM_SETTINGS || !isWrite(req) || !req.json) return;
      if (spamSettingKeys(req).some((k) => k in req.json && !isBooleanish(req.json[k]))) return json(200, { [spamSettingKeys(req)[0]!]: true, [spamSettingKeys(req)[1]!]: true });
    },
  },
  {
    id: 'ext.spamfilter.settings-not-stored',
    title: 'answers success for boolean settings but does not store them',
    caughtBy: ['spamfilter.settings.roundtrip.*'],
    request(req) {
      if (req.route !== SPAM_SETTINGS || !isWrite(req) || !req.json) return;
      const keys = spamSettingKeys(req);
      if (keys.some((k) => typeof req.json[k] === 'boolean')) return json(200, Object.fromEntries(keys.map((k) => [k, req.json[k] ?? true])));
    },
  },
  {
    id: 'ext.spamfilter.stats-query-rejects-documented',
    title: 'refuses GET /stats?interval=6-months',
    caughtBy: ['spamfilter.stats.query'],
    request: (req) => (req.route === STATS && req.query.get('interval') === '6-months' ? invalidParam('interval') : undefined),
  },
  {
    id: 'ext.spamfilter.stats-interval-not-enforced',
    title: 'takes any ?interval= (falls back to all) instead of refusing it',
    caughtBy: ['spamfilter.stats.query-enum'],
    request(req) {
      const v = req.query.get('interval');
      if (req.route === STATS && v !== null && !INTERVALS.includes(v)) req.query.delete('interval');
    },
  },
  {
    id: 'ext.spamfilter.stats-path-rejects-documented',
    title: 'has no /stats/<interval> route for the documented intervals',
    caughtBy: ['spamfilter.stats.path'],
    request: (req) => (INTERVALS.some((v) => req.route === `${STATS}/${v}`) ? noRoute() : undefined),
  },
  {
    id: 'ext.spamfilter.stats-path-permissive',
    title: 'answers /stats/<interval> for any interval (as all)',
    caughtBy: ['spamfilter.stats.path-enum'],
    request(req) {
      const m = /^\/spamfilter\/v1\/stats\/([^/]+)$/.exec(req.route);
      if (m && !INTERVALS.includes(decodeURIComponent(m[1]!))) req.route = `${STATS}/all`;
    },
  },
  {
    id: 'ext.spamfilter.stats-default-wrong',
    title: 'defaults the statistics interval to 60-days',
    caughtBy: ['spamfilter.stats.default'],
    request(req) {
      if (req.route === STATS && req.method === 'GET' && !req.query.has('interval')) req.query.set('interval', '60-days');
    },
  },
  {
    id: 'ext.spamfilter.writes-refused',
    title: 'refuses every write of the key and the settings (400 rest_invalid_param), valid or not',
    caughtBy: ['spamfilter.key.length', 'spamfilter.key.accept', 'spamfilter.settings.*'],
    request(req) {
      if ((req.route === KEY || req.route === SPAM_SETTINGS) && isWrite(req)) return invalidParam(req.route === KEY ? 'key' : 'settings');
    },
  },
  {
    id: 'ext.spamfilter.stats-refuse-all',
    title: 'refuses every statistics request (400 rest_invalid_param naming interval), whatever the interval',
    caughtBy: ['spamfilter.stats.*'],
    request: (req) => (req.route === STATS || req.route.startsWith(`${STATS}/`) ? invalidParam('interval') : undefined),
  },
];

// --- contact forms --------------------------------------------------------------------------

const FORMS = '/contactform/v1/contact-forms';
const FORM_ITEM = /^\/contactform\/v1\/contact-forms\/(\d+)$/;
const FORM_ANY = /^\/contactform\/v1\/contact-forms\/(\d+)(\/.*)?$/;

export const contactformFaults: Fault[] = [
  {
    id: 'ext.contactform.index-missing',
    title: 'has no contactform/v1 namespace index route',
    caughtBy: ['contactform.index'],
    request: (req) => (req.route === '/contactform/v1' ? noRoute() : undefined),
  },
  {
    id: 'ext.contactform.routes-missing',
    title: 'lacks the list, feedback, feedback/schema and refill routes',
    caughtBy: ['contactform.forms.list', 'contactform.forms.feedback', 'contactform.forms.feedback-schema', 'contactform.forms.refill'],
    request(req) {
      if (req.route === FORMS && req.method === 'GET') return noRoute();
      const m = FORM_ANY.exec(req.route);
      if (m && m[2]) return noRoute();
    },
  },
  {
    id: 'ext.contactform.create-without-id',
    title: 'answers a created form without its id',
    caughtBy: ['contactform.forms.create'],
    response(req, res) {
      if (req.route === FORMS && req.method === 'POST' && res.json && typeof res.json === 'object') delete res.json.id;
    },
  },
  {
    id: 'ext.contactform.read-broken',
    title: 'fails on GET /contact-forms/<id>',
    caughtBy: ['contactform.forms.read'],
    response(req, res) {
      if (FORM_ITEM.test(req.route) && req.method === 'GET' && res.status === 200) Object.assign(res, serverError());
    },
  },
  {
    id: 'ext.contactform.patch-missing',
    title: 'does not take PATCH on /contact-forms/<id>',
    caughtBy: ['contactform.forms.update'],
    request: (req) => (FORM_ITEM.test(req.route) && req.method === 'PATCH' ? noRoute() : undefined),
  },
  {
    id: 'ext.contactform.title-not-updated',
    title: 'ignores the title on update',
    caughtBy: ['contactform.forms.update-readback'],
    request(req) {
      if (FORM_ITEM.test(req.route) && isWrite(req) && req.json) delete req.json.title;
    },
  },
  {
    // As Contact Form 7 does without context "save": the answer shows the form as updated, nothing is stored.
    id: 'ext.contactform.update-dry-run',
    title: 'answers POST, PUT and PATCH /contact-forms/<id> as if the form were updated, storing nothing (a dry run)',
    caughtBy: ['contactform.forms.update-readback'],
    request(req) {
      if (FORM_ITEM.test(req.route) && isWrite(req) && req.json && typeof req.json === 'object') delete req.json.context;
    },
  },
  {
    id: 'ext.contactform.form-not-deleted',
    title: 'answers success on DELETE /contact-forms/<id> but keeps the form',
    caughtBy: ['contactform.forms.delete'],
    request: (req) => (FORM_ITEM.test(req.route) && req.method === 'DELETE' ? json(200, { deleted: true }) : undefined),
  },
  {
    id: 'ext.contactform.missing-id-accepted',
    title: 'answers 200 on every item route whatever the form id (no refusal at all)',
    caughtBy: ['contactform.forms.missing-id.*'],
    response(req, res) {
      if (FORM_ANY.test(req.route) && res.status >= 400 && res.status < 500) Object.assign(res, json(200, {}));
    },
  },
  {
    id: 'ext.contactform.items-not-found',
    title: 'answers every request for a form by id 404 wpcf7_not_found, whether the form exists or not',
    caughtBy: [
      'contactform.forms.missing-id.*',
      'contactform.forms.read',
      'contactform.forms.update',
      // (update-readback skips, depending on contactform.forms.read: the form cannot be read back)
      'contactform.forms.feedback',
      'contactform.forms.feedback-submit',
      'contactform.forms.feedback-schema',
      'contactform.forms.refill',
    ],
    request: (req) => (FORM_ANY.test(req.route) ? json(404, { code: 'wpcf7_not_found', message: 'The requested contact form was not found.', data: { status: 404 } }) : undefined),
  },
  {
    id: 'ext.contactform.feedback-without-status',
    title: 'answers a submission 200 without a status or the invalid fields',
    caughtBy: ['contactform.forms.feedback-submit'],
    response(req, res) {
      if (/^\/contactform\/v1\/contact-forms\/\d+\/feedback$/.test(req.route) && res.status === 200) res.json = { contact_form_id: res.json?.contact_form_id };
    },
  },
  {
    id: 'ext.contactform.not-listed',
    title: 'lists no forms',
    caughtBy: ['contactform.forms.listed'],
    response(req, res) {
      if (req.route === FORMS && req.method === 'GET' && res.status === 200) res.json = [];
    },
  },
];

// --- suite: settings and modules ------------------------------------------------------------

const SUITE_SETTINGS = '/suite/v4/settings';
const settingByTarget = (req: FaultRequest, key: string) => catalog.settings.find((s) => req.profile.toTargetSetting(s.name) === key);
const isModuleKey = (req: FaultRequest, key: string) => catalog.modules.some((m) => req.profile.toTargetModule(m.slug) === key);

/** Setting keys of a POST /settings body that violate `check`. */
function violating(req: FaultRequest, check: (s: (typeof catalog.settings)[number], v: unknown) => boolean): string[] {
  if (req.route !== SUITE_SETTINGS || !isWrite(req) || !req.json || typeof req.json !== 'object') return [];
  return Object.keys(req.json).filter((k) => {
    const s = settingByTarget(req, k);
    return s !== undefined && check(s, req.json[k]);
  });
}

const nonBooleanTypeIds = catalog.settings.filter((s) => s.type !== 'boolean').map((s) => `suite.settings.type.${s.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`);

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

// --- suite: routes and their parameters ---------------------------------------------------------

const suiteRoutes = catalog.routes.filter((r) => r.namespace === 'suite/v4');

/** A regular expression for a documented route shape, with a capture per segment parameter. */
function shapeRe(route: RouteSpec): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const src = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<([a-z_]+)>/g, (_m, n: string) => {
    names.push(n);
    // A plugin is named by its folder and file ("akismet/akismet.php").
    return n === 'plugin' ? '(.+)' : '([^/]+)';
  });
  return { re: new RegExp(`^${src}$`), names };
}

const patterned = suiteRoutes
  .filter((r) => Object.values(r.params ?? {}).some((p) => p.pattern))
  .map((route) => ({ route, ...shapeRe(route) }));

function requiredMissing(req: FaultRequest): string | undefined {
  const route = suiteRoutes.find((r) => shapeRe(r).re.test(req.route));
  const endpoint = route?.endpoints.find((e) => (e.methods as string[]).includes(req.method));
  if (!endpoint || endpoint.args === 'not-shown' || /\/module\/[^/]+\/active$|\/module\/all\/active$/.test(req.route)) return undefined;
  const p = params(req);
  return Object.entries(endpoint.args).find(([n, a]) => a.required === true && !('default' in a) && (p[n] === undefined || p[n] === null))?.[0];
}

function badArg(req: FaultRequest, which: 'type' | 'enum'): string | undefined {
  const route = suiteRoutes.find((r) => shapeRe(r).re.test(req.route));
  if (!route || ['suite.settings', 'suite.module.item', 'suite.module.all.active', 'suite.module.active'].includes(route.id)) return undefined;
  const endpoint = route.endpoints.find((e) => (e.methods as string[]).includes(req.method));
  if (!endpoint || endpoint.args === 'not-shown') return undefined;
  const p = params(req);
  return Object.entries(endpoint.args).find(([n, a]: [string, ArgSpec]) => {
    if (p[n] === undefined) return false;
    if (which === 'enum') return (a.enum && !a.enum.includes(p[n] as string)) || (a.pattern && a.type === 'string' && !new RegExp(a.pattern).test(String(p[n])));
    const type = Array.isArray(a.type) ? undefined : a.type;
    return type !== undefined && type !== 'text' && !fitsAfterCoercion(type, p[n]);
  })?.[0];
}

/** The parameter routes' endpoints that have documented arguments (the refusal checks of suite.params.*), by route and method. */
const parameterEndpoints = suiteRoutes
  .filter((r) => !['suite.index', 'suite.settings', 'suite.module.item', 'suite.module.all.active', 'suite.module.active'].includes(r.id))
  .flatMap((route) => route.endpoints.filter((e) => e.args !== 'not-shown' && Object.keys(e.args).length).map((endpoint) => ({ route, endpoint, ...shapeRe(route) })));
const parameterRequest = (req: FaultRequest) => parameterEndpoints.find((p) => p.re.test(req.route) && (p.endpoint.methods as string[]).includes(req.method));
/** Routes whose every valid request changes the site for good: their refusal checks name the parameter instead of sending one (suite.params.spec.ts). */
const NO_HARMLESS_CONTROL = ['suite.licensing.set-license.update', 'suite.licensing.user.activation-notice-dismiss.update'];

/**
 * GETs the read fault leaves working: the index, /settings and /module/<slug> (checked by other
 * faults), the two routes that tell whether the target is connected, and /plugins (which names
 * the plugin that /plugin/<plugin> is read with).
 */
const READS_KEPT = ['suite.index', 'suite.settings', 'suite.module.item', 'suite.connection.test', 'suite.site', 'suite.plugins.collection'];

export const suiteRouteFaults: Fault[] = [
  {
    id: 'ext.suite.index-missing',
    title: 'has no suite/v4 namespace index route',
    caughtBy: ['suite.index'],
    request: (req) => (req.route === '/suite/v4' ? noRoute() : undefined),
  },
  {
    id: 'ext.suite.reads-broken',
    title: 'fails on GET of every documented suite route but /connection/test, /site, /plugins, /settings and /module/<slug>',
    caughtBy: suiteRoutes
      .filter((r) => r.endpoints.some((e) => e.methods.includes('GET')) && !READS_KEPT.includes(r.id))
      .map((r) => `suite.read.${r.id.replace(/^suite\./, '')}`),
    request(req) {
      if (req.method !== 'GET') return;
      const route = suiteRoutes.find((r) => shapeRe(r).re.test(req.route));
      if (route && !READS_KEPT.includes(route.id)) return serverError();
    },
  },
  {
    id: 'ext.suite.plugins-list-broken',
    title: 'fails on GET /plugins',
    caughtBy: ['suite.read.plugins.collection'],
    request: (req) => (req.route === '/suite/v4/plugins' && req.method === 'GET' ? serverError() : undefined),
  },
  {
    id: 'ext.suite.connection-test-broken',
    title: 'fails on GET /connection/test while the external service answers (GET /site)',
    caughtBy: ['suite.read.connection.test'],
    request: (req) => (req.route === '/suite/v4/connection/test' && req.method === 'GET' ? serverError() : undefined),
  },
  {
    id: 'ext.suite.site-broken',
    title: 'fails on GET /site while the connection test passes',
    caughtBy: ['suite.read.site'],
    request: (req) => (req.route === '/suite/v4/site' && req.method === 'GET' ? serverError() : undefined),
  },
  {
    id: 'ext.suite.module-unknown',
    title: 'does not know the latex module (404 on its routes, no toggle on GET /settings)',
    caughtBy: ['suite.read.module.item', 'suite.modules.value.latex'],
    request(req) {
      if (req.route.startsWith(`/suite/v4/module/${req.profile.toTargetModule('latex')}`))
        return json(404, { code: 'not_found', message: 'The requested module was not found.', data: { status: 404 } });
    },
    response(req, res) {
      if (req.route === SUITE_SETTINGS && req.method === 'GET' && res.json && typeof res.json === 'object') delete res.json[req.profile.toTargetModule('latex')];
    },
  },
  {
    id: 'ext.suite.route-pattern-permissive',
    title: 'answers route segments outside their documented characters (digits in <slug>, letters in <id>, ...)',
    caughtBy: ['suite.pattern.*'],
    request(req) {
      for (const { route, re, names } of patterned) {
        const m = re.exec(req.route);
        if (!m) continue;
        const outside = names.some((n, i) => {
          const pattern = route.params?.[n]?.pattern;
          return pattern !== undefined && !new RegExp(`^(?:${pattern})$`).test(decodeURIComponent(m[i + 1]!));
        });
        if (outside) return json(200, { code: 'success' });
      }
    },
  },
  {
    id: 'ext.suite.required-param-not-enforced',
    title: 'accepts requests to the parameter routes without their required parameters',
    caughtBy: ['suite.params.required.*'],
    request: (req) => (requiredMissing(req) ? success() : undefined),
  },
  {
    id: 'ext.suite.param-type-not-enforced',
    title: 'accepts parameters of the wrong type on the parameter routes',
    caughtBy: ['suite.params.type.*'],
    request: (req) => (badArg(req, 'type') ? success() : undefined),
  },
  {
    id: 'ext.suite.param-enum-not-enforced',
    title: 'accepts values outside a parameter\'s enum or pattern (plugins status, slug)',
    caughtBy: ['suite.params.enum.*', 'suite.params.pattern.*'],
    request: (req) => (badArg(req, 'enum') ? success() : undefined),
  },
  {
    id: 'ext.suite.param-routes-missing',
    title: 'has none of the parameter routes (404 rest_no_route for each documented method that takes parameters)',
    caughtBy: ['suite.params.*'],
    request: (req) => (parameterRequest(req) ? noRoute() : undefined),
  },
  {
    id: 'ext.suite.params-refuse-all',
    title: 'refuses every request to the parameter routes the same way (400 rest_invalid_param), valid or not',
    caughtBy: parameterEndpoints
      .filter((p) => !NO_HARMLESS_CONTROL.includes(p.endpoint.id))
      .flatMap((p) => ['required', 'type', 'enum', 'pattern'].map((k) => `suite.params.${k}.${p.endpoint.id.replace(/^suite\./, '')}.*`)),
    request: (req) => (parameterRequest(req) ? invalidParam('cmsc') : undefined),
  },
  {
    id: 'ext.suite.pattern-routes-refuse-all',
    title: 'refuses every request to the routes with documented path segments the same way (400), whatever the segment',
    caughtBy: ['suite.pattern.*'],
    request: (req) => (patterned.some((p) => p.re.test(req.route)) ? invalidParam('cmsc') : undefined),
  },
  {
    id: 'ext.suite.param-errors-unnamed',
    title: 'refuses bad parameters without naming them',
    caughtBy: ['suite.params.names-param.*'],
    response(req, res) {
      if (req.route.startsWith('/suite/v4/') && res.status === 400 && res.json?.data) delete res.json.data.params;
    },
  },
];

// --- suite: the module route's settings, the toggles' types, every write method, read defaults ------

const MODULE_ROUTE = /^\/suite\/v4\/module\/(?!all$)[a-z-]+$/;
/** Write routes exercised by suite.methods.* (every suite endpoint with a write method but the settings and module ones). */
const METHOD_ROUTES = suiteRoutes
  .filter((r) => r.endpoints.some((e) => e.methods.some((m) => m !== 'GET') && !['suite.settings.update', 'suite.module.item.update', 'suite.module.active.update'].includes(e.id)))
  .map((r) => new RegExp(`^${r.path.replace(/<[^>]+>/g, '.+')}$`));
const isMethodRoute = (req: FaultRequest) => req.method !== 'GET' && METHOD_ROUTES.some((re) => re.test(req.route)) && !MODULE_ROUTE.test(req.route) && req.route !== SUITE_SETTINGS;
/** Setting and toggle keys of a POST /module/<slug> body that violate `check` (a toggle as a boolean). */
function violatingOnModuleRoute(req: FaultRequest, toggles: boolean, check: (type: DeclaredType, enumValues: readonly string[] | undefined, v: unknown) => boolean): string[] {
  if (!MODULE_ROUTE.test(req.route) || !isWrite(req) || !req.json || typeof req.json !== 'object') return [];
  return Object.keys(req.json).filter((k) => {
    if (isModuleKey(req, k)) return toggles && check('boolean', undefined, req.json[k]);
    const s = settingByTarget(req, k);
    return s !== undefined && check(s.type, s.enum, req.json[k]);
  });
}

const OTHER_NAMESPACES = catalog.namespaces.extensions.filter((n) => !catalog.namespaces.core.includes(n) && !['spamfilter/v1', 'contactform/v1', 'suite/v4'].includes(n)).map((n) => `/${n}`);

export const suiteCoverageFaults: Fault[] = [
  {
    id: 'ext.namespaces-missing',
    title: 'advertises the other extension namespaces (cloud/v2, suite/v4/stats-app ...) but serves none of their indexes (404 rest_no_route)',
    caughtBy: ['namespaces.*'],
    request: (req) => (req.method === 'GET' && OTHER_NAMESPACES.includes(req.route) ? noRoute() : undefined),
  },
  {
    id: 'ext.index-defaults-wrong',
    title: 'answers the extension namespace indexes without context as if context were edit (an extra field)',
    caughtBy: ['spamfilter.index.defaults', 'contactform.index.defaults', 'suite.index.defaults'],
    response(req, res) {
      if (req.method === 'GET' && ['/spamfilter/v1', '/contactform/v1', '/suite/v4'].includes(req.route) && !req.query.has('context') && res.json && typeof res.json === 'object')
        res.json.cmsc_context = 'edit';
    },
  },
  {
    id: 'ext.suite.module-route-wrong-type-accepted',
    title: 'accepts a setting of the wrong type, or outside its allowed values, written through POST /module/<slug> (answers success without storing)',
    caughtBy: ['suite.settings.module-route.*'],
    request: (req) =>
      violatingOnModuleRoute(req, false, (type, values, v) => !fitsAfterCoercion(type, v) || (!!values && typeof v === 'string' && !values.includes(v))).length ? success() : undefined,
  },
  {
    id: 'ext.suite.module-route-refuse-all',
    title: 'refuses every write to /module/<slug> (400 rest_invalid_param naming the first key), valid or not',
    caughtBy: ['suite.settings.module-route.*', 'suite.modules.toggle-type.*'],
    request: (req) => (MODULE_ROUTE.test(req.route) && isWrite(req) ? invalidParam(Object.keys(req.json ?? {})[0] ?? 'x') : undefined),
  },
  {
    id: 'ext.suite.toggle-wrong-type-accepted',
    title: 'accepts a module toggle that is not a boolean on POST /settings and POST /module/<slug> (answers success, changes nothing)',
    caughtBy: ['suite.modules.toggle-type.*'],
    request(req) {
      if (req.route === SUITE_SETTINGS && isWrite(req) && req.json && typeof req.json === 'object' && Object.keys(req.json).some((k) => isModuleKey(req, k) && !isBooleanish(req.json[k]))) return success();
      if (violatingOnModuleRoute(req, true, (type, _values, v) => !fitsAfterCoercion(type, v)).length) return success();
    },
  },
  {
    id: 'ext.suite.write-methods-missing',
    title: 'has none of the write methods of the suite write routes (404 rest_no_route for every POST, PUT, PATCH and DELETE)',
    caughtBy: ['suite.methods.*'],
    request: (req) => (isMethodRoute(req) ? noRoute() : undefined),
  },
  {
    id: 'ext.suite.write-methods-refuse-all',
    title: 'refuses every write to the suite write routes the same way (400 rest_invalid_param naming x)',
    caughtBy: ['suite.methods.*'],
    request: (req) => (isMethodRoute(req) ? invalidParam('x') : undefined),
  },
  {
    id: 'ext.suite.read-defaults-wrong',
    title: 'takes range as week when GET /module/<slug>/data omits it, and api_key as a 12-character key when POST /module/<service>/key/check omits it',
    caughtBy: ['suite.defaults.*'],
    request(req) {
      if (req.method === 'GET' && /^\/suite\/v4\/module\/[a-z-]+\/data$/.test(req.route) && !req.query.has('range')) req.query.set('range', 'week');
      if (isWrite(req) && /^\/suite\/v4\/module\/[^/]+\/key\/check$/.test(req.route)) {
        req.json = req.json && typeof req.json === 'object' ? req.json : {};
        if (!('api_key' in req.json)) req.json.api_key = 'cmscdefault1';
      }
    },
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
      ...catalog.settings.filter((x) => 'default' in x && x.name !== 'cloud_newsletter_categories').map((x) => `suite.settings.default.${x.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`),
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

// --- anonymous access (issue 26) ---------------------------------------------------------------

/**
 * A server that serves anonymous requests as if they came from the site's administrator: the
 * proxy remembers the Authorization header of the last authenticated request and adds it to the
 * anonymous reads (GET) or writes (any other method) of one namespace. Caught by the SECURITY
 * behaviours of suites/extensions/security.spec.ts (the anonymous request is answered, or answered
 * exactly as the authenticated one).
 */
function anonymousServed(id: string, title: string, routePrefix: string, kind: 'reads' | 'writes', caughtBy: string[]): Fault {
  let auth: string | undefined;
  return {
    id,
    title,
    caughtBy,
    request(req) {
      if (req.authenticated) {
        auth = String(req.headers.authorization);
        return;
      }
      if (!auth || !req.route.startsWith(routePrefix) || (req.method === 'GET') !== (kind === 'reads')) return;
      req.headers.authorization = auth;
    },
  };
}

/** `<ns>.security.<endpoint>` of the endpoints the reference implementation refuses anonymously: reads (GET) or writes. */
function securityBehaviours(ns: 'spamfilter' | 'contactform' | 'suite', reads: boolean, only?: (routeId: string) => boolean): string[] {
  return catalog.routes
    .filter((r) => r.id.startsWith(`${ns}.`) && (!only || only(r.id)))
    .flatMap((r) => r.endpoints)
    .filter((e) => extensionAnonymousAccess[e.id]?.public === false && e.methods.includes('GET') === reads)
    .map((e) => `${ns}.security.${e.id.slice(ns.length + 1)}`);
}

const namespaceFault = (ns: 'spamfilter' | 'contactform' | 'suite', kind: 'reads' | 'writes', except: string[] = []): Fault =>
  anonymousServed(
    `ext.${ns}.anonymous-${kind}-served`,
    `serves anonymous ${kind === 'reads' ? 'reads (GET)' : 'writes (POST, PUT, PATCH, DELETE)'} of every ${ns} route as if the administrator had sent them`,
    `/${catalog.routes.find((r) => r.id === `${ns}.index`)!.namespace}/`,
    kind,
    securityBehaviours(ns, kind === 'reads').filter((b) => !except.includes(b)),
  );

export const anonymousAccessFaults: Fault[] = [
  // Proven on the embedded WordPress (Akismet), where /stats/<interval> does not exist (spamfilter.stats.path):
  // that route's read is named by the next fault, proven on the reference server.
  namespaceFault('spamfilter', 'reads', ['spamfilter.security.stats.interval.read']),
  anonymousServed(
    'ext.spamfilter.anonymous-stats-served',
    'serves the spam filter statistics (/stats, /stats/<interval>) to anonymous requests',
    '/spamfilter/v1/stats',
    'reads',
    securityBehaviours('spamfilter', true, (id) => id.startsWith('spamfilter.stats')),
  ),
  namespaceFault('spamfilter', 'writes'),
  namespaceFault('contactform', 'reads'),
  namespaceFault('contactform', 'writes'),
  namespaceFault('suite', 'reads'),
  namespaceFault('suite', 'writes'),
];

export const extensionFaults: Fault[] = [...spamfilterFaults, ...contactformFaults, ...suiteSettingsFaults, ...suiteModuleFaults, ...suiteRouteFaults, ...suiteCoverageFaults, ...freshSiteFaults, ...anonymousAccessFaults];
