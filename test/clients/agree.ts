/**
 * The clients' own flows on a site (flows.ts), and how they compare with the readiness profile's
 * verdicts for that site (results.json `clients`): per client, the flows the profile says break
 * must be exactly the flows that failed when the client ran them, so "ready" is said exactly when
 * every flow succeeded.
 */
import type { ClientId, ClientReadiness, FlowId } from '../../results/clients.ts';
import { apiFetchFlows } from './api-fetch.ts';
import { failing, type FlowResults } from './flows.ts';
import { frontityFlows } from './frontity.ts';
import { headstartwpFlows } from './headstartwp.ts';
import type { ClientSite } from './site.ts';
import { wpapiFlows } from './wpapi.ts';

export const CLIENT_FLOWS: Record<ClientId, (site: ClientSite) => Promise<FlowResults>> = {
  wpapi: wpapiFlows,
  'api-fetch': apiFetchFlows,
  frontity: frontityFlows,
  headstartwp: headstartwpFlows,
};

/** Every client's flows on the site, one client after the other. */
export async function allFlows(site: ClientSite): Promise<Record<ClientId, FlowResults>> {
  const out = {} as Record<ClientId, FlowResults>;
  for (const [id, run] of Object.entries(CLIENT_FLOWS) as [ClientId, (s: ClientSite) => Promise<FlowResults>][]) out[id] = await run(site);
  return out;
}

/** One client on one site: what the profile said and what the client did. */
export interface Agreement {
  client: ClientId;
  profile: FlowId[];
  flows: FlowId[];
  /** Why each failing flow failed, as the client ran it. */
  why: Partial<Record<FlowId, string>>;
  /** What the profile found, per failing behaviour. */
  findings: string[];
  unchecked: string[];
}

export function agreements(profile: readonly ClientReadiness[] | undefined, flows: Record<ClientId, FlowResults>): Agreement[] {
  return (Object.keys(CLIENT_FLOWS) as ClientId[]).map((client) => {
    const p = profile?.find((c) => c.client === client);
    const f = flows[client];
    const why: Partial<Record<FlowId, string>> = {};
    for (const id of failing(f)) why[id] = f[id]!;
    return {
      client,
      profile: p?.failingFlows ?? [],
      flows: failing(f),
      why,
      findings: (p?.findings ?? []).map((x) => `${x.behaviour} (${x.flows.join(', ')}): ${x.message.slice(0, 160)}`),
      // A behaviour that skipped because another one it depends on failed is covered by that one's finding.
      unchecked: (p?.unchecked ?? []).filter((u) => !u.reason.startsWith('depends on ')).map((u) => `${u.behaviour}: ${u.reason.slice(0, 120)}`),
    };
  });
}

/** Lines that say where the profile and the clients disagree (empty when they agree on every client). */
export function disagreements(site: string, list: readonly Agreement[]): string[] {
  return list
    .filter((a) => a.profile.join() !== a.flows.join() || a.unchecked.length)
    .map(
      (a) =>
        `${site}, ${a.client}: the profile says [${a.profile.join(', ') || 'ready'}], the client's own flows failed [${a.flows.join(', ') || 'none'}]` +
        `${Object.keys(a.why).length ? `; the client: ${JSON.stringify(a.why)}` : ''}${a.findings.length ? `; the profile: ${a.findings.join(' | ')}` : ''}${a.unchecked.length ? `; not checked: ${a.unchecked.join(' | ')}` : ''}`,
    );
}

/** "ready" or "not ready (list, embed)", as the matrix shows a client on a site. */
export const cellOf = (a: Agreement): string => (a.flows.length ? `not ready (${a.flows.join(', ')})` : 'ready');
