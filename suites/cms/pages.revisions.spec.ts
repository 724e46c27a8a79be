/** Page revisions (4. Endpoints › Pages; 3. States and transitions): query, parent, creation on update, deletion. */
import { pages } from './lib/collections.ts';
import { defineRevisions } from './lib/revisions.ts';

defineRevisions(pages);
