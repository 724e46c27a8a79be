/**
 * Faults of spamfilter/v1: the key (its length, stored or not, deleted or not), the two boolean
 * settings, and the statistics intervals (query and path).
 */
import { isBooleanish } from '../../schemas/values.ts';
import { invalidParam, noRoute, serverError } from '../kit.ts';
import { json, type Fault, type FaultRequest } from '../proxy.ts';
import { isWrite, type Marked, indexMissing } from './common.ts';

const KEY = '/spamfilter/v1/key';
const SPAM_SETTINGS = '/spamfilter/v1/settings';
const STATS = '/spamfilter/v1/stats';
const KEY_LENGTH = 12;
const INTERVALS = ['60-days', '6-months', 'all'];

const spamSettingKeys = (req: FaultRequest) => ['spamfilter_strictness', 'spamfilter_show_user_comments_approved'].map((n) => req.profile.toTargetSetting(n));

export const spamfilterFaults: Fault[] = [
  indexMissing('spamfilter/v1', 'spamfilter'),
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
