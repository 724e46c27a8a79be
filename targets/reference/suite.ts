/**
 * The management suite namespace (`suite/v4`). Settings, modules and parameters come from the
 * catalog (types, defaults and enums validated with WordPress's coercion rules). Response bodies
 * and errors are not shown by the spec; they follow Jetpack's REST endpoints
 * (wordpress-behaviour.md §12) for a connected, healthy site: settings and module routes answer
 * Jetpack's `{code:"success", message}` bodies and errors (404 not_found for an unknown module,
 * 409 already_inactive, 400 some_updated for unknown setting keys), read-only routes
 * answer small plausible JSON. Every route needs an administrator (401 rest_forbidden for
 * anonymous users), except the namespace index.
 */
import { createHash } from 'node:crypto';
import { catalog } from '../../schemas/catalog/index.ts';
import { RestError, restError, restForbidden } from './errors.ts';
import { defaultModules, defaultSettings } from './suite-state.ts';
import type { ArgHook, EndpointImpl, HandlerContext, HandlerTable, RestRequest } from './types.ts';
import { validateValue } from './validate.ts';

const SETTINGS = new Map(catalog.settings.map((s) => [s.name, s]));
const MODULES = new Set(catalog.modules.map((m) => m.slug));

const admin = (req: RestRequest): true | RestError => (req.loggedIn ? true : restForbidden(false));
const success = (message: string) => ({ code: 'success', message });
const moduleNotFound = () => restError('not_found', 'The requested Suite module was not found.', 404);

const title = (slug: string) => slug.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

function moduleInfo(slug: string, ctx: HandlerContext, withOptions: boolean): Record<string, unknown> {
  const info: Record<string, unknown> = {
    module: slug,
    name: title(slug),
    description: `The ${title(slug)} module.`,
    activated: ctx.site.suite.modules[slug] === true,
    available: true,
    free: true,
    requires_connection: false,
    requires_user_connection: false,
    auto_activate: 'No',
    module_tags: [],
    feature: [],
  };
  if (withOptions) {
    // The same set of settings is read and written through the module routes (extension part 2).
    info.options = Object.fromEntries(
      catalog.settings.map((s) => [
        s.name,
        { type: s.type, default: 'default' in s ? s.default : null, ...(s.enum ? { enum: s.enum } : {}), current_value: ctx.site.suite.settings[s.name] },
      ]),
    );
  }
  return info;
}

/** GET /settings: every setting's current value and each module slug → active. */
function allSettings(ctx: HandlerContext): Record<string, unknown> {
  return { ...structuredClone(ctx.site.suite.settings), ...ctx.site.suite.modules };
}

/**
 * Apply the settings and module toggles of the request body (Jetpack reads the JSON or form body
 * only). Values were validated and coerced by the pipeline. Unknown keys: 400 some_updated, the
 * valid ones still applied (as Jetpack does).
 */
function updateSettings(req: RestRequest, ctx: HandlerContext): true | RestError {
  const invalid: string[] = [];
  for (const key of Object.keys(req.bodyParams())) {
    if (key === 'context') continue;
    const value = req.get(key);
    if (SETTINGS.has(key)) ctx.site.suite.settings[key] = structuredClone(value);
    else if (MODULES.has(key)) ctx.site.suite.modules[key] = value === true;
    else invalid.push(key);
  }
  if (invalid.length)
    return restError('some_updated', `${invalid.length === 1 ? 'Invalid option' : 'Invalid options'}: ${invalid.join(', ')}.`, 400);
  return true;
}

/** /module/all/active `modules`: the schema's check, then Jetpack's validate_module_list. */
const MODULE_LIST: ArgHook = {
  validate(value, _req, param, schema) {
    const r = validateValue(value, schema, param);
    if (r !== true) return r;
    const list = Array.isArray(value) ? value : String(value).split(/[\s,]+/).filter(Boolean);
    if (!list.every((m) => MODULES.has(String(m)))) return new RestError('invalid_param', `${param} must be a list of valid modules`);
    return true;
  },
};

/** /plugins/<plugin> `status`: Jetpack's validate_activate_plugin accepts only "active". */
const ACTIVATE_ONLY: ArgHook = {
  validate(value, _req, param, schema) {
    const r = validateValue(value, schema, param);
    if (r !== true) return r;
    return value === 'active' ? true : new RestError('invalid_param', `${param} must be "active".`);
  },
};

const token = (seed: string) => createHash('sha256').update(seed).digest('hex').slice(0, 32);

