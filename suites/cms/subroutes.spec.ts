/** Routes under posts and pages (4. Endpoints): integer identifiers in every route shape; context of revision and autosave reads. */
import { postTypes } from './lib/collections.ts';
import { defineSubroutes } from './lib/subroutes.ts';

for (const type of postTypes) defineSubroutes(type);
