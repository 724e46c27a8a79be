/**
 * State of the management suite (`suite/v4`): every documented setting with its default, the
 * module toggles, plugins, and the small values of the other routes. Settings and modules come
 * from the catalog.
 */
import { catalog } from '../../schemas/catalog/index.ts';

export interface PluginInfo {
  Name: string;
  PluginURI: string;
  Version: string;
  Description: string;
  Author: string;
  AuthorURI: string;
  TextDomain: string;
  RequiresWP: string;
  RequiresPHP: string;
  UpdateURI: string;
  Title: string;
  AuthorName: string;
  active: boolean;
}

function plugin(name: string, description: string, active: boolean): PluginInfo {
  return {
    Name: name,
    PluginURI: '',
    Version: '1.0.0',
    Description: description,
    Author: 'Reference',
    AuthorURI: '',
    TextDomain: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    RequiresWP: '',
    RequiresPHP: '',
    UpdateURI: '',
    Title: name,
    AuthorName: 'Reference',
    active,
  };
}

/**
 * Defaults the catalog does not record. `sharing_services`: the spec says "visible: two service
 * identifiers, hidden: []" without naming them; these two are the sharing services WordPress's
 * suite shows by default.
 */
const UNRECORDED_DEFAULTS: Record<string, unknown> = {
  sharing_services: { visible: ['facebook', 'x'], hidden: [] },
};

export function defaultSettings(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of catalog.settings) out[s.name] = 'default' in s ? structuredClone(s.default) : structuredClone(UNRECORDED_DEFAULTS[s.name] ?? null);
  return out;
}

export function defaultModules(): Record<string, boolean> {
  return Object.fromEntries(catalog.modules.map((m) => [m.slug, m.default]));
}

/**
 * Where this site differs from the defaults: category 1 is a newsletter category (a site's state
 * need not be its defaults; the reference implementation keeps an empty list of newsletter
 * categories when told to store one, so a round trip needs a site that has one).
 */
const SITE_SETTINGS: Record<string, unknown> = { cloud_newsletter_categories: [1] };

export class SuiteState {
  settings = { ...defaultSettings(), ...structuredClone(SITE_SETTINGS) };

  /**
   * The site as it was before it was set up (every setting at its default), and the step that
   * sets it up: a run that boots the server reads the fresh site's settings in between.
   */
  deferSetup(): () => void {
    this.settings = defaultSettings();
    return () => Object.assign(this.settings, structuredClone(SITE_SETTINGS));
  }

  modules = defaultModules();
  plugins: Record<string, PluginInfo> = {
    'spamfilter/spamfilter.php': plugin('Spam Filter', 'Protects the site from comment and contact-form spam.', true),
    'contact-form/contact-form.php': plugin('Contact Form', 'Contact forms and their submissions.', true),
    'suite/suite.php': plugin('Suite', 'Site management: connection, backups, modules and settings.', true),
    'hello/hello.php': plugin('Hello', 'A sample plugin.', false),
  };
  tracksOptOut = false;
  recommendationsData: Record<string, unknown> = {};
  recommendationsStep = 'not-started';
  licensingError = '';
  licenses: string[] = [];
  dismissedNotices: Record<string, boolean> = {};
  verifiedSites: Record<string, number> = {};
  crmExtensions: string[] = [];
  purchaseToken = 'ref-purchase-token-1';
  seenWcConnectionModal = false;
  helperScripts = new Set<string>();
}
