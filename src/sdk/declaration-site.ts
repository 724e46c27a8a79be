/**
 * Where a behaviour is declared ("suites/cms/contexts.spec.ts:72"), for its results and the
 * catalogue (src/sdk/behaviour.ts declarationSite()).
 */
import { relative } from 'node:path';
import { PKG_ROOT } from '../core/paths.ts';

/**
 * "suites/cms/contexts.spec.ts:72": the first stack frame outside src/sdk/behaviour.ts and this file,
 * taken as the one frame of the caller of `above`: vitest source-maps every frame of a stack, and
 * src/sdk/behaviour.ts's own frames made it decode that file's map again for every suite file (issue
 * 28: the largest cost of loading the suites, for 2,019 declarations per run and per fleet site).
 * The full stack only as a fallback.
 */
export function siteOfCaller(above: Function): string | undefined {
  // The caller's position in the code as run (V8's own call site, no source map) is the key of
  // the location it maps to: mapping it through the module's source map (vite's stack traces) is
  // the costly part, and the same suite file is evaluated again for every suite file that imports
  // it and every site of a fleet, at the same positions.
  const raw = callerPosition(above);
  const known = raw === undefined ? undefined : sites.get(raw);
  if (known !== undefined) return known;
  const limit = Error.stackTraceLimit;
  const holder: { stack?: string } = {};
  Error.stackTraceLimit = 1;
  Error.captureStackTrace(holder, above);
  Error.stackTraceLimit = limit;
  const site = siteOf(holder.stack?.split('\n').slice(1) ?? []);
  // Only a site of the caller itself is its position's; one found deeper depends on the whole stack.
  if (site === undefined) return siteOf(new Error().stack?.split('\n').slice(1) ?? []);
  if (raw !== undefined) sites.set(raw, site);
  return site;
}

/**
 * Declaration sites by the caller's position in the code as run, kept by the thread (across the
 * evaluations of the suite files of a run, and the runs of a kept fleet thread: src/engine/kept-threads.ts),
 * whose suite files do not change while it lives.
 */
const sites: Map<string, string> = ((globalThis as { __cmscDeclarationSites?: Map<string, string> }).__cmscDeclarationSites ??= new Map());

/** `file:line:column` of the caller of `above`, as V8 sees it (without source maps); undefined when not told. */
function callerPosition(above: Function): string | undefined {
  const limit = Error.stackTraceLimit;
  const prepare = Error.prepareStackTrace;
  const holder: { stack?: unknown } = {};
  Error.stackTraceLimit = 1;
  Error.prepareStackTrace = (_e, callSites) => callSites;
  try {
    Error.captureStackTrace(holder, above);
    const site = (holder.stack as NodeJS.CallSite[] | undefined)?.[0];
    const file = site?.getFileName();
    if (!site || !file) return undefined;
    return `${file}:${site.getLineNumber()}:${site.getColumnNumber()}`;
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}

function siteOf(stack: readonly string[]): string | undefined {
  for (const line of stack) {
    const m = /\(?((?:file:\/\/)?\/[^():]+\.ts):(\d+):\d+\)?\s*$/.exec(line);
    if (!m) continue;
    const path = m[1]!.replace(/^file:\/\//, '');
    if (path.endsWith('/src/sdk/behaviour.ts') || path.endsWith('/src/sdk/declaration-site.ts')) continue;
    return `${relative(PKG_ROOT, path)}:${m[2]}`;
  }
  return undefined;
}

