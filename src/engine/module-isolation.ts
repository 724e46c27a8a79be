/**
 * Setup file of the suite runs (vitest `setupFiles`, run before every suite file): every module of
 * cms-conformance is evaluated afresh for each suite file, as with vitest's `isolate`, while the
 * worker thread and its dependencies (fast-check, undici, faker: node_modules) are reused
 * across files and across the sites of a fleet.
 */
import { vi } from 'vitest';

vi.resetModules();
