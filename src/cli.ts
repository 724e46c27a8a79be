/**
 * The `cms-conformance` command line. Every error a user can cause ends in one line on
 * stderr and a documented exit code, never a stack trace.
 */
import { optionsHelp, parseFlags, resolveConfig } from './config.ts';
import { EXIT, UnreachableError, UsageError } from './errors.ts';
import { TOOL, listBehaviours, runConformance } from './runner.ts';

/** Exit code for a bug in cms-conformance itself. */
export const EXIT_INTERNAL = 4;

const USAGE = `Usage: cms-conformance <command> [options]

Commands:
  run        Run the conformance suite against a target (default command).
             Without --target, boots the embedded local WordPress and runs against it.
  list       List the behaviours (ID, level, spec section) without running them.
             Takes --only and --json.
  serve      Start the reference server (the documented interface, in memory).
             Takes --port N (default 8080) and --host H (default 127.0.0.1);
             prints the URL and an administrator application password.

Options:
${optionsHelp()}
  --help                            Show this help.
  --version                         Print the version.

Precedence: flags, then environment variables, then a .env file in the current folder.

Exit codes:
  0  no gating behaviour failed (MUST, or MUST and SHOULD with --fail-on should)
  1  a gating behaviour failed, or a suite could not run
  2  usage or configuration error
  3  the target cannot be reached (or the embedded target cannot boot)
  4  internal error in cms-conformance (rerun with CMSC_DEBUG=1 for details)

Results: <report-dir>/results.json (default reports/latest/results.json).`;

export async function main(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === '--version' || first === '-v') {
      out.write(`${TOOL.version}\n`);
      return EXIT.ok;
    }
    if (first === undefined || first.startsWith('-')) return await run(argv, out, err);
    if (first === 'help') {
      out.write(`${USAGE}\n`);
      return EXIT.ok;
    }
    if (first === 'run') return await run(rest, out, err);
    if (first === 'list') return await list(rest, out);
    if (first === 'serve') return await serve(rest, out);
    throw new UsageError(`unknown command "${first}" (commands: run, list, serve; see cms-conformance --help)`);
  } catch (e) {
    if (e instanceof UsageError || e instanceof UnreachableError) {
      err.write(`cms-conformance: ${e.message}\n`);
      return e.exitCode;
    }
    err.write(`cms-conformance: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    if (process.env.CMSC_DEBUG) err.write(`${(e as Error)?.stack ?? ''}\n`);
    else err.write('(this is a bug in cms-conformance; rerun with CMSC_DEBUG=1 to see where)\n');
    return EXIT_INTERNAL;
  }
}

async function run(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv);
  if (values.help) {
    out.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance --help)`);
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>);
  const { results, resultsPath, exitCode } = await runConformance(cfg, (l) => err.write(`${l}\n`));
  const s = results.summary;
  const must = s.byLevel.MUST;
  const should = s.byLevel.SHOULD;
  out.write(
    `\n${s.total} behaviours: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped` +
      ` (MUST ${must.failed} failed of ${must.total}; SHOULD ${should.failed} failed of ${should.total})\n`,
  );
  for (const e of results.errors) out.write(`harness error${e.file ? ` in ${e.file}` : ''}: ${e.message}\n`);
  out.write(`seed ${results.seed}; ${results.requests.count} requests; results: ${resultsPath}\n`);
  return exitCode;
}

async function list(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } });
  if (values.help) {
    out.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance --help)`);
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, {});
  const { behaviours, errors } = await listBehaviours(cfg.only);
  if (values.json) out.write(`${JSON.stringify({ behaviours, errors }, null, 2)}\n`);
  else {
    for (const b of behaviours) out.write(`${b.id}\t${b.level}\t${b.title}\t(${b.spec})\n`);
    out.write(`${behaviours.length} behaviours\n`);
    for (const e of errors) out.write(`error: ${e}\n`);
  }
  return errors.length ? 1 : EXIT.ok;
}

async function serve(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { parseArgs } = await import('node:util');
  let values: { port?: string; host?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean' } }, strict: true }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message.replace(/\. To specify a positional argument.*$/s, '')} (see cms-conformance --help)`);
  }
  if (values.help) {
    out.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const port = values.port === undefined ? 8080 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (0-65535), got "${values.port}"`);
  const { startReferenceServer } = await import('../targets/reference/index.ts');
  let srv;
  try {
    srv = await startReferenceServer({ port, host: values.host ?? '127.0.0.1' });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is already in use (choose another with --port)`);
    if (code === 'EACCES') throw new UsageError(`not allowed to listen on port ${port}`);
    throw e;
  }
  out.write(`reference server listening on ${srv.url}\n`);
  out.write(`  index:       ${srv.url}/index.php?rest_route=/\n`);
  out.write(`  user:        ${srv.user}\n`);
  out.write(`  app password: ${srv.appPassword}\n`);
  out.write(`  try: cms-conformance run --target ${srv.url} --user ${srv.user} --app-password '${srv.appPassword}'\n`);
  out.write('Press Ctrl+C to stop.\n');
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await srv.stop();
  out.write('reference server stopped\n');
  return EXIT.ok;
}
