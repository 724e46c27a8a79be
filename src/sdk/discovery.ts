/**
 * Pure comparisons between what a target advertises in its index and what the catalog
 * documents. No I/O: the discovery suite feeds them the (spec-named) index.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { ArgSpec, DeclaredType, IndexFieldSpec } from '../../schemas/types.ts';
import { routeParams, routeShape } from '../../schemas/route-keys.ts';

export { routeParams, routeShape };

export interface Deviation {
  /** The argument, with `.name` for a property of its object form and `[]` for its items ("categories.operator", "include[]"). */
  path: string;
  attribute: string;
  documented?: unknown;
  advertised?: unknown;
  /** The deviation in the spec's words, where the attribute and its values would not say it. */
  message?: string;
}

export function describeDeviation(d: Deviation): string {
  const fmt = (v: unknown) => JSON.stringify(v);
  if (d.message) return `${d.path}: ${d.message}`;
  if (d.attribute === 'presence') return `${d.path}: documented but not advertised`;
  return `${d.path}: ${d.attribute} ${d.advertised === undefined ? 'is not advertised' : `is ${fmt(d.advertised)}`}, documented ${fmt(d.documented)}`;
}

const anonymous = (shape: string) => shape.replace(/<[^>]*>/g, '<>').toLowerCase();

export interface AdvertisedRoute {
  key: string;
  entry: any;
}

/** The index entry of a documented route shape (parameter names may differ; positions may not). */
export function findAdvertisedRoute(index: any, documentedPath: string): AdvertisedRoute | undefined {
  const routes = index?.routes;
  if (!routes || typeof routes !== 'object') return undefined;
  const want = anonymous(documentedPath);
  if (Object.isFrozen(routes)) {
    const shape = shapesOf(routes).get(want);
    return shape && (shape.exact.get(documentedPath) ?? shape.first);
  }
  let best: AdvertisedRoute | undefined;
  for (const [key, entry] of Object.entries(routes)) {
    if (anonymous(routeShape(key)) !== want) continue;
    // Prefer the entry whose parameter names also match.
    if (routeShape(key) === documentedPath) return { key, entry };
    best ??= { key, entry };
  }
  return best;
}

/**
 * The entries of a frozen index's routes by their shape without parameter names: the first of
 * each, and the first of each shape with its names (what findAdvertisedRoute looks for, in the
 * index's order). Made once per index: the run's index is frozen (src/sdk/worker-state.ts) and looked
 * up by every behaviour.
 */
const shapes = new WeakMap<object, Map<string, { first: AdvertisedRoute; exact: Map<string, AdvertisedRoute> }>>();
function shapesOf(routes: object): Map<string, { first: AdvertisedRoute; exact: Map<string, AdvertisedRoute> }> {
  let table = shapes.get(routes);
  if (table) return table;
  table = new Map();
  for (const [key, entry] of Object.entries(routes)) {
    const shape = routeShape(key);
    const found = Object.freeze({ key, entry });
    const group = table.get(anonymous(shape));
    if (!group) table.set(anonymous(shape), { first: found, exact: new Map([[shape, found]]) });
    else if (!group.exact.has(shape)) group.exact.set(shape, found);
  }
  shapes.set(routes, table);
  return table;
}

