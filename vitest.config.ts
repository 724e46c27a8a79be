// The project's own tests (unit and end-to-end). The conformance suites under suites/ are
// not run by this config: the CLI runs them against a target.
//
// Two projects, both run by `npm test` (each reported apart; `npx vitest run --project unit`
// runs one):
// - `proofs`: files that start processes or targets: the CLI in a child process, a fault proof,
//   the embedded WordPress or boot.sh, Chromium, vitest itself (seconds to minutes each);
// - `unit`: everything else (in-process, seconds in all).
// A file is a proof when it calls one of the functions that do so (below), or is named
// *.e2e.test.ts / *.browser.test.ts; a new file is classified by what it calls.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const STARTS_PROCESSES =
  /(?<![.\w])(?:runCli|runSuite|exec|spawn|spawnSync|bootTarget|bootWordPress|bootPluginTarget|sharedWordPress|proveFaults|proveRound|faultSuite|cmsFaultSuite|inProcessRuns|interruptedRun|listBehaviours|runConformance|createVitest|runFleet)\s*\(|SuiteEngine\.create|InProcessRunner\.open/;

const root = import.meta.dirname;
const testFiles = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `test/${f.split('\\').join('/')}`)
  .sort();
const isProof = (file: string) => /\.(e2e|browser)\.test\.ts$/.test(file) || STARTS_PROCESSES.test(readFileSync(join(root, file), 'utf8'));
export const PROOFS = testFiles.filter(isProof);
export const UNITS = testFiles.filter((f) => !isProof(f));

/**
 * The proofs that take minutes (full runs against PHP) start first, longest first, so that the
 * short files fill the other worker meanwhile instead of waiting at the end; vitest's own order
 * (by the durations of the last run, or by file size on a fresh clone) does the rest.
 */
const LONGEST_FIRST = [
  'test/real-targets.wordpress-7.1.test.ts',
  // 6 full runs against the reference server (the default and two groups of readings, with and
  // without credentials), all in its beforeAll, which a fresh clone's order (by file size) put last.
  'test/dialects.test.ts',
  'test/cms/wordpress-faults.test.ts',
  'test/flaky.test.ts',
  'test/real-targets.embedded-6.5.5.test.ts',
  'test/cms/reference-faults.test.ts',
  'test/cli.test.ts',
  'test/safety.test.ts',
  'test/chaos.test.ts',
  'test/core/latency.test.ts',
  'test/stop.e2e.test.ts',
  'test/core/batch.test.ts',
  'test/fleet-concurrent.test.ts',
];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(f.moduleId.slice(root.length + 1).split('\\').join('/'));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: UNITS } },
      { extends: true, test: { name: 'proofs', include: PROOFS } },
    ],
  },
});
