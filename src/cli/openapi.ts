/**
 * `cms-conformance openapi [--profile spec|wordpress] [--format yaml|json] [--out FILE]`: the
 * OpenAPI 3.1 document of src/openapi/build.ts, with the behaviours the suites declare (the same
 * declarations `cms-conformance list` reads), written as YAML or JSON.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { helpRows, parseArgsMessage } from '../core/config.ts';
import { para } from './text.ts';
import { UsageError } from '../core/errors.ts';
import { EXIT } from '../../results/verdict.ts';
import { buildOpenApi } from '../openapi/build.ts';
import { TOOL } from '../core/paths.ts';

export const OPENAPI_HELP = `Usage: cms-conformance openapi [--profile spec|wordpress] [--format yaml|json] [--out FILE]

${para('Prints the documented interface as an OpenAPI 3.1 document, generated from the catalog: every documented route, method and argument (type, enum, bounds, default, required, format, pattern), the request bodies of the write endpoints, the documented fields as schemas with the contexts they are declared for (x-contexts), application passwords as HTTP Basic security, and for each operation its spec section and the behaviours that check it (x-cms-conformance-spec, x-cms-conformance-behaviours). What the spec does not show is left open and named in x-cms-conformance-not-shown. Paths are relative to the server {base}/wp-json (an OpenAPI path cannot carry ?rest_route=); see the README for Prism and Schemathesis.')}

Examples:
  npx cms-conformance openapi --out openapi.yaml
  npx cms-conformance openapi --profile wordpress --format json --out openapi.json

Options:
${helpRows([
  ['--profile spec|wordpress', "The names: the spec's (cms/v2, spamfilter/v1, suite/v4; default) or a real WordPress site's (wp/v2, akismet/v1, jetpack/v4, Jetpack's setting names)."],
  ['--format yaml|json', 'Output format (default: from the --out extension, .json or .yaml/.yml; otherwise yaml).'],
  ['--out FILE', 'Write the document to FILE instead of standard output.'],
  ['--help', 'Show this help.'],
])}

${para('Exit codes: 0 written; 1 written, but a suite file could not be loaded (its behaviours are not linked); 2 usage error (a bad flag, an --out that cannot be written).')}`;

export type OpenApiFormat = 'yaml' | 'json';

export interface OpenApiFlags {
  profile: 'spec' | 'wordpress';
  format: OpenApiFormat;
  out?: string;
  help: boolean;
}

/** The flags of `openapi`, checked: every bad value is a UsageError with a one-line message. */
export function parseOpenApiFlags(argv: string[]): OpenApiFlags {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { profile: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (e) {
    throw new UsageError(`${parseArgsMessage(e)} (see cms-conformance openapi --help)`);
  }
  if (values.help) return { profile: 'spec', format: 'yaml', help: true };
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance openapi --help)`);
  const profile = (values.profile as string | undefined) ?? 'spec';
  if (profile !== 'spec' && profile !== 'wordpress') throw new UsageError(`--profile must be spec or wordpress, got "${profile}"`);
  const out = values.out as string | undefined;
  if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a file name');
  let format = values.format as string | undefined;
  if (format === undefined) format = out && /\.json$/i.test(out) ? 'json' : 'yaml';
  if (format !== 'yaml' && format !== 'json') throw new UsageError(`--format must be yaml or json, got "${format}"`);
  return { profile, format, ...(out !== undefined ? { out } : {}), help: false };
}

/** The document as text. */
export function renderOpenApi(doc: unknown, format: OpenApiFormat): string {
  // aliasDuplicateObjects: false — no YAML anchors, so every tool reads the same tree as the JSON.
  return format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
}

export async function openapiCommand(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const flags = parseOpenApiFlags(argv);
  if (flags.help) {
    out.write(`${OPENAPI_HELP}\n`);
    return EXIT.ok;
  }
  // An --out that cannot be written is a usage error before the suites are collected (seconds).
  if (flags.out !== undefined) {
    const dir = dirname(resolve(flags.out));
    try {
      if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
      accessSync(dir, constants.W_OK);
    } catch (e) {
      throw new UsageError(`cannot write --out ${flags.out}: ${(e as Error).message}`);
    }
  }
  const { listBehaviours } = await import('../engine/list.ts');
  const { behaviours, errors } = await listBehaviours();
  const text = renderOpenApi(buildOpenApi({ profile: flags.profile, behaviours, version: TOOL.version }), flags.format);
  if (flags.out !== undefined) {
    try {
      writeFileSync(flags.out, text);
    } catch (e) {
      throw new UsageError(`cannot write --out ${flags.out}: ${(e as Error).message}`);
    }
    err.write(`OpenAPI 3.1 document (${flags.profile} profile, ${flags.format}) written to ${flags.out}\n`);
  } else out.write(text);
  for (const e of errors) err.write(`error: ${e} (its behaviours are not linked in the document)\n`);
  return errors.length ? EXIT.failed : EXIT.ok;
}
