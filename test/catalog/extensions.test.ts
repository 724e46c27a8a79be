import { describe, expect, it } from 'vitest';
import type { ArgSpec, EndpointSpec, FieldSpec, HttpMethod, RouteSpec } from '../../schemas/types.ts';
import {
  extensionIndexFields,
  extensionNamespaces,
  extensionNotShown,
  extensionResources,
  extensionRoutes,
  modules,
  settings,
} from '../../schemas/catalog/extensions.ts';

const ROUTE_ID = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const OTHER_ID = /^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/;

/** Heading paths of extension-namespaces.md, transcribed by hand. */
const SECTIONS = new Set([
  '1. What the service does',
  '2. Resources and their fields › Spam filter key',
  '2. Resources and their fields › Spam filter settings',
  '2. Resources and their fields › Spam filter statistics',
  '2. Resources and their fields › Contact form',
  '2. Resources and their fields › Suite module settings',
  '4. Endpoints',
  '4. Endpoints › Spam filter (`spamfilter/v1`)',
  '4. Endpoints › Contact forms (`contactform/v1`)',
  '4. Endpoints › Suite (`suite/v4`)',
]);

const GET: HttpMethod[] = ['GET'];
const POST: HttpMethod[] = ['POST'];
const EDIT: HttpMethod[] = ['POST', 'PUT', 'PATCH'];
const DEL: HttpMethod[] = ['DELETE'];

/** Part 4 › Spam filter, one entry per table row: [methods, path]. */
const SPAMFILTER_ROWS: [HttpMethod[], string][] = [
  [GET, '/spamfilter/v1'],
  [GET, '/spamfilter/v1/key'],
  [EDIT, '/spamfilter/v1/key'],
  [DEL, '/spamfilter/v1/key'],
  [GET, '/spamfilter/v1/settings'],
  [EDIT, '/spamfilter/v1/settings'],
  [GET, '/spamfilter/v1/stats'],
  [GET, '/spamfilter/v1/stats/<interval>'],
];

/** Part 4 › Contact forms (rows with several methods split into the stated endpoints). */
const CONTACTFORM_ROWS: [HttpMethod[], string][] = [
  [GET, '/contactform/v1'],
  [GET, '/contactform/v1/contact-forms'],
  [POST, '/contactform/v1/contact-forms'],
  [GET, '/contactform/v1/contact-forms/<id>'],
  [EDIT, '/contactform/v1/contact-forms/<id>'],
  [DEL, '/contactform/v1/contact-forms/<id>'],
  [POST, '/contactform/v1/contact-forms/<id>/feedback'],
  [GET, '/contactform/v1/contact-forms/<id>/feedback/schema'],
  [GET, '/contactform/v1/contact-forms/<id>/refill'],
];

/** Part 4 › Suite, the read-only list, in document order (paths under /suite/v4). */
const SUITE_READ_ONLY = [
  '',
  '/site',
  '/site/features',
  '/site/products',
  '/site/purchases',
  '/site/benefits',
  '/site/activity',
  '/site/discount',
  '/site/backup/undo-event',
  '/site/backup/preflight',
  '/plans',
  '/products',
  '/connection/test',
  '/connection/test-wpcom',
  '/rewind',
  '/scan',
  '/module/all',
  '/updates/plugins',
  '/recommendations/product-suggestions',
  '/recommendations/upsell',
  '/recommendations/conditional',
  '/intro-offers',
  '/features/available',
  '/features/enabled',
  '/licensing/user/licenses',
  '/licensing/user/counts',
  '/comments/<id>/backup',
  '/posts/<id>/backup',
  '/terms/<id>/backup',
  '/users/<id>/backup',
  '/orders/<id>/backup',
  '/plugin/<plugin>',
  '/widgets/<id>',
  '/verify-site/<service>/<keyring_id>',
];

