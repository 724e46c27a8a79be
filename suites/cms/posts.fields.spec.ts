/** Posts writable fields one by one (2. Resources and their fields; 4. Endpoints): stored on create, update and autosave; wrong values refused; footnotes default; unique slug; excerpt_length. */
import { posts } from './lib/collections.ts';
import { defineWriteFields } from './lib/write-fields.ts';

defineWriteFields(posts);
