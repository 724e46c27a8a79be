/**
 * The real clients' common flows (issue 42), run by the clients themselves against a site:
 * what each flow does is in each client's file beside this one. A flow succeeds when the client
 * gives its caller what the flow is for (a page of posts and the way to the next one, the post,
 * its author and terms, the post written and deleted, the error told apart from data); it fails
 * with why, in the client's terms. test/clients.test.ts holds the readiness profile to them.
 */
import type { ClientId, FlowId } from '../../results/clients.ts';
import type { ClientSite } from './site.ts';

/** Each flow of a client: null when it succeeded, else why it failed. */
export type FlowResults = Partial<Record<FlowId, string | null>>;

export type ClientFlows = (site: ClientSite) => Promise<FlowResults>;

/** Run the flows in order; a flow fails with the message of what it threw. */
export async function runFlows(flows: Partial<Record<FlowId, () => Promise<void>>>): Promise<FlowResults> {
  const out: FlowResults = {};
  for (const [id, fn] of Object.entries(flows) as [FlowId, () => Promise<void>][]) {
    try {
      await fn();
      out[id] = null;
    } catch (e) {
      out[id] = describeError(e);
    }
  }
  return out;
}

/** A thrown value as one line (client errors are often plain objects: api-fetch throws the body). */
export function describeError(e: unknown): string {
  if (e instanceof Error) return `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}`.slice(0, 400);
  try {
    return `threw ${JSON.stringify(e).slice(0, 300)}`;
  } catch {
    return `threw ${String(e)}`;
  }
}

/** Fail a flow unless `cond`. */
export function check(cond: unknown, why: string): asserts cond {
  if (!cond) throw new Error(why);
}

/** The flows that failed, in order. */
export const failing = (r: FlowResults): FlowId[] => (Object.entries(r) as [FlowId, string | null][]).filter(([, why]) => why !== null).map(([f]) => f);

export type { ClientId, FlowId };