/** The advertised endpoint of a route that serves a method. */
export function advertisedEndpoint(entry: any, method: string): any | undefined {
  const endpoints: any[] = Array.isArray(entry?.endpoints) ? entry.endpoints : [];
  return endpoints.find((e) => Array.isArray(e?.methods) && e.methods.includes(method));
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function sameSet(a: unknown[], b: unknown[]): boolean {
  const sa = new Set(a.map((x) => JSON.stringify(x)));
  const sb = new Set(b.map((x) => JSON.stringify(x)));
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

/** A JSON object (not null, not an array). */
/**
 * The site's own address, as the site states it in its index (`url`, else `home`): where a check
 * sends the site an address of itself (a redirect URL, a URL argument), it must be the site's, not
 * the base URL the run was given, which may reach the site through a proxy, a tunnel or another
 * host name (the site refuses a redirect to a host that is not its own). The base URL only when the
 * index states neither.
 */
export function siteAddress(index: any, baseUrl: string): string {
  for (const key of ['url', 'home'] as const) {
    const v = index?.[key];
    if (typeof v === 'string' && /^https?:\/\/[^/\s]+/i.test(v)) return v.replace(/\/+$/, '');
  }
  return baseUrl.replace(/\/+$/, '');
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => deepEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  // WordPress serialises an empty PHP array as [] whether it was a list or a map.
  return ka.length === kb.length && ka.every((k) => deepEqual((a as any)[k], (b as any)[k]));
}

/** Defaults are equal when deep-equal; a documented scalar default of an array argument equals a one-item array. */
function sameDefault(doc: ArgSpec, documented: unknown, advertised: unknown): boolean {
  if (deepEqual(documented, advertised)) return true;
  // Boolean defaults may be given as 0/1 (the extension document says so).
  const asBool = (v: unknown) => (v === 1 || v === '1' ? true : v === 0 || v === '0' ? false : v);
  if (asArray(doc.type).includes('boolean') && typeof documented === 'boolean' && asBool(advertised) === documented) return true;
  const isArrayArg = asArray(doc.type).includes('array');
  if (isArrayArg && !Array.isArray(documented) && Array.isArray(advertised)) return deepEqual([documented], advertised);
  if (isArrayArg && Array.isArray(documented) && !Array.isArray(advertised)) return deepEqual(documented, [advertised]);
  return false;
}

/**
 * A documented argument in the spec's words ("array of integer", "object: terms (array of integer,
 * default []), operator (AND or OR, default OR); no other keys"), for messages.
 */
export function specWords(a: ArgSpec): string {
  if (a.oneOf) return a.oneOf.map(specWords).join(', or ');
  const types = asArray<DeclaredType>(a.type);
  let s = types.length === 1 && types[0] === 'array' && a.items ? `array of ${specWords(a.items)}` : types.join(' or ');
  const extra: string[] = [];
  if (a.enum) extra.push(a.enum.join(' or '));
  if (a.minimum !== undefined) extra.push(`minimum ${a.minimum}`);
  if (a.maximum !== undefined) extra.push(`maximum ${a.maximum}`);
  if ('default' in a) extra.push(`default ${typeof a.default === 'string' ? a.default : JSON.stringify(a.default)}`);
  if (extra.length) s = s ? `${s}, ${extra.join(', ')}` : extra.join(', ');
  if (a.properties) s += `: ${Object.entries(a.properties).map(([k, v]) => (specWords(v) ? `${k} (${specWords(v)})` : k)).join(', ')}`;
  if (a.closedProperties) s += '; no other keys';
  return s;
}

/**
 * The alternatives of an advertised descriptor (`oneOf` or `anyOf`), each with the attributes of
 * the descriptor around it (as JSON Schema applies both; WordPress gives an alternative without a
 * type the outer one). Undefined when it has none.
 */
function alternatives(adv: Record<string, any>): Record<string, any>[] | undefined {
  const alts: unknown = Array.isArray(adv.oneOf) ? adv.oneOf : Array.isArray(adv.anyOf) ? adv.anyOf : undefined;
  if (!Array.isArray(alts)) return undefined;
  const { oneOf: _o, anyOf: _a, ...outer } = adv;
  return alts.filter(isObject).map((alt) => {
    const merged: Record<string, any> = { ...outer, ...alt };
    if (alt.type !== undefined && outer.type !== undefined) merged.type = asArray(alt.type).filter((t) => asArray(outer.type).includes(t));
    return merged;
  });
}

/** The JSON types an advertised descriptor admits: its type (a type union admits each), or its alternatives' types. */
function admittedTypes(adv: Record<string, any>): string[] {
  const alts = alternatives(adv);
  if (alts) return [...new Set(alts.flatMap(admittedTypes))];
  return asArray(adv.type).filter((t): t is string => typeof t === 'string');
}

/**
 * How an advertised descriptor treats values of one JSON type: a descriptor of that type (a type
 * union keeps its `items` for arrays and `properties` for objects), or the alternative of `oneOf` /
 * `anyOf` that admits it (one of that type alone first). Undefined when no form admits the type.
 */
function formFor(adv: Record<string, any>, type: string): Record<string, any> | undefined {
  const alts = alternatives(adv);
  if (alts) {
    const admitting = alts.filter((a) => formFor(a, type) !== undefined);
    const pick = admitting.find((a) => sameSet(admittedTypes(a), [type])) ?? admitting[0];
    return pick && formFor(pick, type);
  }
  return asArray(adv.type).includes(type) ? { ...adv, type } : undefined;
}

/** The types of a documented arg as words ("array or object"). */
const typeWords = (types: unknown): string => asArray(types as string | string[]).map((t) => (typeof t === 'string' ? t : JSON.stringify(t))).join(' or ') || 'none';

/**
 * Compare one documented arg with its advertised descriptor. A descriptor is judged by what it
 * admits: `oneOf`, `anyOf` and a type union (`type: ["array","object"]` with `items` and
 * `properties`; core part 1 lists the descriptor keys, `oneOf` not among them) are the same
 * descriptor when they admit the documented forms with their documented attributes.
 */
export function compareArg(path: string, doc: ArgSpec, adv: any): Deviation[] {
  if (adv === undefined || adv === null || typeof adv !== 'object' || Array.isArray(adv)) return [{ path, attribute: 'presence' }];
  const out: Deviation[] = [];
  const dev = (attribute: string, documented: unknown, advertised: unknown, message?: string) =>
    out.push({ path, attribute, documented, advertised, ...(message ? { message } : {}) });

  const admitted = admittedTypes(adv);
  if (doc.type !== undefined && !sameSet(asArray<DeclaredType>(doc.type), admitted)) {
    if (alternatives(adv)) dev('type', doc.type, admitted, `admits ${typeWords(admitted)}, documented ${typeWords(doc.type)}`);
    else dev('type', doc.type, adv.type, `type ${adv.type === undefined ? 'is not advertised' : `is ${typeWords(adv.type)}`}, documented ${typeWords(doc.type)}`);
  }
  if ('default' in doc && !('default' in adv && sameDefault(doc, doc.default, adv.default))) dev('default', doc.default, adv.default);
  if (doc.required === true && adv.required !== true) dev('required', true, adv.required);
  if (doc.required === false && adv.required === true) dev('required', false, true);

  if (doc.oneOf !== undefined) {
    // "array of integer, or object": each documented form must be admitted, with its attributes.
    for (const alt of doc.oneOf) {
      const type = asArray(alt.type)[0];
      const form = type === undefined ? adv : formFor(adv, type);
      if (!form) dev(`${type} form`, alt, undefined, `the ${type} form (${specWords(alt)}) is not advertised`);
      else out.push(...compareConstraints(path, alt, form));
    }
  }
  // The documented constraints apply to values of the documented type: compared with the form of
  // the descriptor that admits that type (itself, unless it has alternatives).
  const docTypes = asArray<DeclaredType>(doc.type);
  const view = alternatives(adv) && docTypes.length === 1 ? (formFor(adv, docTypes[0]!) ?? adv) : adv;
  out.push(...compareConstraints(path, doc, view));
  return out;
}

/** The documented constraints on values (enum, bounds, format, items, properties, no other keys) against an advertised form. */
function compareConstraints(path: string, doc: ArgSpec, adv: Record<string, any>): Deviation[] {
  const out: Deviation[] = [];
  const dev = (attribute: string, documented: unknown, advertised: unknown, message?: string) =>
    out.push({ path, attribute, documented, advertised, ...(message ? { message } : {}) });
  if (doc.enum !== undefined && !(Array.isArray(adv.enum) && sameSet([...doc.enum], adv.enum))) dev('enum', doc.enum, adv.enum);
  for (const attr of ['minimum', 'maximum', 'format'] as const)
    if (doc[attr] !== undefined && adv[attr] !== doc[attr]) dev(attr, doc[attr], adv[attr]);
  // maxItems is not among the descriptor keys part 1 lists (type, default, required, enum, minimum,
  // maximum, format, items, description): a descriptor may leave a documented item limit out, but
  // one it advertises must be the documented one (issue 42: core-data needs it; the spec does not).
  if (doc.maxItems !== undefined && adv.maxItems !== undefined && adv.maxItems !== doc.maxItems) dev('maxItems', doc.maxItems, adv.maxItems);
  if (doc.uniqueItems === true && adv.uniqueItems !== true) dev('uniqueItems', true, adv.uniqueItems, 'items are not advertised as unique (uniqueItems), documented unique items');
  if (doc.items !== undefined) {
    if (!isObject(adv.items)) dev('items', doc.items, adv.items, `the items are not advertised (items), documented ${specWords(doc.items)}`);
    else out.push(...compareArg(`${path}[]`, doc.items, adv.items));
  }
  if (doc.properties !== undefined) {
    const props = isObject(adv.properties) ? adv.properties : undefined;
    const names = Object.keys(doc.properties);
    if (!props) dev('properties', names, adv.properties, `the object's keys are not advertised (properties), documented ${names.join(', ')}`);
    else for (const [k, sub] of Object.entries(doc.properties)) out.push(...compareArg(`${path}.${k}`, sub, props[k]));
  }
  if (doc.closedProperties === true && adv.additionalProperties !== false)
    dev(
      'additionalProperties',
      false,
      adv.additionalProperties,
      `the object form admits other keys (additionalProperties is ${JSON.stringify(adv.additionalProperties) ?? 'not advertised'}); the spec says no other keys than ${Object.keys(doc.properties ?? {}).join(', ')}`,
    );
  return out;
}

/** Compare all documented args of an endpoint. Extra advertised args are not deviations. */
export function compareArgs(documented: Record<string, ArgSpec>, advertised: Record<string, any> | undefined): Deviation[] {
  const adv = advertised && typeof advertised === 'object' && !Array.isArray(advertised) ? advertised : {};
  return Object.entries(documented).flatMap(([name, doc]) => compareArg(name, doc, adv[name]));
}

/** Does a value have the documented type of a site index field? Returns a problem, or undefined. */
export function checkIndexField(field: IndexFieldSpec, value: unknown): string | undefined {
  if (value === undefined) return `${field.name} is missing`;
  const types = asArray(field.type);
  const ok = types.some((t) => {
    switch (t) {
      case 'string':
        return typeof value === 'string';
      case 'integer':
        return Number.isInteger(value);
      // "numeric offset": a JSON number, or a string that is a decimal number.
      case 'number':
        return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && /^[+-]?\d+(\.\d+)?$/.test(value.trim()));
      case 'boolean':
        return typeof value === 'boolean';
      case 'array':
        return Array.isArray(value);
      case 'object':
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      case 'null':
        return value === null;
      default:
        return false;
    }
  });
  if (!ok) return `${field.name} is ${JSON.stringify(value)?.slice(0, 80)}, documented type ${types.join(' or ')}`;
  if (field.items && Array.isArray(value)) {
    const itemSpec: IndexFieldSpec = { id: field.id, name: `${field.name}[]`, type: field.items.type, spec: field.spec };
    const bad = value.findIndex((v) => checkIndexField(itemSpec, v) !== undefined);
    if (bad >= 0) return `${field.name}[${bad}] is ${JSON.stringify(value[bad])}, documented type ${field.items.type}`;
  }
  if (field.format === 'uri' && typeof value === 'string') {
    try {
      new URL(value);
    } catch {
      return `${field.name} is "${value}", documented a URL`;
    }
  }
  if (field.nonEmpty && (value === '' || (Array.isArray(value) && value.length === 0))) return `${field.name} is empty, documented non-empty`;
  return undefined;
}

/**
 * Samples for a documented path-segment character class: values it must accept and values
 * (one character outside the class) it must reject. Letter case is never used to build a
 * reject sample: WordPress matches routes case-insensitively.
 */
export function segmentSamples(pattern: string, documentedValues: readonly string[] = []): { accept: string[]; reject: string[] } {
  const re = new RegExp(`^(?:${pattern})$`);
  const alphabet = ['a', 'z', 'm', '0', '7', '9', '-', '_', '.', '/', '~', '!', '@', ' ', '+', ',', ':'];
  const inClass = alphabet.filter((c) => re.test(c) || re.test(c + c));
  const outClass = alphabet.filter((c) => !inClass.includes(c));
  const base = inClass.filter((c) => /[a-z0-9]/.test(c)).join('') || inClass.join('');
  const accept = [...new Set([...documentedValues, base, inClass.join('')].filter((s) => s && re.test(s)))];
  const reject = outClass.map((c) => `${base.slice(0, 1)}${c}${base.slice(1, 2)}`).filter((s) => !re.test(s));
  return { accept, reject };
}

/** Test a PHP-style route group regex against a sample, the way WordPress does (anchored, case-insensitive). */
export function segmentMatches(phpSource: string, sample: string): boolean {
  const js = phpSource.replace(/\(\?P</g, '(?<');
  return new RegExp(`^(?:${js})$`, 'i').test(sample);
}

// ---------------------------------------------------------------- behaviour IDs of the split discovery checks

/** A name as an ID segment: lowercase, characters other than a-z, 0-9, `_` and `-` made `-`. */
const idSegment = (name: string) => name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');

/**
 * `disc.args.<endpoint>.<arg>`: one behaviour per documented arg, so that a second deviation on
 * the same endpoint changes the verdict. It replaces `disc.args.<endpoint>` (one per endpoint).
 */
export const argBehaviourId = (endpointId: string, arg: string) => `disc.args.${endpointId}.${idSegment(arg)}`;
export const ARGS_BEHAVIOUR_PREFIX = 'disc.args.';

/**
 * `disc.index.routes.entries` was one behaviour for every routes entry; now one per documented
 * route, one for the rest, and `_links.self` apart for plain and templated routes.
 */
export const ROUTE_ENTRIES_ID = 'disc.index.routes.entries';
export const routeEntryBehaviourId = (routeId: string) => `${ROUTE_ENTRIES_ID}.${routeId}`;
export const OTHER_ROUTE_ENTRIES_ID = `${ROUTE_ENTRIES_ID}.undocumented`;
/** `_links.self[].href` of the entries of routes without and with path parameters. */
export const SELF_LINK_PLAIN_ID = `${ROUTE_ENTRIES_ID}.self-link.plain`;
export const SELF_LINK_TEMPLATED_ID = `${ROUTE_ENTRIES_ID}.self-link.templated`;

/**
 * Behaviour IDs that were split, old ID → its parts. An existing baseline entry that names an
 * old ID covers each of its parts (src/run/baseline.ts), so baselines keep working while users move
 * to the new IDs.
 */
export function splitBehaviourIds(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const route of catalog.routes)
    for (const endpoint of route.endpoints)
      if (endpoint.args !== 'not-shown' && Object.keys(endpoint.args).length)
        out.set(`disc.args.${endpoint.id}`, Object.keys(endpoint.args).map((a) => argBehaviourId(endpoint.id, a)));
  out.set(ROUTE_ENTRIES_ID, [...catalog.routes.map((r) => routeEntryBehaviourId(r.id)), OTHER_ROUTE_ENTRIES_ID, SELF_LINK_PLAIN_ID, SELF_LINK_TEMPLATED_ID]);
  return out;
}

let formerIds: Map<string, string> | undefined;
/** The old ID a split behaviour replaces (`disc.args.<endpoint>.<arg>` → `disc.args.<endpoint>`), if any. */
export function formerBehaviourId(id: string): string | undefined {
  if (!formerIds) {
    formerIds = new Map();
    for (const [old, parts] of splitBehaviourIds()) for (const p of parts) formerIds.set(p, old);
  }
  return formerIds.get(id);
}
