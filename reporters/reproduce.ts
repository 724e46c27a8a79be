/**
 * How to reproduce what a report shows, from the results alone: the command that reruns the run
 * (or one behaviour) with the same seed, and for checks that only read the site index, the curl
 * command that fetches it. Credentials are never part of a command: the CLI and the curl
 * commands read them from TARGET_USER / TARGET_APP_PASSWORD.
 */
import { getProfile, type ProfileName } from '../schemas/profiles.ts';
import { shq } from '../schemas/shell.ts';
import type { BehaviourResult, Results } from '../results/results.ts';

type Cfg = Record<string, unknown>;

export function usesCredentials(r: Pick<Results, 'config'>): boolean {
  const c = r.config as Cfg;
  return c.user !== undefined || c.authHeader !== undefined;
}

/**
 * `npx cms-conformance run ...` repeating the run (same target, profile, seed, runs), optionally
 * for some behaviours only. It runs as printed where cms-conformance is installed (a dev
 * dependency, or its own checkout), with TARGET_USER / TARGET_APP_PASSWORD set when the run used
 * credentials.
 */
export function rerunCommand(r: Pick<Results, 'config' | 'seed' | 'target'>, only?: string): string {
  const c = r.config as Cfg;
  const parts = ['npx', 'cms-conformance', 'run'];
  if (typeof c.target === 'string') parts.push('--target', shq(c.target));
  parts.push('--profile', r.target.profile, '--seed', String(r.seed));
  if (typeof c.runs === 'number' && c.runs !== 20) parts.push('--runs', String(c.runs));
  if (c.allowWrites === true) parts.push('--allow-writes');
  if (c.insecure === true) parts.push('--insecure');
  const pattern = only ?? (typeof c.only === 'string' ? c.only : undefined);
  if (pattern) parts.push('--only', shq(pattern));
  return parts.join(' ');
}

/** An --only pattern selecting exactly one behaviour (test names are "<id> <title>"). */
export const onlyOne = (id: string) => `^${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `;

export function isEmbedded(r: Pick<Results, 'target'>): boolean {
  return r.target.embedded !== null && r.target.embedded !== undefined;
}

/** "embedded WordPress" or "reference server": the target the CLI started for the run. */
export function embeddedName(r: Pick<Results, 'target'>): string {
  return (r.target.embedded as { kind?: string } | null)?.kind === 'reference' ? 'reference server' : 'embedded WordPress';
}

/** What the rerun command starts again, for a run against a target the CLI started ('' otherwise). */
export function embeddedNote(r: Pick<Results, 'target'>): string {
  if (!isEmbedded(r)) return '';
  return embeddedName(r) === 'reference server' ? 'The command starts the reference server again. ' : 'Without <code>--target</code> the command boots the embedded WordPress again. ';
}

/**
 * For a behaviour that sent no request (it read the index the CLI fetched once): a curl command
 * showing the part of the index it checked.
 */
export function indexCurl(r: Pick<Results, 'target' | 'config'>, b: Pick<BehaviourResult, 'route'>): string {
  const auth = usesCredentials(r) ? ' -u "$TARGET_USER:$TARGET_APP_PASSWORD"' : '';
  const base = `curl -sS${auth} ${shq(`${r.target.url}/index.php?rest_route=/`)}`;
  if (!b.route || b.route === '/') return `${base} | jq 'del(.routes)'`;
  let route = b.route;
  try {
    route = getProfile(r.target.profile as ProfileName).toTargetRoute(b.route);
  } catch {
    // unknown profile: keep the spec name
  }
  const prefix = route.split('<')[0]!;
  const filter = prefix === route ? `.routes[${JSON.stringify(route)}]` : `.routes | with_entries(select(.key | startswith(${JSON.stringify(prefix)})))`;
  return `${base} | jq ${shq(filter)}`;
}
