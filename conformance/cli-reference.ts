/**
 * docs/cli.md, the reference page of the command line: each command's own `--help`, as the CLI
 * prints it, under a short introduction. The help is rendered from the one table of options
 * (src/core/config.ts) and each command's file, so the page never says other than the CLI.
 *
 * Generated, never hand-written: `npm run docs` rewrites it; test/cli-reference.test.ts fails
 * when the committed page differs from what the CLI prints.
 *
 *   npx tsx conformance/cli-reference.ts           # rewrite docs/cli.md
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { COMMAND_NAMES, main } from '../src/cli/main.ts';
import { PKG_ROOT } from '../src/core/paths.ts';

export const CLI_REFERENCE_FILE = join(PKG_ROOT, 'docs', 'cli.md');
export const CLI_REFERENCE_COMMAND = 'npm run docs';

/** What one CLI invocation prints on stdout. */
async function printed(argv: string[]): Promise<string> {
  let text = '';
  const out = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  await main(argv, out, out);
  return text.trimEnd();
}

export async function renderCliReference(): Promise<string> {
  const parts = [
    '# The command line',
    '',
    `<!-- Generated from the CLI's own help by \`${CLI_REFERENCE_COMMAND}\`: do not edit. -->`,
    '',
    'Every command prints this with `--help` (`npx cms-conformance run --help`). Flags win over the',
    'environment, which wins over a `.env` file in the current folder. Credentials (and any other',
    'secret option) are never printed or written: reports show `[redacted]`, and reproduction',
    'commands use `-u "$TARGET_USER:$TARGET_APP_PASSWORD"`.',
    '',
    `Commands: ${COMMAND_NAMES.map((c) => `[\`${c}\`](#${c})`).join(', ')}.`,
    '',
    '## Overview',
    '',
    '```text',
    await printed(['--help']),
    '```',
  ];
  for (const name of COMMAND_NAMES) parts.push('', `## ${name}`, '', '```text', await printed([name, '--help']), '```');
  return `${parts.join('\n')}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(CLI_REFERENCE_FILE, await renderCliReference());
  console.log(`wrote ${CLI_REFERENCE_FILE}`);
}
