/** Pages writable fields one by one (2. Resources and their fields; 4. Endpoints): stored on create, update and autosave; wrong values refused; footnotes default; unique slug; excerpt_length; dates in the site timezone and in GMT; slugs unique and alphanumeric. */
import { pages } from './lib/collections.ts';
import { defineWriteFields } from './lib/write-fields.ts';
import { defineDatesAndSlugs } from './lib/dates-slugs.ts';

defineWriteFields(pages);
defineDatesAndSlugs(pages);