/** Part 4 › Suite, the "Routes with parameters" table, one entry per row. */
const SUITE_TABLE: [HttpMethod[], string][] = [
  [POST, '/backup-helper-script'],
  [DEL, '/backup-helper-script'],
  [GET, '/database-object/backup'],
  [GET, '/options/backup'],
  [EDIT, '/suite-ai-jwt'],
  [POST, '/marketing/survey'],
  [GET, '/connection/url'],
  [GET, '/tracking/settings'],
  [EDIT, '/tracking/settings'],
  [EDIT, '/module/all/active'],
  [GET, '/module/<slug>'],
  [EDIT, '/module/<slug>'],
  [EDIT, '/module/<slug>/active'],
  [GET, '/module/<slug>/data'],
  [GET, '/module/<service>/key/check'],
  [EDIT, '/module/<service>/key/check'],
  [GET, '/settings'],
  [EDIT, '/settings'],
  [EDIT, '/settings/<slug>'],
  [EDIT, '/options/<options>'],
  [EDIT, '/notice/<notice>'],
  [GET, '/plugins'],
  [POST, '/plugins'],
  [EDIT, '/plugins/<plugin>'],
  [GET, '/verify-site/<service>'],
  [EDIT, '/verify-site/<service>'],
  [GET, '/recommendations/data'],
  [EDIT, '/recommendations/data'],
  [GET, '/recommendations/step'],
  [EDIT, '/recommendations/step'],
  [GET, '/suite_crm'],
  [EDIT, '/suite_crm'],
  [GET, '/purchase-token'],
  [POST, '/purchase-token'],
  [EDIT, '/seen-wc-connection-modal'],
  [GET, '/subscribers/auth'],
  [GET, '/licensing/error'],
  [EDIT, '/licensing/error'],
  [EDIT, '/licensing/set-license'],
  [EDIT, '/licensing/user/activation-notice-dismiss'],
  [EDIT, '/licensing/attach-licenses'],
  [GET, '/heartbeat/data'],
];

const suitePath = (p: string): string => `/suite/v4${p}`;

const ALL_ROWS: [HttpMethod[], string][] = [
  ...SPAMFILTER_ROWS,
  ...CONTACTFORM_ROWS,
  ...SUITE_READ_ONLY.map((p): [HttpMethod[], string] => [GET, suitePath(p)]),
  ...SUITE_TABLE.map(([m, p]): [HttpMethod[], string] => [m, suitePath(p)]),
];

const endpoints: EndpointSpec[] = extensionRoutes.flatMap((r) => r.endpoints);

function routeByPath(path: string): RouteSpec {
  const r = extensionRoutes.find((x) => x.path === path);
  if (!r) throw new Error(`no route ${path}`);
  return r;
}
function ep(id: string): EndpointSpec {
  const e = endpoints.find((x) => x.id === id);
  if (!e) throw new Error(`no endpoint ${id}`);
  return e;
}
function args(id: string): Record<string, ArgSpec> {
  const a = ep(id).args;
  if (a === 'not-shown') throw new Error(`${id}: args not shown`);
  return a;
}

// Counts of part 2, counted by hand from the document.
const TABLE_SETTINGS = 20;
const BOOLEAN_TRUE = 21;
const BOOLEAN_FALSE = 41;
const STRING_EMPTY = 13 + 5; // thirteen named + five site-verification codes
const MODULES = 43;

