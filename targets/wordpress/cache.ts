// Lazily fetched artefacts and installed template sites, kept in the cache directory:
//   wordpress-builds-0.9.19/   wp-6.5.zip, sqlite-database-integration.zip (from the npm tarball)
//   debian/                    `dpkg -x` of wordpress, wordpress-theme-twentytwentythree, php-getid3
//   sites/<key>/               an installed WordPress (template database included) that boots copy
// Each is built in `<name>.partial` under a lock file and renamed into place when complete.
import { randomBytes } from 'node:crypto';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aptDownload, ensureDebianUnzip, unpackDebs } from './debphp.ts';
import { TargetBootError, pidAlive, run, sleep, tail } from './proc.ts';

const BUILDS_PACKAGE = '@wp-playground/wordpress-builds@0.9.19';
// The package names its zips by minor version: wp-6.5.zip holds 6.5.5.
const BUILDS_ZIP: Record<string, string> = { '6.5.5': 'wp-6.5.zip' };
const DEBIAN_PACKAGES = ['wordpress', 'wordpress-theme-twentytwentythree', 'php-getid3'];
/** Bump when the template site layout or install.php changes, so old caches are not reused. */
const SITE_FORMAT = 1;
/** The URL the template is installed at; boot.php rewrites it to the served URL. */
const TEMPLATE_URL = 'http://template.cms-conformance.invalid';

const AKISMET_PLUGIN = 'akismet/akismet.php';
export const phpScript = (name: string) => fileURLToPath(new URL(name, import.meta.url));

export interface Ctx {
  cacheDir: string;
  php: string;
  log: (line: string) => void;
}

import { ensureDir } from './cache-dir.ts';

export { ensureDir };


/** unzip, or (not installed, on Debian/Ubuntu) Debian's unzip package unpacked into the cache. */
async function unzip(ctx: Ctx, zip: string, dest: string): Promise<void> {
  try {
    await run('unzip', ['-q', '-o', zip, '-d', dest]);
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  let bin: string;
  try {
    bin = await ensureDebianUnzip(ctx);
  } catch (e) {
    throw new TargetBootError(`unzip not found: install unzip (apt-get install unzip); Debian's unzip package could not be fetched either: ${(e as Error).message}`);
  }
  await run(bin, ['-q', '-o', zip, '-d', dest]);
}

async function ensureBuilds(ctx: Ctx): Promise<string> {
  return ensureDir(join(ctx.cacheDir, 'wordpress-builds-0.9.19'), async (dir) => {
    ctx.log('downloading WordPress 6.5.5 (150 MB, once)');
    try {
      const tarball = (await run('npm', ['pack', BUILDS_PACKAGE, '--silent'], { cwd: dir })).stdout.trim().split('\n').pop()!;
      const wanted = ['package/src/wordpress/wp-6.5.zip', 'package/src/sqlite-database-integration/sqlite-database-integration.zip'];
      await run('tar', ['-xzf', tarball, ...wanted], { cwd: dir });
      for (const file of wanted) renameSync(join(dir, file), join(dir, file.split('/').pop()!));
      rmSync(join(dir, tarball));
      rmSync(join(dir, 'package'), { recursive: true });
    } catch (e) {
      throw new TargetBootError(`could not fetch ${BUILDS_PACKAGE}: ${(e as Error).message}`);
    }
  });
}

/** Debian's packages extracted into one root, so their relative symlinks (wp-includes/ID3 -> php-getid3) resolve. */
async function ensureDebian(ctx: Ctx): Promise<string> {
  const failed = debianFailures.get(ctx.cacheDir);
  if (failed) throw failed;
  try {
    return await ensureDir(join(ctx.cacheDir, 'debian'), async (dir) => {
      ctx.log(`downloading Debian packages ${DEBIAN_PACKAGES.join(' ')} (11 MB, once)`);
      try {
        // With the machine's package lists, or private ones in the cache when it has none (debphp.ts).
        await aptDownload(ctx, DEBIAN_PACKAGES, dir);
        await unpackDebs(dir, join(dir, 'root'));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new TargetBootError('apt-get or dpkg-deb not found: Akismet and WordPress 6.1.9 come from Debian packages');
        throw new TargetBootError((e as Error).message);
      }
    });
  } catch (e) {
    debianFailures.set(ctx.cacheDir, e as Error); // do not retry on every boot of this process
    throw e;
  }
}
const debianFailures = new Map<string, Error>();

function wpVersion(siteDir: string): string {
  const source = readFileSync(join(siteDir, 'wp-includes/version.php'), 'utf8');
  return /\$wp_version\s*=\s*'([^']+)'/.exec(source)?.[1] ?? 'unknown';
}

/** Copies a tree following symlinks and skipping dangling ones (Debian links JS assets to packages we do not fetch). */
function copyTree(from: string, to: string): void {
  cpSync(from, to, { recursive: true, dereference: true, filter: (src) => existsSync(src) });
}

