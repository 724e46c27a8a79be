/**
 * Defaults of site state (the suite's settings and module toggles: extensions part 2) can only be
 * observed on a site nobody has changed: one the suite booted itself (the reference server, the
 * embedded WordPress), or one the user vouches for with --fresh-site. On such a site the run's
 * session (src/run/session.ts) reads GET /suite/v4/settings once, before any behaviour runs (so before any behaviour
 * writes a setting), and the default checks compare that snapshot with the documented defaults.
 */
import type { RunConfig } from './config.ts';

export interface FreshSite {
  /** Whether the site is known to be unchanged since it was set up. */
  fresh: boolean;
  /** Why (or why not): "--fresh-site", "the suite booted the embedded wordpress itself", ... */
  reason: string;
  /** GET /suite/v4/settings at the start of the run (status and body), when fresh and the namespace is advertised. */
  suiteSettings?: { status: number; body: unknown };
}

export const NOT_FRESH =
  'defaults of site state can only be observed on a site nobody has changed; pass --fresh-site when the target is freshly set up (the suite checks them itself on targets it boots)';

export function freshness(cfg: Pick<RunConfig, 'freshSite'>, embedded: null | { kind: string }): Omit<FreshSite, 'suiteSettings'> {
  if (embedded) return { fresh: true, reason: `the suite booted the ${embedded.kind === 'reference' ? 'reference server' : `embedded ${embedded.kind}`} itself` };
  if (cfg.freshSite) return { fresh: true, reason: '--fresh-site' };
  return { fresh: false, reason: NOT_FRESH };
}
