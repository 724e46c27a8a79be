import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export class TargetBootError extends Error {
  override name = 'TargetBootError';
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a command to completion. Rejects with `code` 'ENOENT' when it is not installed, else with the stderr tail. */
export function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve({ stdout, stderr });
      const why = tail(stderr || stdout) || (signal ? `killed by ${signal}` : `exit code ${code}`);
      reject(Object.assign(new Error(`${[cmd, ...args].join(' ').slice(0, 100)} failed: ${why}`), { stderr }));
    });
  });
}

/** The last non-empty lines of a text, joined into one line. */
export function tail(text: string, lines = 3): string {
  return text.trim().split('\n').map((l) => l.trim()).filter(Boolean).slice(-lines).join(' | ');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** State letter and process group from /proc/PID/stat (Linux), or undefined. */
function procStat(pid: number | string): { state: string; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, pgrp: Number(pgrp) };
  } catch {
    return undefined;
  }
}

/** Zombies count as dead: here they can wait a while for init to reap them. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return procStat(pid)?.state !== 'Z';
}

/** Live (non-zombie) members of process group `pgid`, from /proc; falls back to kill(-pgid, 0) elsewhere. */
export function groupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return pidAlive(-pgid) ? [pgid] : [];
  }
  return entries.map(Number).filter((pid) => {
    const stat = procStat(pid);
    return stat?.pgrp === pgid && stat.state !== 'Z';
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // group already gone
  }
}

/** SIGINT the group, then SIGKILL whatever is left after `graceMs`; resolves once no member is alive. */
export async function killGroup(pgid: number, graceMs = 2000): Promise<void> {
  // On SIGINT the `php -S` master waits for its workers; after SIGTERM they linger as zombies of init.
  signalGroup(pgid, 'SIGINT');
  const deadline = Date.now() + graceMs;
  while (groupMembers(pgid).length > 0) {
    if (Date.now() > deadline) signalGroup(pgid, 'SIGKILL');
    if (Date.now() > deadline + 5000) throw new Error(`process group ${pgid} survived SIGKILL`);
    await sleep(25);
  }
}

export function killGroupSync(pgid: number): void {
  signalGroup(pgid, 'SIGKILL');
}