/** A GET route answering a small body, for administrators. */
const read = (body: (req: RestRequest, ctx: HandlerContext) => unknown): EndpointImpl => ({ permission: admin, handler: body });

const siteData = (ctx: HandlerContext) => ({ ID: 1, name: ctx.site.name, URL: ctx.base, plan: { product_slug: 'suite_free' }, is_multisite: false });

export const suiteHandlers: HandlerTable = {
  // --- read-only routes ---
  'suite.site.read': read((_r, ctx) => ({ code: 'success', message: 'Site data correctly received.', data: siteData(ctx) })),
  'suite.site.features.read': read((_r, ctx) => ({
    code: 'success',
    message: 'Site features correctly received.',
    data: { active: Object.keys(ctx.site.suite.modules).filter((m) => ctx.site.suite.modules[m]), available: [...MODULES] },
  })),
  'suite.site.products.read': read(() => [{ product_slug: 'suite_free', product_name: 'Suite Free' }]),
  'suite.site.purchases.read': read(() => ({ code: 'success', message: 'Site purchases correctly received.', data: [] })),
  'suite.site.benefits.read': read(() => ({ code: 'success', message: 'Site benefits correctly received.', data: { stats: 0, videoPressVideos: 0 } })),
  'suite.site.activity.read': read(() => ({ code: 'success', message: 'Site activity correctly received.', data: { totalItems: 0, orderedItems: [] } })),
  'suite.site.discount.read': read(() => ({ code: 'success', message: 'Site discount correctly received.', data: { discount: 0, is_used: false } })),
  'suite.site.backup.undo-event.read': read(() => ({ last_rewindable_event: null, undo_backup_id: null })),
  'suite.site.backup.preflight.read': read(() => ({ status: 'success', ok: true, tests: [] })),
  'suite.plans.read': read(() => [{ product_slug: 'suite_free', product_name: 'Suite Free', price: 0 }]),
  'suite.products.read': read(() => ({ suite_free: { product_slug: 'suite_free', product_name: 'Suite Free', cost: 0 } })),
  'suite.connection.test.read': read(() => success('Suite is connected.')),
  'suite.connection.test-wpcom.read': read(() => success('Suite is connected to the cloud service.')),
  'suite.rewind.read': read(() => ({ code: 'success', message: 'Backup data correctly received.', data: JSON.stringify({ state: 'active', last_updated: 0 }) })),
  'suite.scan.read': read(() => ({ code: 'success', message: 'Scan state correctly received.', data: JSON.stringify({ state: 'idle', threats: [] }) })),
  'suite.module.all.read': read((_r, ctx) => Object.fromEntries([...MODULES].map((m) => [m, moduleInfo(m, ctx, false)]))),
  'suite.updates.plugins.read': read(() => ({ code: 'success', message: 'All plugins are up to date.', count: 0, plugins: [] })),
  'suite.recommendations.product-suggestions.read': read(() => []),
  'suite.recommendations.upsell.read': read(() => ({ hide_upsell: true })),
  'suite.recommendations.conditional.read': read(() => []),
  'suite.intro-offers.read': read(() => []),
  'suite.features.available.read': read(() => [...MODULES]),
  'suite.features.enabled.read': read((_r, ctx) => Object.keys(ctx.site.suite.modules).filter((m) => ctx.site.suite.modules[m])),
  'suite.licensing.user.licenses.read': read((_r, ctx) => ({ items: ctx.site.suite.licenses.map((l) => ({ license_key: l, attached_at: null })) })),
  'suite.licensing.user.counts.read': read((_r, ctx) => ({ attached: 0, detached: ctx.site.suite.licenses.length, revoked: 0, not_revoked: ctx.site.suite.licenses.length })),
  'suite.comments.backup.read': read((req) => ({ comment: { comment_ID: String(req.get('id')) }, meta: {} })),
  'suite.posts.backup.read': read((req, ctx) => {
    const rec = ctx.site.content.get(Number(req.get('id')));
    return { post: rec ? { ID: rec.id, post_title: rec.title, post_status: rec.status, post_type: rec.type } : null, meta: {}, terms: [] };
  }),
  'suite.terms.backup.read': read((req, ctx) => ({ term: ctx.site.content.term(Number(req.get('id'))) ?? null, meta: {} })),
  'suite.users.backup.read': read((req, ctx) => {
    const u = ctx.site.userById(Number(req.get('id')));
    return { user: u ? { ID: u.id, user_login: u.login, display_name: u.name } : null, meta: {} };
  }),
  'suite.orders.backup.read': read((req) => ({ order: { id: Number(req.get('id')) }, meta: {}, children: [] })),
  'suite.plugin.item.read': {
    permission: admin,
    handler(req, ctx) {
      const file = String(req.get('plugin'));
      const p = ctx.site.suite.plugins[file];
      return p ? { ...p, plugin: file } : restError('not_found', 'Plugin not found.', 404);
    },
  },
  'suite.widgets.item.read': read((req) => ({ id: String(req.get('id')), options: {} })),
  'suite.verify-site.keyring-id.read': read((req, ctx) => ({
    verified: ctx.site.suite.verifiedSites[String(req.get('service'))] === Number(req.get('keyring_id')),
    token: token(`${req.get('service')}-${req.get('keyring_id')}`),
  })),

  // --- routes with parameters ---
  'suite.backup-helper-script.create': {
    permission: admin,
    handler(req, ctx) {
      const helper = String(req.get('helper'));
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(helper) || helper.length % 4 !== 0)
        return restError('invalid_args', 'The helper script body must be base64-encoded', 400);
      const path = `/tmp/suite-helper-${token(helper).slice(0, 12)}.php`;
      ctx.site.suite.helperScripts.add(path);
      return { abspath: '/var/www/html/', path, url: `${ctx.base}${path}` };
    },
  },
  'suite.backup-helper-script.delete': {
    permission: admin,
    handler(req, ctx) {
      ctx.site.suite.helperScripts.delete(String(req.get('path')));
      return { success: true };
    },
  },
  'suite.database-object.backup.read': read((req) => ({ object: { type: req.get('object_type'), id: req.get('object_id') }, meta: {} })),
  'suite.options.backup.read': read((req, ctx) => {
    const names = Array.isArray(req.get('name')) ? (req.get('name') as unknown[]).map(String) : String(req.get('name')).split(',');
    const options: Record<string, unknown> = {};
    for (const n of names) options[n] = n === 'blogname' ? ctx.site.name : n === 'blogdescription' ? ctx.site.description : null;
    return { options };
  }),
  'suite.suite-ai-jwt.update': read((_r, ctx) => ({ token: token(`jwt-${ctx.site.now()}`), blog_id: 1, expire: Math.floor(ctx.site.now() / 1000) + 300 })),
  'suite.marketing.survey.create': read(() => success('Survey response recorded.')),
  'suite.connection.url.read': read((req, ctx) => {
    const from = req.get('from');
    const redirect = req.get('redirect');
    return `${ctx.base}/${ctx.site.adminPath}/authorize-suite.php?from=${encodeURIComponent(String(from ?? ''))}&redirect=${encodeURIComponent(String(redirect ?? ''))}`;
  }),
  'suite.tracking.settings.read': read((_r, ctx) => ({ tracks_opt_out: ctx.site.suite.tracksOptOut })),
  'suite.tracking.settings.update': read((req, ctx) => {
    const v = req.get('tracks_opt_out');
    if (typeof v === 'boolean') ctx.site.suite.tracksOptOut = v;
    return { tracks_opt_out: ctx.site.suite.tracksOptOut };
  }),
  'suite.module.all.active.update': {
    permission: admin,
    hooks: { modules: MODULE_LIST },
    handler(req, ctx) {
      const active = req.get('active') !== false;
      for (const m of req.get('modules') as string[]) ctx.site.suite.modules[m] = active;
      return success(active ? 'All modules activated.' : 'All modules deactivated.');
    },
  },
  'suite.module.item.read': {
    permission: admin,
    handler: (req, ctx) => (MODULES.has(String(req.get('slug'))) ? moduleInfo(String(req.get('slug')), ctx, true) : moduleNotFound()),
  },
  'suite.module.item.update': {
    permission: admin,
    handler(req, ctx) {
      const slug = String(req.get('slug'));
      if (!MODULES.has(slug)) return moduleNotFound();
      // The spec states that this route writes the suite settings. Jetpack also refuses writes
      // to an inactive module (409 inactive); the spec states no such condition, so none here.
      const r = updateSettings(req, ctx);
      return r === true ? success('The requested Suite module was updated.') : r;
    },
  },
  'suite.module.active.update': {
    permission: admin,
    handler(req, ctx) {
      const slug = String(req.get('slug'));
      if (!MODULES.has(slug)) return moduleNotFound();
      if (req.get('active') !== false) {
        ctx.site.suite.modules[slug] = true;
        return success('The requested Suite module was activated.');
      }
      if (!ctx.site.suite.modules[slug]) return restError('already_inactive', 'The requested Suite module was already inactive.', 409);
      ctx.site.suite.modules[slug] = false;
      return success('The requested Suite module was deactivated.');
    },
  },
  'suite.module.data.read': {
    permission: admin,
    handler(req, ctx) {
      const slug = String(req.get('slug'));
      if (!MODULES.has(slug)) return moduleNotFound();
      if ((slug === 'protect' || slug === 'monitor') && !ctx.site.suite.modules[slug])
        return restError('not_active', 'The requested Suite module is not active.', 404);
      const range = String(req.get('range') ?? 'day');
      if (slug === 'protect') return 0;
      if (slug === 'monitor') return { code: 'success', data: { last_downtime: null } };
      return { module: slug, range, data: { general: { visitors: 0, views: 0 } } };
    },
  },
  'suite.module.key.check.read': read((req, ctx) => ({
    service: req.get('service'),
    validKey: ctx.site.spam.key !== null,
    invalidKey: false,
  })),
  'suite.module.key.check.update': read((req, ctx) => {
    const key = String(req.get('api_key') ?? '');
    const valid = key === '' ? ctx.site.spam.key !== null : key.length === 12;
    return { service: req.get('service'), validKey: valid, invalidKey: !valid };
  }),
  'suite.settings.read': read((_r, ctx) => allSettings(ctx)),
  'suite.settings.update': {
    permission: admin,
    handler(req, ctx) {
      const r = updateSettings(req, ctx);
      return r === true ? success('The requested Suite data updates were successful.') : r;
    },
  },
  'suite.settings.item.update': {
    permission: admin,
    handler(req, ctx) {
      const slug = String(req.get('slug'));
      if (!MODULES.has(slug)) return moduleNotFound();
      // As for POST /module/<slug>: no 409 inactive (not stated by the spec).
      const r = updateSettings(req, ctx);
      return r === true ? success('The requested Suite data updates were successful.') : r;
    },
  },
  'suite.options.item.update': {
    permission: admin,
    handler(req, ctx) {
      // Jetpack's reset_jetpack_options(): needs reset:true; `options` resets the settings, `modules` the toggles.
      if (req.get('reset') !== true) return restError('invalid_param', 'Invalid Parameter', 404);
      const what = String(req.get('options'));
      if (what === 'options') {
        ctx.site.suite.settings = defaultSettings();
        return success('Suite options reset.');
      }
      if (what === 'modules') {
        ctx.site.suite.modules = defaultModules();
        return success('Modules reset to default.');
      }
      return restError('invalid_param', 'Invalid Parameter', 404);
    },
  },
  'suite.notice.item.update': {
    permission: admin,
    handler(req, ctx) {
      // Jetpack's dismiss_notice(): needs dismissed:true and a known notice.
      if (req.get('dismissed') !== true) return restError('invalid_param', 'Invalid parameter "dismissed".', 404);
      const notice = String(req.get('notice'));
      if (notice !== 'feedback_dash_request' && notice !== 'welcome') return restError('invalid_param', 'Invalid parameter "notice".', 404);
      ctx.site.suite.dismissedNotices[notice] = true;
      return { ...ctx.site.suite.dismissedNotices };
    },
  },
  'suite.plugins.collection.list': read((_r, ctx) => structuredClone(ctx.site.suite.plugins)),
  'suite.plugins.collection.create': {
    permission: admin,
    handler(req, ctx) {
      const slug = String(req.get('slug'));
      const file = `${slug}/${slug}.php`;
      const status = String(req.get('status') ?? 'inactive');
      const existing = ctx.site.suite.plugins[file] ?? Object.entries(ctx.site.suite.plugins).find(([f]) => f.split('/')[0] === slug)?.[1];
      // As Jetpack's install_plugin: an installed plugin is not installed again (success, or activated on status active).
      if (existing) {
        if (status === 'active') existing.active = true;
        return success(`Installed ${slug}`);
      }
      // The plugin directory has lower-case slugs only: anything else cannot be found there.
      if (!/^[a-z0-9-]+$/.test(slug)) return restError('install_plugin_failed', `Unable to install ${slug}: Plugin not found.`, 500);
      const info = {
        Name: slug,
        PluginURI: '',
        Version: '1.0.0',
        Description: '',
        Author: '',
        AuthorURI: '',
        TextDomain: slug,
        RequiresWP: '',
        RequiresPHP: '',
        UpdateURI: '',
        Title: slug,
        AuthorName: '',
        active: status !== 'inactive',
      };
      ctx.site.suite.plugins[file] = info;
      return { ...info, plugin: file };
    },
  },
  'suite.plugins.item.update': {
    permission: admin,
    hooks: { status: ACTIVATE_ONLY },
    handler(req, ctx) {
      const file = `${String(req.get('plugin'))}.php`;
      const p = ctx.site.suite.plugins[file];
      if (!p) return restError('not_found', 'Plugin not found.', 404);
      p.active = true;
      return success('The plugin was activated.');
    },
  },
  'suite.verify-site.item.read': read((req, ctx) => ({
    verified: String(req.get('service')) in ctx.site.suite.verifiedSites,
    token: token(String(req.get('service'))),
  })),
  'suite.verify-site.item.update': read((req, ctx) => {
    // The site's one keyring connection (the reference implementation asks its external service, which knows the site's keyrings).
    if (Number(req.get('keyring_id')) !== 1) return restError('error_verifying_site_google', 'The keyring connection was not found.', 404);
    ctx.site.suite.verifiedSites[String(req.get('service'))] = Number(req.get('keyring_id'));
    return { verified: true, token: token(String(req.get('service'))) };
  }),
  'suite.recommendations.data.read': read((_r, ctx) => ctx.site.suite.recommendationsData),
  'suite.recommendations.data.update': read((req, ctx) => {
    ctx.site.suite.recommendationsData = { ...(req.get('data') as Record<string, unknown>) };
    return true;
  }),
  'suite.recommendations.step.read': read((_r, ctx) => ({ step: ctx.site.suite.recommendationsStep })),
  'suite.recommendations.step.update': read((req, ctx) => {
    ctx.site.suite.recommendationsStep = String(req.get('step'));
    return true;
  }),
  'suite.suite-crm.read': read((_r, ctx) => ({ crm_installed: true, crm_active: true, extensions: ctx.site.suite.crmExtensions })),
  'suite.suite-crm.update': read((req, ctx) => {
    const ext = String(req.get('extension'));
    if (!ctx.site.suite.crmExtensions.includes(ext)) ctx.site.suite.crmExtensions.push(ext);
    return { success: true };
  }),
  'suite.purchase-token.read': read((_r, ctx) => ctx.site.suite.purchaseToken),
  'suite.purchase-token.create': read((_r, ctx) => {
    ctx.site.suite.purchaseToken = `ref-purchase-token-${token(String(ctx.site.now())).slice(0, 8)}`;
    return ctx.site.suite.purchaseToken;
  }),
  'suite.seen-wc-connection-modal.update': read((_r, ctx) => {
    ctx.site.suite.seenWcConnectionModal = true;
    return true;
  }),
  'suite.subscribers.auth.read': read((req, ctx) => ({ redirect_url: req.get('redirect_url'), auth_url: `${ctx.base}/${ctx.site.adminPath}/subscribers-auth.php` })),
  'suite.licensing.error.read': read((_r, ctx) => ctx.site.suite.licensingError),
  'suite.licensing.error.update': read((req, ctx) => {
    ctx.site.suite.licensingError = String(req.get('error'));
    return true;
  }),
  'suite.licensing.set-license.update': read((req, ctx) => {
    const license = String(req.get('license'));
    if (!ctx.site.suite.licenses.includes(license)) ctx.site.suite.licenses.push(license);
    return true;
  }),
  'suite.licensing.user.activation-notice-dismiss.update': read((req) => ({
    license_activation_notice_dismissed: { last_detached_count: req.get('last_detached_count'), last_dismissed_time: new Date().toISOString().slice(0, 19) },
  })),
  'suite.licensing.attach-licenses.update': read((req, ctx) => {
    const out = (req.get('licenses') as string[]).map((l) => {
      if (!ctx.site.suite.licenses.includes(l)) ctx.site.suite.licenses.push(l);
      return { activatedProductId: 0, license: l };
    });
    return out;
  }),
  'suite.heartbeat.data.read': read((req) => {
    const prefix = typeof req.get('prefix') === 'string' ? (req.get('prefix') as string) : '';
    return { [`${prefix}version`]: '1.0.0', [`${prefix}site-count`]: 1, [`${prefix}plugins`]: 4 };
  }),
};
