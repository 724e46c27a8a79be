// Native PHP without root: on a Debian or Ubuntu machine without php, Debian's own php packages (and the
// shared libraries they need that the machine lacks) are fetched with `apt-get download` and unpacked with
// `dpkg-deb -x` into the cache, as cache.ts does for WordPress and Akismet. The result runs at native
// speed (a full run ~25-40 s instead of ~45 min on PHP-in-WebAssembly). See README.md.
//
//   <cache>/debian-php/root/        the unpacked packages (usr/bin/phpX.Y, usr/lib/php/<api>/*.so, libs)
//   <cache>/debian-php/php.ini      Debian's php.ini-production.cli + the packages' module ini files
//   <cache>/debian-php/php          the `php` to run: a sh script setting LD_LIBRARY_PATH and the ini
//   <cache>/apt/                    private package lists, only when the machine has none (apt-get update
//                                   as any user, no root: -o Dir::State::Lists=...)
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir } from './cache-dir.ts';
import { TargetBootError, run } from './proc.ts';
import { shellQuote } from '../../schemas/shell.ts';

/** The modules beside the CLI: SQLite (required), OPcache (speed) and those WordPress warns without. */
export const PHP_MODULES = ['cli', 'common', 'opcache', 'sqlite3', 'mbstring', 'xml', 'intl'];

/** Never taken from the cache: a C library that does not match the machine's dynamic loader breaks every program. */
const NEVER_FETCHED = new Set(['libc6', 'libc6-dev', 'libgcc-s1']);

export interface AptCtx {
  cacheDir: string;
  log: (line: string) => void;
  /** Test seam: the packages this machine has installed (default: dpkg-query). */
  installed?: () => Promise<Set<string>>;
}

/** The php package series apt offers (`php-cli` depends on e.g. `php8.2-cli`): 'php8.2'. */
export function phpSeries(dependsOutput: string): string | undefined {
  return /^\s*Depends:\s*(php\d+\.\d+)-cli\b/m.exec(dependsOutput)?.[1];
}

/**
 * The shared-library packages the `roots` need, from `apt-cache depends --recurse` output (a package on an
 * unindented line, then its "  Depends: x" / " |Depends: x" lines): followed only through lib* and php*
 * packages, since the others (debconf, ucf, perl, tzdata, mime-support ...) serve the maintainer scripts of
 * an installed package, not the unpacked binary.
 */
export function libraryClosure(dependsOutput: string, roots: string[]): string[] {
  const deps = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of dependsOutput.split('\n')) {
    if (/^[a-z0-9]/.test(line)) deps.set(line.trim(), (current = []));
    else {
      const m = /^\s*\|?(?:Pre)?Depends:\s*([a-z0-9][a-z0-9+.-]*)/.exec(line);
      if (m && current) current.push(m[1]!);
    }
  }
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const p = queue.shift()!;
    if (seen.has(p)) continue;
    seen.add(p);
    for (const d of deps.get(p) ?? []) if (/^(lib|php)/.test(d)) queue.push(d);
  }
  return [...seen].filter((p) => p.startsWith('lib')).sort();
}

/** Installed packages from `dpkg-query -W -f '${Package} ${db:Status-Abbrev}\n'` (status "ii"). */
export function installedFrom(output: string): Set<string> {
  const set = new Set<string>();
  for (const line of output.split('\n')) {
    const [name, status] = line.trim().split(/\s+/);
    if (name && status === 'ii') set.add(name.split(':')[0]!);
  }
  return set;
}

/** What to fetch: the php packages, and the libraries they need (libraryClosure) that are not installed. */
export function packagesToFetch(series: string, libraries: string[], installed: Set<string>): string[] {
  const php = PHP_MODULES.map((m) => `${series}-${m}`);
  return [...php, ...libraries.filter((p) => !NEVER_FETCHED.has(p) && !installed.has(p)).sort()];
}

/**
 * The php.ini: Debian's CLI ini, the extension directory, then each module ini of the unpacked packages
 * (usr/share/phpX.Y-<module>/<module>/<name>.ini, "; priority=NN") in Debian's order (priority, name) -- what
 * the packages' postinst links into /etc/php/X.Y/cli/conf.d.
 */
