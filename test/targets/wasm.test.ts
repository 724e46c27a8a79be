// The embedded WordPress on PHP-in-WebAssembly (targets/wordpress/wasm.ts). Gated: the first run installs
// @wp-playground/cli (~580 MB) into the cache and every request takes about a second, so it runs only with
// CMSC_TEST_WASM=1, e.g. `CMSC_TEST_WASM=1 npx vitest run test/targets/wasm.test.ts`.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TargetBootError, bootWordPress, type WordPressTarget } from '../../targets/wordpress/index.ts';
import { groupMembers } from '../../targets/wordpress/proc.ts';
import { fixSharedFlock, wasmWorkers } from '../../targets/wordpress/wasm.ts';

const WASM = process.env.CMSC_TEST_WASM === '1';
const FIRST_BOOT_MS = 20 * 60_000;
const rest = (t: WordPressTarget, route: string) => `${t.url}/index.php?rest_route=${route}`;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Process groups of the CLI processes serving `port`. */
function serverGroups(port: number): number[] {
  const groups = new Set<number>();
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('wp-playground.js') || !cmdline.includes(`\0--port=${port}\0`)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      groups.add(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]));
    } catch {
      // exited meanwhile
    }
  }
  return [...groups];
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

async function timed<T>(times: number[], f: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await f();
  } finally {
    times.push(Date.now() - started);
  }
}

describe('runtime choice', () => {
  const saved = process.env.CMS_CONFORMANCE_RUNTIME;
  afterEach(() => {
    if (saved === undefined) delete process.env.CMS_CONFORMANCE_RUNTIME;
    else process.env.CMS_CONFORMANCE_RUNTIME = saved;
  });

  it('rejects an unknown CMS_CONFORMANCE_RUNTIME before booting anything', async () => {
    process.env.CMS_CONFORMANCE_RUNTIME = 'jvm';
    const boot = bootWordPress();
    await expect(boot).rejects.toBeInstanceOf(TargetBootError);
    await expect(boot).rejects.toThrow(/"jvm" in CMS_CONFORMANCE_RUNTIME: use php, wasm or auto/);
  });
});

describe('PHP workers of the wasm server', () => {
  it('are the option, else CMS_CONFORMANCE_WASM_WORKERS, else one per core', () => {
    expect(wasmWorkers(3, { CMS_CONFORMANCE_WASM_WORKERS: '2' }, 8)).toBe(3);
    expect(wasmWorkers(undefined, { CMS_CONFORMANCE_WASM_WORKERS: '2' }, 8)).toBe(2);
    expect(wasmWorkers(undefined, {}, 8)).toBe(8);
    expect(wasmWorkers(undefined, { CMS_CONFORMANCE_WASM_WORKERS: ' ' }, 4)).toBe(4);
    expect(() => wasmWorkers(undefined, { CMS_CONFORMANCE_WASM_WORKERS: 'auto' }, 4)).toThrow(/CMS_CONFORMANCE_WASM_WORKERS must be a whole number of at least 1, got "auto"/);
    expect(() => wasmWorkers(undefined, { CMS_CONFORMANCE_WASM_WORKERS: '0' }, 4)).toThrow(TargetBootError);
  });
});

