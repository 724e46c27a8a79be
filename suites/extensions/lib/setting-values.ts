/**
 * What a suite/v4 setting's values mean: when two are the same (booleans as 0/1, lists in any
 * order, sharing_services by its identifiers), the form one is written back in, and the values the
 * target can accept, most trustworthy first (samples).
 */
import type { SettingSpec } from '../../../schemas/types.ts';
import { asBoolean, hasType } from '../../../schemas/values.ts';
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { advertisedEndpoint, deepEqual, findAdvertisedRoute, isObject } from '../../../src/sdk/discovery.ts';
import { SETTINGS } from './settings-route.ts';

/**
 * The service identifiers of a `sharing_services` list: "visible: two service identifiers,
 * hidden: []" — the spec calls the content service identifiers without saying whether they come
 * as a list or as an object keyed by identifier (the reference implementation reads them back
 * keyed), so both read as the same identifiers.
 */
export function serviceIds(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map(String).sort();
  if (isObject(v)) return Object.keys(v).sort();
  return undefined;
}

/**
 * Two values of a setting mean the same: booleans as 0/1/true/false (part 2), arrays of scalars in
 * any order, `sharing_services` by the identifiers in visible and hidden, an object setting with
 * named keys by those keys (the spec names the keys of the default, not "no other keys"), else
 * equal.
 */
export function sameValue(s: Pick<SettingSpec, 'type' | 'name' | 'keys'>, a: unknown, b: unknown): boolean {
  if (s.type === 'boolean') return asBoolean(a) !== undefined && asBoolean(a) === asBoolean(b);
  if (s.type === 'array' && Array.isArray(a) && Array.isArray(b) && a.every(isScalar) && b.every(isScalar))
    return a.length === b.length && [...a].map(String).sort().join('\u0000') === [...b].map(String).sort().join('\u0000');
  if (s.name === 'sharing_services' && isObject(a) && isObject(b))
    return ['visible', 'hidden'].every((k) => deepEqual(serviceIds(a[k]), serviceIds(b[k])) && serviceIds(a[k]) !== undefined);
  if (s.type === 'object' && s.keys && isObject(a) && isObject(b)) return s.keys.every((k) => deepEqual(a[k], b[k]));
  return deepEqual(a, b);
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** The form in which a value read from GET /settings is written back (sharing_services: lists of identifiers). */
export function writable(s: SettingSpec, v: unknown): unknown {
  if (s.name === 'sharing_services' && isObject(v)) return { visible: serviceIds(v.visible) ?? [], hidden: serviceIds(v.hidden) ?? [] };
  return v;
}

interface Sample {
  value: unknown;
  /** Documented by the spec or the target's own; false for a plausible value of an open set. */
  documented: boolean;
}

/** What the target's index advertises for the setting on POST /settings (spec names). */
function advertised(t: BehaviourContext, s: SettingSpec): { enum?: unknown[]; default?: unknown } {
  const entry = findAdvertisedRoute(t.index, SETTINGS)?.entry;
  const arg = advertisedEndpoint(entry, 'POST')?.args?.[s.name];
  if (!isObject(arg)) return {};
  return { ...(Array.isArray(arg.enum) ? { enum: arg.enum } : {}), ...('default' in arg ? { default: arg.default } : {}) };
}

/** A plausible value of an open set: one the spec does not document, changing the current value. */
function plausible(s: SettingSpec, current: unknown): unknown[] {
  switch (s.type) {
    case 'string':
    case 'text':
      return ['cmscroundtrip', 'cmscroundtrip2'];
    case 'integer':
      return [typeof current === 'number' ? current + 1 : 11, 12];
    case 'array':
      // Post types where buttons are shown; role names; category identifiers (the spec's words).
      if (s.items?.type === 'string') return s.name === 'show' ? [['post', 'page'], ['page']] : [['administrator', 'editor'], ['editor']];
      return [[1], []];
    case 'object': {
      const keys = s.keys ?? [];
      const base = isObject(current) ? current : {};
      if (s.name === 'advanced_seo_title_formats')
        return [{ ...Object.fromEntries(keys.map((k) => [k, base[k] ?? []])), [keys[0]!]: [{ type: 'string', value: 'cmsc' }] }];
      return [Object.fromEntries(keys.map((k, i) => [k, i === 0 ? (base[k] === 'cmsc text' ? '' : 'cmsc text') : (base[k] ?? '')]))];
    }
    default:
      return [];
  }
}

/**
 * Values to write, most trustworthy first: a boolean's other value; the spec's allowed values and
 * default; the target's advertised allowed values and default; for sharing_services the target's
 * own service identifiers rearranged; then plausible values of an open set.
 */
export function samples(t: BehaviourContext, s: SettingSpec, current: unknown): Sample[] {
  const out: Sample[] = [];
  const add = (value: unknown, documented: boolean) => {
    if (value === undefined || !hasType(s.type, value) || sameValue(s, value, current) || out.some((o) => sameValue(s, o.value, value))) return;
    out.push({ value, documented });
  };
  if (s.type === 'boolean') add(!(asBoolean(current) ?? false), true);
  if ('default' in s) add(structuredClone(s.default), true);
  for (const v of s.enum ?? []) add(v, true);
  const adv = advertised(t, s);
  if (!s.enum) for (const v of adv.enum ?? []) add(v, true);
  if ('default' in adv && (s.name !== 'sharing_services' || isObject(adv.default))) add(adv.default, true);
  if (s.name === 'sharing_services' && isObject(current)) {
    const visible = serviceIds(current.visible) ?? [];
    const hidden = serviceIds(current.hidden) ?? [];
    if (visible.length > 1) add({ visible: visible.slice(1), hidden: [...hidden, visible[0]!] }, true);
    else if (hidden.length) add({ visible: [...visible, hidden[0]!], hidden: hidden.slice(1) }, true);
  }
  // A plausible value only where the current one can be written back: an empty list may be taken
  // as "no change" (the reference implementation ignores an empty list of newsletter
  // categories), so a list written into an empty one could not be undone.
  if (!(Array.isArray(current) && current.length === 0)) for (const v of plausible(s, current)) add(v, false);
  return out;
}
