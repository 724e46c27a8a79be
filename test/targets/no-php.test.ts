// Without a usable php and without apt (macOS, Windows, other Linux): runtime 'php' says both reasons at once,
// without fetching anything (and 'auto' would go on to PHP-in-WebAssembly: test/targets/wasm.test.ts, opt-in).
// The Debian path itself (php hidden, packages fetched): bench/no-php.ts.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { TargetBootError, bootWordPress } from '../../targets/wordpress/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'no-php-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('with neither php nor apt-get, runtime php fails at once naming both, and fetches nothing', async () => {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const name of readdirSync('/usr/bin')) if (!/^(php|phar|apt|dpkg)/.test(name)) symlinkSync(join('/usr/bin', name), join(bin, name));
  const saved = { PATH: process.env.PATH, php: process.env.CMS_CONFORMANCE_PHP };
  process.env.PATH = bin;
  delete process.env.CMS_CONFORMANCE_PHP;
  const logs: string[] = [];
  try {
    const boot = bootWordPress({ runtime: 'php', cacheDir: join(dir, 'cache'), log: (l) => logs.push(l) });
    await expect(boot).rejects.toThrow(TargetBootError);
    await expect(boot).rejects.toThrow(/php not found: install php8\.2-cli php8\.2-sqlite3.*; Debian's php packages: apt-get, apt-cache or dpkg-deb not found/);
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.php !== undefined) process.env.CMS_CONFORMANCE_PHP = saved.php;
  }
  expect(logs).toEqual([]);
  expect(readdirSync(join(dir, 'cache')).filter((f) => !f.endsWith('.lock'))).toEqual([]);
}, 20_000);
