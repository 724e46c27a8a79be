/**
 * Behaviours of one suite/v4 setting (extensions part 2 › Suite module settings): a valid value
 * of its type round-trips through `POST /suite/v4/settings` and reads back on `GET`; a value of
 * the wrong type, or outside the allowed values, is refused and not stored. Every value changed is
 * read first and written back afterwards, also when the check fails.
 *
 * Declared from two files: suite.settings.spec.ts (every setting), and spamfilter.spec.ts for the
 * settings that share their storage with `spamfilter/v1/settings` (so that the two never run at
 * the same time: suite files run in parallel).
 */
import { catalog, endpointById } from '../../schemas/catalog/index.ts';
import type { SettingSpec } from '../../schemas/types.ts';
import { behaviour, type BehaviourContext } from '../../src/behaviour.ts';
import {
  OUTSIDE_ENUM,
  SUITE,
  asBoolean,
  brief,
  exclusive,
  expectAnswered,
  expectRefused,
  hasType,
  idPart,
  sameValue,
  show,
  withRestore,
  wrongTypeValues,
} from './support.ts';

export const SETTINGS = '/suite/v4/settings';
const SECTION = catalog.settings[0]!.spec;
const WRITE = endpointById('suite.settings.update');

/** Settings stored together with a spam filter setting of the same name (spamfilter/v1/settings). */
export const sharesSpamfilterStorage = (s: SettingSpec): boolean => s.name.startsWith('spamfilter_');

/** GET /suite/v4/settings, answered 2xx, as an object. */
export async function readSettings(t: BehaviourContext): Promise<Record<string, unknown>> {
  const res = await t.client.get(SETTINGS);
  expectAnswered(t, res, `GET ${SETTINGS}`);
  if (!res.body || typeof res.body !== 'object' || Array.isArray(res.body)) t.fail(`GET ${SETTINGS} answered ${show(res.body)}, not an object of settings`);
  return res.body;
}

/** The current value of a setting (by spec name) on GET /settings; fails when it is absent. */
export async function currentValue(t: BehaviourContext, s: SettingSpec): Promise<unknown> {
  const all = await readSettings(t);
  const key = t.run.profile.toTargetSetting(s.name);
  if (!Object.prototype.hasOwnProperty.call(all, key)) t.fail(`GET ${SETTINGS} has no ${key}`);
  return all[key];
}

export async function writeSetting(t: BehaviourContext, s: SettingSpec, value: unknown) {
  return t.client.post(SETTINGS, { [t.run.profile.toTargetSetting(s.name)]: value });
}

/** Write `original` back if the setting no longer holds it. Returns a problem, or undefined. */
async function restoreSetting(t: BehaviourContext, s: SettingSpec, original: unknown): Promise<string | undefined> {
  const key = t.run.profile.toTargetSetting(s.name);
  const now = await t.client.get(SETTINGS);
  if (now.status >= 200 && now.status < 300 && sameValue(s.type, now.body?.[key], original)) return undefined;
  const res = await writeSetting(t, s, original);
  if (res.status < 200 || res.status > 299) return `POST ${SETTINGS} {${key}: ${show(original)}} answered ${brief(res)}`;
  return undefined;
}

/**
 * Sample values of a setting, in order of preference: values a site accepts in practice (role
 * names, post types, sharing service IDs), then the documented default. The first one that
 * differs from the current value is written.
 */
function candidates(s: SettingSpec, current: unknown): unknown[] {
  const out: unknown[] = [];
  switch (s.type) {
    case 'boolean':
      return [!(asBoolean(current) ?? false)];
    case 'string':
      if (s.enum) return [...s.enum];
      return ['cmscroundtrip', 'cmscroundtrip2'];
    case 'integer':
      return [typeof current === 'number' ? current + 1 : 11, 12];
    case 'array':
      if (s.items?.type === 'string') out.push(s.name === 'show' ? ['post', 'page'] : ['administrator', 'editor'], ['administrator']);
      else out.push([1], []);
      break;
    case 'object': {
      const keys = s.keys ?? [];
      if (s.name === 'sharing_services') out.push({ visible: ['print', 'email'], hidden: [] }, { visible: ['email'], hidden: ['print'] });
      else if (s.name === 'advanced_seo_title_formats')
        out.push(Object.fromEntries(keys.map((k, i) => [k, i === 0 ? [{ type: 'string', value: 'cmsc' }] : []])));
      else out.push(Object.fromEntries(keys.map((k) => [k, `cmsc ${k.replace(/_/g, ' ')}`])));
      break;
    }
  }
  if ('default' in s) out.push(s.default);
  return out;
}