export function phpIni(base: string, extensionDir: string, modules: { name: string; text: string }[]): string {
  const priority = (text: string) => Number(/^;\s*priority=(\d+)/m.exec(text)?.[1] ?? 20);
  const ordered = [...modules].sort((a, b) => priority(a.text) - priority(b.text) || a.name.localeCompare(b.name));
  if (!/^[^"\n]+$/.test(extensionDir)) throw new TargetBootError(`cannot write ${extensionDir} into php.ini`);
  return [
    base.trimEnd(),
    '',
    '; Written by targets/wordpress/debphp.ts: the unpacked packages\' extensions and module ini files.',
    '[PHP]',
    `extension_dir = "${extensionDir}"`,
    ...ordered.map((m) => `; ${m.name}\n${m.text.trim()}`),
    '',
  ].join('\n');
}

/** The `php` wrapper: the unpacked binary with its libraries and ini only (no scan of the system's /etc/php). */
export function phpWrapper(binary: string, ini: string, libDirs: string[], magic?: string): string {
  const lines = ['#!/bin/sh', '# Written by targets/wordpress/debphp.ts: php from Debian packages unpacked into the cache.'];
  if (libDirs.length) lines.push(`LD_LIBRARY_PATH=${shellQuote(libDirs.join(':'))}\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}`, 'export LD_LIBRARY_PATH');
  // libmagic (the fileinfo extension) looks for its database at /usr/lib/file/magic.mgc unless MAGIC says.
  if (magic) lines.push(`MAGIC=${shellQuote(magic)}`, 'export MAGIC');
  lines.push('PHP_INI_SCAN_DIR=', 'export PHP_INI_SCAN_DIR', `exec ${shellQuote(binary)} -c ${shellQuote(ini)} "$@"`, '');
  return lines.join('\n');
}

/** Directories under `root` holding shared libraries (lib*.so*), for LD_LIBRARY_PATH. */
function libraryDirs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => /^lib.*\.so(\.|$)/.test(e.name))) found.push(dir);
    if (depth < 3) for (const e of entries) if (e.isDirectory() && e.name !== 'php') walk(join(dir, e.name), depth + 1);
  };
  for (const top of ['lib', 'usr/lib']) walk(join(root, top), 0);
  return found;
}

let listsChecked: Promise<string[]> | undefined;
/**
 * apt options for `apt-get download`: none when the machine's package lists know php, else private lists in
 * the cache (`apt-get update` as any user: the containers without lists are the usual case, Docker images
 * delete them). Rejects when apt-get is missing or cannot fetch the lists.
 */
async function aptOptions(ctx: AptCtx): Promise<string[]> {
  listsChecked ??= (async () => {
    if (await knowsPhp([])) return [];
    const dir = join(ctx.cacheDir, 'apt');
    const opts = (d: string) => ['-o', `Dir::State::Lists=${join(d, 'lists')}`, '-o', `Dir::Cache=${join(d, 'cache')}`, '-o', 'Debug::NoLocking=1'];
    // A day old at most: the mirrors drop superseded versions (security updates), which old lists still name.
    if (existsSync(dir) && Date.now() - statSync(dir).mtimeMs > 24 * 3600_000) rmSync(dir, { recursive: true, force: true });
    await ensureDir(dir, async (partial) => {
      ctx.log('this machine has no apt package lists: fetching them into the cache (~10 MB, no root needed)');
      for (const sub of ['lists/partial', 'cache/archives/partial']) mkdirSync(join(partial, sub), { recursive: true });
      await run('apt-get', ['update', '-qq', ...opts(partial)]);
    });
    if (!(await knowsPhp(opts(dir)))) throw new TargetBootError(`apt-get update gave no php-cli package (is a Debian/Ubuntu main repository in /etc/apt/sources.list*?); delete ${dir} to try again`);
    return opts(dir);
  })().catch((e) => {
    listsChecked = undefined;
    throw e;
  });
  return listsChecked;
}

/** Do these lists know php-cli? Rejects (ENOENT) when there is no apt-cache. */
async function knowsPhp(opts: string[]): Promise<boolean> {
  try {
    return phpSeries((await run('apt-cache', [...opts, 'depends', 'php-cli'])).stdout) !== undefined;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw e;
    return false;
  }
}

/** `apt-get download` into `dir`, with the lists aptOptions() found. */
export async function aptDownload(ctx: AptCtx, packages: string[], dir: string): Promise<void> {
  const opts = await aptOptions(ctx);
  await run('apt-get', [...opts, 'download', ...packages], { cwd: dir });
}

/** Extracts every .deb of `dir` into `root` (and deletes it). */
export async function unpackDebs(dir: string, root: string): Promise<void> {
  for (const deb of readdirSync(dir).filter((f) => f.endsWith('.deb'))) {
    await run('dpkg-deb', ['-x', deb, root], { cwd: dir });
    rmSync(join(dir, deb)); // one at a time: the set is not held twice on disk
  }
}

async function installedPackages(): Promise<Set<string>> {
  try {
    return installedFrom((await run('dpkg-query', ['-W', '-f', '${Package} ${db:Status-Abbrev}\n'])).stdout);
  } catch {
    return new Set();
  }
}

let failure: Error | undefined;
/**
 * The path of a `php` (8.x with pdo_sqlite) built from Debian's packages in the cache, fetched on first use.
 * Rejects with TargetBootError when this machine cannot (no apt-get/dpkg-deb, no network to the mirror, a
 * library missing): the caller falls back to PHP-in-WebAssembly.
 */
