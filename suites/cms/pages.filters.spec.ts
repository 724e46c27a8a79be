/** Pages collection filters (4. Endpoints › Pages), verified against fixtures. */
import { pages } from './lib/collections.ts';
import { defineFilters } from './lib/filters.ts';

defineFilters(pages);
