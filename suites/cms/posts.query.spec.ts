/** Posts collection query (4. Endpoints › Posts › Post collection query): argument values, bounds, defaults. */
import { defineCollectionQuery } from './lib/collection-query.ts';
import { posts } from './lib/collections.ts';

defineCollectionQuery(posts);
