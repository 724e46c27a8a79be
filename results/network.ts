/**
 * How noisy the target was over a run (issue 24): the requests its behaviours sent again, gave up
 * or found over --max-body, summed from the behaviours' own counts (results.json `network`).
 */
/** How noisy the target was for one behaviour: requests sent again, given up on, and answers over --max-body (results.json behaviours[].network). */
export interface NetworkTrouble {
  /** Attempts sent again after transient trouble (no answer, a gateway's 5xx, 429, an HTML page). */
  retried: number;
  /** Requests whose trouble persisted through the retries (or a write that could not be sent again). */
  gaveUp: number;
  /** Answers whose body was over --max-body and was read no further. */
  oversized: number;
}

/** What the summary reads of a behaviour's result. */
interface Ended {
  id: string;
  network?: NetworkTrouble;
  status: string;
  failureKind?: string;
}

/**
 * The counts are of the requests of behaviours and of the prerequisites they own; the requests of a
 * suite file's shared fixtures are not counted, but a behaviour that could not be checked because
 * of them (an error of the target) is among the affected.
 */
export interface NetworkSummary extends NetworkTrouble {
  /** Behaviours whose requests met transient trouble (retried, given up or oversized), or that could not be checked because of the target's trouble. */
  behavioursAffected: number;
  /** Of those, the ones that could not be checked because of it (status error, failure kind target). */
  behavioursErrored: number;
  /** The IDs of the affected behaviours (at most 200). */
  affected: string[];
}

/** One line on how noisy the target was (console summary, Markdown and HTML reports). */
export function describeNetwork(n: NetworkSummary | undefined): string | undefined {
  if (!n) return undefined;
  if (!n.retried && !n.gaveUp && !n.oversized) return 'target trouble: none (no request had to be sent again)';
  const parts = [`${n.retried} request${n.retried === 1 ? '' : 's'} sent again`, `${n.gaveUp} given up`];
  if (n.oversized) parts.push(`${n.oversized} answer${n.oversized === 1 ? '' : 's'} over --max-body`);
  return `target trouble: ${parts.join(', ')}; ${n.behavioursAffected} behaviour${n.behavioursAffected === 1 ? '' : 's'} met it, ${n.behavioursErrored} of them could not be checked because of it (errors of the target, never failures)`;
}

/** The network summary of a run, from its behaviours. */
export function networkSummary(behaviours: readonly Ended[]): NetworkSummary {
  const out: NetworkSummary = { retried: 0, gaveUp: 0, oversized: 0, behavioursAffected: 0, behavioursErrored: 0, affected: [] };
  for (const b of behaviours) {
    const n = b.network;
    const errored = b.status === 'error' && b.failureKind === 'target';
    if (!errored && !(n && (n.retried || n.gaveUp || n.oversized))) continue;
    out.retried += n?.retried ?? 0;
    out.gaveUp += n?.gaveUp ?? 0;
    out.oversized += n?.oversized ?? 0;
    out.behavioursAffected++;
    if (errored) out.behavioursErrored++;
    if (out.affected.length < 200) out.affected.push(b.id);
  }
  return out;
}
