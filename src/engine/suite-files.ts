/** Which suite files a run loads, and how many workers run them. */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { PKG_ROOT } from '../core/paths.ts';

/** Where the behaviours of each ID prefix are declared (a test checks every behaviour lives under its area's folder). */
export const SUITE_AREAS: Record<string, string> = {
  disc: 'suites/discovery',
  cms: 'suites/cms',
  batch: 'suites/core',
  oembed: 'suites/core',
  index: 'suites/core',
  auth: 'suites/core',
  spamfilter: 'suites/extensions',
  contactform: 'suites/extensions',
  suite: 'suites/extensions',
  /** The indexes of the other namespaces of the extension instance (cloud/v2, suite/v4/stats-app ...). */
  namespaces: 'suites/extensions',
  /** What real clients rely on (level CLIENT, results/clients.ts). */
  client: 'suites/clients',
};

const ALL = ['suites'];

/**
 * A worker runs suite file after suite file without starting a new thread and loading the
 * dependencies again for each (about 1 s of CPU per file); the setup file re-evaluates every
 * module of cms-conformance for each suite file, so no state passes from one file (or one site)
 * to the next, as with vitest's isolation.
 */
export const SHARED_WORKERS = { isolate: false, setupFiles: [join(PKG_ROOT, 'src/engine/module-isolation.ts')] };

/**
 * The suite files as vitest transformed them, kept on disk from one run to the next (vitest's
 * `experimental.fsModuleCache`: keyed by each file's content and the config, written by rename, so
 * runs at the same time share it safely): a run no longer transforms every suite file it loads
 * again. A run selecting a few behaviours 3.1 -> 2.5 CPU-s (BENCHMARKS.md). In .cache/ beside the
 * CLI's build; off when the package folder is read-only.
 */
export function moduleCache(root = PKG_ROOT): { experimental?: { fsModuleCache: true; fsModuleCachePath: string } } {
  const dir = join(root, '.cache', 'vitest-modules');
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch {
    return {};
  }
  return { experimental: { fsModuleCache: true, fsModuleCachePath: dir } };
}

/** Split "a|b(c|d)|e" at its top-level bars. */
function topLevelAlternatives(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') {
      cur += c + (s[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    if (c === '|' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** The suite files of these folders, as vitest's include globs. */
export const suiteGlobs = (folders: readonly string[]): string[] => folders.map((d) => `${d}/**/*.spec.ts`);

/** The include globs of the suite files an --only pattern can select (suiteFolders). */
export const suiteFiles = (only: string | undefined): string[] => suiteGlobs(suiteFolders(only));

/**
 * The folders of the suite files an --only pattern can select. Loading a suite file costs CPU even
 * when none of its behaviours run, so when the pattern is anchored and every alternative starts
 * with a whole area name followed by an escaped dot ("^cms\.", "^(batch|oembed)\.",
 * "^(disc\.args|cms\.posts)"), only those areas are loaded. Any other pattern loads every suite file.
 */
export function suiteFolders(only: string | undefined): string[] {
  if (!only?.startsWith('^')) return ALL;
  const body = only.slice(1);
  let alternatives: string[];
  if (body.startsWith('(')) {
    // The group must be closed; what follows it applies to every alternative.
    let depth = 0;
    let end = -1;
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '\\') i++;
      else if (body[i] === '(') depth++;
      else if (body[i] === ')' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) return ALL;
    const after = body.slice(end + 1);
    alternatives = topLevelAlternatives(body.slice(1, end).replace(/^\?:/, '')).map((a) => a + after);
  } else {
    alternatives = topLevelAlternatives(body);
    if (alternatives.length > 1) return ALL; // "^a|b" anchors only the first alternative
  }
  const dirs = new Set<string>();
  for (const alt of alternatives) {
    const m = /^([a-z0-9-]+)\\\./.exec(alt);
    const dir = m ? SUITE_AREAS[m[1]!] : undefined;
    if (!dir) return ALL;
    dirs.add(dir);
  }
  return [...dirs].sort();
}

/**
 * Suite files run in at most this many workers: never more than the cores, nor than --concurrency.
 * Against the in-process reference server one more than the cores: it answers in microseconds, so
 * a run waits on the suites' own chains (fixtures made one after the other, a file waiting for the
 * clock), during which a worker runs nothing else; against a site, the site is what a run waits on
 * and a worker more only costs CPU beside it (measured: 80 s instead of 69 s on the boot.sh site).
 */
export function workerCount(concurrency: number, opts: { inProcessTarget?: boolean } = {}): number {
  return Math.max(1, Math.min(concurrency, availableParallelism() + (opts.inProcessTarget ? 1 : 0)));
}

/**
 * The requests worker `slot` (1-based: vitest's VITEST_POOL_ID) of `workers` may have in flight:
 * --concurrency split exactly between the workers (4 over 3 workers: 2, 1, 1), so that the whole
 * run never has more than --concurrency in flight.
 */
export function workerConcurrency(concurrency: number, workers: number, slot: number): number {
  const i = (Math.max(1, slot) - 1) % workers;
  return Math.max(1, Math.floor(concurrency / workers) + (i < concurrency % workers ? 1 : 0));
}

/** vitest's maxConcurrency for a run (src/engine/suite-engine.ts); each file keeps its own limit up to this (fileConcurrency, src/sdk/behaviour.ts). */
export const MAX_FILE_CONCURRENCY = 40;
