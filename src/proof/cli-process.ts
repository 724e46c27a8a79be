/**
 * The one way cms-conformance starts a command as a child process and, above all, the CLI
 * itself (`bin/cms-conformance.js`), as a user runs it: used by `selftest`, the fault proofs
 * (src/proof/proof.ts), the project's tests (test/helpers/cli.ts) and the benchmarks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Results } from '../../results/results.ts';
import { PKG_ROOT } from '../core/paths.ts';

export const BIN = join(PKG_ROOT, 'bin/cms-conformance.js');

export interface ExecOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Killed (SIGKILL) after this long; default 110 s. */
  timeoutMs?: number;
  /** Called with the child once it is started (to signal it mid-run). */
  onSpawn?: (child: ChildProcess) => void;
}

export interface Exec {
  code: number | null;
  /** The signal that ended the child, when one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run a command to its end and collect its output; CI=1 as in CI (no live progress line). */
export function exec(command: string, args: string[], opts: ExecOptions = {}): Promise<Exec> {
  return new Promise((res, rej) => {
    const child = spawn(command, args, { cwd: opts.cwd ?? PKG_ROOT, env: { ...process.env, CI: '1', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    // Decoded as a stream: a character split across two chunks stays whole (a `§` was read as two U+FFFD).
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 110_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      rej(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, stdout, stderr });
    });
    opts.onSpawn?.(child);
  });
}

export interface CliRun extends Exec {
  reportDir: string;
  /** results.json of the run (throws when the run wrote none). */
  results(): Results;
}

/**
 * The CLI in a child process. A `run` without `--report-dir` gets a fresh temporary one
 * (`reportDir`); `removeReport` deletes it once results.json is read (callers that keep only the results).
 */
export async function runCli(args: string[], opts: ExecOptions & { removeReport?: boolean } = {}): Promise<CliRun> {
  const own = !args.includes('--report-dir') && ['run', undefined].includes(args[0]);
  const reportDir = own ? mkdtempSync(join(tmpdir(), 'cmsc-report-')) : (args[args.indexOf('--report-dir') + 1] ?? '');
  const r = await exec(process.execPath, [BIN, ...(own ? [...args, '--report-dir', reportDir] : args)], opts);
  let cached: Results | undefined;
  const read = () => (cached ??= JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as Results);
  if (own && opts.removeReport) {
    try {
      read();
    } catch {
      // no results: results() throws below with the run's last line
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  }
  return {
    ...r,
    reportDir,
    results: () => {
      try {
        return read();
      } catch {
        throw new Error(`run exited ${r.code ?? r.signal} without results: ${r.stderr.trim().split('\n').pop() ?? ''}`);
      }
    },
  };
}
