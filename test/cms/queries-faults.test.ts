/**
 * The cms query behaviours (argument values, bounds, defaults, filters), the contexts and the
 * anonymous-access behaviours each fail against a named fault, on the embedded WordPress 6.5.5
 * (given media and a tag through WordPress's own routes first); a full run and runs with
 * failures leave no tagged item behind.
 */
import { WORDPRESS_GENUINE, WORDPRESS_GROUPS, WORDPRESS_SKIPPED } from './groups.ts';
import { addMediaAndTag, cmsFaultSuite } from './support.ts';

cmsFaultSuite('cms query, context and access behaviours catch their faults (WordPress 6.5.5)', {
  target: 'wordpress',
  baseline: '^cms\\.',
  groups: WORDPRESS_GROUPS.queries,
  genuine: WORDPRESS_GENUINE,
  skipped: WORDPRESS_SKIPPED,
  // 11 media items and a tag in use: the media per_page default and tags_exclude become observable.
  prepare: (wp) => addMediaAndTag(wp),
});