export interface DeclareOptions {
  concurrent: boolean;
}

/** The behaviours of every setting that `filter` selects. */
export function declareSettingBehaviours(filter: (s: SettingSpec) => boolean, opts: DeclareOptions): void {
  const ids = new Set<string>();
  for (const s of catalog.settings.filter(filter)) {
    const id = idPart(s.name);
    if (ids.has(id)) throw new Error(`two settings map to the behaviour ID part ${id}`);
    ids.add(id);
    const common = { level: 'MUST' as const, namespace: SUITE, route: SETTINGS, spec: SECTION, covers: [s.id, `endpoint:${WRITE.endpoint.id}`] };

    behaviour(
      { ...common, id: `suite.settings.roundtrip.${id}`, title: `a valid ${s.type} written to ${s.name} through POST /settings reads back on GET /settings` },
      (t) => exclusive([settingLock(s.name)], () => roundtrip(t, s)),
      { concurrent: opts.concurrent },
    );

    const wrong = wrongTypeValues(s.type);
    if (wrong.length)
      behaviour(
        { ...common, id: `suite.settings.type.${id}`, title: `${s.name}: a value that is not a ${s.type} is refused and not stored` },
        (t) => exclusive([settingLock(s.name)], () => refusedAndNotStored(t, s, wrong, `not a ${s.type}`)),
        { concurrent: opts.concurrent },
      );

    if (s.enum)
      behaviour(
        { ...common, id: `suite.settings.enum.${id}`, title: `${s.name}: a value outside ${s.enum.join(', ')} is refused and not stored` },
        (t) => exclusive([settingLock(s.name)], () => refusedAndNotStored(t, s, [OUTSIDE_ENUM], `outside the allowed values`)),
        { concurrent: opts.concurrent },
      );
  }
}

/** The lock of a setting's value (support.ts `exclusive`). */
export const settingLock = (name: string) => `setting:${name}`;

async function roundtrip(t: BehaviourContext, s: SettingSpec): Promise<void> {
  t.requireNamespace(SUITE);
  t.requireCredentials();
  t.requireWrites();
  const original = await currentValue(t, s);
  if (!hasType(s.type, original)) t.fail(`GET ${SETTINGS} answers ${s.name} = ${show(original)}, not a ${s.type}`);
  if (s.enum && !s.enum.includes(original as string)) t.fail(`GET ${SETTINGS} answers ${s.name} = ${show(original)}, not one of the allowed values ${s.enum.join(', ')}`);
  const value = candidates(s, original).find((v) => !sameValue(s.type, v, original));
  if (value === undefined) throw new Error(`no sample value of ${s.name} differs from ${show(original)}`);
  await withRestore(
    async () => {
      const res = await writeSetting(t, s, value);
      expectAnswered(t, res, `POST ${SETTINGS} {${s.name}: ${show(value)}}`);
      const after = await currentValue(t, s);
      if (!sameValue(s.type, after, value))
        t.fail(`wrote ${s.name} = ${show(value)} (answered ${res.status}); GET ${SETTINGS} reads back ${show(after)}`);
    },
    () => restoreSetting(t, s, original),
  );
}

async function refusedAndNotStored(t: BehaviourContext, s: SettingSpec, values: unknown[], why: string): Promise<void> {
  t.requireNamespace(SUITE);
  t.requireCredentials();
  t.requireWrites();
  const original = await currentValue(t, s);
  await withRestore(
    async () => {
      for (const v of values) {
        const res = await writeSetting(t, s, v);
        if (!(res.status >= 400 && res.status < 500)) t.counterexample({ [s.name]: v });
        expectRefused(t, res, `POST ${SETTINGS} {${s.name}: ${show(v)}} (${why})`);
      }
      const after = await currentValue(t, s);
      if (!sameValue(s.type, after, original))
        t.fail(`the refused values changed ${s.name}: it was ${show(original)}, GET ${SETTINGS} now reads ${show(after)}`);
    },
    () => restoreSetting(t, s, original),
  );
}
