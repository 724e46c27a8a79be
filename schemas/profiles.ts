/**
 * Name profiles: how a target spells the names the specification renames.
 *
 * The interface is the WordPress REST API with namespaces, routes, setting keys and module
 * slugs renamed. The `spec` profile is the identity; the `wordpress` profile
 * (schemas/profiles/wordpress.json, derived from the WordPress 7.1 index fixture) maps spec
 * names to the names a real WordPress with Akismet, Contact Form 7 and Jetpack uses.
 *
 * Route translation: a full-route rename (profile `routes`, longest first, on segment
 * boundaries) wins; otherwise the namespace prefix is renamed (longest namespace first). Both
 * work on concrete paths ('/cms/v2/posts/5'), documented shapes ('/cms/v2/posts/<id>') and
 * index keys ('/wp/v2/posts/(?P<id>[\d]+)').
 */
import wp from './profiles/wordpress.json' with { type: 'json' };

export type ProfileName = 'spec' | 'wordpress';

export interface Profile {
  name: ProfileName;
  /** Admin path of the target (`{base_url}/<admin_path>/authorize-application.php`). undefined: not stated, any path accepted. */
  adminPath: string | undefined;
  toTargetRoute(specRoute: string): string;
  toSpecRoute(targetRoute: string): string;
  toTargetNamespace(ns: string): string;
  toSpecNamespace(ns: string): string;
  toTargetSetting(name: string): string;
  toSpecSetting(name: string): string;
  toTargetModule(slug: string): string;
  toSpecModule(slug: string): string;
}

/** The data a profile file holds (schemas/profiles/*.json). */
export interface ProfileData {
  name: ProfileName;
  adminPath?: string;
  namespaces: Record<string, string>;
  routes: Record<string, string>;
  settings: Record<string, string>;
  modules: Record<string, string>;
  absent?: {
    settings?: Record<string, string>;
    modules?: Record<string, string>;
    namespaces?: Record<string, string>;
  };
}

export const wordpressProfileData: ProfileData = wp as ProfileData;

const specProfileData: ProfileData = { name: 'spec', namespaces: {}, routes: {}, settings: {}, modules: {} };

type Pairs = readonly (readonly [from: string, to: string])[];

/** Pairs sorted so that the longest `from` is tried first. */
function sortedPairs(map: Record<string, string>, inverse: boolean): Pairs {
  const pairs = Object.entries(map).map(([k, v]) => (inverse ? ([v, k] as const) : ([k, v] as const)));
  return [...pairs].sort((a, b) => b[0].length - a[0].length);
}

function invert(map: Record<string, string>, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) {
    if (v in out) throw new Error(`profile: two ${what} map to "${v}"`);
    out[v] = k;
  }
  return out;
}

/** `path` starts with `prefix` and the prefix ends on a segment boundary (end, '/', '?', '#'). */
function startsAtBoundary(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charAt(prefix.length);
  return next === '' || next === '/' || next === '?' || next === '#';
}

function replacePrefix(path: string, pairs: Pairs): string | undefined {
  for (const [from, to] of pairs) {
    if (startsAtBoundary(path, from)) return to + path.slice(from.length);
  }
  return undefined;
}

function makeProfile(data: ProfileData): Profile {
  const routePairs = sortedPairs(data.routes, false);
  const routePairsInv = sortedPairs(data.routes, true);
  const nsPairs = sortedPairs(data.namespaces, false).map(([f, t]) => [`/${f}`, `/${t}`] as const);
  const nsPairsInv = sortedPairs(data.namespaces, true).map(([f, t]) => [`/${f}`, `/${t}`] as const);
  const settingsInv = invert(data.settings, 'settings');
  const modulesInv = invert(data.modules, 'modules');

  const route = (path: string, routes: Pairs, namespaces: Pairs): string =>
    replacePrefix(path, routes) ?? replacePrefix(path, namespaces) ?? path;
  const namespace = (ns: string, pairs: Pairs): string => {
    if (ns === '') return ns;
    const mapped = replacePrefix(`/${ns}`, pairs);
    return mapped === undefined ? ns : mapped.slice(1);
  };
  const lookup = (map: Record<string, string>, name: string): string =>
    Object.prototype.hasOwnProperty.call(map, name) ? (map[name] as string) : name;

  return Object.freeze({
    name: data.name,
    adminPath: data.adminPath,
    toTargetRoute: (r: string) => route(r, routePairs, nsPairs),
    toSpecRoute: (r: string) => route(r, routePairsInv, nsPairsInv),
    toTargetNamespace: (ns: string) => namespace(ns, nsPairs),
    toSpecNamespace: (ns: string) => namespace(ns, nsPairsInv),
    toTargetSetting: (n: string) => lookup(data.settings, n),
    toSpecSetting: (n: string) => lookup(settingsInv, n),
    toTargetModule: (s: string) => lookup(data.modules, s),
    toSpecModule: (s: string) => lookup(modulesInv, s),
  });
}

