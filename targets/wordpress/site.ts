// What both runtimes of the embedded WordPress share: the target and boot option types, the per-boot site
// directory (copied from the cached template), stopping it, and the exit handlers that stop every site this
// process started (and sweep the sites of a process that died without cleanup).
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupMembers, killGroup, killGroupSync, pidAlive, run } from './proc.ts';

export interface WordPressTarget {
  url: string; // e.g. http://127.0.0.1:PORT  (base URL; REST is at {url}/index.php?rest_route=/)
  user: string; // admin login
  appPassword: string; // plain application password (24 chars)
  version: string; // e.g. '6.5.5'
  runtime: 'php' | 'wasm';
  plugins: string[]; // e.g. ['akismet'] when Akismet was installed
  stop(): Promise<void>; // kills the server process group, removes temp site dir; idempotent
}

export interface BootOptions {
  version?: '6.5.5' | '6.1.9'; // default '6.5.5'
  port?: number; // default: a free port
  cacheDir?: string; // default: env CMS_CONFORMANCE_CACHE or ~/.cache/cms-conformance
  akismet?: boolean; // default true
  workers?: number; // PHP_CLI_SERVER_WORKERS, default 4; wasm: the CLI's --workers, default CMS_CONFORMANCE_WASM_WORKERS, else one per core
  log?: (line: string) => void; // progress lines; default: no output
  // 'auto': native php when it runs with pdo_sqlite, else PHP-in-WebAssembly. Default: env CMS_CONFORMANCE_RUNTIME, else 'auto'.
  runtime?: 'php' | 'wasm' | 'auto';
}

export const SITE_PREFIX = 'cms-conformance-wp-';


/** A booted site: its temp directory and the server's process group. */
export interface Running {
  dir: string;
  pgid?: number;
}
export const running = new Set<Running>();

/**
 * Hard links make the copy nearly free (creating files is the slow part); nothing edits core, plugin or
 * theme files in place over REST. SQLite does write in place, so the database gets a real copy. Every
 * site gets the must-use plugin that makes again a write SQLite refused while another request held
 * the database (sqlite-retry.php: such a write is lost otherwise, where MySQL would wait).
 */
export async function copySite(template: string, site: string): Promise<void> {
  try {
    await run('cp', ['-al', template, site]);
  } catch {
    rmSync(site, { recursive: true, force: true });
    await run('cp', ['-a', template, site]); // e.g. the cache is on another file system
  }
  const db = 'wp-content/database/.ht.sqlite';
  rmSync(join(site, db));
  copyFileSync(join(template, db), join(site, db));
  mkdirSync(join(site, 'wp-content/mu-plugins'), { recursive: true });
  copyFileSync(fileURLToPath(new URL('sqlite-retry.php', import.meta.url)), join(site, 'wp-content/mu-plugins/cmsc-sqlite-retry.php'));
}

export async function stopSite(entry: Running): Promise<void> {
  if (entry.pgid) await killGroup(entry.pgid);
  rmSync(entry.dir, { recursive: true, force: true });
  running.delete(entry);
}

/** The booted site of `entry`, as a target; `stop` is idempotent. */
export function bootedTarget(entry: Running, url: string, creds: { user: string; password: string }, template: { version: string; plugins: string[] }, runtime: WordPressTarget['runtime']): WordPressTarget {
  let stopping: Promise<void> | undefined;
  return { url, user: creds.user, appPassword: creds.password, version: template.version, runtime, plugins: template.plugins, stop: () => (stopping ??= stopSite(entry)) };
}

function stopAllSync(): void {
  for (const entry of running) {
    if (entry.pgid) killGroupSync(entry.pgid);
    rmSync(entry.dir, { recursive: true, force: true });
  }
  running.clear();
}

let handlersInstalled = false;
export function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  sweepOrphans();
  process.on('exit', stopAllSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      // Another listener handles the signal (the CLI's run: it deletes its fixtures on the site first,
      // then stops it, and exits): the site stays up for that cleanup; the exit handler stays the backstop.
      if (process.listenerCount(signal) > 1) return;
      stopAllSync();
      process.removeListener(signal, onSignal);
      // Re-raise only when nobody else handles the signal, so Node's default (terminate) applies.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** Servers left by a process that died without cleanup (e.g. SIGKILL): kill them and remove their sites. */
function sweepOrphans(): void {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(SITE_PREFIX))) {
    const dir = join(tmpdir(), name);
    try {
      if (orphaned(dir)) rmSync(dir, { recursive: true, force: true });
    } catch {
      // another process is sweeping it, or it is not ours to remove
    }
  }
}

function orphaned(dir: string): boolean {
  let owner: { node: number; server?: number };
  try {
    owner = JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8'));
  } catch {
    return Date.now() - statSync(dir).mtimeMs > 60 * 60_000;
  }
  if (pidAlive(owner.node)) return false;
  const servesDir = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
    } catch {
      return false;
    }
  };
  if (owner.server && groupMembers(owner.server).some(servesDir)) killGroupSync(owner.server);
  return true;
}
