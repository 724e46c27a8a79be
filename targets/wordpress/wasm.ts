// Embedded real target, WebAssembly runtime: the same cached WordPress site as index.ts, served by
// PHP-in-WebAssembly through @wp-playground/cli instead of native `php -S`. No root, no apt, no php binary;
// slower (~0.3 s of CPU a request; one PHP worker per core). The CLI is installed into the cache on first use. See README.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDir, ensureTemplate, wpConfig } from './cache.ts';
import { type BootOptions, type Running, type WordPressTarget, SITE_PREFIX, copySite, bootedTarget, installExitHandlers, running, stopSite } from './site.ts';
import { TargetBootError, freePort, killGroup, run, sleep, tail } from './proc.ts';
import { shellQuote } from '../../schemas/shell.ts';

const CLI_VERSION = '3.1.56';
const CLI_PACKAGE = `@wp-playground/cli@${CLI_VERSION}`;
/** As Debian's php8.2 on the native path (the CLI would default to 8.3, a blueprint without it to 8.5). */
const PHP_VERSION = '8.2';
const READY_TIMEOUT_MS = 180_000;
const SCRIPTS_DIR = dirname(fileURLToPath(import.meta.url));
/** Where the guest sees this directory (boot.php) and the per-boot run directory (blueprint, credentials, error log). */
const SCRIPTS_VFS = '/cms-conformance';
const RUN_VFS = '/cms-conformance-run';
/** The database, outside the document root: the CLI serves every file under it (native: router.php hides .ht*). */
const DB_VFS = '/cms-conformance-db';
const ERROR_LOG_VFS = `${RUN_VFS}/php-errors.log`;

/**
 * Preloaded into the CLI's node process: its HTTP server calls listen(port), i.e. on every interface, and has
 * no option for the host. Native `php -S` listens on 127.0.0.1 only; so does this.
 */
const LOOPBACK_ONLY = `data:text/javascript,${encodeURIComponent(`import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) args.splice(1, 0, '127.0.0.1');
  return listen.apply(this, args);
};`)}`;

interface Cli {
  /** wp-playground.js, run with this node. */
  bin: string;
  /** A `php` stand-in for cache.ts's template install (see PHP_SHIM). */
  php: string;
}

