/**
 * The `cms-conformance` command line: it parses the command and hands over to it (one file per
 * command beside this one, each with its help). Every error a user can cause ends in one line on
 * stderr and a documented exit code, never a stack trace.
 */
import { helpRows, optionRows } from '../core/config.ts';
import { UnreachableError, UsageError } from '../core/errors.ts';
import { TOOL } from '../core/paths.ts';
import { EXIT } from '../../results/verdict.ts';
import { listCommand } from './list.ts';
import { EXIT_ROWS, RESULTS_NOTE, runCommand } from './run.ts';
import { para } from './text.ts';

export { stopRequested } from '../run/stop.ts';

type Command = (argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream) => Promise<number>;

/** The commands, in the order the help lists them; those a run does not need are loaded when asked for. */
const COMMANDS: Record<string, Command> = {
  run: runCommand,
  list: (argv, out) => listCommand(argv, out),
  compare: async (argv, out, err) => (await import('./compare.ts')).compareCommand(argv, out, err),
  merge: async (argv, out, err) => (await import('./merge.ts')).mergeCommand(argv, out, err),
  selftest: async (argv, out, err) => (await import('./selftest.ts')).selftestMain(argv, out, err),
  serve: async (argv, out, err) => (await import('./serve.ts')).serveMain(argv, out, err),
  openapi: async (argv, out, err) => (await import('./openapi.ts')).openapiCommand(argv, out, err),
  cleanup: async (argv, out, err) => (await import('./cleanup.ts')).cleanupCommand(argv, out, err),
};

/** The commands' names, in the order the help lists them (docs/cli.md is rendered from their help). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

const GLOBAL_ROWS: [string, string][] = [
  ['--help', 'Show this help (cms-conformance <command> --help: the help of one command).'],
  ['--version', 'Print the version.'],
];

const COMMAND_ROWS: [string, string][] = [
  ['run', 'Run the conformance suite against a target (the default command).'],
  ['list', 'List the behaviours (ID, level, title, spec section) without running them.'],
  ['compare <A> <B>', 'Run (or read) two instances with the same seed and inputs and show where they differ.'],
  ['selftest', 'Prove the suite: run it once per named fault through a fault-injecting proxy; report the mutation score.'],
  ['merge DIR...', 'Merge shard outputs (run --targets ... --shard i/n) and single runs into one fleet report.'],
  ['serve', 'Start the reference server (the documented interface, in memory) for trying clients.'],
  ['openapi', 'Print the documented interface as an OpenAPI 3.1 document (for Prism, Schemathesis, ...).'],
  ['cleanup --target URL --tag TAG', 'Remove what a run created on a site and left there (a killed run, deletes that were refused): by the ids of its ledger, then by its tag.'],
];

export const GLOBAL_HELP = `Usage: cms-conformance <command> [options]
       cms-conformance <command> --help

Commands:
${helpRows(COMMAND_ROWS, 34)}

Try it:
  npx cms-conformance run --target reference     in-memory reference server: every behaviour passes
  npx cms-conformance run                        the embedded WordPress 6.5.5 (needs PHP)
  npx cms-conformance run --target https://site.example --user admin --app-password "xxxx xxxx xxxx xxxx xxxx xxxx"

Options of run (the default command):
${helpRows([...optionRows(), ...GLOBAL_ROWS])}

${para('Precedence: flags, then environment variables, then a .env file in the current folder.')}

${para(RESULTS_NOTE)}

Exit codes (run; compare and selftest say theirs in their help):
${helpRows(EXIT_ROWS, 5)}`;

export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === '--version' || first === '-v') {
      out.write(`${TOOL.version}\n`);
      return EXIT.ok;
    }
    if (first === '--help' || first === '-h' || (first === 'help' && rest.length === 0)) {
      out.write(`${GLOBAL_HELP}\n`);
      return EXIT.ok;
    }
    if (first === 'help') return await main([rest[0]!, '--help'], out, err);
    if (first === undefined || first.startsWith('-')) return await runCommand(argv, out, err);
    const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
    if (!command) throw new UsageError(`unknown command "${first}" (commands: ${Object.keys(COMMANDS).join(', ')}; see cms-conformance --help)`);
    return await command(rest, out, err);
  } catch (e) {
    if (e instanceof UsageError || e instanceof UnreachableError) {
      err.write(`cms-conformance: ${oneLine(e.message)}\n`);
      return e.exitCode;
    }
    err.write(`cms-conformance: internal error: ${oneLine((e as Error)?.message ?? String(e))}\n`);
    if (process.env.CMSC_DEBUG) err.write(`${(e as Error)?.stack ?? ''}\n`);
    else err.write('(this is a bug in cms-conformance; rerun with CMSC_DEBUG=1 to see where)\n');
    return EXIT.internal;
  }
}

/** An error message on one line (the CLI's errors are one line each). */
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
