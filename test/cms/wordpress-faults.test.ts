/**
 * The cms behaviours each fail against a named fault, on the embedded WordPress 6.5.5 (given
 * media and a tag through WordPress's own routes first): the query behaviours (argument values,
 * bounds, defaults, filters), the contexts and the anonymous-access behaviours, and the write
 * behaviours (create, statuses, updates, password, deletion, revisions, autosaves). One site and
 * one baseline for all of them; full, failing and interrupted runs leave no tagged item behind.
 * (Without media and tags, the behaviours that need them skip: real-targets.embedded-6.5.5.test.ts checks that
 * on the embedded site as booted.)
 */
import { WORDPRESS_GENUINE, WORDPRESS_GROUPS, WORDPRESS_SKIPPED } from './groups.ts';
import { addMediaAndTag, cmsFaultSuite } from './support.ts';

cmsFaultSuite('cms behaviours catch their faults (WordPress 6.5.5)', {
  target: 'wordpress',
  baseline: '^cms\\.',
  groups: [...WORDPRESS_GROUPS.queries, ...WORDPRESS_GROUPS.writes],
  genuine: WORDPRESS_GENUINE,
  skipped: WORDPRESS_SKIPPED,
  // 11 media items and a tag in use: the media per_page default and tags_exclude become observable.
  prepare: (wp) => addMediaAndTag(wp),
  interrupted: true,
});
