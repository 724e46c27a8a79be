/**
 * What a run selects, resolved once before it starts (`--only`): the suite files it loads, the
 * behaviours it selects when they are known (src/engine/declared.ts), and the test name pattern
 * vitest runs them with. An --only that selects nothing is a usage error before any target boots.
 */
import { UsageError } from '../core/errors.ts';
import { cachedDeclared, cachedDeclaredByFile, expandSuiteGlobs, idsPattern, selectDeclared, type Declared } from './declared.ts';
import { listBehaviours } from './list.ts';
import { suiteFolders, suiteGlobs } from './suite-files.ts';

export interface Selection {
  /** --only as given (undefined: every behaviour). */
  only?: string;
  /** The folders of the suite files it can select (suite-files.ts suiteFolders), relative to the package root. */
  folders: string[];
  /** The same as vitest's include globs. */
  files: string[];
  /**
   * The suite files that declare a behaviour it selects (relative to the package root), when --only
   * is given and the declarations are known: a run loads only these (each other suite file costs a
   * worker thread's module loading, about a CPU-second, to select nothing in it).
   */
  exact?: string[];
  /** The behaviours it selects, and how many the loaded suite files declare in all, when known before the run. */
  declared?: { selected: Declared[]; of: number };
  /**
   * The test name pattern vitest runs it with: exactly the IDs it selects (declared.ts, onlyMatcher:
   * the ID alone or "<id> <title>"); the pattern itself when the declarations are not known (a suite
   * file that does not load); undefined for every behaviour.
   */
  testNamePattern?: string;
}

/**
 * Resolve `only`: the behaviours it selects come from the cache of declarations, else, when
 * `collect` is set (by default when `only` is given), from collecting the suite files (seconds).
 */
export async function resolveSelection(only: string | undefined, opts: { collect?: boolean } = {}): Promise<Selection> {
  const folders = suiteFolders(only);
  const files = suiteGlobs(folders);
  const paths = expandSuiteGlobs(files);
  let byFile = paths && cachedDeclaredByFile(paths);
  if (!byFile && (opts.collect ?? only !== undefined)) {
    const { errors } = await listBehaviours(only);
    if (!errors.length) byFile = paths && cachedDeclaredByFile(paths);
  }
  const all = byFile && Object.values(byFile).flat();
  const declared = all ? { selected: selectDeclared(all, only), of: all.length } : undefined;
  const exact = only !== undefined && byFile ? filesSelected(byFile, only) : undefined;
  return {
    ...(only !== undefined ? { only } : {}),
    folders,
    files,
    ...(exact?.length ? { exact } : {}),
    ...(declared ? { declared } : {}),
    ...(only !== undefined ? { testNamePattern: declared ? idsPattern(declared.selected) : only } : {}),
  };
}

/** The suite files that declare a behaviour `only` selects, in their order. */
export function filesSelected(byFile: Readonly<Record<string, readonly Declared[]>>, only: string): string[] {
  return Object.keys(byFile).filter((f) => selectDeclared(byFile[f]!, only).length > 0);
}

/** The usage error of an --only that selects nothing, if it does (with the count of what exists). */
export async function assertSelects(selection: Selection): Promise<void> {
  if (selection.only !== undefined && selection.declared && !selection.declared.selected.length) throw new UsageError(noneSelected(selection.only, await declaredTotal()));
}

/** The usage error of an --only pattern that selects no behaviour; `of`: how many behaviours the suites declare in all (declaredTotal). */
export function noneSelected(only: string, of?: number): string {
  return `--only ${JSON.stringify(only)} selects none of the ${of === undefined ? 'declared' : of.toLocaleString('en-US')} behaviours (it is matched against each behaviour's ID and against "<id> <title>"; see them with: cms-conformance list)`;
}

/**
 * How many behaviours the suites declare in all (every suite file, whatever --only narrows the
 * loading to): from the cache of declarations, else by collecting every suite file (seconds; only
 * asked for in the message of an --only that selects nothing). undefined when a suite file does not load.
 */
export async function declaredTotal(): Promise<number | undefined> {
  const files = expandSuiteGlobs(suiteGlobs(suiteFolders(undefined)));
  const cached = files && cachedDeclared(files);
  if (cached) return cached.length;
  const { behaviours, errors } = await listBehaviours();
  return errors.length ? undefined : behaviours.length;
}
