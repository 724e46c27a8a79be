/** Pages collection query (4. Endpoints › Pages): argument values, bounds, defaults. */
import { defineCollectionQuery } from './lib/collection-query.ts';
import { pages } from './lib/collections.ts';

defineCollectionQuery(pages);
