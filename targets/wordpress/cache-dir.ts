// A directory of the cache built once: under a lock file, in `<name>.partial`, renamed into place when
// complete (cache.ts's artefacts and template sites, debphp.ts's unpacked PHP).
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { TargetBootError, pidAlive, sleep } from './proc.ts';

/** Runs `build(partialDir)` under a lock unless `dir` already exists; the partial dir becomes `dir`. */
export async function ensureDir(dir: string, build: (partial: string) => Promise<void>): Promise<string> {
  if (existsSync(dir)) return dir;
  mkdirSync(dirname(dir), { recursive: true });
  await withLock(`${dir}.lock`, async () => {
    if (existsSync(dir)) return;
    const partial = `${dir}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    try {
      await build(partial);
      renameSync(partial, dir);
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  });
  return dir;
}

async function withLock(file: string, fn: () => Promise<void>): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = NaN;
    let age = 0;
    try {
      holder = Number(readFileSync(file, 'utf8'));
      age = Date.now() - statSync(file).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if (holder ? !pidAlive(holder) : age > 10_000) {
      rmSync(file, { force: true });
      continue;
    }
    if (Date.now() - started > 15 * 60_000) {
      throw new TargetBootError(`cache lock ${file} held by process ${holder} for 15 minutes; delete the file if that process is gone`);
    }
    await sleep(200);
  }
  try {
    await fn();
  } finally {
    rmSync(file, { force: true });
  }
}
