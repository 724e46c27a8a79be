/**
 * Which behaviours the suites declare, known before a run: so that an `--only` that selects
 * nothing is a usage error before any target boots, and the progress line knows the total.
 *
 * Collecting the suites (vitest's collect) costs seconds, so what was collected is kept in a
 * cache keyed by a hash of the sources that declare behaviours (suites, schemas, generators,
 * src and the package version): every run and every `list` records the suite files it loaded,
 * and a later run with the same sources reads them back without collecting. A change to any
 * of those files starts a new cache.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import type { Level } from '../../results/results.ts';
import { PKG_ROOT } from '../core/paths.ts';

/** What a run needs to know of a behaviour before it runs. */
export interface Declared {
  id: string;
  /** The test name "<id> <title>": what --only is matched against, with the ID alone (onlyMatcher). */
  name: string;
  /** '' for the site index and batch. */
  namespace: string;
  level: Level;
}

interface CacheFile {
  fingerprint: string;
  /** Suite file (relative to the package root, with '/') -> its behaviours in declaration order. */
  files: Record<string, Declared[]>;
}

const SOURCE_DIRS = ['suites', 'schemas', 'generators', 'src'];

function walk(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  return entries.map((e) => join(dir, e));
}

const rel = (abs: string) => relative(PKG_ROOT, abs).split(sep).join('/');

let memo: string | undefined;
/** A hash of every source file that can change what the suites declare. */
export function fingerprint(): string {
  if (memo) return memo;
  const h = createHash('sha256');
  h.update(readFileSync(join(PKG_ROOT, 'package.json')));
  const files = SOURCE_DIRS.flatMap((d) => walk(join(PKG_ROOT, d)))
    .filter((f) => /\.(ts|json)$/.test(f))
    .sort();
  for (const f of files) {
    try {
      if (!statSync(f).isFile()) continue;
      h.update(`${rel(f)}\0`).update(readFileSync(f)).update('\0');
    } catch {
      // a file that vanished while hashing: the hash simply differs
    }
  }
  return (memo = h.digest('hex').slice(0, 16));
}

function cacheDir(): string {
  return join(process.env.CMS_CONFORMANCE_CACHE ?? join(homedir(), '.cache', 'cms-conformance'), 'declared');
}

function cachePath(): string {
  return join(cacheDir(), `${fingerprint()}.json`);
}

function readCache(): CacheFile {
  try {
    const c = JSON.parse(readFileSync(cachePath(), 'utf8')) as CacheFile;
    if (c.fingerprint === fingerprint() && c.files && typeof c.files === 'object') return c;
  } catch {
    // no cache yet, or an unreadable one: start anew
  }
  return { fingerprint: fingerprint(), files: {} };
}

/**
 * The suite files the include globs of a run select (suite-files.ts only makes `<dir>/**\/*.spec.ts`
 * globs), relative to the package root; undefined for a glob of another shape.
 */
export function expandSuiteGlobs(globs: readonly string[]): string[] | undefined {
  const out = new Set<string>();
  for (const g of globs) {
    const m = /^([\w./-]+)\/\*\*\/\*\.spec\.ts$/.exec(g);
    if (!m) return undefined;
    for (const f of walk(join(PKG_ROOT, m[1]!))) if (f.endsWith('.spec.ts')) out.add(rel(f));
  }
  return [...out].sort();
}

/** The cached behaviours of these suite files, or undefined when any of them is not cached. */
export function cachedDeclared(files: readonly string[]): Declared[] | undefined {
  const byFile = cachedDeclaredByFile(files);
  return byFile && Object.values(byFile).flat();
}

/** The cached behaviours of each of these suite files (in their order), or undefined when any of them is not cached. */
export function cachedDeclaredByFile(files: readonly string[]): Record<string, Declared[]> | undefined {
  const c = readCache();
  const out: Record<string, Declared[]> = {};
  for (const f of files) {
    const list = c.files[f];
    if (!list) return undefined;
    out[f] = list;
  }
  return out;
}

