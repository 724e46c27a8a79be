// @frontity/wp-source ships its TypeScript sources only (src/), typed against the whole framework:
// loaded through this file (vitest transforms them), typed by frontity-source.d.ts, so that the
// project's type check does not check Frontity's sources.
export { createStore } from 'frontity';
export { default as wpSource } from '@frontity/wp-source/src/index.ts';
