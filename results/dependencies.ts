/**
 * "depends on" held at run level. A behaviour skips with `depends on <owner>` when what it needs
 * is another behaviour's finding (a shared prerequisite, a fixture, a route the owner checks): one
 * broken thing, one finding. That holds only when the owner found it. A skip that names an owner
 * which passed would hide a failure (the owner saw nothing wrong, so what stopped the dependent is
 * its own finding), so the run turns it into a failure of the skipping behaviour, saying so.
 *
 * An owner that was not run (another shard, not selected) or was itself skipped or errored leaves
 * the skip as it is: nothing contradicts it.
 */
import type { BehaviourResult } from './results.ts';

const DEPENDS_PREFIX = /^depends on \S+?(?:, which (?:failed|was skipped|could not be checked))?: /;

/** The reason of a skip that became a failure, from the skip's own reason. */
export function ownFinding(skip: Pick<BehaviourResult, 'reason' | 'dependsOn'>): string {
  const why = (skip.reason ?? '').replace(DEPENDS_PREFIX, '').replace(/^could not set up: /, '');
  return `${why || 'it could not go on'} (this check skipped as depending on ${skip.dependsOn}, but ${skip.dependsOn} passed in this run, so the finding is this check's own)`;
}

/** The behaviours with every skip whose owner passed turned into a failure (pure; the others unchanged). */
export function reconcileDependencies<B extends Pick<BehaviourResult, 'id' | 'status' | 'reason' | 'dependsOn' | 'failureKind'>>(behaviours: readonly B[]): B[] {
  const passed = new Set(behaviours.filter((b) => b.status === 'passed').map((b) => b.id));
  return behaviours.map((b) => {
    if (b.status !== 'skipped' || !b.dependsOn || !passed.has(b.dependsOn)) return b;
    return { ...b, status: 'failed', failureKind: 'conformance', reason: ownFinding(b), ownerPassed: true };
  });
}
