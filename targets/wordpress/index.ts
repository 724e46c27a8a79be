// Embedded real target: a local WordPress on SQLite, served by native `php -S` or, without php, by
// PHP-in-WebAssembly (wasm.ts). See README.md.
import { createHash } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PHP_FLAGS, ensureTemplate, phpScript, wpConfig } from './cache.ts';
import { ensureDebianPhp } from './debphp.ts';
import { TargetBootError, freePort, killGroup, run, sleep, tail } from './proc.ts';
import { SITE_PREFIX, copySite, bootedTarget, installExitHandlers, running, stopSite, type BootOptions, type Running, type WordPressTarget } from './site.ts';

export { TargetBootError };
export type { BootOptions, WordPressTarget };

const READY_TIMEOUT_MS = 30_000;

export async function bootWordPress(opts: BootOptions = {}): Promise<WordPressTarget> {
  try {
    const choice = await chooseRuntime(opts);
    if (choice.runtime === 'php') return await boot(opts, choice.php);
    const { bootWasm } = await import('./wasm.ts');
    return await bootWasm(opts).catch((e) => {
      throw choice.noPhp ? new TargetBootError(`${choice.noPhp}; PHP-in-WebAssembly did not boot either: ${(e as Error).message}`, { cause: e }) : e;
    });
  } catch (e) {
    if (e instanceof TargetBootError) throw e;
    throw new TargetBootError(`WordPress boot failed: ${(e as Error).message}`, { cause: e });
  }
}

const cacheDirOf = (opts: BootOptions) => opts.cacheDir ?? process.env.CMS_CONFORMANCE_CACHE ?? join(homedir(), '.cache', 'cms-conformance');

/**
 * The runtime to boot. 'php': the php on PATH (or CMS_CONFORMANCE_PHP), else Debian's php packages unpacked
 * into the cache (debphp.ts: native speed, no root). 'auto': that, else PHP-in-WebAssembly; `noPhp` says why.
 * Whichever path is taken is said once, with how to get native speed when it is the slow one.
 */
async function chooseRuntime(opts: BootOptions): Promise<{ runtime: 'php'; php: string } | { runtime: 'wasm'; noPhp?: string }> {
  const runtime = opts.runtime ?? (process.env.CMS_CONFORMANCE_RUNTIME || 'auto');
  if (runtime === 'wasm') return { runtime };
  if (runtime !== 'php' && runtime !== 'auto') {
    throw new TargetBootError(`unknown runtime ${JSON.stringify(runtime)}${opts.runtime ? '' : ' in CMS_CONFORMANCE_RUNTIME'}: use php, wasm or auto`);
  }
  const log = opts.log ?? (() => {});
  let noPhp: string;
  try {
    return { runtime: 'php', php: await findPhp() };
  } catch (e) {
    noPhp = (e as Error).message;
  }
  let noDebian: string;
  try {
    const ctx = { cacheDir: cacheDirOf(opts), log };
    let php = await ensureDebianPhp(ctx);
    try {
      await checkPhp(php);
    } catch (e) {
      // A cache made elsewhere (another machine's libraries, a moved directory): fetched again, once.
      log(`Debian's php in the cache does not run here (${(e as Error).message}): fetching it again`);
      rmSync(dirname(php), { recursive: true, force: true });
      php = await ensureDebianPhp(ctx);
      await checkPhp(php);
    }
    log(`${noPhp.replace(/:.*/, '')}: using Debian's php packages unpacked into the cache instead (native speed)`);
    return { runtime: 'php', php };
  } catch (e) {
    noDebian = `Debian's php packages: ${(e as Error).message}`;
  }
  if (runtime === 'php') throw new TargetBootError(`${noPhp}; ${noDebian}`);
  log(
    `${noPhp.replace(/:.*/, '')}; ${noDebian}; using PHP-in-WebAssembly instead, a PHP worker per core: ~0.45 s of CPU a request, ~17 CPU-minutes a full run (~5 minutes on ${availableParallelism() >= 4 ? 'these' : 'four'} idle cores). ` +
      'For native speed (a full run in about a minute) install PHP 8 with SQLite (Debian/Ubuntu: apt-get install php8.2-cli php8.2-sqlite3; macOS: brew install php) or set CMS_CONFORMANCE_PHP to a php binary',
  );
  return { runtime: 'wasm', noPhp: `${noPhp}; ${noDebian}` };
}

