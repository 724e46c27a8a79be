/**
 * Model-based lifecycle testing of posts and pages (3. States and transitions; 4. Endpoints):
 * random sequences of writes and list filters, checked after every command against a model of
 * part 3 (MUST) and of WordPress where the spec is silent (SHOULD), shrunk to the shortest
 * failing sequence. See lib/model-run.ts.
 */
import { postTypes } from './lib/collections.ts';
import { defineModelMust, defineModelShould } from './lib/model-run.ts';

for (const type of postTypes) defineModelMust(type);
for (const type of postTypes) defineModelShould(type);