describe("the fix of @php-wasm/node's flock (OPcache's file cache)", () => {
  const faulty = `    const paramsCheckErrno = locking.check_lock_params(fd, op);\n    if (paramsCheckErrno !== 0) {`;
  it('drops the access-mode check from flock() in both builds, once, and leaves other code alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cmsc-flock-'));
    try {
      const node = join(dir, 'node_modules/@php-wasm/node');
      mkdirSync(node, { recursive: true });
      // fcntl's own check (same function, other arguments) must stay.
      const fcntl = 'const paramsCheckErrno = locking.check_lock_params(\n          fd,\n          l_type\n        );';
      for (const f of ['index.js', 'index.cjs']) writeFileSync(join(node, f), `function fcntl64() { ${fcntl} }\nfunction flock(fd, op) {\n${faulty}\n}\n`);
      fixSharedFlock(dir);
      const fixedOnce = readFileSync(join(node, 'index.js'), 'utf8');
      expect(fixedOnce).not.toContain('check_lock_params(fd, op)');
      expect(fixedOnce).toContain('const paramsCheckErrno = 0;');
      expect(fixedOnce).toContain(fcntl);
      expect(readFileSync(join(node, 'index.cjs'), 'utf8')).toBe(fixedOnce);
      fixSharedFlock(dir);
      expect(readFileSync(join(node, 'index.js'), 'utf8')).toBe(fixedOnce);
      // A later version without the faulty line, or twice the line (unknown code): left as it is.
      const other = `${faulty}\n${faulty}\n`;
      writeFileSync(join(node, 'index.js'), other);
      fixSharedFlock(dir);
      expect(readFileSync(join(node, 'index.js'), 'utf8')).toBe(other);
      rmSync(node, { recursive: true });
      expect(() => fixSharedFlock(dir)).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded WordPress 6.5.5 on PHP-in-WebAssembly', () => {
  it.skipIf(!WASM)(
    WASM ? 'boots, serves REST with the application password, and stop() frees the port' : 'boots on wasm (skipped: set CMSC_TEST_WASM=1 to run; the first run downloads ~580 MB)',
    async () => {
      const log: string[] = [];
      const started = Date.now();
      const t = await bootWordPress({ runtime: 'wasm', log: (line) => log.push(line) });
      const bootMs = Date.now() - started;
      const requests: number[] = [];
      try {
        expect(t.runtime).toBe('wasm');
        expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(t.user).toBe('admin');
        expect(t.appPassword).toMatch(/^[A-Za-z0-9]{24}$/);
        expect(t.version).toBe('6.5.5');
        expect(log.join('\n')).not.toContain(t.appPassword);
        // Akismet comes from Debian's package; without apt the site boots without it and says so.
        if (t.plugins.length === 0) expect(log.join('\n')).toMatch(/Akismet unavailable/);
        else expect(t.plugins).toEqual(['akismet']);

        const res = await timed(requests, () => fetch(rest(t, '/')));
        expect(res.status).toBe(200);
        const index = (await res.json()) as { namespaces: string[]; authentication: Record<string, unknown>; home: string };
        expect(index.namespaces).toContain('wp/v2');
        if (t.plugins.includes('akismet')) expect(index.namespaces).toContain('akismet/v1');
        expect(index.authentication['application-passwords']).toBeDefined();
        expect(index.home).toBe(t.url);

        const created = await timed(requests, () =>
          fetch(rest(t, '/wp/v2/posts'), {
            method: 'POST',
            headers: { authorization: basic(t.user, t.appPassword), 'content-type': 'application/json' },
            body: JSON.stringify({ title: 'conformance wasm smoke test', status: 'publish' }),
          }),
        );
        expect(created.status).toBe(201);
        const { id } = (await created.json()) as { id: number };
        const deleted = await timed(requests, () =>
          fetch(rest(t, `/wp/v2/posts/${id}&force=true`), { method: 'DELETE', headers: { authorization: basic(t.user, t.appPassword) } }),
        );
        expect(deleted.status).toBe(200);
        expect(((await deleted.json()) as { deleted: boolean }).deleted).toBe(true);
        expect((await timed(requests, () => fetch(rest(t, `/wp/v2/posts/${id}`)))).status).toBe(404);

        const wrong = await timed(requests, () =>
          fetch(rest(t, '/wp/v2/posts'), {
            method: 'POST',
            headers: { authorization: basic(t.user, 'AAAAAAAAAAAAAAAAAAAAAAAA'), 'content-type': 'application/json' },
            body: JSON.stringify({ title: 'nope' }),
          }),
        );
        expect(wrong.status).toBe(401);
        // The database lives outside the document root.
        const db = await timed(requests, () => fetch(`${t.url}/wp-content/database/.ht.sqlite`));
        expect(Buffer.from(await db.arrayBuffer()).subarray(0, 15).toString()).not.toBe('SQLite format 3');

        const port = Number(new URL(t.url).port);
        const groups = serverGroups(port);
        expect(groups).toHaveLength(1);
        expect(groupMembers(groups[0]).length).toBeGreaterThan(0);
        const stopStarted = Date.now();
        await Promise.all([t.stop(), t.stop()]);
        await t.stop();
        const stopMs = Date.now() - stopStarted;
        expect(groupMembers(groups[0])).toEqual([]);
        expect(await portFree(port)).toBe(true);
        console.log(
          `wasm: boot ${bootMs} ms; requests ${requests.join(', ')} ms (mean ${Math.round(requests.reduce((a, b) => a + b, 0) / requests.length)}); stop ${stopMs} ms\n  ${log.join('\n  ')}`,
        );
      } finally {
        await t.stop();
      }
    },
    FIRST_BOOT_MS,
  );
});
