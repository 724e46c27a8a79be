/** Pages write lifecycle (2. Resources and their fields; 3. States and transitions; 4. Endpoints): create, statuses, updates, password. */
import { pages } from './lib/collections.ts';
import { defineLifecycle } from './lib/lifecycle.ts';

defineLifecycle(pages);
