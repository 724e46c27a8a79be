/** docs/cli.md is what the CLI's help prints (conformance/cli-reference.ts); after changing an option or a command's help: `npm run docs`. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CLI_REFERENCE_COMMAND, CLI_REFERENCE_FILE, renderCliReference } from '../conformance/cli-reference.ts';

it(`docs/cli.md is the CLI's own help (stale: ${CLI_REFERENCE_COMMAND})`, async () => {
  expect(readFileSync(CLI_REFERENCE_FILE, 'utf8'), `docs/cli.md is stale: run ${CLI_REFERENCE_COMMAND} and commit it`).toBe(await renderCliReference());
});
