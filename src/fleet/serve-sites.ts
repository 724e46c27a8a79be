/**
 * `cms-conformance serve --sites N`: many reference sites behind one port (multi.ts), a targets
 * file for them, and how to run a fleet against them. Runs until SIGINT / SIGTERM.
 */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SITES_APP_PASSWORD_ENV, SITES_USER_ENV, startReferenceSites, writeSitesTargetsFile } from '../../targets/reference/multi.ts';
import { untilInterrupted } from '../run/stop.ts';

export async function serveSitesMain(
  values: Record<string, string | boolean | undefined>,
  port: number,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  signals: NodeJS.EventEmitter,
): Promise<number> {
  const count = Number(values.sites ?? 1);
  if (!Number.isInteger(count) || count < 1 || count > 100_000) {
    err.write(`cms-conformance serve: --sites must be a whole number from 1 to 100000, got "${values.sites}"\n`);
    return 2;
  }
  const appPassword = (values['app-password'] as string | undefined)?.replace(/[^A-Za-z0-9]/g, '');
  if (appPassword === '') {
    err.write('cms-conformance serve: --app-password must contain letters or digits\n');
    return 2;
  }
  let sites;
  try {
    sites = await startReferenceSites({ count, port, host: values.host as string | undefined, user: values.user as string | undefined, ...(appPassword ? { appPassword } : {}) });
  } catch (e) {
    err.write(`cms-conformance serve: cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${(e as Error).message}\n`);
    return 3;
  }
  const file = resolve((values['targets-file'] as string | undefined) ?? join(tmpdir(), `cms-conformance-sites-${sites.port}.txt`));
  writeSitesTargetsFile(file, sites.urls);
  out.write(
    [
      `Reference server: ${count} site${count === 1 ? '' : 's'}, ${sites.urls[0]} to ${sites.urls.at(-1)}`,
      `  targets file:         ${file}`,
      `  user:                 ${sites.user}`,
      `  application password: ${sites.appPassword}`,
      `  run the fleet:        ${SITES_USER_ENV}=${sites.user} ${SITES_APP_PASSWORD_ENV}=${sites.appPassword} cms-conformance run --targets ${file} --shard 1/1`,
      'State is in memory only (each site is made on its first request). Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  await untilInterrupted(signals);
  await sites.stop();
  out.write('Reference server stopped.\n');
  return 0;
}