async function boot(opts: BootOptions, php: string): Promise<WordPressTarget> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const version = opts.version ?? '6.5.5';
  const cacheDir = cacheDirOf(opts);
  installExitHandlers();
  const template = await ensureTemplate({ cacheDir, php, log }, version, opts.akismet ?? true);

  const entry: Running = { dir: mkdtempSync(join(tmpdir(), SITE_PREFIX)) };
  running.add(entry);
  const owner = join(entry.dir, 'owner.json');
  writeFileSync(owner, JSON.stringify({ node: process.pid }));
  const site = join(entry.dir, 'wordpress');
  try {
    await copySite(template.dir, site);
    for (let attempt = 1; ; attempt++) {
      const port = opts.port ?? (await freePort());
      const url = `http://127.0.0.1:${port}`;
      writeFileSync(join(site, 'wp-config.php'), wpConfig(url));
      // The application password is made before the server starts: no other process writes to
      // the site's SQLite database meanwhile (boot.php reads its writes back, and the ready check
      // signs in with the password).
      const creds = await createAppPassword(php, site, url);
      const logFile = join(entry.dir, 'server.log');
      const server = startServer(php, site, port, opts.workers ?? 4, logFile);
      entry.pgid = server.pid;
      writeFileSync(owner, JSON.stringify({ node: process.pid, server: server.pid }));
      try {
        await waitReady(url, server, logFile, site, creds);
        log(`WordPress ${template.version} ready at ${url} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        return bootedTarget(entry, url, creds, template, 'php');
      } catch (e) {
        await killGroup(server.pid!);
        entry.pgid = undefined;
        if (e instanceof SignInRefused) {
          if (attempt === 3) throw new TargetBootError(`three boots in a row did not accept their own application password: ${e.message}`);
          log(`WordPress at ${url} did not accept its application password (${e.message}); booting it again`);
          continue;
        }
        if (!(e instanceof PortInUse)) throw e;
        if (opts.port !== undefined) throw new TargetBootError(`port ${port} is already in use: choose another or leave port unset`);
        if (attempt === 3) throw new TargetBootError('php -S could not bind a free port three times');
      }
    }
  } catch (e) {
    await stopSite(entry);
    throw e;
  }
}

/** The php on PATH (or CMS_CONFORMANCE_PHP), checked. */
function findPhp(): Promise<string> {
  return checkPhp(process.env.CMS_CONFORMANCE_PHP || 'php');
}

const phpChecks = new Map<string, Promise<string>>();
/** Resolves `php` when it runs and has pdo_sqlite; else rejects with a TargetBootError saying what to install. */
function checkPhp(php: string): Promise<string> {
  let check = phpChecks.get(php);
  if (check) return check;
  check = (async () => {
    let out: string;
    try {
      out = (await run(php, ['-r', 'echo PHP_VERSION, extension_loaded("pdo_sqlite") ? " ok" : " no";'])).stdout;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new TargetBootError(`${php} not found: install php8.2-cli php8.2-sqlite3 (apt-get install php8.2-cli php8.2-sqlite3), or set CMS_CONFORMANCE_PHP to a php binary`);
      }
      throw new TargetBootError(`${php} does not run: ${(e as Error).message}`);
    }
    if (!out.endsWith(' ok')) {
      throw new TargetBootError(`php ${out.split(' ')[0]} has no pdo_sqlite extension: install php8.2-sqlite3 (apt-get)`);
    }
    return php;
  })().catch((e) => {
    phpChecks.delete(php);
    throw e;
  });
  phpChecks.set(php, check);
  return check;
}

function startServer(php: string, site: string, port: number, workers: number, logFile: string): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, PHP_CLI_SERVER_WORKERS: String(workers) };
  if (workers <= 1) delete env.PHP_CLI_SERVER_WORKERS;
  const fd = openSync(logFile, 'a');
  // Own process group (detached), so stop() can kill the workers with the master. -q: no access log.
  const child = spawn(php, [...PHP_FLAGS, '-q', '-S', `127.0.0.1:${port}`, '-t', site, phpScript('router.php')], {
    cwd: site,
    env,
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  child.unref();
  child.on('error', () => {}); // php was found by findPhp(); waitReady() reports the exit
  return child;
}

class PortInUse extends Error {}
/** The site answered, but not as the user its application password belongs to. */
class SignInRefused extends Error {}

/** router.php answers this path with servedSiteId of its document root, without loading WordPress. */
const SITE_PROBE = '/.cms-conformance-site';
/** php -S resolves the document root (-t) to its real path: a temporary folder under a symlink (macOS's /var) is served as /private/var/... */
const servedSiteId = (site: string) => createHash('sha256').update(realpathSync(site)).digest('hex').slice(0, 32);

async function waitReady(url: string, server: ChildProcess, logFile: string, site: string, creds: { user: string; password: string }): Promise<void> {
  const index = `${url}/index.php?rest_route=/`;
  const siteId = servedSiteId(site);
  const serverLog = () => readFileSync(logFile, 'utf8');
  let exit: string | undefined;
  server.once('exit', (code, signal) => (exit = signal ?? `code ${code}`));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  for (;;) {
    if (exit !== undefined) {
      if (/Address already in use/.test(serverLog())) throw new PortInUse();
      throw new TargetBootError(`php -S exited (${exit}) before WordPress answered: ${tail(serverLog()) || 'no output'}`);
    }
    // The server that answers must be this boot's: between freePort() and php's bind another
    // process may take the port, and its site would answer the index while this php -S has not
    // yet exited with "Address already in use" (seen in npm test: the application password of
    // this boot then got 401 from the other site).
    let other = false;
    try {
      const id = await fetch(`${url}${SITE_PROBE}`, { signal: AbortSignal.timeout(5000) });
      const served = await id.text();
      if (id.status === 200 && served !== siteId) other = true;
      else if (id.status === 200) {
        const res = await fetch(index, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        if (res.status === 200) return await signIn(url, creds);
        last = `HTTP ${res.status}`;
      } else last = `HTTP ${id.status} on ${SITE_PROBE}`;
    } catch (e) {
      if (e instanceof SignInRefused) throw e;
      last = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    }
    if (other) throw new PortInUse();
    if (Date.now() > deadline) {
      throw new TargetBootError(`WordPress did not answer 200 at ${index} within ${READY_TIMEOUT_MS / 1000} s (last: ${last}); server log: ${tail(serverLog()) || 'empty'}`);
    }
    await sleep(50);
  }
}

/**
 * The site must take its application password: GET /wp/v2/users/me signed in answers the user.
 * (A Basic header WordPress does not take, as when application passwords are not in use on the
 * site, makes every request anonymous: a run would then fail or skip every write behaviour.)
 */
async function signIn(url: string, creds: { user: string; password: string }): Promise<void> {
  const authorization = `Basic ${Buffer.from(`${creds.user}:${creds.password}`).toString('base64')}`;
  const res = await fetch(`${url}/index.php?rest_route=/wp/v2/users/me`, { headers: { authorization }, signal: AbortSignal.timeout(10_000) });
  const body = (await res.json().catch(() => undefined)) as { slug?: string; code?: string } | undefined;
  if (res.status !== 200 || body?.slug !== creds.user) throw new SignInRefused(`GET /wp/v2/users/me signed in as ${creds.user} answered ${res.status} ${body?.code ?? body?.slug ?? ''}`.trim());
}

async function createAppPassword(php: string, site: string, url: string): Promise<{ user: string; password: string }> {
  try {
    const { stdout } = await run(php, [...PHP_FLAGS, '-d', 'display_errors=stderr', phpScript('boot.php'), site, url]);
    return JSON.parse(stdout);
  } catch (e) {
    throw new TargetBootError(`could not create the application password: ${tail((e as { stderr?: string }).stderr ?? '') || (e as Error).message}`);
  }
}
