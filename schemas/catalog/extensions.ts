/**
 * Catalog of the extension document (`../shared/spec/` beside the checkout: extension-namespaces.md): the site index
 * additions and namespaces of the second instance, the spam filter (`spamfilter/v1`), contact
 * forms (`contactform/v1`) and the management suite (`suite/v4`): routes, resources, settings,
 * module toggles and everything the document says is not shown.
 *
 * Rule (see ../types.ts): an attribute is present only when the spec states it.
 *
 * ID scheme
 * ---------
 * Route IDs: `<ns>.<segments>`, where `<ns>` is `spamfilter`, `contactform` or `suite` and
 * `<segments>` are the path's literal segments after the namespace, lowercased, `_` → `-`,
 * joined with dots. Parameter segments are dropped, with these rules:
 *   - the namespace index is `<ns>.index`;
 *   - a path that ends in a parameter naming a member (`<id>`, `<slug>`, `<plugin>`, `<options>`,
 *     `<notice>`, `<service>`) ends in `.item`;
 *   - a path that ends in a parameter selecting something other than a member ends in the
 *     parameter's name (`/stats/<interval>` → `spamfilter.stats.interval`,
 *     `/verify-site/<service>/<keyring_id>` → `suite.verify-site.keyring-id`);
 *   - a route that lists and creates members (`/contact-forms`, `/plugins`) ends in `.collection`;
 *   - `contact-forms` is shortened to `forms`; `/feedback/schema` → `feedback-schema`.
 * Endpoint IDs: route ID + a suffix decided by the methods of the endpoint:
 *   GET → `.read` (`.list` on a `.collection` route), POST alone → `.create`,
 *   POST, PUT, PATCH → `.update`, DELETE → `.delete`.
 *   A table row naming GET and POST together ("GET, POST") is two endpoints (read/list and
 *   create) with the same documented args, as the contact-form item row splits its methods.
 * Setting IDs `suite.setting.<name>`, module IDs `suite.module.<slug>` (names verbatim).
 * Index fields `extensions.index.field.<name>`, not-shown entries `extensions.not-shown.<topic>`,
 * resources `resource.<ns>.<name>`.
 *
 * SpecRef sections are the document's own headings, joined with ' › ', as written (including a
 * heading's trailing parenthetical such as "Suite (`suite/v4`)").
 *
 * Things written once and derived: the `/module/<slug>` and `/settings` write args and the
 * suite settings resource are built from `settings` and `modules`.
 */
import type {
  ArgSpec,
  EndpointSpec,
  FieldSpec,
  HttpMethod,
  IndexFieldSpec,
  ModuleSpec,
  NotShown,
  ResourceSpec,
  RouteSpec,
  SettingSpec,
  SpecRef,
} from '../types.ts';
import { deepFreeze } from '../freeze.ts';

// ---------------------------------------------------------------------------
// Spec references
// ---------------------------------------------------------------------------

const ref = (...headings: string[]): SpecRef => ({ doc: 'extensions', section: headings.join(' › ') });

const P1 = '1. What the service does';
const P2 = '2. Resources and their fields';
const P4 = '4. Endpoints';

const S = {
  part1: ref(P1),
  spamKey: ref(P2, 'Spam filter key'),
  spamSettings: ref(P2, 'Spam filter settings'),
  spamStats: ref(P2, 'Spam filter statistics'),
  contactForm: ref(P2, 'Contact form'),
  suiteSettings: ref(P2, 'Suite module settings'),
  part4: ref(P4),
  spamfilter: ref(P4, 'Spam filter (`spamfilter/v1`)'),
  contactforms: ref(P4, 'Contact forms (`contactform/v1`)'),
  suite: ref(P4, 'Suite (`suite/v4`)'),
} as const;

// ---------------------------------------------------------------------------
// Part 1: site index additions and namespaces
// ---------------------------------------------------------------------------

export const extensionIndexFields: IndexFieldSpec[] = deepFreeze([
  {
    id: 'extensions.index.field.timezone_string',
    name: 'timezone_string',
    type: 'string',
    nonEmpty: true,
    note: 'non-empty on this instance',
    spec: S.part1,
  },
  {
    id: 'extensions.index.field.gmt_offset',
    name: 'gmt_offset',
    type: 'number',
    note: 'numeric (the spec names no JSON type beyond "numeric")',
    spec: S.part1,
  },
]);