const profiles: Record<ProfileName, Profile> = {
  spec: makeProfile(specProfileData),
  wordpress: makeProfile(wordpressProfileData),
};

export function getProfile(name: ProfileName): Profile {
  const p = profiles[name];
  if (p === undefined) throw new Error(`unknown profile "${String(name)}"`);
  return p;
}

/** Namespaces whose name differs between the spec and WordPress. */
const renamedNamespaces = Object.entries(wordpressProfileData.namespaces).filter(([s, t]) => s !== t);
const SPEC_ONLY = new Set(renamedNamespaces.map(([s]) => s));
const WORDPRESS_ONLY = new Set(renamedNamespaces.map(([, t]) => t));

/**
 * Decide the profile from a target's index: 'spec' if it advertises `cms/v2`, 'wordpress' if it
 * advertises `wp/v2`; otherwise by the other renamed namespaces (spec names first); null if
 * neither. A target advertising both `cms/v2` and `wp/v2` speaks the spec's names: 'spec'.
 */
export function detectProfile(index: { namespaces?: unknown }): ProfileName | null {
  const raw = index?.namespaces;
  const namespaces = Array.isArray(raw) ? raw.filter((n): n is string => typeof n === 'string') : [];
  if (namespaces.includes('cms/v2')) return 'spec';
  if (namespaces.includes('wp/v2')) return 'wordpress';
  if (namespaces.some((n) => SPEC_ONLY.has(n))) return 'spec';
  if (namespaces.some((n) => WORDPRESS_ONLY.has(n))) return 'wordpress';
  return null;
}

/**
 * Spec route keys whose endpoint args are suite settings / module toggles (after the key has been
 * translated): `/suite/v4/settings`, `/suite/v4/settings/<slug>`, `/suite/v4/module/<slug>`
 * (not `/module/all`, not deeper module routes) and `/spamfilter/v1/settings`.
 */
const SETTINGS_ROUTE = /^\/(?:suite\/v4\/(?:settings(?:\/[^/]+)?|module\/(?!all\/?$)[^/]+)|spamfilter\/v1\/settings)\/?$/;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Translate a target's site index into spec names: the `namespaces` list, the route keys, each
 * route's `namespace`, the `namespace` default of namespace-index routes and, within the suite and
 * spam filter settings routes, the arg names (setting keys and module slugs). Everything else
 * (including `_links`) is copied unchanged. Returns a new object; does not mutate `index`.
 */
export function normalizeIndex(index: any, profile: Profile): any {
  const out = structuredClone(index);
  if (!isRecord(out)) return out;

  if (Array.isArray(out.namespaces)) {
    out.namespaces = out.namespaces.map((n: unknown) => (typeof n === 'string' ? profile.toSpecNamespace(n) : n));
  }

  if (isRecord(out.routes)) {
    const routes: Record<string, unknown> = {};
    for (const [targetKey, value] of Object.entries(out.routes)) {
      const key = profile.toSpecRoute(targetKey);
      if (isRecord(value)) {
        if (typeof value.namespace === 'string') value.namespace = profile.toSpecNamespace(value.namespace);
        const ns = typeof value.namespace === 'string' ? value.namespace : '';
        const isNamespaceIndex = ns !== '' && (key === `/${ns}` || key === `/${ns}/`);
        const isSettingsRoute = SETTINGS_ROUTE.test(key);
        if (Array.isArray(value.endpoints)) {
          for (const endpoint of value.endpoints) {
            if (!isRecord(endpoint) || !isRecord(endpoint.args)) continue;
            if (isNamespaceIndex) translateNamespaceArg(endpoint.args, profile);
            if (isSettingsRoute) endpoint.args = renameSettingArgs(endpoint.args, profile);
          }
        }
      }
      routes[key] = value;
    }
    out.routes = routes;
  }
  return out;
}

function translateNamespaceArg(args: Record<string, unknown>, profile: Profile): void {
  const arg = args.namespace;
  if (!isRecord(arg)) return;
  if (typeof arg.default === 'string') arg.default = profile.toSpecNamespace(arg.default);
  if (Array.isArray(arg.enum)) arg.enum = arg.enum.map((v) => (typeof v === 'string' ? profile.toSpecNamespace(v) : v));
}

function renameSettingArgs(args: Record<string, unknown>, profile: Profile): Record<string, unknown> {
  const renamed: Record<string, unknown> = {};
  for (const [name, descriptor] of Object.entries(args)) {
    const asSetting = profile.toSpecSetting(name);
    const specName = asSetting !== name ? asSetting : profile.toSpecModule(name);
    renamed[specName] = descriptor;
  }
  return renamed;
}
