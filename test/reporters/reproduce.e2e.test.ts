/**
 * Commands the tool prints run as printed: the line `serve` prints to run the suite, the rerun
 * command of a report, and "rerun only this behaviour" of a failure (in a shell, in the project
 * where cms-conformance is installed: here, its checkout).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, exec, runCli } from '../helpers/cli.ts';
import { serveIndex } from '../helpers/index-server.ts';

const shell = (command: string, env: Record<string, string> = {}) => exec('sh', ['-c', command], { env, timeoutMs: 200_000 });

const htmlText = (s: string) => s.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe('printed commands run as printed', () => {
  it('the line serve prints runs the suite against it', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    child.stdout.on('data', (d) => (printed += d));
    try {
      for (let i = 0; i < 300 && !printed.includes('Ctrl+C'); i++) await new Promise((r) => setTimeout(r, 100));
      const line = /run the suite:\s+(.+)$/m.exec(printed)?.[1];
      expect(line).toMatch(/^npx cms-conformance run --target http:\/\/127\.0\.0\.1:\d+ --user \S+ --app-password \S+$/);
      const dir = mkdtempSync(join(tmpdir(), 'cmsc-serve-'));
      const r = await shell(`${line} --only '^index\\.' --report-dir ${dir}`);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^(\d+) behaviours: \1 passed/m);
    } finally {
      child.kill('SIGINT');
    }
  });

  describe('commands in a report', () => {
    let server: Awaited<ReturnType<typeof serveIndex>>;
    const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/wordpress-7.1-index.json'), 'utf8'));
    beforeAll(async () => {
      server = await serveIndex(fixture);
    });
    afterAll(() => server?.close());

    it('the rerun command of the run, and "rerun only this behaviour" of a failure', async () => {
      const env = { TARGET_USER: 'admin', TARGET_APP_PASSWORD: 'abcd efgh ijkl mnop qrst uvwx' };
      const first = await runCli(['run', '--target', server.url, '--only', '^spamfilter\\.stats\\.(path|default) ', '--seed', '5'], { env });
      expect(first.code).toBe(1);
      const md = readFileSync(join(first.reportDir, 'report.md'), 'utf8');
      const rerun = /```sh\n(.+)\n```/.exec(md)?.[1];
      expect(rerun).toBe(`npx cms-conformance run --target ${server.url} --profile wordpress --seed 5 --only '^spamfilter\\.stats\\.(path|default) '`);
      const html = readFileSync(join(first.reportDir, 'report.html'), 'utf8');
      const one = htmlText(/Rerun only this behaviour<\/h5><div class="copy"><pre class="cmd">([^<]+)<\/pre>/.exec(html)?.[1] ?? '');
      expect(one).toBe(`npx cms-conformance run --target ${server.url} --profile wordpress --seed 5 --only '^spamfilter\\.stats\\.default '`);
      for (const [command, ids] of [
        [rerun!, ['spamfilter.stats.default', 'spamfilter.stats.path']],
        [one, ['spamfilter.stats.default']],
      ] as const) {
        const dir = mkdtempSync(join(tmpdir(), 'cmsc-rerun-'));
        const r = await shell(`${command} --report-dir ${dir}`, env);
        expect(r.code, r.stderr).toBe(1); // the same failures, again
        const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
        expect(results.behaviours.map((b: { id: string; status: string }) => `${b.id} ${b.status}`)).toEqual(ids.map((id) => `${id} failed`));
      }
    });
  });
});