/** "The site advertises these namespaces: ...", in the document's order. */
export const extensionNamespaces: string[] = deepFreeze([
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

// ---------------------------------------------------------------------------
// Part 2: suite settings and module toggles
// ---------------------------------------------------------------------------

const setting = (name: string, fact: Omit<SettingSpec, 'id' | 'name' | 'spec'>): SettingSpec => ({
  id: `suite.setting.${name}`,
  name,
  ...fact,
  spec: S.suiteSettings,
});

const STRING_ARRAY_ITEMS: ArgSpec = { type: 'string' };

/** The table of part 2 › Suite module settings, in table order. */
const tableSettings: SettingSpec[] = [
  setting('carousel_background_color', { type: 'string', default: 'black', enum: ['black', 'white'] }),
  setting('suite_comment_form_color_scheme', { type: 'string', default: 'light', enum: ['light', 'dark', 'transparent'] }),
  setting('highlander_comment_form_prompt', { type: 'string', default: 'Leave a Reply' }),
  setting('avatar_disable_hovercards', { type: 'string', default: 'enabled', enum: ['enabled', 'disabled'] }),
  setting('likes_default', { type: 'string', default: 'on', enum: ['on', 'off'] }),
  setting('post_by_email_address', { type: 'string', default: 'noop', enum: ['noop', 'create', 'regenerate', 'delete'] }),
  setting('button_style', { type: 'string', default: 'icon', enum: ['icon-text', 'icon', 'text', 'official'] }),
  setting('suite_subscriptions_reply_to', { type: 'string', default: 'comment' }),
  setting('lang_id', { type: 'string', default: 'en_US' }),
  setting('suite_portfolio_posts_per_page', { type: 'integer', default: 10 }),
  setting('suite_testimonial_posts_per_page', { type: 'integer', default: 10 }),
  setting('version', { type: 'integer', default: 9 }),
  setting('show', { type: 'array', items: STRING_ARRAY_ITEMS, default: ['post'] }),
  setting('roles', { type: 'array', items: STRING_ARRAY_ITEMS, default: ['administrator'] }),
  setting('count_roles', { type: 'array', items: STRING_ARRAY_ITEMS, default: ['administrator'] }),
  setting('cloud_newsletter_categories', {
    type: 'array',
    default: [],
    note: 'array (category identifiers); the element type is not stated',
  }),
  setting('sharing_services', {
    type: 'object',
    keys: ['visible', 'hidden'],
    note:
      'default stated as "visible: two service identifiers, hidden: []"; the identifiers are not named, ' +
      'so no concrete default is recorded',
  }),
  setting('custom', {
    type: 'object',
    keys: ['sharing_name', 'sharing_url', 'sharing_icon'],
    default: { sharing_name: '', sharing_url: '', sharing_icon: '' },
    note: 'default stated as "keys sharing_name, sharing_url, sharing_icon, all empty strings"',
  }),
  setting('subscription_options', {
    type: 'object',
    keys: ['invitation', 'welcome', 'comment_follow'],
    default: { invitation: '', welcome: '', comment_follow: '' },
    note: 'default stated as "keys invitation, welcome, comment_follow, all empty strings"',
  }),
  setting('advanced_seo_title_formats', {
    type: 'object',
    keys: ['archives', 'front_page', 'groups', 'pages', 'posts'],
    default: { archives: [], front_page: [], groups: [], pages: [], posts: [] },
    note: 'default stated as "keys archives, front_page, groups, pages, posts, all empty arrays"',
  }),
];

/** "Boolean settings with default true (1): ..." */
const BOOLEAN_TRUE = [
  'carousel_display_comments',
  'infinite_scroll',
  'social_notifications_like',
  'suite_sso_match_by_email',
  'stb_enabled',
  'stc_enabled',
  'suite_avatar_in_email',
  'suite_author_in_email',
  'suite_post_date_in_email',
  'show_headline',
  'enable_header_ad',
  'ads_second_belowpost',
  'ads_inline_enabled',
  'ads_display_front_page',
  'ads_display_post',
  'ads_display_page',
  'ads_display_archive',
  'admin_bar',
  'enable_new_stats',
  'do_not_track',
  'cloud_reader_views_enabled',
] as const;

/** "Boolean settings with default false (0): ..." */
const BOOLEAN_FALSE = [
  'suite_blocks_disabled',
  'carousel_display_exif',
  'suite_portfolio',
  'suite_testimonial',
  'suite_waf_automatic_rules',
  'suite_waf_ip_block_list_enabled',
  'suite_waf_ip_allow_list_enabled',
  'suite_waf_share_data',
  'suite_waf_share_debug_data',
  'tiled_galleries',
  'infinite_scroll_google_analytics',
  'cloud_publish_comments_with_markdown',
  'cloud_publish_posts_with_markdown',
  'monitor_receive_notifications',
  'suite_sso_require_two_step',
  'cloud_newsletter_categories_enabled',
  'cloud_featured_image_in_email',
  'cloud_subscription_emails_use_excerpt',
  'sm_enabled',
  'suite_subscribe_overlay_enabled',
  'suite_subscribe_floating_button_enabled',
  'suite_subscriptions_subscribe_post_end_enabled',
  'suite_subscriptions_login_navigation_enabled',
  'suite_subscriptions_subscribe_navigation_enabled',
  'social_notifications_subscribe',
  'show_thumbnails',
  'instant_search_enabled',
  'has_suite_search_product',
  'search_auto_config',
  'sharing_disable_resources',
  'ads_approved',
  'ads_custom_adstxt_enabled',
  'ads_ccpa_enabled',
  'ads_cmp_enabled',
  'blog_id',
  'collapse_nudges',
  'spamfilter_show_user_comments_approved',
  'dismiss_empty_stats_card',
  'dismiss_dash_backup_getting_started',
  'dismiss_dash_agencies_learn_more',
  'video_private_enabled_for_site',
] as const;

/** "String settings with default empty string: ..." (without the five site-verification codes). */
const STRING_EMPTY = [
  'suite_waf_ip_block_list',
  'suite_waf_ip_allow_list',
  'suite_protect_key',
  'suite_protect_global_whitelist',
  'sharing_label',
  'suite-social-cards-site-tag',
  'sharing_delete_service',
  'suite_subscriptions_from_name',
  'analytics_tracking_id',
  'cms_api_key',
  'ads_custom_adstxt',
  'ads_ccpa_privacy_policy_url',
  'advanced_seo_front_page_description',
] as const;

/** "... and five site-verification code settings (...)" (same list, default empty string). */
const SITE_VERIFICATION = ['verify_search_a', 'verify_search_b', 'verify_pinboard', 'verify_search_c', 'verify_social'] as const;

const BOOLEAN_NOTES: Record<string, string> = {
  blog_id: 'declared boolean (the spec writes "blog_id (declared boolean)")',
};

/**
 * Every suite setting of part 2, in document order: the table, the two boolean lists, the
 * empty-string list. Part 2 says booleans are given as 0/1 or true/false in the defaults; they are
 * recorded as true/false here.
 */
export const settings: SettingSpec[] = deepFreeze([
  ...tableSettings,
  ...BOOLEAN_TRUE.map((name) => setting(name, { type: 'boolean', default: true })),
  ...BOOLEAN_FALSE.map((name) =>
    setting(name, {
      type: 'boolean',
      default: false,
      ...(BOOLEAN_NOTES[name] !== undefined ? { note: BOOLEAN_NOTES[name] } : {}),
    }),
  ),
  ...STRING_EMPTY.map((name) => setting(name, { type: 'string', default: '' })),
  ...SITE_VERIFICATION.map((name) => setting(name, { type: 'string', default: '', note: 'site-verification code' })),
]);

/** "Module toggles (boolean, default false, one per module slug): ..." */
const MODULE_SLUGS = [
  'blaze',
  'blocks',
  'carousel',
  'comment-likes',
  'comments',
  'contact-form',
  'copy-post',
  'custom-content-types',
  'geo-location',
  'web-fonts',
  'avatar-hovercards',
  'infinite-scroll',
  'json-api',
  'latex',
  'likes',
  'markdown',
  'monitor',
  'notes',
  'image-cdn',
  'image-cdn-lite',
  'post-by-email',
  'post-list',
  'protect',
  'publicize',
  'related-posts',
  'search',
  'seo-tools',
  'sharing',
  'shortcodes',
  'shortlinks',
  'sitemaps',
  'sso',
  'stats',
  'subscriptions',
  'tiled-gallery',
  'vault',
  'verification-tools',
  'video-hosting',
  'waf',
  'widget-visibility',
  'widgets',
  'shop-analytics',
  'ads',
] as const;

export const modules: ModuleSpec[] = deepFreeze(
  MODULE_SLUGS.map((slug): ModuleSpec => ({ id: `suite.module.${slug}`, slug, default: false, spec: S.suiteSettings })),
);

// ---------------------------------------------------------------------------
// Derived descriptors (settings and toggles as args / fields)
// ---------------------------------------------------------------------------

function settingToArg(s: SettingSpec): ArgSpec {
  const arg: ArgSpec = { type: s.type };
  if ('default' in s) arg.default = s.default;
  if (s.enum !== undefined) arg.enum = s.enum;
  if (s.items !== undefined) arg.items = s.items;
  if (s.note !== undefined) arg.note = s.note;
  return arg;
}

function settingToField(s: SettingSpec): FieldSpec {
  const field: FieldSpec = { type: s.type };
  if ('default' in s) field.default = s.default;
  if (s.enum !== undefined) field.enum = s.enum;
  if (s.items !== undefined) field.items = s.items;
  if (s.note !== undefined) field.note = s.note;
  return field;
}

/** A module toggle: "boolean, default false". */
const toggleArg = (): ArgSpec => ({ type: 'boolean', default: false, note: 'module toggle' });

/**
 * "context (default edit) plus any suite setting of part 2, all optional" (`/module/<slug>` and
 * `/settings` writes). The module toggles are listed in part 2 under "Suite module settings" with
 * their type and default, so they are taken as suite settings here too.
 */
const suiteSettingsWriteArgs: Record<string, ArgSpec> = {
  context: { default: 'edit' },
  ...Object.fromEntries(settings.map((s) => [s.name, { ...settingToArg(s), required: false }])),
  ...Object.fromEntries(modules.map((m) => [m.slug, { ...toggleArg(), required: false }])),
};

// ---------------------------------------------------------------------------
// Part 4: routes
// ---------------------------------------------------------------------------

type Suffix = 'read' | 'list' | 'create' | 'update' | 'delete';

const GET: HttpMethod[] = ['GET'];
const POST: HttpMethod[] = ['POST'];
const EDITABLE: HttpMethod[] = ['POST', 'PUT', 'PATCH'];
const DELETE: HttpMethod[] = ['DELETE'];

/** An endpoint before the route gives it its ID and spec reference. */
interface Draft {
  methods: HttpMethod[];
  args: EndpointSpec['args'];
  extra?: Partial<Pick<EndpointSpec, 'argsOpen' | 'note'>>;
}

const get = (args: EndpointSpec['args'], extra?: Draft['extra']): Draft => ({ methods: GET, args, extra });
const create = (args: EndpointSpec['args'], extra?: Draft['extra']): Draft => ({ methods: POST, args, extra });
const update = (args: EndpointSpec['args'], extra?: Draft['extra']): Draft => ({ methods: EDITABLE, args, extra });
const remove = (args: EndpointSpec['args'], extra?: Draft['extra']): Draft => ({ methods: DELETE, args, extra });

function suffixFor(routeId: string, methods: HttpMethod[]): Suffix {
  const key = methods.join(',');
  if (key === 'GET') return routeId.endsWith('.collection') ? 'list' : 'read';
  if (key === 'POST') return 'create';
  if (key === 'POST,PUT,PATCH') return 'update';
  if (key === 'DELETE') return 'delete';
  throw new Error(`catalog/extensions: no endpoint suffix for ${routeId} ${key}`);
}

function route(
  id: string,
  namespace: string,
  path: string,
  drafts: Draft[],
  spec: SpecRef,
  params?: Record<string, ArgSpec>,
): RouteSpec {
  return {
    id,
    namespace,
    path,
    ...(params !== undefined ? { params } : {}),
    endpoints: drafts.map((d) => ({
      id: `${id}.${suffixFor(id, d.methods)}`,
      methods: d.methods,
      args: d.args,
      ...d.extra,
      spec,
    })),
    spec,
  };
}

/** "namespace (default `<ns>`), context (default view)": no types stated. */
const namespaceIndexArgs = (ns: string): Record<string, ArgSpec> => ({
  namespace: { default: ns },
  context: { default: 'view' },
});

/** Document intro: "`<id>` is a decimal integer". */
const ID_SEGMENT: ArgSpec = { type: 'integer', pattern: '\\d+', note: 'decimal integer' };
/** A path segment whose accepted characters the spec does not state for this route. */
const UNSTATED_SEGMENT: ArgSpec = {};

// --- Spam filter -----------------------------------------------------------

const SF = 'spamfilter/v1';
/** Part 2 › Spam filter statistics / part 4: `60-days`, `6-months`, `all`. */
const INTERVALS = ['60-days', '6-months', 'all'] as const;

const spamfilterRoutes: RouteSpec[] = [
  route('spamfilter.index', SF, '/spamfilter/v1', [get(namespaceIndexArgs(SF))], S.spamfilter),
  route(
    'spamfilter.key',
    SF,
    '/spamfilter/v1/key',
    [
      get({}),
      update({ key: { type: 'string', required: true, minLength: 12, maxLength: 12, note: '12 characters' } }),
      remove({}),
    ],
    S.spamfilter,
  ),
  route(
    'spamfilter.settings',
    SF,
    '/spamfilter/v1/settings',
    [
      get({}),
      update({
        spamfilter_strictness: { type: 'boolean', required: false },
        spamfilter_show_user_comments_approved: { type: 'boolean', required: false },
      }),
    ],
    S.spamfilter,
  ),
  route(
    'spamfilter.stats',
    SF,
    '/spamfilter/v1/stats',
    [get({ interval: { type: 'string', required: false, default: 'all', enum: INTERVALS } })],
    S.spamfilter,
  ),
  route(
    'spamfilter.stats.interval',
    SF,
    '/spamfilter/v1/stats/<interval>',
    [get({ interval: { type: 'string', required: false, enum: INTERVALS, note: 'same options; no default stated' } })],
    S.spamfilter,
    { interval: { type: 'string', enum: INTERVALS, note: '"same options" as /spamfilter/v1/stats' } },
  ),
];

// --- Contact forms ---------------------------------------------------------

const CF = 'contactform/v1';
const CF_NOTE = { note: 'Parameters and payloads of all contact-form routes: not shown' };

const contactformRoutes: RouteSpec[] = [
  route('contactform.index', CF, '/contactform/v1', [
    get(namespaceIndexArgs(CF), {
      note:
        'namespace index args stated in the route table; taken over the general sentence ' +
        '"Parameters and payloads of all contact-form routes: not shown"',
    }),
  ], S.contactforms),
  route(
    'contactform.forms.collection',
    CF,
    '/contactform/v1/contact-forms',
    [get('not-shown', CF_NOTE), create('not-shown', CF_NOTE)],
    S.contactforms,
  ),
  route(
    'contactform.forms.item',
    CF,
    '/contactform/v1/contact-forms/<id>',
    [
      get('not-shown', { note: 'GET reads; ' + CF_NOTE.note }),
      update('not-shown', { note: 'POST, PUT, PATCH update; ' + CF_NOTE.note }),
      remove('not-shown', { note: 'DELETE removes; ' + CF_NOTE.note }),
    ],
    S.contactforms,
    { id: ID_SEGMENT },
  ),
  route(
    'contactform.forms.feedback',
    CF,
    '/contactform/v1/contact-forms/<id>/feedback',
    [create('not-shown', CF_NOTE)],
    S.contactforms,
    { id: ID_SEGMENT },
  ),
  route(
    'contactform.forms.feedback-schema',
    CF,
    '/contactform/v1/contact-forms/<id>/feedback/schema',
    [get('not-shown', CF_NOTE)],
    S.contactforms,
    { id: ID_SEGMENT },
  ),
  route(
    'contactform.forms.refill',
    CF,
    '/contactform/v1/contact-forms/<id>/refill',
    [get('not-shown', CF_NOTE)],
    S.contactforms,
    { id: ID_SEGMENT },
  ),
];

// --- Suite -------------------------------------------------------------------

const SU = 'suite/v4';
const su = (path: string): string => (path === '' ? '/suite/v4' : `/suite/v4${path}`);

/** "(a-z and hyphen)" */
const A_Z_HYPHEN: ArgSpec = { pattern: '[a-z-]+', note: 'a-z and hyphen' };

/**
 * "Read-only routes (GET, no parameters unless stated)": [route ID, path under /suite/v4, params].
 * The namespace index is listed separately (its args are those of a namespace index).
 */
const READ_ONLY: [string, string, Record<string, ArgSpec>?][] = [
  ['suite.site', '/site'],
  ['suite.site.features', '/site/features'],
  ['suite.site.products', '/site/products'],
  ['suite.site.purchases', '/site/purchases'],
  ['suite.site.benefits', '/site/benefits'],
  ['suite.site.activity', '/site/activity'],
  ['suite.site.discount', '/site/discount'],
  ['suite.site.backup.undo-event', '/site/backup/undo-event'],
  ['suite.site.backup.preflight', '/site/backup/preflight'],
  ['suite.plans', '/plans'],
  ['suite.products', '/products'],
  ['suite.connection.test', '/connection/test'],
  ['suite.connection.test-wpcom', '/connection/test-wpcom'],
  ['suite.rewind', '/rewind'],
  ['suite.scan', '/scan'],
  ['suite.module.all', '/module/all'],
  ['suite.updates.plugins', '/updates/plugins'],
  ['suite.recommendations.product-suggestions', '/recommendations/product-suggestions'],
  ['suite.recommendations.upsell', '/recommendations/upsell'],
  ['suite.recommendations.conditional', '/recommendations/conditional'],
  ['suite.intro-offers', '/intro-offers'],
  ['suite.features.available', '/features/available'],
  ['suite.features.enabled', '/features/enabled'],
  ['suite.licensing.user.licenses', '/licensing/user/licenses'],
  ['suite.licensing.user.counts', '/licensing/user/counts'],
  ['suite.comments.backup', '/comments/<id>/backup', { id: ID_SEGMENT }],
  ['suite.posts.backup', '/posts/<id>/backup', { id: ID_SEGMENT }],
  ['suite.terms.backup', '/terms/<id>/backup', { id: ID_SEGMENT }],
  ['suite.users.backup', '/users/<id>/backup', { id: ID_SEGMENT }],
  ['suite.orders.backup', '/orders/<id>/backup', { id: ID_SEGMENT }],
  [
    'suite.plugin.item',
    '/plugin/<plugin>',
    { plugin: { pattern: '[a-z/._-]+', note: 'letters a-z, slash, dot, hyphen, underscore' } },
  ],
  [
    'suite.widgets.item',
    '/widgets/<id>',
    {
      id: {
        pattern: '[0-9a-z_-]+',
        note: 'digits, a-z, hyphen, underscore (stated for this route instead of the decimal integer <id>)',
      },
    },
  ],
  [
    'suite.verify-site.keyring-id',
    '/verify-site/<service>/<keyring_id>',
    {
      service: { pattern: '[a-z_-]+', note: 'a-z, hyphen, underscore' },
      keyring_id: { pattern: '\\d+', note: 'digits' },
    },
  ],
];

const suiteIndex = route(
  'suite.index',
  SU,
  su(''),
  [
    get(namespaceIndexArgs(SU), {
      note:
        'listed as "(namespace index)" among the read-only routes ("no parameters unless stated"); ' +
        'recorded with the namespace and context args of the other namespace indexes',
    }),
  ],
  S.suite,
);

const readOnlyRoutes: RouteSpec[] = READ_ONLY.map(([id, path, params]) => route(id, SU, su(path), [get({})], S.suite, params));

const STRING: ArgSpec = { type: 'string' };
const required = (arg: ArgSpec): ArgSpec => ({ ...arg, required: true });
const optional = (arg: ArgSpec): ArgSpec => ({ ...arg, required: false });

/** "Routes with parameters" table, in table order (rows of one path grouped into one route). */
const parameterRoutes: RouteSpec[] = [
  route(
    'suite.backup-helper-script',
    SU,
    su('/backup-helper-script'),
    [
      create({ helper: { type: 'string', required: true, note: 'base64-encoded script body' } }),
      remove({ path: required(STRING) }),
    ],
    S.suite,
  ),
  route(
    'suite.database-object.backup',
    SU,
    su('/database-object/backup'),
    [get({ object_type: { required: true }, object_id: { type: 'integer', required: true } })],
    S.suite,
  ),
  route(
    'suite.options.backup',
    SU,
    su('/options/backup'),
    [get({ name: { required: true, note: 'one or more option names' } })],
    S.suite,
  ),
  route('suite.suite-ai-jwt', SU, su('/suite-ai-jwt'), [update({})], S.suite),
  route('suite.marketing.survey', SU, su('/marketing/survey'), [create({})], S.suite),
  route(
    'suite.connection.url',
    SU,
    su('/connection/url'),
    [get({ from: optional(STRING), redirect: optional(STRING) })],
    S.suite,
  ),
  route(
    'suite.tracking.settings',
    SU,
    su('/tracking/settings'),
    [get({}), update({ tracks_opt_out: { type: 'boolean', required: false } })],
    S.suite,
  ),
  route(
    'suite.module.all.active',
    SU,
    su('/module/all/active'),
    [
      update({
        modules: { type: 'array', items: { type: 'string' }, required: true },
        active: { type: 'boolean', required: false, default: true },
      }),
    ],
    S.suite,
  ),
  route(
    'suite.module.item',
    SU,
    su('/module/<slug>'),
    [get({}), update(suiteSettingsWriteArgs, { note: 'context (default edit) plus any suite setting of part 2, all optional' })],
    S.suite,
    { slug: A_Z_HYPHEN },
  ),
  route(
    'suite.module.active',
    SU,
    su('/module/<slug>/active'),
    [update({ active: { type: 'boolean', required: true, default: true } })],
    S.suite,
    { slug: UNSTATED_SEGMENT },
  ),
  route(
    'suite.module.data',
    SU,
    su('/module/<slug>/data'),
    [get({ range: { type: 'string', required: false, default: 'day' } })],
    S.suite,
    { slug: UNSTATED_SEGMENT },
  ),
  route(
    'suite.module.key.check',
    SU,
    su('/module/<service>/key/check'),
    [get({}), update({ api_key: { type: 'string', required: false, default: '', note: 'default empty' } })],
    S.suite,
    { service: UNSTATED_SEGMENT },
  ),
  route(
    'suite.settings',
    SU,
    su('/settings'),
    [get({}), update(suiteSettingsWriteArgs, { note: 'context (default edit) plus any suite setting of part 2, all optional' })],
    S.suite,
  ),
  route('suite.settings.item', SU, su('/settings/<slug>'), [update({ context: { default: 'edit' } })], S.suite, {
    slug: UNSTATED_SEGMENT,
  }),
  route('suite.options.item', SU, su('/options/<options>'), [update({})], S.suite, { options: A_Z_HYPHEN }),
  route('suite.notice.item', SU, su('/notice/<notice>'), [update({})], S.suite, {
    notice: { pattern: '[a-z_-]+', note: 'a-z, hyphen, underscore' },
  }),
  route(
    'suite.plugins.collection',
    SU,
    su('/plugins'),
    [
      get({}),
      create({
        slug: { type: 'string', required: true, pattern: '[\\w-]+', note: 'word characters and hyphen' },
        status: { type: 'string', enum: ['inactive', 'active', 'network-active'], default: 'inactive' },
        source: optional(STRING),
      }),
    ],
    S.suite,
  ),
  route(
    'suite.plugins.item',
    SU,
    su('/plugins/<plugin>'),
    [update({ status: required(STRING), source: optional(STRING) })],
    S.suite,
    { plugin: UNSTATED_SEGMENT },
  ),
  route(
    'suite.verify-site.item',
    SU,
    su('/verify-site/<service>'),
    [get({}), update({ keyring_id: { type: 'integer', required: true } })],
    S.suite,
    { service: UNSTATED_SEGMENT },
  ),
  route(
    'suite.recommendations.data',
    SU,
    su('/recommendations/data'),
    [get({}), update({ data: { type: 'object', required: true } })],
    S.suite,
  ),
  route(
    'suite.recommendations.step',
    SU,
    su('/recommendations/step'),
    [get({}), update({ step: required(STRING) })],
    S.suite,
  ),
  route(
    'suite.suite-crm',
    SU,
    su('/suite_crm'),
    [get({}), update({ extension: { type: 'text', required: true, note: 'type declared `text`' } })],
    S.suite,
  ),
  route('suite.purchase-token', SU, su('/purchase-token'), [get({}), create({})], S.suite),
  route('suite.seen-wc-connection-modal', SU, su('/seen-wc-connection-modal'), [update({})], S.suite),
  route(
    'suite.subscribers.auth',
    SU,
    su('/subscribers/auth'),
    [get({ redirect_url: { type: 'string', format: 'uri', required: true } })],
    S.suite,
  ),
  route('suite.licensing.error', SU, su('/licensing/error'), [get({}), update({ error: required(STRING) })], S.suite),
  route('suite.licensing.set-license', SU, su('/licensing/set-license'), [update({ license: required(STRING) })], S.suite),
  route(
    'suite.licensing.user.activation-notice-dismiss',
    SU,
    su('/licensing/user/activation-notice-dismiss'),
    [update({ last_detached_count: { type: 'integer', required: true } })],
    S.suite,
  ),
  route(
    'suite.licensing.attach-licenses',
    SU,
    su('/licensing/attach-licenses'),
    [update({ licenses: { type: 'array', items: { type: 'string' }, required: true } })],
    S.suite,
  ),
  route(
    'suite.heartbeat.data',
    SU,
    su('/heartbeat/data'),
    [get({ prefix: { type: 'string' } }, { argsOpen: true, note: 'further parameters unknown' })],
    S.suite,
  ),
];

export const extensionRoutes: RouteSpec[] = deepFreeze([
  ...spamfilterRoutes,
  ...contactformRoutes,
  suiteIndex,
  ...readOnlyRoutes,
  ...parameterRoutes,
]);

// ---------------------------------------------------------------------------
// Part 2: resources
// ---------------------------------------------------------------------------

const RESPONSE_FIELDS_NOT_SHOWN = 'Response fields of the other suite, spam filter and contact-form resources: not shown';

export const extensionResources: ResourceSpec[] = deepFreeze<ResourceSpec[]>([
  {
    id: 'resource.spamfilter.key',
    route: '/spamfilter/v1/key',
    fields: { key: { type: 'string', note: '12 characters' } },
    spec: S.spamKey,
    note: 'A single key string, 12 characters, supplied on write as `key`.',
  },
  {
    id: 'resource.spamfilter.settings',
    route: '/spamfilter/v1/settings',
    fields: {
      spamfilter_strictness: {
        type: 'boolean',
        note: 'when true the worst spam is discarded instead of going to the spam folder',
      },
      spamfilter_show_user_comments_approved: {
        type: 'boolean',
        note: 'show approved-comment count beside each comment author',
      },
    },
    spec: S.spamSettings,
  },
  {
    id: 'resource.spamfilter.stats',
    route: '/spamfilter/v1/stats',
    fields: 'not-shown',
    spec: S.spamStats,
    note: `Selected by \`interval\`: ${INTERVALS.join(', ')}. ${RESPONSE_FIELDS_NOT_SHOWN}.`,
  },
  {
    id: 'resource.contactform.form',
    route: '/contactform/v1/contact-forms',
    fields: 'not-shown',
    spec: S.contactForm,
    note: 'Identified by integer `id`. Fields of the contact form record: not shown.',
  },
  {
    id: 'resource.contactform.feedback',
    fields: 'not-shown',
    spec: S.contactForm,
    note: 'Fields of feedback responses: not shown. Served from /contactform/v1/contact-forms/<id>/feedback.',
  },
  {
    id: 'resource.contactform.feedback-schema',
    fields: 'not-shown',
    spec: S.contactForm,
    note: 'Fields of schema responses: not shown. Served from /contactform/v1/contact-forms/<id>/feedback/schema.',
  },
  {
    id: 'resource.suite.settings',
    route: '/suite/v4/settings',
    fields: {
      ...Object.fromEntries(settings.map((s) => [s.name, settingToField(s)])),
      ...Object.fromEntries(modules.map((m) => [m.slug, { type: 'boolean', default: false, note: 'module toggle' } as FieldSpec])),
    },
    spec: S.suiteSettings,
    note: 'The same set of settings is read and written through the module, settings and per-module routes.',
  },
]);

// ---------------------------------------------------------------------------
// Everything the document says is not shown (one entry per sentence)
// ---------------------------------------------------------------------------

const notShown = (id: string, what: string, spec: SpecRef): NotShown => ({ id: `extensions.not-shown.${id}`, what, spec });

export const extensionNotShown: NotShown[] = deepFreeze([
  notShown(
    'contactform.fields',
    'Fields of the contact form record and of feedback and schema responses',
    S.contactForm,
  ),
  notShown(
    'resources.response-fields',
    'Response fields of the other suite, spam filter and contact-form resources',
    S.suiteSettings,
  ),
  notShown('contactform.parameters', 'Parameters and payloads of all contact-form routes', S.contactforms),
  notShown(
    'suite.unlisted-parameters',
    'Parameter lists of the `heartbeat/data` route beyond `prefix` and all routes that follow it in the index, ' +
      'the routes of `cloud/v2`, `cloud/v3`, `suite/v4/stats-app`, `suite-boost/v1`, `suite/v4/blaze-app` and `suite/v4/blaze`',
    S.suite,
  ),
  notShown('responses.bodies', 'Response bodies of all routes in this document', S.suite),
  notShown(
    'failures.bodies',
    'Request and response bodies of the spam filter, contact-form and suite routes when they fail',
    S.suite,
  ),
]);

// ---------------------------------------------------------------------------
// Anonymous access (not in the spec: from the reference implementation)
// ---------------------------------------------------------------------------

/**
 * Who may use an endpoint without credentials. The spec says which routes need authentication
 * is "not shown" (core part 5), so this is a fact of the reference implementation, recorded with
 * its source (docs/anonymous-access.md): `public` endpoints answer anonymous requests there;
 * every other endpoint refuses them (401/403) and is checked by a SECURITY behaviour
 * (suites/extensions/security.spec.ts). A public endpoint is never checked as refused.
 */
export interface AnonymousAccess {
  public: boolean;
  source: string;
}

const AKISMET = 'Akismet 5.7.2 class.akismet-rest-api.php';
const CF7 = 'Contact Form 7 6.1.6 includes/rest-api.php';
const JETPACK = 'Jetpack 16.1.2';
const NAMESPACE_INDEX = 'WordPress 7.1 WP_REST_Server::get_namespace_index (the namespace index route has no permission_callback); anonymous GET answers 200 on the 7.1 site';

/** Endpoints public on the reference implementation, with their source. */
const PUBLIC_ENDPOINTS: Record<string, string> = {
  'spamfilter.index.read': NAMESPACE_INDEX,
  'contactform.index.read': NAMESPACE_INDEX,
  'suite.index.read': NAMESPACE_INDEX,
  'contactform.forms.feedback.create': `${CF7}: /contact-forms/<id>/feedback permission_callback __return_true (wordpress-behaviour.md §11)`,
  'contactform.forms.feedback-schema.read': `${CF7}: /contact-forms/<id>/feedback/schema permission_callback __return_true (wordpress-behaviour.md §11)`,
  'contactform.forms.refill.read': `${CF7}: /contact-forms/<id>/refill permission_callback __return_true (wordpress-behaviour.md §11)`,
  'suite.widgets.item.read': `${JETPACK} _inc/lib/class.core-rest-api-endpoints.php /widgets/<id>: Jetpack_Core_API_Widget_Endpoint::can_request() returns true; anonymous GET answers like an authenticated one on the 7.1 site`,
  'suite.subscribers.auth.read': `${JETPACK} _inc/lib/class.core-rest-api-endpoints.php /subscribers/auth: permission_callback __return_true (a subscriber's token sign-in)`,
};

/** Where the refusal of every other endpoint comes from, by namespace. */
const REFUSED_SOURCE: Record<string, string> = {
  [SF]: `${AKISMET}: privileged_permission_callback (manage_options), rest_forbidden 401/403 (wordpress-behaviour.md §10); anonymous requests answered 401 on the 7.1 site`,
  [CF]: `${CF7}: wpcf7_read_contact_forms (edit_posts) / wpcf7_edit_contact_form (publish_pages) / wpcf7_delete_contact_form, wpcf7_forbidden 403 (wordpress-behaviour.md §11); anonymous requests answered 403 on the 7.1 site`,
  [SU]: `${JETPACK}: each route's permission_callback needs a capability (jetpack_admin_page, jetpack_manage_modules, jetpack_configure_modules, manage_options, activate_plugins, jetpack_connect...) or a signed WordPress.com request (wordpress-behaviour.md §12); anonymous requests answered 401 on the 7.1 site (400 where a required parameter is missing: parameters are checked first)`,
};

/** Endpoint ID -> anonymous access, for every endpoint of the three extension namespaces. */
export const extensionAnonymousAccess: Record<string, AnonymousAccess> = deepFreeze(
  Object.fromEntries(
    extensionRoutes
      .filter((r) => r.namespace in REFUSED_SOURCE)
      .flatMap((r) => r.endpoints.map((e) => [e.id, PUBLIC_ENDPOINTS[e.id] !== undefined ? { public: true, source: PUBLIC_ENDPOINTS[e.id]! } : { public: false, source: REFUSED_SOURCE[r.namespace]! }] as const)),
  ),
);
