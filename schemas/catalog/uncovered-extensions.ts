/** Reasons items of the extensions document are not exercised by a request (see ./uncovered.ts). */
import type { UncoveredReason } from '../types.ts';

/** suite/v4 routes whose answer comes from the suite's remote service (WordPress.com). */
const REMOTE_READS = [
  'site',
  'site.features',
  'site.products',
  'site.purchases',
  'site.benefits',
  'site.activity',
  'site.discount',
  'site.backup.undo-event',
  'site.backup.preflight',
  'rewind',
  'scan',
  'intro-offers',
  'licensing.user.licenses',
  'licensing.user.counts',
  'recommendations.product-suggestions',
  'recommendations.upsell',
  'connection.test',
  'verify-site.item',
  'verify-site.keyring-id',
  'purchase-token',
];
/** suite/v4 routes only a connected user, or a request signed with the site's token from the remote service, may call. */
const SIGNED_OR_CONNECTED = [
  'comments.backup',
  'posts.backup',
  'terms.backup',
  'users.backup',
  'orders.backup',
  'database-object.backup',
  'options.backup',
  'backup-helper-script',
  'connection.url',
  'connection.test-wpcom',
  'plans',
  'products',
  'features.available',
  'features.enabled',
  'heartbeat.data',
  'subscribers.auth',
  'suite-ai-jwt',
  'suite-crm',
  'licensing.attach-licenses',
];
const alt = (ids: string[]) => ids.map((id) => id.replace(/[.]/g, '\\.')).join('|');

export const EXTENSIONS_UNCOVERED: readonly UncoveredReason[] = [
  {
    items: new RegExp(`^(endpoint|arg|param):suite\\.(${alt(REMOTE_READS)})\\.`),
    reason:
      "needs the suite's remote service: its answer comes from WordPress.com, and a site not connected to it answers that it is not registered or has no site id (site_id_missing, site_not_registered, failed_to_fetch_data)",
  },
  {
    items: new RegExp(`^(endpoint|arg|param):suite\\.(${alt(SIGNED_OR_CONNECTED)})\\.`),
    reason:
      "needs the suite's remote service: only a user connected to WordPress.com, or a request signed with the site's token from it, may call the route; an administrator of a site that is not connected is refused (403), so nothing of the route can be observed",
  },
  {
    items: /^(endpoint:spamfilter\.key\.update:|arg:spamfilter\.key\.update\.key#)/,
    reason:
      'needs the spam filter\'s remote service: a key is accepted only once the service verifies it, and a site that cannot reach the service refuses every key (400 invalid_key), so neither a valid write nor a refusal for the key\'s length can be told apart',
  },
  {
    items: /^arg:spamfilter\.stats(\.interval)?\.read\.interval#default$/,
    reason:
      "needs the spam filter's remote service: the statistics come from it, and without distinct statistics for each interval the default interval is not observable",
  },
  {
    items: /^endpoint:suite\.widgets\.item\.read:GET$/,
    reason: 'needs a widget identifier the site has: the members of /widgets/<id> are not shown, and an unknown identifier is answered 404 not_found',
  },
  {
    items: /^arg:suite\.(settings|module\.item|settings\.item)\.update\.context#default$/,
    reason: 'not observable: the answers of the settings writes are not shown, so what the context changes in them cannot be compared',
  },
  {
    items: /^(suite\.setting\.|field:resource\.suite\.settings\.|arg:suite\.(settings|module\.item)\.update\.)(post_by_email_address|custom|suite_protect_key|suite_protect_global_whitelist|analytics_tracking_id|geo-location)(#|$)/,
    reason:
      'depends on an item the target deviates from: GET /settings does not answer this setting (or module toggle) with a value of its documented type, or not at all (suite.settings.value.* / suite.modules.value.* fail), so no write of it can be checked against its value',
  },
  {
    items: /^(suite\.setting\.|field:resource\.suite\.settings\.|arg:suite\.settings\.update\.)monitor_receive_notifications(#|$)/,
    reason:
      "needs the suite's remote service: the setting is stored only while module monitor is active, and monitor requires the connection to WordPress.com (GET /module/all: requires_connection), which a site that is not connected cannot activate",
  },
  {
    items: /^arg:spamfilter\.stats\.interval\.read\.interval#/,
    reason:
      'depends on an item the target deviates from: GET /spamfilter/v1/stats/<interval> does not answer for the documented intervals (spamfilter.stats.path fails: 404 rest_no_route), so its interval arg cannot be exercised',
  },
  {
    items: /^namespace\.suite\/v4\/blaze(-app)?$/,
    reason:
      'depends on an item the target deviates from: the site index does not advertise the namespace (disc.namespace.extension-instance fails), so its index is not requested',
  },
  {
    items: /^arg:suite\.plugins\.collection\.create\.status#default$/,
    reason: 'checking it installs a plugin from the remote plugin directory: a write a live site cannot take back through the interface',
  },
];