export function wpConfig(url: string): string {
  if (!/^[\w:/.-]+$/.test(url)) throw new Error(`unexpected URL ${url}`);
  const keys = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'];
  return `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', '');
define('DB_PASSWORD', '');
define('DB_HOST', '');
define('DB_CHARSET', 'utf8');
define('DB_COLLATE', '');
// Read by the SQLite integration drop-in (wp-content/db.php).
define('DB_DIR', __DIR__ . '/wp-content/database/');
define('DB_FILE', '.ht.sqlite');

define('WP_HOME', '${url}');
define('WP_SITEURL', '${url}');
// Without HTTPS, application passwords work only in a 'local' environment; otherwise a Basic header is ignored.
define('WP_ENVIRONMENT_TYPE', 'local');
// Offline, cron and any outbound HTTP call would wait for network timeouts.
define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_DEBUG', false);

${keys.map((k) => `define('${k}', '${randomBytes(24).toString('hex')}');`).join('\n')}

$table_prefix = 'wp_';

if (!defined('ABSPATH')) {
	define('ABSPATH', __DIR__ . '/');
}
require_once ABSPATH . 'wp-settings.php';
`;
}

/**
 * php flags for every run: errors to the log (never into JSON responses), mail() goes nowhere;
 * for `php -S` (OPcache is on there, not for the CLI scripts) the tracing JIT and a larger interned
 * strings buffer, as boot.sh sizes it: a full run's summed latency 89-94 s -> 77 s, wall 24.4 ->
 * 22-23 s on 2 cores, the same verdicts (BENCHMARKS.md).
 */
export const PHP_FLAGS = [
  ...['-d', 'display_errors=0', '-d', 'log_errors=1', '-d', 'sendmail_path=true'],
  ...['-d', 'opcache.jit=tracing', '-d', 'opcache.jit_buffer_size=64M', '-d', 'opcache.interned_strings_buffer=32'],
];

export interface Template {
  dir: string;
  version: string;
  plugins: string[];
}

/**
 * An installed WordPress for `version` (with Akismet when asked and available), built once.
 * Boots copy it; it has no wp-config.php.
 */
export async function ensureTemplate(ctx: Ctx, version: '6.5.5' | '6.1.9', akismet: boolean): Promise<Template> {
  let debian: string | undefined;
  if (version === '6.1.9' || akismet) {
    try {
      debian = join(await ensureDebian(ctx), 'root/usr/share/wordpress');
    } catch (e) {
      if (version === '6.1.9') {
        throw new TargetBootError(`WordPress 6.1.9 comes from Debian's wordpress package: ${(e as Error).message}`);
      }
      ctx.log(`Akismet unavailable, booting without it (${(e as Error).message})`);
      akismet = false;
    }
  }
  const key = `wp-${version}${akismet ? '-akismet' : ''}-f${SITE_FORMAT}`;
  const dir = await ensureDir(join(ctx.cacheDir, 'sites', key), async (site) => {
    const builds = await ensureBuilds(ctx);
    ctx.log(`installing WordPress ${version}${akismet ? ' with Akismet' : ''} into the cache (once)`);
    if (version === '6.1.9') {
      copyTree(debian!, site);
      if (!akismet) rmSync(join(site, 'wp-content/plugins/akismet'), { recursive: true });
    } else {
      await unzip(ctx, join(builds, BUILDS_ZIP[version]), site);
      // The zip's database was installed for another URL.
      rmSync(join(site, 'wp-content/database'), { recursive: true });
      if (akismet) copyTree(join(debian!, 'wp-content/plugins/akismet'), join(site, 'wp-content/plugins/akismet'));
    }
    const actual = wpVersion(site);
    if (!actual.startsWith(version.split('.').slice(0, 2).join('.'))) {
      throw new TargetBootError(`expected WordPress ${version} but the package holds ${actual}`);
    }
    rmSync(join(site, 'wp-config.php'), { force: true });
    mkdirSync(join(site, 'wp-content/database'));

    const plugins = join(site, 'wp-content/plugins');
    await unzip(ctx, join(builds, 'sqlite-database-integration.zip'), plugins);
    renameSync(join(plugins, 'sqlite-database-integration-main'), join(plugins, 'sqlite-database-integration'));
    cpSync(join(plugins, 'sqlite-database-integration/db.copy'), join(site, 'wp-content/db.php'));

    writeFileSync(join(site, 'wp-config.php'), wpConfig(TEMPLATE_URL));
    try {
      await run(ctx.php, [...PHP_FLAGS, '-d', 'display_errors=stderr', phpScript('install.php'), site, ...(akismet ? [AKISMET_PLUGIN] : [])]);
    } catch (e) {
      throw new TargetBootError(`WordPress ${version} install failed: ${tail((e as { stderr?: string }).stderr ?? (e as Error).message)}`);
    }
    rmSync(join(site, 'wp-config.php'));
  });
  return { dir, version: wpVersion(dir), plugins: akismet ? ['akismet'] : [] };
}
