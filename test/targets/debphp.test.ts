// Debian's php unpacked into the cache (targets/wordpress/debphp.ts): what is fetched, and the php.ini and
// wrapper written for the unpacked tree. In-process only; the real fetch and a full run with php hidden are
// bench/no-php.ts (BENCHMARKS.md, issue 27).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installedFrom, libraryClosure, packagesToFetch, phpIni, phpSeries, phpWrapper, writeRuntime } from '../../targets/wordpress/debphp.ts';

// Trimmed `apt-cache depends --recurse --no-recommends ... php8.2-cli php8.2-sqlite3` of Debian 12.
const DEPENDS = `php8.2-cli
  Depends: libedit2
  Depends: libmagic1
 |Depends: media-types
  Depends: mime-support
  Depends: php8.2-common
  Depends: ucf
  Depends: libargon2-1
  Depends: libc6
  Depends: libxml2
php8.2-sqlite3
  Depends: php8.2-common
  Depends: <debconf-2.0>
  Depends: libsqlite3-0
libedit2
  Depends: libbsd0
  Depends: libc6
libmagic1
  Depends: libmagic-mgc
mime-support
  Depends: mailcap
ucf
  Depends: debconf
debconf
  PreDepends: perl-base
php8.2-common
  Depends: libffi8
  Depends: libssl3
libxml2
  Depends: libicu72
`;

describe('which packages are fetched', () => {
  it('reads the php series apt offers from php-cli', () => {
    expect(phpSeries('php-cli\n  Depends: php8.2-cli\n')).toBe('php8.2');
    expect(phpSeries('php-cli\n  Depends: php8.3-cli\n')).toBe('php8.3');
    expect(phpSeries('')).toBeUndefined();
  });

  it('follows the dependencies through libraries and php packages only', () => {
    expect(libraryClosure(DEPENDS, ['php8.2-cli', 'php8.2-sqlite3'])).toEqual(
      ['libargon2-1', 'libbsd0', 'libc6', 'libedit2', 'libffi8', 'libicu72', 'libmagic-mgc', 'libmagic1', 'libsqlite3-0', 'libssl3', 'libxml2'],
    );
  });

  it('fetches the php packages and the libraries that are not installed, never the C library', () => {
    const installed = installedFrom('libc6:amd64 ii \nlibssl3:amd64 ii \nlibxml2 rc \nlibedit2 ii \n');
    expect([...installed].sort()).toEqual(['libc6', 'libedit2', 'libssl3']);
    const libs = libraryClosure(DEPENDS, ['php8.2-cli', 'php8.2-sqlite3']);
    expect(packagesToFetch('php8.2', libs, installed)).toEqual([
      ...['php8.2-cli', 'php8.2-common', 'php8.2-opcache', 'php8.2-sqlite3', 'php8.2-mbstring', 'php8.2-xml', 'php8.2-intl'],
      ...['libargon2-1', 'libbsd0', 'libffi8', 'libicu72', 'libmagic-mgc', 'libmagic1', 'libsqlite3-0', 'libxml2'],
    ]);
    expect(packagesToFetch('php8.2', ['libc6', 'libgcc-s1'], new Set())).not.toContain('libc6');
  });
});

describe('php.ini and the php wrapper', () => {
  it('loads the modules in Debian order (priority, then name) after the extension directory', () => {
    const ini = phpIni('[PHP]\nmemory_limit = -1\n', '/c/debian-php/root/usr/lib/php/20220829', [
      { name: 'pdo_sqlite.ini', text: '; priority=20\nextension=pdo_sqlite.so\n' },
      { name: 'pdo.ini', text: '; priority=10\nextension=pdo.so\n' },
      { name: 'opcache.ini', text: '; priority=10\nzend_extension=opcache.so\nopcache.jit=off\n' },
    ]);
    expect(ini.startsWith('[PHP]\nmemory_limit = -1\n')).toBe(true);
    const at = (s: string) => ini.indexOf(s);
    expect(at('extension_dir = "/c/debian-php/root/usr/lib/php/20220829"')).toBeGreaterThan(0);
    expect(at('extension_dir')).toBeLessThan(at('zend_extension=opcache.so'));
    expect(at('zend_extension=opcache.so')).toBeLessThan(at('extension=pdo.so'));
    expect(at('extension=pdo.so')).toBeLessThan(at('extension=pdo_sqlite.so'));
  });

  it('runs the unpacked binary with its libraries and ini only, quoting paths', () => {
    const sh = phpWrapper("/c/it's/php8.2", '/c/php.ini', ['/c/root/usr/lib/x86_64-linux-gnu'], '/c/root/usr/lib/file/magic.mgc');
    expect(sh).toMatch(/^#!\/bin\/sh\n/);
    expect(sh).toContain("LD_LIBRARY_PATH='/c/root/usr/lib/x86_64-linux-gnu'${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\nexport LD_LIBRARY_PATH");
    expect(sh).toContain("MAGIC='/c/root/usr/lib/file/magic.mgc'\nexport MAGIC");
    expect(sh).toContain('PHP_INI_SCAN_DIR=\nexport PHP_INI_SCAN_DIR'); // not the system's /etc/php/*/cli/conf.d
    expect(sh).toContain(`exec '/c/it'\\''s/php8.2' -c '/c/php.ini' "$@"`);
    expect(phpWrapper('/p', '/i', [])).not.toContain('LD_LIBRARY_PATH');
  });

  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('writes both for an unpacked tree, with the paths of the final cache directory', () => {
    dir = mkdtempSync(join(tmpdir(), 'debphp-test-'));
    const partial = join(dir, 'debian-php.partial');
    const file = (path: string, text = '') => {
      mkdirSync(join(partial, 'root', path, '..'), { recursive: true });
      writeFileSync(join(partial, 'root', path), text);
    };
    file('usr/bin/php8.2');
    file('usr/lib/php/20220829/pdo_sqlite.so');
    file('usr/lib/php/8.2/php.ini-production.cli', '[PHP]\nmemory_limit = -1\n');
    file('usr/share/php8.2-sqlite3/sqlite3/pdo_sqlite.ini', '; priority=20\nextension=pdo_sqlite.so\n');
    file('usr/share/php8.2-common/common/pdo.ini', '; priority=10\nextension=pdo.so\n');
    file('usr/lib/x86_64-linux-gnu/libargon2.so.1');
    file('usr/lib/file/magic.mgc');
    const final = join(dir, 'debian-php');
    writeRuntime(partial, final, 'php8.2');
    const ini = readFileSync(join(partial, 'php.ini'), 'utf8');
    expect(ini).toContain(`extension_dir = "${final}/root/usr/lib/php/20220829"`);
    expect(ini.indexOf('extension=pdo.so')).toBeLessThan(ini.indexOf('extension=pdo_sqlite.so'));
    const sh = readFileSync(join(partial, 'php'), 'utf8');
    expect(sh).toContain(`LD_LIBRARY_PATH='${final}/root/usr/lib/x86_64-linux-gnu'`);
    expect(sh).toContain(`MAGIC='${final}/root/usr/lib/file/magic.mgc'`);
    expect(sh).toContain(`exec '${final}/root/usr/bin/php8.2' -c '${final}/php.ini' "$@"`);
    expect(sh).not.toContain('.partial');
    expect(statSync(join(partial, 'php')).mode & 0o111).toBe(0o111);
  });
});
