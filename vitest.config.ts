// The project's own tests (unit and end-to-end). The conformance suites under suites/ are
// not run by this config: the CLI runs them against a target.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