export async function ensureDebianPhp(ctx: AptCtx): Promise<string> {
  if (failure) throw failure; // do not retry on every boot of this process
  try {
    const dir = await ensureDir(phpDir(ctx), async (partial) => {
      const t0 = Date.now();
      let series: string | undefined;
      try {
        const opts = await aptOptions(ctx);
        series = phpSeries((await run('apt-cache', [...opts, 'depends', 'php-cli'])).stdout);
        if (!series) throw new TargetBootError('apt knows no php-cli package');
        const wanted = PHP_MODULES.map((m) => `${series}-${m}`);
        const graph = (await run('apt-cache', [...opts, 'depends', '--recurse', '--no-recommends', '--no-suggests', '--no-conflicts', '--no-breaks', '--no-replaces', '--no-enhances', ...wanted])).stdout;
        const fetch = packagesToFetch(series, libraryClosure(graph, wanted), await (ctx.installed ?? installedPackages)());
        const libs = fetch.length - wanted.length;
        ctx.log(`no usable php here: fetching Debian's ${series} packages${libs ? ` and ${libs} libraries this machine lacks` : ''} into the cache (no root needed, once)`);
        const debs = join(partial, 'debs');
        mkdirSync(debs);
        await aptDownload(ctx, fetch, debs);
        await unpackDebs(debs, join(partial, 'root'));
        rmSync(debs, { recursive: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new TargetBootError('apt-get, apt-cache or dpkg-deb not found (not a Debian or Ubuntu machine)');
        if (e instanceof TargetBootError) throw e;
        throw new TargetBootError(`could not fetch Debian's php packages: ${(e as Error).message}`);
      }
      writeRuntime(partial, phpDir(ctx), series!);
      ctx.log(`Debian's ${series} is in the cache (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    });
    const php = join(dir, 'php');
    if (!existsSync(php)) throw new TargetBootError(`${php} missing: delete ${dir} to fetch it again`);
    return php;
  } catch (e) {
    failure = e instanceof TargetBootError ? e : new TargetBootError((e as Error).message, { cause: e });
    throw failure;
  }
}

const phpDir = (ctx: AptCtx) => join(ctx.cacheDir, 'debian-php');

/**
 * php.ini and the wrapper, written in `partial` with the paths they will have in `final` (ensureDir renames
 * the one into the other).
 */
export function writeRuntime(partial: string, final: string, series: string): void {
  const version = series.replace(/^php/, '');
  const root = join(partial, 'root');
  const binary = join(root, 'usr/bin', series);
  if (!existsSync(binary)) throw new TargetBootError(`the ${series}-cli package holds no usr/bin/${series}`);
  const apis = readdirSync(join(root, 'usr/lib/php')).filter((d) => /^\d{8}$/.test(d));
  if (apis.length !== 1) throw new TargetBootError(`expected one extension directory in usr/lib/php, found ${apis.length}`);
  const modules: { name: string; text: string }[] = [];
  for (const pkg of readdirSync(join(root, 'usr/share')).filter((d) => d.startsWith(`${series}-`))) {
    for (const mod of readdirSync(join(root, 'usr/share', pkg))) {
      const modDir = join(root, 'usr/share', pkg, mod);
      if (!statSync(modDir).isDirectory()) continue;
      for (const ini of readdirSync(modDir).filter((f) => f.endsWith('.ini'))) modules.push({ name: ini, text: readFileSync(join(modDir, ini), 'utf8') });
    }
  }
  const baseIni = join(root, 'usr/lib/php', version, 'php.ini-production.cli');
  const base = existsSync(baseIni) ? readFileSync(baseIni, 'utf8') : '[PHP]\n';
  const finalRoot = join(final, 'root');
  writeFileSync(join(partial, 'php.ini'), phpIni(base, join(finalRoot, 'usr/lib/php', apis[0]!), modules));
  const libs = libraryDirs(root).map((d) => join(finalRoot, d.slice(root.length + 1)));
  const magic = existsSync(join(root, 'usr/lib/file/magic.mgc')) ? join(finalRoot, 'usr/lib/file/magic.mgc') : undefined;
  writeFileSync(join(partial, 'php'), phpWrapper(join(finalRoot, 'usr/bin', series), join(final, 'php.ini'), libs, magic));
  chmodSync(join(partial, 'php'), 0o755);
}

/** Debian's unzip (it needs only libc and libbz2, which every Debian has) unpacked into the cache: its path. */
export async function ensureDebianUnzip(ctx: AptCtx): Promise<string> {
  const dir = await ensureDir(join(ctx.cacheDir, 'debian-unzip'), async (partial) => {
    ctx.log("unzip not found: fetching Debian's unzip package into the cache (no root needed, once)");
    await aptDownload(ctx, ['unzip'], partial);
    await unpackDebs(partial, join(partial, 'root'));
  });
  return join(dir, 'root/usr/bin/unzip');
}
