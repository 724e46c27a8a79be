import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extensionNamespaces, extensionRoutes, modules, settings } from '../schemas/catalog/extensions.ts';
import type { SettingSpec } from '../schemas/types.ts';
import { detectProfile, getProfile, normalizeIndex, wordpressProfileData } from '../schemas/profiles.ts';

const FIXTURE_PATH = fileURLToPath(new URL('./fixtures/wordpress-7.1-index.json', import.meta.url));
const fixtureText = readFileSync(FIXTURE_PATH, 'utf8');
const fixture = JSON.parse(fixtureText);

const wp = getProfile('wordpress');
const spec = getProfile('spec');
const absent = wordpressProfileData.absent ?? {};
const absentSettings = absent.settings ?? {};
const absentModules = absent.modules ?? {};

type Descriptor = { type?: unknown; default?: unknown; enum?: unknown[]; items?: { type?: unknown }; required?: boolean };

function endpointArgs(routeKey: string, method: string): Record<string, Descriptor> {
  const route = fixture.routes[routeKey];
  if (!route) throw new Error(`fixture has no route ${routeKey}`);
  const endpoint = route.endpoints.find((e: { methods: string[] }) => e.methods.includes(method));
  if (!endpoint) throw new Error(`fixture route ${routeKey} has no ${method}`);
  return Array.isArray(endpoint.args) ? {} : endpoint.args;
}

const jetpackSettingsArgs = endpointArgs('/jetpack/v4/settings', 'POST');
const akismetSettingsArgs = endpointArgs('/akismet/v1/settings', 'POST');

/** WordPress gives boolean defaults as 0/1 or false/true. */
function sameDefault(specDefault: unknown, realDefault: unknown, type: string): boolean {
  if (type === 'boolean') return Boolean(specDefault) === Boolean(realDefault) && typeof realDefault !== 'string';
  if (specDefault !== null && typeof specDefault === 'object' && !Array.isArray(specDefault)) {
    // An object default states some keys; each must have the stated value.
    if (realDefault === null || typeof realDefault !== 'object') return false;
    return Object.entries(specDefault).every(
      ([k, v]) => JSON.stringify((realDefault as Record<string, unknown>)[k]) === JSON.stringify(v),
    );
  }
  return JSON.stringify(specDefault) === JSON.stringify(realDefault);
}

function expectSameAttributes(s: SettingSpec, real: Descriptor | undefined): void {
  expect(real, `${s.name} → ${wp.toTargetSetting(s.name)}`).toBeDefined();
  if (!real) return;
  expect(real.type, s.name).toBe(s.type);
  if ('default' in s) {
    expect('default' in real, `${s.name}: real arg states no default`).toBe(true);
    expect(sameDefault(s.default, real.default, s.type), `${s.name} default`).toBe(true);
  }
  if (s.enum !== undefined) expect(real.enum, s.name).toEqual([...s.enum]);
  if (s.items !== undefined) expect(real.items?.type, s.name).toBe(s.items.type);
}