export async function bootWasm(opts: BootOptions): Promise<WordPressTarget> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const version = opts.version ?? '6.5.5';
  const cacheDir = opts.cacheDir ?? process.env.CMS_CONFORMANCE_CACHE ?? join(homedir(), '.cache', 'cms-conformance'); // as index.ts
  const cli = await ensureCli(cacheDir, log);
  installExitHandlers();
  // The same templates as native php (same key): built once by install.php, here run through the CLI's `php`.
  const template = await ensureTemplate({ cacheDir, php: cli.php, log }, version, opts.akismet ?? true);

  const entry: Running = { dir: mkdtempSync(join(tmpdir(), SITE_PREFIX)) };
  running.add(entry);
  const owner = join(entry.dir, 'owner.json');
  writeFileSync(owner, JSON.stringify({ node: process.pid }));
  const site = join(entry.dir, 'wordpress');
  const runDir = join(entry.dir, 'run');
  try {
    mkdirSync(runDir);
    mkdirSync(join(entry.dir, 'db'));
    mkdirSync(join(entry.dir, 'tmp')); // the CLI's own temp dirs, removed with the site even after a SIGKILL
    await copySite(template.dir, site);
    const db = join(entry.dir, 'db', '.ht.sqlite');
    renameSync(join(site, 'wp-content/database/.ht.sqlite'), db); // copySite's own copy, not the template's
    useRollbackJournal(db);
    for (let attempt = 1; ; attempt++) {
      const port = opts.port ?? (await freePort());
      const url = `http://127.0.0.1:${port}`;
      writeFileSync(join(site, 'wp-config.php'), wasmWpConfig(url));
      writeFileSync(join(runDir, 'blueprint.json'), blueprint(url));
      const logFile = join(entry.dir, 'server.log');
      const server = startServer(cli, entry.dir, site, port, wasmWorkers(opts.workers), logFile);
      entry.pgid = server.pid;
      writeFileSync(owner, JSON.stringify({ node: process.pid, server: server.pid }));
      try {
        const creds = await waitReady(url, server, logFile, runDir);
        log(`WordPress ${template.version} ready at ${url} on PHP-in-WebAssembly (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        return bootedTarget(entry, url, creds, template, 'wasm');
      } catch (e) {
        await killGroup(server.pid!);
        entry.pgid = undefined;
        if (!(e instanceof PortInUse)) throw e;
        if (opts.port !== undefined) throw new TargetBootError(`port ${port} is already in use: choose another or leave port unset`);
        if (attempt === 3) throw new TargetBootError('@wp-playground/cli could not bind a free port three times');
      }
    }
  } catch (e) {
    await stopSite(entry);
    throw e;
  }
}

/**
 * The template database is in WAL mode (native `php -S` workers share it). PHP-in-WebAssembly workers do not
 * share memory, so SQLite's WAL index cannot work across them; Playground itself runs SQLite with a rollback
 * journal. Header bytes 18-19 are 2 for WAL and 1 for rollback; the template was closed cleanly (no -wal file),
 * so switching this copy is just those two bytes, as `PRAGMA journal_mode=DELETE` would write them.
 */
function useRollbackJournal(db: string): void {
  const fd = openSync(db, 'r+');
  try {
    const header = Buffer.alloc(2);
    readSync(fd, header, 0, 2, 18);
    if (header[0] === 2 && header[1] === 2) writeSync(fd, Buffer.from([1, 1]), 0, 2, 18);
  } finally {
    closeSync(fd);
  }
}

/**
 * The native wp-config, except: the database is outside the document root; the CLI's php.ini displays errors
 * (native runs with -d display_errors=0); PHP errors go to run/php-errors.log (native: server.log).
 */
function wasmWpConfig(url: string): string {
  const dbDir = "define('DB_DIR', __DIR__ . '/wp-content/database/');";
  const config = wpConfig(url);
  if (!config.startsWith('<?php\n') || !config.includes(dbDir)) throw new TargetBootError('wasm.ts: cache.ts wpConfig() changed shape; update wasmWpConfig()');
  return config
    .replace('<?php\n', `<?php\n// PHP-in-WebAssembly (wasm.ts): keep PHP errors out of responses.\nini_set('display_errors', '0');\nini_set('error_log', '${ERROR_LOG_VFS}');\n`)
    .replace(dbDir, `define('DB_DIR', '${DB_VFS}/');`);
}

/**
 * Runs once in the server, after it boots and before it reports ready: boot.php (moves the template site to
 * `url`, creates the application password), its JSON written to run/credentials.json. A failure stops the CLI
 * with PHP's output in server.log.
 */
function blueprint(url: string): string {
  const code = `<?php
if (!defined('STDERR')) define('STDERR', fopen('php://stderr', 'w'));
$argv = ['boot.php', '/wordpress', ${JSON.stringify(url)}];
ob_start();
require '${SCRIPTS_VFS}/boot.php';
file_put_contents('${RUN_VFS}/credentials.json.partial', ob_get_clean());
rename('${RUN_VFS}/credentials.json.partial', '${RUN_VFS}/credentials.json');
`;
  return JSON.stringify({
    preferredVersions: { php: PHP_VERSION, wp: 'latest' }, // wp: unused, nothing is downloaded or installed
    features: { networking: false },
    steps: [{ step: 'runPHP', code }],
  });
}

function startServer(cli: Cli, dir: string, site: string, port: number, workers: number, logFile: string): ChildProcess {
  const args = [
    '--import',
    LOOPBACK_ONLY,
    cli.bin,
    'server',
    `--port=${port}`,
    `--php=${PHP_VERSION}`,
    `--workers=${workers}`,
    // Serve the copied site as it is: no WordPress download, no install, no SQLite plugin of the CLI's own.
    '--wordpress-install-mode=do-not-attempt-installing',
    '--skip-sqlite-setup',
    '--mount-dir-before-install', site, '/wordpress',
    '--mount-dir', SCRIPTS_DIR, SCRIPTS_VFS,
    '--mount-dir', join(dir, 'run'), RUN_VFS,
    '--mount-dir', join(dir, 'db'), DB_VFS,
    `--blueprint=${join(dir, 'run', 'blueprint.json')}`,
    // The CLI predefines these as true (they win over wp-config.php); match the native site.
    '--define-bool', 'WP_DEBUG', 'false',
    '--define-bool', 'WP_DEBUG_DISPLAY', 'false',
    // A string: the CLI's mu-plugin then logs errors there instead of switching logging off.
    '--define', 'WP_DEBUG_LOG', ERROR_LOG_VFS,
  ];
  const fd = openSync(logFile, 'a');
  // Own process group (detached), so stop() kills the CLI with anything it starts.
  const child = spawn(process.execPath, args, {
    cwd: join(dir, 'run'),
    env: { ...process.env, TMPDIR: join(dir, 'tmp') },
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  child.unref();
  child.on('error', () => {}); // waitReady() reports the exit
  return child;
}

class PortInUse extends Error {}

/**
 * PHP workers of the CLI's server (each a thread with its own PHP runtime, ~250 MB): the `workers` option,
 * else CMS_CONFORMANCE_WASM_WORKERS, else one per core. A request takes ~0.3 s of CPU in WebAssembly, so
 * the run's pace is the cores that serve it at once (BENCHMARKS.md, issue 41).
 */
export function wasmWorkers(option?: number, env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  if (option !== undefined) return option;
  const raw = env.CMS_CONFORMANCE_WASM_WORKERS?.trim();
  if (!raw) return cores;
  if (!/^[1-9]\d*$/.test(raw)) throw new TargetBootError(`CMS_CONFORMANCE_WASM_WORKERS must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** Waits until the index answers 200 and the blueprint has written the credentials. */
async function waitReady(url: string, server: ChildProcess, logFile: string, runDir: string): Promise<{ user: string; password: string }> {
  const index = `${url}/index.php?rest_route=/`;
  const credsFile = join(runDir, 'credentials.json');
  const serverLog = () => readFileSync(logFile, 'utf8');
  let exit: string | undefined;
  server.once('exit', (code, signal) => (exit = signal ?? `code ${code}`));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  let answered = false;
  for (;;) {
    if (exit !== undefined) {
      if (/EADDRINUSE/.test(serverLog())) throw new PortInUse();
      throw new TargetBootError(`@wp-playground/cli exited (${exit}) before WordPress was ready: ${tail(serverLog(), 6) || 'no output'}`);
    }
    if (!answered) {
      try {
        const res = await fetch(index, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        answered = res.status === 200;
        last = `HTTP ${res.status}`;
      } catch (e) {
        last = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
      }
    }
    if (answered && existsSync(credsFile)) {
      const creds = JSON.parse(readFileSync(credsFile, 'utf8'));
      rmSync(credsFile); // the password stays in memory only, as on the native path
      return creds;
    }
    if (Date.now() > deadline) {
      throw new TargetBootError(
        `WordPress on PHP-in-WebAssembly was not ready within ${READY_TIMEOUT_MS / 1000} s (index: ${last}; credentials ${existsSync(credsFile) ? 'written' : 'not written'}); log: ${tail(serverLog(), 6) || 'empty'}`,
      );
    }
    await sleep(answered ? 50 : 250);
  }
}

// ---- the CLI, installed once into <cache>/playground-cli-<version> ----

async function ensureCli(cacheDir: string, log: (line: string) => void): Promise<Cli> {
  const dir = join(cacheDir, `playground-cli-${CLI_VERSION}`);
  await ensureDir(dir, async (partial) => {
    log(`installing ${CLI_PACKAGE} for PHP-in-WebAssembly: a one-time ~580 MB download`);
    const t0 = Date.now();
    try {
      await run('npm', ['install', '--prefix', partial, '--no-audit', '--no-fund', '--loglevel=error', CLI_PACKAGE]);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new TargetBootError(`npm not found: it installs ${CLI_PACKAGE}`);
      throw new TargetBootError(`could not install ${CLI_PACKAGE}: ${(e as Error).message}`);
    }
    if (!existsSync(join(partial, cliBin('')))) throw new TargetBootError(`${CLI_PACKAGE} installed without ${cliBin('')}`);
    log(`installed ${CLI_PACKAGE} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  });
  const bin = join(dir, cliBin(''));
  fixSharedFlock(dir);
  // Rewritten when different (this file changed, or node moved), atomically: other processes may be running it.
  writeIfChanged(join(dir, 'php.mjs'), PHP_SHIM(bin));
  const php = join(dir, 'php');
  writeIfChanged(php, `#!/bin/sh\n# Written by targets/wordpress/wasm.ts: \`php\` for cache.ts's template install, on PHP-in-WebAssembly.\nexec ${shellQuote(process.execPath)} ${shellQuote(join(dir, 'php.mjs'))} "$@"\n`, 0o755);
  return { bin, php };
}

const cliBin = (root: string) => join(root, 'node_modules/@wp-playground/cli/wp-playground.js');

/**
 * A fix of @php-wasm/node 3.1.56 (the CLI's runtime), applied to the installed copy in the cache. Its
 * flock() checks the fd's access mode as fcntl() must (a read lock needs a readable fd, a write lock a
 * writable one) but passes flock's operation as the lock type, and LOCK_SH (1) is F_WRLCK (1): a shared
 * lock on a file opened read-only fails. OPcache's file cache (php.ini: opcache.file_cache_only, in the
 * CLI's shared /internal directory) takes exactly that lock on every script it loads, so every load
 * failed and every request compiled every PHP file it includes again: 80 % of a worker's time, ~0.8 s of
 * CPU a request. flock(2) takes either lock whatever the open mode; without the check a request takes
 * ~0.3 s (BENCHMARKS.md, issue 41). A copy without the faulty line (a later version) is left as it is.
 */
export function fixSharedFlock(dir: string): void {
  const faulty = 'const paramsCheckErrno = locking.check_lock_params(fd, op);';
  const fixed = 'const paramsCheckErrno = 0; // flock(2) locks regardless of the open mode (cms-conformance: targets/wordpress/wasm.ts)';
  for (const file of ['index.js', 'index.cjs']) {
    const path = join(dir, 'node_modules/@php-wasm/node', file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    if (text.split(faulty).length === 2) writeIfChanged(path, text.replace(faulty, fixed));
  }
}

/**
 * `php [-d key=value]... SCRIPT [ARG]...` through `wp-playground-cli php`: the directories of the absolute
 * paths among the arguments (the script, the site) are mounted at the same paths in the guest.
 */
const PHP_SHIM = (bin: string) => `// Written by targets/wordpress/wasm.ts. See there.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

const args = process.argv.slice(2);
const dirs = new Set();
for (const arg of args) {
  if (arg.startsWith('/') && existsSync(arg)) dirs.add(statSync(arg).isDirectory() ? arg : dirname(arg));
}
const result = spawnSync(process.execPath, [
  ${JSON.stringify(bin)}, 'php', '--php=${PHP_VERSION}',
  '--wordpress-install-mode=do-not-attempt-installing', '--skip-sqlite-setup',
  ...[...dirs].flatMap((dir) => ['--mount-dir-before-install', dir, dir]),
  '--', ...args,
], { stdio: 'inherit' });
if (result.error) throw result.error;
process.exit(result.status ?? 1);
`;

function writeIfChanged(file: string, content: string, mode = 0o644): void {
  try {
    if (readFileSync(file, 'utf8') === content && (statSync(file).mode & 0o777) === mode) return;
  } catch {
    // missing
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode });
  renameSync(tmp, file);
}

