/**
 * The target's answer to a route that surely does not exist, asked once in the run's setup
 * (src/run/session.ts, RunInfo.noRoute) and kept for the suite file's checks (src/sdk/controls.ts
 * noRoute()): where the target's errors carry no code of WordPress's, a 404 is told apart from a
 * missing route by comparing it with this answer.
 */
export interface NoRouteAnswer {
  status: number;
  text: string;
}

/** The route the setup asks: a namespace no document names. */
export const NO_SUCH_ROUTE = '/cms-conformance-no-such-namespace/no-such-route';

let answer: NoRouteAnswer | undefined;

/** Set by the run context (src/sdk/behaviour.ts) for the suite file. */
export function setNoRouteAnswer(a: NoRouteAnswer | undefined): void {
  answer = a;
}

export const noRouteAnswer = (): NoRouteAnswer | undefined => answer;
