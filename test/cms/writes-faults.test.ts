/**
 * The cms write behaviours (create, statuses, updates, password, deletion, revisions,
 * autosaves) and the bounds each fail against a named fault, on the embedded WordPress 6.5.5;
 * full, failing and interrupted runs leave no tagged item behind.
 */
import { SKIPPED_WITHOUT_MEDIA_AND_TAGS, WORDPRESS_GENUINE, WORDPRESS_GROUPS, WORDPRESS_SKIPPED } from './groups.ts';
import { cmsFaultSuite } from './support.ts';

cmsFaultSuite('cms write behaviours catch their faults (WordPress 6.5.5)', {
  target: 'wordpress',
  baseline: '^cms\\.',
  groups: WORDPRESS_GROUPS.writes,
  genuine: WORDPRESS_GENUINE,
  skipped: { ...WORDPRESS_SKIPPED, ...SKIPPED_WITHOUT_MEDIA_AND_TAGS },
  interrupted: true,
});
