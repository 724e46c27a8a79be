/**
 * A run leaves the site's settings as it found them. Each behaviour restores what it writes; this
 * is the net under them for what a write changes besides (Jetpack sets `gravatar_disable_hovercards`
 * when the Gravatar hovercards module is toggled, and `wpcom_publish_posts_with_markdown` when
 * Markdown is activated; Akismet's options are also Jetpack's settings): the settings of every
 * namespace the site advertises (the module toggles among the suite's) are read before the first
 * behaviour, read again after the last, and every key that differs is written back with its value
 * from before (one POST per namespace, then key by key where that one is refused).
 *
 * Not in a behaviour shard (`--shard`): other shards may be writing the same settings at that
 * moment, and writing back over them would make their read-backs fail.
 */
import type { Client } from '../http/client.ts';

/**
 * The settings routes, in spec names: read with GET, written back with POST, in this order. The
 * spam filter's own settings last: the suite's `spamfilter_*` settings are the same options seen
 * through the suite (WordPress: Jetpack reads an Akismet option never set as false, Akismet as
 * true), so writing the suite's view back can change what the spam filter does, and the spam
 * filter's own view, written back after it, has the last word on what the site does.
 */
export const SETTINGS_ROUTES: readonly { namespace: string; route: string }[] = [
  { namespace: 'suite/v4', route: '/suite/v4/settings' },
  { namespace: 'cms/v2', route: '/cms/v2/settings' },
  { namespace: 'spamfilter/v1', route: '/spamfilter/v1/settings' },
];

export interface SiteState {
  settings: { route: string; values: Record<string, unknown> }[];
}

export interface Restored {
  /** `<route> <key>` written back. */
  restored: string[];
  /** `<route> <key>` that differ and could not be written back (or read again). */
  failed: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Read the settings of every namespace `advertised` says the site has (a route that does not answer
 * 200 with an object is left out). `known`: answers already read before any behaviour (the
 * fresh-site snapshot of /suite/v4/settings), by spec route, not read again.
 */
export async function snapshotSiteState(client: Client, advertised: (namespace: string) => boolean, known: Record<string, { status: number; body: unknown } | undefined> = {}): Promise<SiteState> {
  const settings: SiteState['settings'] = [];
  for (const { namespace, route } of SETTINGS_ROUTES) {
    if (!advertised(namespace)) continue;
    try {
      const res = known[route] ?? (await client.get(route));
      if (res.status === 200 && isObject(res.body)) settings.push({ route, values: res.body });
    } catch {
      /* no answer: this route is not guarded */
    }
  }
  return { settings };
}

/** Read the settings again and write back every key that differs from the snapshot. */
export async function restoreSiteState(client: Client, state: SiteState): Promise<Restored> {
  const out: Restored = { restored: [], failed: [] };
  for (const { route, values } of state.settings) {
    let now: Record<string, unknown>;
    try {
      const res = await client.get(route);
      if (res.status !== 200 || !isObject(res.body)) {
        out.failed.push(`${route} (answered ${res.status} when read again)`);
        continue;
      }
      now = res.body;
    } catch (err) {
      out.failed.push(`${route} (${(err as Error).message})`);
      continue;
    }
    const changed = Object.keys(values).filter((k) => k in now && !same(values[k], now[k]));
    if (!changed.length) continue;
    const back = Object.fromEntries(changed.map((k) => [k, values[k]]));
    if (await written(client, route, back)) {
      out.restored.push(...changed.map((k) => `${route} ${k}`));
      continue;
    }
    // One refused key refuses the whole POST (Jetpack answers one 400): key by key.
    for (const k of changed) (await written(client, route, { [k]: values[k] }) ? out.restored : out.failed).push(`${route} ${k}`);
  }
  return out;
}

async function written(client: Client, route: string, body: Record<string, unknown>): Promise<boolean> {
  try {
    const res = await client.post(route, body);
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}

/** The run's one line about it, or undefined when there is nothing to say. */
export function describeRestored(r: Restored): string | undefined {
  const parts: string[] = [];
  if (r.restored.length) parts.push(`${r.restored.length} setting(s) the run changed written back as they were (${r.restored.join(', ')})`);
  if (r.failed.length) parts.push(`could not write back ${r.failed.join(', ')}`);
  return parts.length ? `site state: ${parts.join('; ')}` : undefined;
}
