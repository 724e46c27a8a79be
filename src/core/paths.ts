/** Where cms-conformance is installed (the package root), for loading its suites and reading its files. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PKG_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
