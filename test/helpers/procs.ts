/** The process tree, from Linux's /proc: which processes a command started, and whether any is left. */
import { readdirSync, readFileSync } from 'node:fs';

export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  cmd: string;
}

function proc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    return { pid, ppid: Number(ppid), pgid: Number(pgid), state: state!, cmd };
  } catch {
    return undefined;
  }
}

/** Every process now running (zombies left out: they are dead, waiting to be reaped). */
export function processes(): Proc[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map((e) => proc(Number(e)))
    .filter((p): p is Proc => p !== undefined && p.state !== 'Z');
}

/** `root` and every process below it (children, their children ...), and the members of their process groups. */
export function tree(root: number): Proc[] {
  const all = processes();
  const found = new Map<number, Proc>();
  const add = (p: Proc) => found.set(p.pid, p);
  const ownGroup = proc(process.pid)?.pgid;
  const r = all.find((p) => p.pid === root);
  if (r) add(r);
  for (let grew = true; grew; ) {
    grew = false;
    const groups = new Set([...found.values()].map((f) => f.pgid).filter((g) => g !== ownGroup));
    for (const p of all) {
      if (found.has(p.pid) || !(found.has(p.ppid) || groups.has(p.pgid))) continue;
      add(p);
      grew = true;
    }
  }
  return [...found.values()];
}

/** Those of `procs` still alive (the same PID with the same command line). */
export function alive(procs: readonly Proc[]): Proc[] {
  return procs.filter((p) => {
    const now = proc(p.pid);
    return now !== undefined && now.state !== 'Z' && now.cmd === p.cmd;
  });
}

/** Resolves with the time it took for every one of `procs` to end, or rejects after `ms`. */
export async function allGone(procs: readonly Proc[], ms: number, since = performance.now()): Promise<number> {
  for (;;) {
    const left = alive(procs);
    if (!left.length) return performance.now() - since;
    if (performance.now() - since > ms) throw new Error(`still running after ${ms} ms: ${left.map((p) => `${p.pid} ${p.cmd.slice(0, 120)}`).join('; ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
