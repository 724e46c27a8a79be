/**
 * Issue 35: the read behaviours of cms/v2 catch their named faults read-only as they do with
 * fixtures, on the site's own content: a reference site with a small real blog, runs with
 * `--read-only` (credentials given: the status filter, revisions and protected items need them).
 */
import { READ_ONLY_GROUPS } from './groups.ts';
import { cmsFaultSuite, faultById } from './support.ts';
import { onlyFor } from '../helpers/harness.ts';

cmsFaultSuite('read behaviours catch their faults read-only, on the site\'s own content (reference server with a blog)', {
  target: 'reference',
  content: 'blog',
  args: ['--read-only'],
  baseline: onlyFor(READ_ONLY_GROUPS.flat().flatMap((id) => faultById(id).caughtBy)),
  groups: READ_ONLY_GROUPS,
});
