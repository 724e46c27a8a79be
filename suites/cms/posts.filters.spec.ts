/** Posts collection filters (4. Endpoints › Posts › Post collection query), verified against fixtures. */
import { posts } from './lib/collections.ts';
import { defineFilters } from './lib/filters.ts';

defineFilters(posts);
