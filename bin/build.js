// The CLI runs as JavaScript bundled from its TypeScript sources (esbuild, about 50 ms), built again
// whenever a source file changes. Loading the sources through tsx instead costs a loader thread that
// transforms and resolves every import of the run: about 130 MB of memory and 0.7 CPU-s a run
// (BENCHMARKS.md). The suites themselves are still loaded by vitest, from their sources.
//
// A build lives in .cache/build/<key>/, where the key is made of the folder and the names, sizes and
// times of the bundled source files: a checkout, or an edit, gets its own build; runs started at the same time
// build at most once each and the first rename wins. When no build can be made (no esbuild, or the
// package folder is read-only) the sources are loaded through tsx, as before.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What the CLI imports (the suites are not bundled: vitest loads them). */
const SOURCES = ['src', 'schemas', 'results', 'reporters', 'targets', 'generators', 'faults'];
const BUILDS = join(ROOT, '.cache', 'build');
/** Builds of other sources are removed when this old (a run in progress may still load chunks of its own). */
const KEEP_MS = 24 * 3_600_000;

/** A key for the sources under `root`: every bundled file's path, size and modification time. */
export function sourceKey(root = ROOT) {
  const h = createHash('sha1');
  // The build names its source files by absolute path (sourceUrls): a moved folder builds anew.
  h.update(`${process.version}\n${root}\n`);
  const walk = (dir) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (/\.(ts|json|js|mjs)$/.test(e.name)) {
        const s = statSync(p);
        h.update(`${relative(root, p)}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  for (const d of SOURCES) if (existsSync(join(root, d))) walk(join(root, d));
  for (const f of ['package.json', 'tsconfig.json', 'bin/build.js']) if (existsSync(join(root, f))) h.update(`${f}\0${statSync(join(root, f)).mtimeMs}\n`);
  return h.digest('hex').slice(0, 16);
}

/**
 * Every module keeps its own source file's `import.meta.url`, as when run from its source: the
 * package root (src/core/paths.ts) and the PHP scripts beside targets/wordpress/*.ts are found from it.
 */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      return { contents: text.includes('import.meta.url') ? text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)) : text, loader: 'ts' };
    });
  },
};

async function buildInto(dir) {
  const { build } = await import('esbuild');
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    await build({
      entryPoints: { cli: join(ROOT, 'src/cli/main.ts') },
      outdir: tmp,
      bundle: true,
      // Commands load what they need when they need it (the reference server, WordPress, fleets).
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // Dependencies are imported from node_modules as they are.
      packages: 'external',
      logLevel: 'silent',
      plugins: [sourceUrls],
    });
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // Another run built the same sources first.
      if (!existsSync(join(dir, 'cli.js'))) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  for (const e of readdirSync(BUILDS)) {
    const p = join(BUILDS, e);
    if (p !== dir && Date.now() - statSync(p).mtimeMs > KEEP_MS) rmSync(p, { recursive: true, force: true });
  }
}

/** The CLI's module: the current build (made first when the sources changed), else the sources through tsx. */
export async function loadCli() {
  let entry;
  try {
    const dir = join(BUILDS, sourceKey());
    entry = join(dir, 'cli.js');
    if (!existsSync(entry)) {
      mkdirSync(BUILDS, { recursive: true });
      await buildInto(dir);
    }
  } catch {
    entry = undefined;
  }
  if (entry) return import(pathToFileURL(entry).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import('../src/cli/main.ts');
}
