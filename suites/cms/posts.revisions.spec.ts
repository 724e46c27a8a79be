/** Post revisions (4. Endpoints › Posts; 3. States and transitions): query, parent, creation on update, deletion. */
import { posts } from './lib/collections.ts';
import { defineRevisions } from './lib/revisions.ts';

defineRevisions(posts);
