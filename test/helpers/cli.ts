/** Run the real CLI in a child process, as a user would. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Results } from '../../schemas/results.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/cms-conformance.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  reportDir: string;
  results(): Results;
}

export interface Exec {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command to its end (killed after `timeoutMs`) and collect its output; CI=1 as in CI. */
export function exec(command: string, args: string[], opts: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Promise<Exec> {
  return new Promise((res, rej) => {
    const child = spawn(command, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, CI: '1', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 110_000);
    child.on('error', rej);
    child.on('close', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr });
    });
  });
}

export async function runCli(args: string[], opts: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cmsc-report-'));
  const withReport = args.includes('--report-dir') || !['run', undefined].includes(args[0]) ? args : [...args, '--report-dir', reportDir];
  const r = await exec(process.execPath, [BIN, ...withReport], opts);
  return { ...r, reportDir, results: () => JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as Results };
}
