/**
 * A simulated fleet on one machine: N reference sites behind one port (targets/reference/multi.ts),
 * some of them behind fault proxies (named faults from faults/) so that the fleet has deviations
 * to group: every 10th site has no /spamfilter/v1/stats/<interval> route, every 7th advertises a
 * wrong per_page maximum, every 50th answers an out-of-range gmt_offset. All three show in a
 * read-only run. Used by the fleet benchmark (bench/fleet.ts) and the fleet tests.
 */
import { faultById } from '../faults/index.ts';
import { startFaultProxy, type FaultProxy } from '../faults/proxy.ts';
import { SITES_APP_PASSWORD_ENV, SITES_USER_ENV, startReferenceSites, writeSitesTargetsFile, type ReferenceSites } from '../targets/reference/multi.ts';

/** Which named faults a site of the simulation has (site numbers from 1). */
export const SIMULATED_DEVIATIONS: { every: number; fault: string; behaviour: string }[] = [
  { every: 10, fault: 'ext.spamfilter.stats-path-rejects-documented', behaviour: 'spamfilter.stats.path' },
  { every: 7, fault: 'disc.maximum-wrong', behaviour: 'disc.args.cms.posts.collection.list.per_page' },
  { every: 50, fault: 'index.gmt-offset-out-of-range', behaviour: 'index.gmt-offset.value' },
];

export function faultsOfSite(n: number): string[] {
  return SIMULATED_DEVIATIONS.filter((d) => n % d.every === 0).map((d) => d.fault);
}

export interface SimulatedFleet {
  sites: ReferenceSites;
  targetsFile: string;
  /** The environment the targets file's variables are read from. */
  env: Record<string, string>;
  /** The site URLs as listed (faulty sites through their proxy). */
  urls: string[];
  stop(): Promise<void>;
}

export async function startSimulatedFleet(opts: { count: number; targetsFile: string; deviations?: boolean }): Promise<SimulatedFleet> {
  const sites = await startReferenceSites({ count: opts.count });
  const proxies = new Map<string, FaultProxy>();
  const urls: string[] = [];
  for (const [i, url] of sites.urls.entries()) {
    const faults = opts.deviations === false ? [] : faultsOfSite(i + 1);
    if (!faults.length) {
      urls.push(url);
      continue;
    }
    // One proxy per combination of faults; the proxy keeps the site's base path.
    const key = faults.join('+');
    let proxy = proxies.get(key);
    if (!proxy) proxies.set(key, (proxy = await startFaultProxy(sites.origin, faults.map(faultById))));
    urls.push(url.replace(sites.origin, proxy.url));
  }
  writeSitesTargetsFile(opts.targetsFile, urls);
  return {
    sites,
    targetsFile: opts.targetsFile,
    env: { [SITES_USER_ENV]: sites.user, [SITES_APP_PASSWORD_ENV]: sites.appPassword },
    urls,
    stop: async () => {
      for (const p of proxies.values()) await p.close();
      await sites.stop();
    },
  };
}
