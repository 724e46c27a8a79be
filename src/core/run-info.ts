/**
 * What the CLI hands to the suites (through vitest's provide/inject): serialisable data only.
 * Credentials travel in memory to the workers; they are never written to any file.
 */
import type { RunConfig } from './config.ts';
import type { FreshSite } from './fresh-site.ts';
import type { ProfileName } from '../../schemas/profiles.ts';
import type { NoRouteAnswer } from './no-route.ts';

export interface RunInfo {
  runId: string;
  config: RunConfig;
  /** Base URL actually used (the embedded target's URL when booted). */
  targetUrl: string;
  embedded: null | { kind: 'wordpress' | 'reference'; version?: string; plugins?: string[] };
  profile: ProfileName;
  /** Why this profile: "--profile wordpress", "auto: index advertises wp/v2" ... */
  profileReason: string;
  /** The target's own site index (GET /), as fetched once by the CLI. */
  index: unknown;
  /** The target's answer to a route that does not exist (GET of src/core/no-route.ts NO_SUCH_ROUTE), asked once by the CLI; absent when it gave none. */
  noRoute?: NoRouteAnswer;
  writes: { allowed: boolean; reason: string };
  /** Whether the site is fresh (defaults of site state observable), and its settings as the run found them (src/core/fresh-site.ts). */
  freshSite: FreshSite;
  /** NDJSON event log (events.ndjson) every process appends one line per request to; absent when not chosen. */
  eventLog?: string;
  /** The run's ledger of the items it creates (src/core/ledger.ts); absent when the run may not write. */
  ledger?: string;
  /** How many suite workers share --concurrency and --max-rps (set by the suite engine). */
  workers?: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    run: RunInfo;
  }
}
