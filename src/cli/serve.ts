/**
 * `cms-conformance serve`: run the reference server in the foreground, print its URL and the
 * administrator's credentials, stop cleanly on SIGINT / SIGTERM.
 *
 *   npx tsx src/cli/serve.ts [--port N] [--host H] [--user NAME] [--app-password P]
 *
 * The CLI calls serveMain(argv); this file also runs on its own.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { SITE_CONTENTS, chunkPassword, type SiteContent } from '../../targets/reference/state.ts';
import { startReferenceServer } from '../../targets/reference/index.ts';
import { describeBlog } from '../../targets/reference/blog.ts';
import { describeDialect, parseDialect, type Dialect } from '../../targets/reference/dialect.ts';
import { shq } from '../../schemas/shell.ts';
import { helpRows, joinNegativeValues, parseArgsMessage } from '../core/config.ts';
import { EXIT } from '../../results/verdict.ts';
import { untilInterrupted } from '../run/stop.ts';

export const SERVE_USAGE = `Usage: cms-conformance serve [--port N] [--host HOST] [--user NAME] [--app-password PASSWORD] [--dialect LIST] [--content sample|blog|theme-test]
       cms-conformance serve --sites N [--targets-file PATH] [--port N] ...

Runs the reference server (an in-memory implementation of the documented interface) until
Ctrl+C, and prints its URL, an administrator's application password and the command that
runs the suite against it. State is in memory only. With --sites N, serves N independent sites
under /site-1 ... /site-N (each with its own state) and writes a targets file for run --targets.

Options:
${helpRows([
  ['--port N', 'Port to listen on (default 8080; 0 picks a free one).'],
  ['--host HOST', 'Address to listen on (default 127.0.0.1).'],
  ['--user NAME', 'The administrator (default admin).'],
  ['--app-password PASSWORD', 'Their application password (default: a random one).'],
  [
    '--dialect LIST',
    'Serve another reading of the documents where they leave the interface open, as switches: route-keys=spec, arg-unions=type-union|anyOf, query-arrays=form, text-fields=object, statuses=alternative, conventions=none; readings that break a real client (client readiness): paging-headers=none, error-bodies=other, method-override=ignored, unknown-params=refused, discovery=none, batch-max-items=none, addressing=rest-route; or spec-only for all of them (default: WordPress\'s reading).',
  ],
  ['--content sample|blog|theme-test', `The content the site starts with: sample (default: a post, two pages, twelve media items, as a new WordPress has), blog (also a small real blog: ${describeBlog()}) or theme-test (also content with the features of WordPress's theme test content: a post whose title names its password, pages three levels deep, sticky, scheduled and draft posts, a category tree and many tags, long, empty and marked-up titles, every post format), e.g. to try a read-only run.`],
  ['--sites N', 'Serve N independent sites under /site-1 ... /site-N and write a targets file for run --targets.'],
  ['--targets-file FILE', 'Where --sites writes the targets file (default: in the temporary folder).'],
  ['--help', 'Show this help.'],
])}

Exit codes: 0 stopped with Ctrl+C; 2 usage error; 3 cannot listen on the address.`;

/** Returns the exit code once the server has stopped (or on a usage error). */
export async function serveMain(
  argv: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  signals: NodeJS.EventEmitter = process,
): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: joinNegativeValues(argv, new Set(['port', 'host', 'user', 'app-password', 'dialect', 'content'])),
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        user: { type: 'string' },
        'app-password': { type: 'string' },
        dialect: { type: 'string' },
        content: { type: 'string' },
        sites: { type: 'string' },
        'targets-file': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    err.write(`cms-conformance serve: ${parseArgsMessage(e)} (see cms-conformance serve --help)\n`);
    return EXIT.usage;
  }
  if (values.help) {
    out.write(`${SERVE_USAGE}\n`);
    return EXIT.ok;
  }
  const port = values.port === undefined ? 8080 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    err.write(`cms-conformance serve: --port must be a port number (0-65535), got "${values.port}"\n`);
    return EXIT.usage;
  }
  if (values.sites !== undefined || values['targets-file'] !== undefined) {
    const { serveSitesMain } = await import('../fleet/serve-sites.ts');
    return serveSitesMain(values, port, out, err, signals);
  }
  const appPassword = values['app-password'] as string | undefined;
  // Like WordPress, non-alphanumerics are not part of an application password.
  if (appPassword !== undefined && appPassword.replace(/[^A-Za-z0-9]/g, '') === '') {
    err.write('cms-conformance serve: --app-password must contain letters or digits\n');
    return EXIT.usage;
  }
  let dialect: Dialect | undefined;
  try {
    dialect = values.dialect === undefined ? undefined : parseDialect(String(values.dialect));
  } catch (e) {
    err.write(`cms-conformance serve: --dialect: ${(e as Error).message}\n`);
    return EXIT.usage;
  }
  const content = values.content as string | undefined;
  if (content !== undefined && !(SITE_CONTENTS as readonly string[]).includes(content)) {
    err.write(`cms-conformance serve: --content must be ${SITE_CONTENTS.join(' or ')}, got "${content}"\n`);
    return EXIT.usage;
  }
  let server;
  try {
    server = await startReferenceServer({
      ...(content ? { content: content as SiteContent } : {}),
      ...(dialect ? { dialect } : {}),
      port,
      host: values.host as string | undefined,
      user: values.user as string | undefined,
      appPassword: appPassword?.replace(/[^A-Za-z0-9]/g, ''),
    });
  } catch (e) {
    err.write(`cms-conformance serve: cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${(e as Error).message}\n`);
    return EXIT.unreachable;
  }
  out.write(
    [
      `Reference server listening on ${listeningOn(values.host as string | undefined, server.url)}${dialect ? ` (dialect ${describeDialect(dialect)})` : ''}${content === 'blog' ? ' (content: a small real blog)' : content === 'theme-test' ? ' (content: the theme test content)' : ''}`,
      `  REST root:            ${server.url}/index.php?rest_route=/`,
      `  user:                 ${server.user}`,
      `  application password: ${chunkPassword(server.appPassword)}`,
      `  run the suite:        npx cms-conformance run --target ${server.url} --user ${shq(server.user)} --app-password ${shq(server.appPassword)}`,
      'State is in memory only. Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  await untilInterrupted(signals);
  await server.stop();
  out.write('Reference server stopped.\n');
  return EXIT.ok;
}

/**
 * Where the server listens, as given: `--host 0.0.0.0` listens on every address of the machine (the
 * URL to use from it is beside it), a named host on that host.
 */
export function listeningOn(host: string | undefined, url: string): string {
  const port = new URL(url).port;
  if (host === '0.0.0.0' || host === '::') return `http://${host === '::' ? '[::]' : host}:${port} (every address of this machine; from here: ${url})`;
  return url;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await serveMain(process.argv.slice(2));
}
