/**
 * The spam filter namespace (`spamfilter/v1`). The key (exactly 12 characters, stated by the
 * spec and validated from the catalog's minLength/maxLength), the two boolean settings and the
 * statistics by interval. What the spec does not show follows Akismet's REST API
 * (wordpress-behaviour.md §10): every route needs an administrator (rest_forbidden 401/403), GET
 * /key answers the key as a bare JSON string or false, DELETE answers true, the settings routes
 * answer the two settings, /stats answers `{"<interval>": {...}}`.
 * Unlike Akismet (whose key check is remote), a 12-character key is accepted as valid here.
 */
import { restForbidden } from './errors.ts';
import type { SpamFilterState } from './spamfilter-state.ts';
import type { HandlerTable, RestRequest } from './types.ts';

const admin = (req: RestRequest) => (req.loggedIn ? true : restForbidden(false));

/** Plausible statistics of a quiet site. */
function stats(interval: string): Record<string, unknown> {
  return {
    [interval]: {
      spam: 0,
      ham: 0,
      missed_spam: 0,
      false_positives: 0,
      accuracy: 100,
      time_saved: 0,
      breakdown: {},
    },
  };
}

export const spamfilterHandlers: HandlerTable = {
  'spamfilter.key.read': { permission: admin, handler: (_req, ctx) => ctx.site.spam.key ?? false },
  'spamfilter.key.update': {
    permission: admin,
    handler(req, ctx) {
      // Akismet trims the key (its sanitize callback).
      ctx.site.spam.key = String(req.get('key')).trim();
      return ctx.site.spam.key;
    },
  },
  'spamfilter.key.delete': {
    permission: admin,
    handler(_req, ctx) {
      ctx.site.spam.key = null;
      return true;
    },
  },
  'spamfilter.settings.read': { permission: admin, handler: (_req, ctx) => settingsOf(ctx.site) },
  'spamfilter.settings.update': {
    permission: admin,
    handler(req, ctx) {
      const strict = req.get('spamfilter_strictness');
      if (typeof strict === 'boolean') ctx.site.spam.strictness = strict;
      const show = req.get('spamfilter_show_user_comments_approved');
      if (typeof show === 'boolean') ctx.site.suite.settings.spamfilter_show_user_comments_approved = show;
      return settingsOf(ctx.site);
    },
  },
  'spamfilter.stats.read': { permission: admin, handler: (req) => stats(String(req.get('interval') ?? 'all')) },
  'spamfilter.stats.interval.read': { permission: admin, handler: (req) => stats(String(req.get('interval') ?? 'all')) },
};

/**
 * The two settings. `spamfilter_show_user_comments_approved` is also a suite setting (extension
 * part 2, default false): both routes read and write the same option.
 */
function settingsOf(site: { spam: SpamFilterState; suite: { settings: Record<string, unknown> } }): Record<string, boolean> {
  return {
    spamfilter_strictness: site.spam.strictness,
    spamfilter_show_user_comments_approved: site.suite.settings.spamfilter_show_user_comments_approved === true,
  };
}
