/** The package: where cms-conformance is installed (for loading its suites and reading its files), its name and version. */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PKG_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What results.json, shard.json and --version name as the tool. */
export const TOOL = {
  name: 'cms-conformance',
  version: (JSON.parse(readFileSync(join(PKG_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
};
