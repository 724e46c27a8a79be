// Boots the embedded real WordPress. The first run downloads ~160 MB into the cache (see targets/wordpress/README.md).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootWordPress, type WordPressTarget } from '../../targets/wordpress/index.ts';
import { groupMembers } from '../../targets/wordpress/proc.ts';

const FIRST_BOOT_MS = 10 * 60_000;
const rest = (t: WordPressTarget, route: string) => `${t.url}/index.php?rest_route=${route}`;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Process groups of the php processes serving `port`. */
function serverGroups(port: number): number[] {
  const groups = new Set<number>();
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`127.0.0.1:${port}\0`)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      groups.add(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]));
    } catch {
      // exited meanwhile
    }
  }
  return [...groups];
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

async function createPost(t: WordPressTarget, title: string): Promise<number> {
  const res = await fetch(rest(t, '/wp/v2/posts'), {
    method: 'POST',
    headers: { authorization: basic(t.user, t.appPassword), 'content-type': 'application/json' },
    body: JSON.stringify({ title, status: 'publish' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function forceDeletePost(t: WordPressTarget, id: number): Promise<void> {
  const res = await fetch(rest(t, `/wp/v2/posts/${id}&force=true`), { method: 'DELETE', headers: { authorization: basic(t.user, t.appPassword) } });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { deleted: boolean }).deleted).toBe(true);
}

describe('embedded WordPress 6.5.5', () => {
  let t: WordPressTarget;
  const log: string[] = [];

  beforeAll(async () => {
    t = await bootWordPress({ log: (line) => log.push(line) });
  }, FIRST_BOOT_MS);
  afterAll(() => t?.stop());

  it('describes itself', () => {
    expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.user).toBe('admin');
    expect(t.appPassword).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(t.version).toBe('6.5.5');
    expect(t.runtime).toBe('php');
    expect(log.join('\n')).not.toContain(t.appPassword);
  });

  it('serves the REST index with application passwords and the expected namespaces', async () => {
    const res = await fetch(rest(t, '/'));
    expect(res.status).toBe(200);
    const index = (await res.json()) as { namespaces: string[]; authentication: Record<string, unknown>; home: string };
    expect(index.namespaces).toContain('wp/v2');
    if (t.plugins.includes('akismet')) expect(index.namespaces).toContain('akismet/v1');
    expect(index.authentication['application-passwords']).toBeDefined();
    expect(index.home).toBe(t.url);
  });

  it('creates and force-deletes a post with the application password', async () => {
    const id = await createPost(t, 'conformance smoke test');
    await forceDeletePost(t, id);
    expect((await fetch(rest(t, `/wp/v2/posts/${id}`))).status).toBe(404);
  });

  it('rejects a wrong application password with 401', async () => {
    const res = await fetch(rest(t, '/wp/v2/posts'), {
      method: 'POST',
      headers: { authorization: basic(t.user, 'AAAAAAAAAAAAAAAAAAAAAAAA'), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'nope' }),
    });
    expect(res.status).toBe(401);
  });

  it('stop() kills the whole server process group and is idempotent', async () => {
    const port = Number(new URL(t.url).port);
    const groups = serverGroups(port);
    expect(groups).toHaveLength(1);
    expect(groupMembers(groups[0]).length).toBe(5); // master + PHP_CLI_SERVER_WORKERS=4
    await Promise.all([t.stop(), t.stop()]);
    await t.stop();
    expect(await answers(rest(t, '/'))).toBe(false);
    expect(groupMembers(groups[0])).toEqual([]);
  });
});

describe('embedded WordPress, warm cache', () => {
  it('does not take another server on its port for its own site', async () => {
    // Any server that answers 200 to everything, on the port the boot is told to use: php -S
    // cannot bind it, and the boot must not report the other server as its WordPress.
    const other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const port = (other.address() as AddressInfo).port;
    try {
      await expect(bootWordPress({ port })).rejects.toThrow(/already in use/);
    } finally {
      other.close();
    }
  }, FIRST_BOOT_MS);

  it('does not hand out an application password its site does not take', async () => {
    // A site whose server ignores Basic headers (application passwords not available, as where
    // the in-use option was lost): every request of a run would be anonymous. The boot must say
    // so, not resolve with credentials that sign nobody in.
    const dir = mkdtempSync(join(tmpdir(), 'cmsc-no-app-passwords-'));
    writeFileSync(join(dir, 'prepend.php'), "<?php if (PHP_SAPI === 'cli-server') { $GLOBALS['wp_filter']['wp_is_application_passwords_available'][10][] = ['function' => '__return_false', 'accepted_args' => 1]; }\n");
    writeFileSync(join(dir, 'zz-prepend.ini'), `auto_prepend_file=${join(dir, 'prepend.php')}\n`);
    const before = process.env.PHP_INI_SCAN_DIR;
    // A leading separator adds the folder to php's own scan directory (pdo_sqlite stays loaded).
    process.env.PHP_INI_SCAN_DIR = `:${dir}`;
    try {
      await expect(bootWordPress({ akismet: false, workers: 1 })).rejects.toThrow(/did not accept their own application password: GET \/wp\/v2\/users\/me signed in as admin answered 401/);
    } finally {
      if (before === undefined) delete process.env.PHP_INI_SCAN_DIR;
      else process.env.PHP_INI_SCAN_DIR = before;
      rmSync(dir, { recursive: true, force: true });
    }
  }, FIRST_BOOT_MS);

  it('boots where the temporary folder is reached through a symlink (as /var on macOS)', async () => {
    // php -S serves its document root by its real path: the ready check must know its own site there.
    const real = mkdtempSync(join(tmpdir(), 'cmsc-real-tmp-'));
    const link = `${real}-link`;
    symlinkSync(real, link);
    const before = process.env.TMPDIR;
    process.env.TMPDIR = link;
    try {
      const t = await bootWordPress({ akismet: false, workers: 1 });
      await t.stop();
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(link, { force: true });
      rmSync(real, { recursive: true, force: true });
    }
  }, FIRST_BOOT_MS);


  it('boots independent sites concurrently', async () => {
    const started = Date.now();
    const [a, b] = await Promise.all([bootWordPress({ akismet: false, workers: 2 }), bootWordPress()]);
    try {
      console.log(`two concurrent warm boots: ${Date.now() - started} ms`);
      expect(a.url).not.toBe(b.url);
      expect(a.plugins).toEqual([]);
      await createPost(a, 'only on a');
      const onB = await fetch(rest(b, '/wp/v2/posts&search=only%20on%20a'));
      expect(await onB.json()).toEqual([]);
      const index = (await (await fetch(rest(a, '/'))).json()) as { namespaces: string[] };
      expect(index.namespaces).not.toContain('akismet/v1');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, FIRST_BOOT_MS);
});

const hasAptGet = (() => {
  try {
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasAptGet)('embedded WordPress 6.1.9 (Debian package)', () => {
  it('boots with Akismet and accepts the application password', async () => {
    const t = await bootWordPress({ version: '6.1.9' });
    try {
      expect(t.version).toBe('6.1.9');
      expect(t.plugins).toEqual(['akismet']);
      const index = (await (await fetch(rest(t, '/'))).json()) as { namespaces: string[]; authentication: Record<string, unknown> };
      expect(index.namespaces).toEqual(expect.arrayContaining(['wp/v2', 'akismet/v1']));
      expect(index.authentication['application-passwords']).toBeDefined();
      await forceDeletePost(t, await createPost(t, 'on 6.1.9'));
    } finally {
      await t.stop();
    }
  }, FIRST_BOOT_MS);
});