/** The name --only is matched against: the test's name after its describe blocks (as vitest matches). */
function fullName(tc: TestCase): string {
  const names = [tc.name];
  for (let p = tc.parent; p.type === 'suite'; p = p.parent) names.unshift(p.name);
  return names.join(' ');
}

/** Record the behaviours of the suite files a run or a listing loaded (files that failed to load, or were not collected, are left out). */
export function recordDeclared(modules: readonly TestModule[]): void {
  const entries: [string, Declared[]][] = [];
  for (const m of modules) {
    if (m.errors().length) continue;
    const list: Declared[] = [];
    let complete = true;
    for (const tc of m.children.allTests()) {
      const b = tc.meta().behaviour;
      if (!b) complete = false;
      else list.push({ id: b.id, name: fullName(tc), namespace: b.namespace, level: b.level });
    }
    // Every suite file declares behaviours: none collected means the file was not (a run cut
    // short), and recording it would make later runs believe the file declares nothing.
    if (complete && list.length) entries.push([rel(m.moduleId), list]);
  }
  if (!entries.length) return;
  try {
    const c = readCache();
    for (const [f, list] of entries) c.files[f] = list;
    mkdirSync(cacheDir(), { recursive: true });
    const tmp = `${cachePath()}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(c));
    renameSync(tmp, cachePath());
    prune();
  } catch {
    // a cache that cannot be written only costs time
  }
}

/** Caches of other sources, untouched for a week, are removed. */
function prune(): void {
  const weekAgo = Date.now() - 7 * 86_400_000;
  for (const f of walk(cacheDir())) {
    try {
      if (f !== cachePath() && statSync(f).mtimeMs < weekAgo) rmSync(f, { force: true });
    } catch {
      // gone already
    }
  }
}

/**
 * Does an --only pattern select a behaviour: when it matches the behaviour's ID alone (so that
 * `^spamfilter\.stats\.path$` pins one ID), or its test name "<id> <title>" (so a pattern may
 * name words of the title).
 */
export function onlyMatcher(only: string): (d: Pick<Declared, 'id' | 'name'>) => boolean {
  const re = new RegExp(only);
  return (d) => re.test(d.id) || re.test(d.name);
}

/** The behaviours an --only pattern selects from a declared list (onlyMatcher). */
export function selectDeclared(list: readonly Declared[], only: string | undefined): Declared[] {
  if (only === undefined) return [...list];
  const selects = onlyMatcher(only);
  return list.filter(selects);
}

/**
 * The test name pattern that makes vitest run exactly these behaviours: vitest tries one regular
 * expression on the test name "<id> <title>", which cannot say "the ID matches" for every pattern
 * (a `$` meant to end the ID never matches there), so the selection is made here (selectDeclared)
 * and handed over as the list of its IDs.
 */
export function idsPattern(selected: readonly Pick<Declared, 'id'>[]): string {
  const ids = [...new Set(selected.map((d) => d.id))].sort().map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `^(?:${ids.join('|')})(?: |$)`;
}

/** Selected behaviours per namespace ('(site)' for ''). */
export function totalsByNamespace(list: readonly Declared[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of list) out[d.namespace || '(site)'] = (out[d.namespace || '(site)'] ?? 0) + 1;
  return out;
}

/**
 * Behaviours per namespace as the catalogue lists them (conformance/behaviours.yaml, regenerated with the
 * sources: `npm run catalogue`), or undefined without it. Only an expectation (the progress line's estimate on a
 * first run, before the suite files are loaded): the declarations are what a run selects.
 */
export function catalogueTotals(): Record<string, number> | undefined {
  let text: string;
  try {
    text = readFileSync(join(PKG_ROOT, 'conformance', 'behaviours.yaml'), 'utf8');
  } catch {
    return undefined;
  }
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^- id: .*\n  level: .*\n  namespace: (.*)$/gm)) {
    const ns = m[1]!.trim().replace(/^"(.*)"$/, '$1') || '(site)';
    out[ns] = (out[ns] ?? 0) + 1;
  }
  return Object.keys(out).length ? out : undefined;
}
