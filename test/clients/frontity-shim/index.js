// What @frontity/wp-source 1.11.7 imports from the `frontity` framework package at run time,
// taken from the same sub-packages `frontity` 1.17.2 re-exports them from (its src/index.ts),
// without the framework itself (React rendering, webpack, the CLI: about 900 packages). `fetch`
// is Node's own where `frontity` gives node-fetch. See README.md beside this file.
export { createStore } from '@frontity/connect/src/create-store.js';
export { batch } from '@frontity/react-easy-state';
export { observe } from '@frontity/observer-util';
export { error, warn } from '@frontity/error';
export const fetch = (...args) => globalThis.fetch(...args);
// frontity/src/utils/is-derived.ts.
export const isDerived = (obj, propName) => typeof Object.getOwnPropertyDescriptor(obj, propName).value === 'function';