describe('extensions catalog: identifiers', () => {
  it('route IDs are unique and well-formed; endpoint IDs are route ID + suffix', () => {
    const ids = extensionRoutes.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(ROUTE_ID);
    const eids = endpoints.map((e) => e.id);
    expect(new Set(eids).size).toBe(eids.length);
    for (const r of extensionRoutes) {
      for (const e of r.endpoints) {
        expect(e.id).toMatch(new RegExp(`^${r.id.replace(/\./g, '\\.')}\\.(list|create|read|update|delete)$`));
        const suffix = e.id.slice(r.id.length + 1);
        const methods = e.methods.join(',');
        const expected =
          methods === 'GET' ? (r.id.endsWith('.collection') ? 'list' : 'read')
          : methods === 'POST' ? 'create'
          : methods === 'POST,PUT,PATCH' ? 'update'
          : methods === 'DELETE' ? 'delete'
          : 'none';
        expect(suffix, e.id).toBe(expected);
      }
    }
  });

  it('route IDs start with their namespace short name', () => {
    const short: Record<string, string> = { 'spamfilter/v1': 'spamfilter', 'contactform/v1': 'contactform', 'suite/v4': 'suite' };
    for (const r of extensionRoutes) expect(r.id.split('.')[0], r.id).toBe(short[r.namespace]);
  });

  it('other IDs are unique and well-formed', () => {
    for (const list of [extensionIndexFields, extensionNotShown, extensionResources, settings, modules]) {
      const ids = list.map((x) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(OTHER_ID);
    }
    for (const s of settings) expect(s.id).toBe(`suite.setting.${s.name}`);
    for (const m of modules) expect(m.id).toBe(`suite.module.${m.slug}`);
  });

  it('setting names and module slugs do not collide (both are args of the same routes)', () => {
    const names = new Set(settings.map((s) => s.name));
    for (const m of modules) expect(names.has(m.slug), m.slug).toBe(false);
  });

  it('no route declares the same method twice', () => {
    for (const r of extensionRoutes) {
      const methods = r.endpoints.flatMap((e) => e.methods);
      expect(new Set(methods).size, r.id).toBe(methods.length);
    }
  });

  it('every item carries a section of the extension document', () => {
    const refs = [
      ...extensionRoutes.map((r) => r.spec),
      ...endpoints.map((e) => e.spec),
      ...[...extensionIndexFields, ...extensionNotShown, ...extensionResources, ...settings, ...modules].map((x) => x.spec),
    ];
    for (const s of refs) {
      expect(s.doc).toBe('extensions');
      expect(SECTIONS.has(s.section), s.section).toBe(true);
    }
  });
});

describe('extensions catalog: part 1', () => {
  it('namespaces, in document order', () => {
    expect(extensionNamespaces).toEqual([
      'oembed/1.0',
      'spamfilter/v1',
      'contactform/v1',
      'suite/v4',
      'cloud/v2',
      'suite/v4/stats-app',
      'cloud/v3',
      'suite-boost/v1',
      'suite/v4/blaze-app',
      'suite/v4/blaze',
      'cms/v2',
      'cms-site-health/v1',
      'cms-block-editor/v1',
    ]);
  });

  it('index fields timezone_string (non-empty) and gmt_offset (number)', () => {
    expect(extensionIndexFields.map((f) => [f.name, f.type, f.nonEmpty])).toEqual([
      ['timezone_string', 'string', true],
      ['gmt_offset', 'number', undefined],
    ]);
  });
});

describe('extensions catalog: routes', () => {
  it('has every row of part 4 (read-only list and tables), and nothing else', () => {
    const catalogRows = extensionRoutes.flatMap((r) => r.endpoints.map((e) => `${e.methods.join(',')} ${r.path}`));
    const documented = ALL_ROWS.map(([m, p]) => `${m.join(',')} ${p}`);
    expect([...catalogRows].sort()).toEqual([...documented].sort());
  });

  it('counts: 8 spam filter, 9 contact-form, 34 read-only and 42 table endpoints', () => {
    expect(SPAMFILTER_ROWS.length).toBe(8);
    expect(CONTACTFORM_ROWS.length).toBe(9);
    expect(SUITE_READ_ONLY.length).toBe(34);
    expect(SUITE_TABLE.length).toBe(42);
    expect(endpoints.length).toBe(8 + 9 + 34 + 42);
    const paths = new Set(ALL_ROWS.map(([, p]) => p));
    expect(extensionRoutes.length).toBe(paths.size);
  });

  it('uses the namespace of its path', () => {
    for (const r of extensionRoutes) {
      expect(r.path === `/${r.namespace}` || r.path.startsWith(`/${r.namespace}/`), r.id).toBe(true);
      expect(['spamfilter/v1', 'contactform/v1', 'suite/v4']).toContain(r.namespace);
    }
  });

  it('declares a path parameter for every <segment>', () => {
    for (const r of extensionRoutes) {
      const segments = [...r.path.matchAll(/<([a-z_]+)>/g)].map((m) => m[1]);
      expect(Object.keys(r.params ?? {}).sort(), r.id).toEqual([...segments].sort());
    }
  });

  it('path parameter character classes as documented', () => {
    expect(routeByPath('/suite/v4/module/<slug>').params?.slug?.pattern).toBe('[a-z-]+');
    expect(routeByPath('/suite/v4/plugin/<plugin>').params?.plugin?.pattern).toBe('[a-z/._-]+');
    expect(routeByPath('/suite/v4/widgets/<id>').params?.id?.pattern).toBe('[0-9a-z_-]+');
    expect(routeByPath('/suite/v4/widgets/<id>').params?.id?.type).toBeUndefined();
    expect(routeByPath('/suite/v4/verify-site/<service>/<keyring_id>').params).toMatchObject({
      service: { pattern: '[a-z_-]+' },
      keyring_id: { pattern: '\\d+' },
    });
    expect(routeByPath('/suite/v4/options/<options>').params?.options?.pattern).toBe('[a-z-]+');
    expect(routeByPath('/suite/v4/notice/<notice>').params?.notice?.pattern).toBe('[a-z_-]+');
    expect(routeByPath('/suite/v4/posts/<id>/backup').params?.id).toMatchObject({ type: 'integer', pattern: '\\d+' });
    expect(routeByPath('/contactform/v1/contact-forms/<id>').params?.id).toMatchObject({ type: 'integer', pattern: '\\d+' });
    // Not stated for these routes: no attributes.
    expect(routeByPath('/suite/v4/module/<slug>/active').params?.slug).toEqual({});
    expect(routeByPath('/suite/v4/plugins/<plugin>').params?.plugin).toEqual({});
  });

  it('namespace indexes state namespace and context defaults', () => {
    expect(args('spamfilter.index.read')).toEqual({ namespace: { default: 'spamfilter/v1' }, context: { default: 'view' } });
    expect(args('contactform.index.read')).toEqual({ namespace: { default: 'contactform/v1' }, context: { default: 'view' } });
    expect(args('suite.index.read')).toEqual({ namespace: { default: 'suite/v4' }, context: { default: 'view' } });
  });

  it('read-only suite routes: one GET endpoint with no args', () => {
    for (const p of SUITE_READ_ONLY.filter((x) => x !== '')) {
      const r = routeByPath(suitePath(p));
      expect(r.endpoints.length, p).toBe(1);
      expect(r.endpoints[0]?.methods).toEqual(['GET']);
      expect(r.endpoints[0]?.args, p).toEqual({});
    }
  });

  it('contact-form routes other than the index: args not shown', () => {
    for (const r of extensionRoutes.filter((x) => x.namespace === 'contactform/v1' && x.id !== 'contactform.index')) {
      for (const e of r.endpoints) expect(e.args, e.id).toBe('not-shown');
    }
  });

  it('spam filter args', () => {
    expect(args('spamfilter.key.update')).toEqual({
      key: { type: 'string', required: true, minLength: 12, maxLength: 12, note: '12 characters' },
    });
    expect(args('spamfilter.key.read')).toEqual({});
    expect(args('spamfilter.key.delete')).toEqual({});
    expect(args('spamfilter.settings.update')).toEqual({
      spamfilter_strictness: { type: 'boolean', required: false },
      spamfilter_show_user_comments_approved: { type: 'boolean', required: false },
    });
    expect(args('spamfilter.stats.read').interval).toEqual({
      type: 'string',
      required: false,
      default: 'all',
      enum: ['60-days', '6-months', 'all'],
    });
    const interval = args('spamfilter.stats.interval.read').interval;
    expect(interval).toMatchObject({ type: 'string', required: false, enum: ['60-days', '6-months', 'all'] });
    expect(interval && 'default' in interval).toBe(false);
  });

  it('suite table args', () => {
    expect(args('suite.backup-helper-script.create').helper).toMatchObject({ type: 'string', required: true });
    expect(args('suite.backup-helper-script.delete')).toEqual({ path: { type: 'string', required: true } });
    expect(args('suite.database-object.backup.read')).toEqual({
      object_type: { required: true },
      object_id: { type: 'integer', required: true },
    });
    expect(args('suite.options.backup.read').name).toMatchObject({ required: true });
    expect(args('suite.suite-ai-jwt.update')).toEqual({});
    expect(args('suite.marketing.survey.create')).toEqual({});
    expect(args('suite.connection.url.read')).toEqual({
      from: { type: 'string', required: false },
      redirect: { type: 'string', required: false },
    });
    expect(args('suite.tracking.settings.update')).toEqual({ tracks_opt_out: { type: 'boolean', required: false } });
    expect(args('suite.module.all.active.update')).toEqual({
      modules: { type: 'array', items: { type: 'string' }, required: true },
      active: { type: 'boolean', required: false, default: true },
    });
    expect(args('suite.module.active.update')).toEqual({ active: { type: 'boolean', required: true, default: true } });
    expect(args('suite.module.data.read')).toEqual({ range: { type: 'string', required: false, default: 'day' } });
    expect(args('suite.module.key.check.update').api_key).toMatchObject({ type: 'string', required: false, default: '' });
    expect(args('suite.settings.item.update')).toEqual({ context: { default: 'edit' } });
    expect(args('suite.options.item.update')).toEqual({});
    expect(args('suite.notice.item.update')).toEqual({});
    const plugins = args('suite.plugins.collection.create');
    expect(plugins.slug).toMatchObject({ type: 'string', required: true });
    expect(plugins.status).toEqual({ type: 'string', enum: ['inactive', 'active', 'network-active'], default: 'inactive' });
    expect(plugins.source).toEqual({ type: 'string', required: false });
    expect(args('suite.plugins.item.update')).toEqual({
      status: { type: 'string', required: true },
      source: { type: 'string', required: false },
    });
    expect(args('suite.verify-site.item.update')).toEqual({ keyring_id: { type: 'integer', required: true } });
    expect(args('suite.recommendations.data.update')).toEqual({ data: { type: 'object', required: true } });
    expect(args('suite.recommendations.step.update')).toEqual({ step: { type: 'string', required: true } });
    expect(args('suite.suite-crm.update').extension).toMatchObject({ type: 'text', required: true });
    expect(args('suite.purchase-token.read')).toEqual({});
    expect(args('suite.purchase-token.create')).toEqual({});
    expect(args('suite.subscribers.auth.read')).toEqual({
      redirect_url: { type: 'string', format: 'uri', required: true },
    });
    expect(args('suite.licensing.error.update')).toEqual({ error: { type: 'string', required: true } });
    expect(args('suite.licensing.set-license.update')).toEqual({ license: { type: 'string', required: true } });
    expect(args('suite.licensing.user.activation-notice-dismiss.update')).toEqual({
      last_detached_count: { type: 'integer', required: true },
    });
    expect(args('suite.licensing.attach-licenses.update')).toEqual({
      licenses: { type: 'array', items: { type: 'string' }, required: true },
    });
    expect(args('suite.heartbeat.data.read')).toEqual({ prefix: { type: 'string' } });
    expect(ep('suite.heartbeat.data.read').argsOpen).toBe(true);
    expect(endpoints.filter((e) => e.argsOpen).map((e) => e.id)).toEqual(['suite.heartbeat.data.read']);
  });

  it('/settings and /module/<slug> writes take context (default edit) plus every setting and toggle, all optional', () => {
    for (const id of ['suite.settings.update', 'suite.module.item.update']) {
      const a = args(id);
      expect(a.context).toEqual({ default: 'edit' });
      for (const s of settings) {
        const d = a[s.name];
        expect(d, `${id} ${s.name}`).toBeDefined();
        expect(d?.type).toBe(s.type);
        expect(d?.required).toBe(false);
        expect('default' in (d ?? {})).toBe('default' in s);
        if ('default' in s) expect(d?.default).toEqual(s.default);
        expect(d?.enum).toEqual(s.enum);
      }
      for (const m of modules) expect(a[m.slug], `${id} ${m.slug}`).toMatchObject({ type: 'boolean', default: false, required: false });
      expect(Object.keys(a).length).toBe(1 + settings.length + modules.length);
    }
    expect(args('suite.settings.update')).toEqual(args('suite.module.item.update'));
  });

  it('no allow_batch is stated in this document', () => {
    for (const e of endpoints) expect('allowBatch' in e, e.id).toBe(false);
  });
});

describe('extensions catalog: settings and modules', () => {
  it('counts match the part 2 lists', () => {
    expect(settings.length).toBe(TABLE_SETTINGS + BOOLEAN_TRUE + BOOLEAN_FALSE + STRING_EMPTY);
    expect(settings.length).toBe(100);
    expect(settings.filter((s) => s.type === 'boolean' && s.default === true).length).toBe(BOOLEAN_TRUE);
    expect(settings.filter((s) => s.type === 'boolean' && s.default === false).length).toBe(BOOLEAN_FALSE);
    expect(settings.filter((s) => s.type === 'string' && s.default === '').length).toBe(STRING_EMPTY);
    expect(new Set(settings.map((s) => s.name)).size).toBe(settings.length);
    expect(modules.length).toBe(MODULES);
    expect(new Set(modules.map((m) => m.slug)).size).toBe(MODULES);
    for (const m of modules) expect(m.default).toBe(false);
  });

  it('table settings transcribed exactly', () => {
    const by = (n: string) => settings.find((s) => s.name === n);
    expect(by('carousel_background_color')).toMatchObject({ type: 'string', default: 'black', enum: ['black', 'white'] });
    expect(by('highlander_comment_form_prompt')?.default).toBe('Leave a Reply');
    expect(by('suite_comment_form_color_scheme')?.enum).toEqual(['light', 'dark', 'transparent']);
    expect(by('button_style')?.enum).toEqual(['icon-text', 'icon', 'text', 'official']);
    expect(by('version')).toMatchObject({ type: 'integer', default: 9 });
    expect(by('show')).toMatchObject({ type: 'array', items: { type: 'string' }, default: ['post'] });
    expect(by('cloud_newsletter_categories')).toMatchObject({ type: 'array', default: [] });
    expect(by('cloud_newsletter_categories')?.items).toBeUndefined();
    const sharing = by('sharing_services');
    expect(sharing).toMatchObject({ type: 'object', keys: ['visible', 'hidden'] });
    expect(sharing && 'default' in sharing).toBe(false);
    expect(sharing?.note).toMatch(/two service identifiers/);
    expect(by('custom')?.default).toEqual({ sharing_name: '', sharing_url: '', sharing_icon: '' });
    expect(by('advanced_seo_title_formats')?.keys).toEqual(['archives', 'front_page', 'groups', 'pages', 'posts']);
    expect(by('blog_id')).toMatchObject({ type: 'boolean', default: false });
    expect(by('blog_id')?.note).toMatch(/declared boolean/);
    for (const n of ['verify_search_a', 'verify_search_b', 'verify_pinboard', 'verify_search_c', 'verify_social', 'cms_api_key']) {
      expect(by(n), n).toMatchObject({ type: 'string', default: '' });
    }
  });

  it('the suite settings resource carries every setting and toggle', () => {
    const res = extensionResources.find((r) => r.id === 'resource.suite.settings');
    const fields = res?.fields as Record<string, FieldSpec>;
    expect(Object.keys(fields).length).toBe(settings.length + modules.length);
  });
});

describe('extensions catalog: resources and not shown', () => {
  it('resources', () => {
    expect(extensionResources.map((r) => r.id)).toEqual([
      'resource.spamfilter.key',
      'resource.spamfilter.settings',
      'resource.spamfilter.stats',
      'resource.contactform.form',
      'resource.contactform.feedback',
      'resource.contactform.feedback-schema',
      'resource.suite.settings',
    ]);
    for (const id of ['resource.contactform.form', 'resource.contactform.feedback', 'resource.contactform.feedback-schema']) {
      expect(extensionResources.find((r) => r.id === id)?.fields).toBe('not-shown');
    }
  });

  it('one entry per "not shown" sentence (six in the document)', () => {
    expect(extensionNotShown.length).toBe(6);
  });
});

describe('anonymous access (reference facts, issue 26)', async () => {
  const { extensionAnonymousAccess } = await import('../../schemas/catalog/extensions.ts');
  const endpoints = extensionRoutes.filter((r) => ['spamfilter/v1', 'contactform/v1', 'suite/v4'].includes(r.namespace)).flatMap((r) => r.endpoints);

  it('records every endpoint of the three namespaces, each with its source', () => {
    expect(Object.keys(extensionAnonymousAccess).sort()).toEqual(endpoints.map((e) => e.id).sort());
    for (const [id, a] of Object.entries(extensionAnonymousAccess)) expect(a.source.length, id).toBeGreaterThan(30);
  });

  it('names as public exactly the routes the reference implementation serves anonymously', () => {
    const pub = Object.entries(extensionAnonymousAccess).filter(([, a]) => a.public).map(([id]) => id).sort();
    expect(pub).toEqual([
      'contactform.forms.feedback-schema.read',
      'contactform.forms.feedback.create',
      'contactform.forms.refill.read',
      'contactform.index.read',
      'spamfilter.index.read',
      'suite.index.read',
      'suite.subscribers.auth.read',
      'suite.widgets.item.read',
    ]);
  });
});