/** '/wp/v2/posts/(?P<id>[\d]+)' → '/wp/v2/posts/<id>' (also `(?<name>...)`). */
function keyToShape(key: string): string {
  let out = '';
  let i = 0;
  while (i < key.length) {
    const m = /^\(\?P?<([A-Za-z_]+)>/.exec(key.slice(i));
    if (m) {
      let depth = 0;
      let j = i;
      for (; j < key.length; j++) {
        if (key[j] === '\\') { j++; continue; }
        if (key[j] === '(') depth++;
        if (key[j] === ')' && --depth === 0) break;
      }
      out += `<${m[1]}>`;
      i = j + 1;
    } else {
      out += key[i];
      i++;
    }
  }
  return out;
}

describe('wordpress profile: suite settings and modules (required)', () => {
  it('every documented suite setting maps to a real /jetpack/v4/settings POST arg with the same attributes, or is absent with a reason', () => {
    for (const s of settings) {
      const reason = absentSettings[s.name];
      if (reason !== undefined) {
        expect(reason.length, s.name).toBeGreaterThan(20);
        expect(wordpressProfileData.settings, `${s.name} is absent and mapped`).not.toHaveProperty(s.name);
        expect(jetpackSettingsArgs, `${s.name} is absent but exists under its own name`).not.toHaveProperty(s.name);
        continue;
      }
      expectSameAttributes(s, jetpackSettingsArgs[wp.toTargetSetting(s.name)]);
    }
  });

  it('every documented module maps to a real module toggle arg, or is absent with a reason', () => {
    for (const m of modules) {
      const reason = absentModules[m.slug];
      if (reason !== undefined) {
        expect(reason.length, m.slug).toBeGreaterThan(20);
        expect(wordpressProfileData.modules).not.toHaveProperty(m.slug);
        expect(jetpackSettingsArgs).not.toHaveProperty(m.slug);
        continue;
      }
      const real = jetpackSettingsArgs[wp.toTargetModule(m.slug)];
      expect(real, `${m.slug} → ${wp.toTargetModule(m.slug)}`).toBeDefined();
      expect(real?.type).toBe('boolean');
      expect(Boolean(real?.default)).toBe(false);
    }
  });

  it('the /jetpack/v4/module/<slug> write takes the same args as /settings', () => {
    expect(Object.keys(endpointArgs('/jetpack/v4/module/(?P<slug>[a-z\\-]+)', 'POST')).sort()).toEqual(
      Object.keys(jetpackSettingsArgs).sort(),
    );
  });

  it('maps only documented names, to distinct real names', () => {
    const settingNames = new Set([...settings.map((s) => s.name), 'spamfilter_strictness']);
    for (const name of Object.keys(wordpressProfileData.settings)) expect(settingNames.has(name), name).toBe(true);
    const slugs = new Set(modules.map((m) => m.slug));
    for (const slug of Object.keys(wordpressProfileData.modules)) expect(slugs.has(slug), slug).toBe(true);
    const targets = [...Object.values(wordpressProfileData.settings), ...Object.values(wordpressProfileData.modules)];
    expect(new Set(targets).size).toBe(targets.length);
    // No real name is also a spec name that maps elsewhere (round trips stay unambiguous).
    for (const s of settings) expect(wp.toSpecSetting(wp.toTargetSetting(s.name))).toBe(s.name);
    for (const m of modules) expect(wp.toSpecModule(wp.toTargetModule(m.slug))).toBe(m.slug);
  });
});

describe('wordpress profile: spam filter settings', () => {
  it('map to the /akismet/v1/settings POST args', () => {
    for (const name of ['spamfilter_strictness', 'spamfilter_show_user_comments_approved']) {
      const real = akismetSettingsArgs[wp.toTargetSetting(name)];
      expect(real, name).toMatchObject({ type: 'boolean', required: false });
    }
    expect(wp.toTargetSetting('spamfilter_strictness')).toBe('akismet_strictness');
  });
});

describe('wordpress profile: routes and namespaces', () => {
  it('every extension catalog route exists in the 7.1 index under its target name', () => {
    const shapes = new Set(Object.keys(fixture.routes).map(keyToShape));
    for (const r of extensionRoutes) expect(shapes.has(wp.toTargetRoute(r.path)), `${r.path} → ${wp.toTargetRoute(r.path)}`).toBe(true);
  });

  it('every advertised extension namespace maps to a real namespace, or is absent with a reason', () => {
    const absentNs = absent.namespaces ?? {};
    for (const ns of extensionNamespaces) {
      if (absentNs[ns] !== undefined) {
        expect(fixture.namespaces).not.toContain(wp.toTargetNamespace(ns));
        continue;
      }
      expect(fixture.namespaces, ns).toContain(wp.toTargetNamespace(ns));
    }
  });

  it('translates concrete paths, shapes and index keys', () => {
    expect(wp.toTargetRoute('/cms/v2/posts/5')).toBe('/wp/v2/posts/5');
    expect(wp.toTargetRoute('/cms/v2/posts/<id>')).toBe('/wp/v2/posts/<id>');
    expect(wp.toTargetRoute('/cms/v2')).toBe('/wp/v2');
    expect(wp.toTargetRoute('/cms/v2/posts?per_page=5')).toBe('/wp/v2/posts?per_page=5');
    expect(wp.toTargetRoute('/cms-site-health/v1/tests/page-cache')).toBe('/wp-site-health/v1/tests/page-cache');
    expect(wp.toTargetRoute('/suite/v4/stats-app/sites/0/stats')).toBe('/jetpack/v4/stats-app/sites/0/stats');
    expect(wp.toTargetRoute('/suite-boost/v1/speed-scores')).toBe('/jetpack-boost/v1/speed-scores');
    expect(wp.toTargetRoute('/suite/v4/suite-ai-jwt')).toBe('/jetpack/v4/jetpack-ai-jwt');
    expect(wp.toTargetRoute('/suite/v4/suite_crm')).toBe('/jetpack/v4/jetpack_crm');
    expect(wp.toTargetRoute('/suite/v4/suite_crmx')).toBe('/jetpack/v4/suite_crmx');
    expect(wp.toTargetRoute('/')).toBe('/');
    expect(wp.toTargetRoute('/batch/v1')).toBe('/batch/v1');
    expect(wp.toTargetRoute('/oembed/1.0/embed')).toBe('/oembed/1.0/embed');
    expect(wp.toSpecRoute('/wp/v2/posts/(?P<id>[\\d]+)')).toBe('/cms/v2/posts/(?P<id>[\\d]+)');
    expect(wp.toSpecRoute('/akismet/v1/stats/(?P<interval>[\\w+])')).toBe('/spamfilter/v1/stats/(?P<interval>[\\w+])');
    expect(wp.toSpecRoute('/jetpack/v4/jetpack_crm')).toBe('/suite/v4/suite_crm');
    expect(wp.toTargetNamespace('suite/v4/blaze')).toBe('jetpack/v4/blaze');
    expect(wp.toSpecNamespace('wpcom/v3')).toBe('cloud/v3');
    expect(wp.toSpecNamespace('oembed/1.0')).toBe('oembed/1.0');
    expect(wp.adminPath).toBe('wp-admin');
    expect(spec.adminPath).toBeUndefined();
  });

  it('round-trips every catalog route and every fixture route key', () => {
    for (const r of extensionRoutes) expect(wp.toSpecRoute(wp.toTargetRoute(r.path))).toBe(r.path);
    for (const key of Object.keys(fixture.routes)) expect(wp.toTargetRoute(wp.toSpecRoute(key))).toBe(key);
    for (const ns of fixture.namespaces as string[]) expect(wp.toTargetNamespace(wp.toSpecNamespace(ns))).toBe(ns);
  });

  it('the spec profile is the identity', () => {
    expect(spec.toTargetRoute('/cms/v2/posts/5')).toBe('/cms/v2/posts/5');
    expect(spec.toSpecRoute('/wp/v2/posts')).toBe('/wp/v2/posts');
    expect(spec.toTargetSetting('suite_portfolio')).toBe('suite_portfolio');
    expect(spec.toTargetModule('image-cdn')).toBe('image-cdn');
    expect(spec.toSpecNamespace('jetpack/v4')).toBe('jetpack/v4');
  });
});

describe('detectProfile', () => {
  it('detects WordPress from the 7.1 index', () => {
    expect(detectProfile(fixture)).toBe('wordpress');
  });
  it('detects the spec names, and neither', () => {
    expect(detectProfile({ namespaces: ['oembed/1.0', 'cms/v2'] })).toBe('spec');
    expect(detectProfile({ namespaces: ['suite/v4'] })).toBe('spec');
    expect(detectProfile({ namespaces: ['akismet/v1'] })).toBe('wordpress');
    expect(detectProfile({ namespaces: ['oembed/1.0'] })).toBeNull();
    expect(detectProfile({})).toBeNull();
    expect(detectProfile({ namespaces: 'wp/v2' })).toBeNull();
  });
});

describe('normalizeIndex', () => {
  const normalized = normalizeIndex(fixture, wp);

  it('does not mutate its input', () => {
    expect(JSON.stringify(fixture)).toBe(JSON.stringify(JSON.parse(fixtureText)));
    expect(normalized).not.toBe(fixture);
  });

  it('translates namespaces and route keys', () => {
    for (const ns of ['cms/v2', 'spamfilter/v1', 'contactform/v1', 'suite/v4', 'suite/v4/stats-app', 'cloud/v2', 'cms-abilities/v1']) {
      expect(normalized.namespaces).toContain(ns);
    }
    expect(normalized.namespaces).not.toContain('wp/v2');
    const keys = Object.keys(normalized.routes);
    expect(keys.length).toBe(Object.keys(fixture.routes).length);
    for (const key of ['/', '/batch/v1', '/cms/v2/posts', '/cms/v2', '/spamfilter/v1/stats/(?P<interval>[\\w+])', '/suite/v4/suite-ai-jwt', '/suite/v4/suite_crm', '/contactform/v1/contact-forms']) {
      expect(keys, key).toContain(key);
    }
    expect(keys.some((k) => k.startsWith('/wp/v2') || k.startsWith('/jetpack/') || k.startsWith('/akismet/'))).toBe(false);
    expect(normalized.routes['/cms/v2/posts'].namespace).toBe('cms/v2');
    expect(normalized.routes['/'].namespace).toBe('');
  });

  it('translates the namespace default of namespace indexes', () => {
    expect(normalized.routes['/suite/v4'].endpoints[0].args.namespace.default).toBe('suite/v4');
    expect(normalized.routes['/cms/v2'].endpoints[0].args.namespace.default).toBe('cms/v2');
  });

  it('translates setting and module arg names of the settings routes', () => {
    const settingsWrite = normalized.routes['/suite/v4/settings'].endpoints.find((e: { methods: string[] }) => e.methods.includes('POST')).args;
    const moduleWrite = normalized.routes['/suite/v4/module/(?P<slug>[a-z\\-]+)'].endpoints.find((e: { methods: string[] }) => e.methods.includes('POST')).args;
    for (const args of [settingsWrite, moduleWrite]) {
      for (const s of settings) if (absentSettings[s.name] === undefined) expect(args, s.name).toHaveProperty(s.name);
      for (const m of modules) if (absentModules[m.slug] === undefined) expect(args, m.slug).toHaveProperty(m.slug);
      expect(args.suite_comment_form_color_scheme.enum).toEqual(['light', 'dark', 'transparent']);
      expect(args).not.toHaveProperty('photon');
      expect(args).toHaveProperty('context');
    }
    const spamWrite = normalized.routes['/spamfilter/v1/settings'].endpoints.find((e: { methods: string[] }) => e.methods.includes('POST')).args;
    expect(Object.keys(spamWrite)).toEqual(expect.arrayContaining(['spamfilter_strictness', 'spamfilter_show_user_comments_approved']));
    // Args of other routes are left alone.
    expect(normalized.routes['/suite/v4/module/all/active'].endpoints[0].args).toEqual(
      fixture.routes['/jetpack/v4/module/all/active'].endpoints[0].args,
    );
  });

  it('is the identity (a copy) under the spec profile', () => {
    const same = normalizeIndex(fixture, spec);
    expect(same).toEqual(fixture);
    expect(same).not.toBe(fixture);
  });
});
