/** Synthetic results of many sites for the fleet tests (no run needed). */
import { summarize, type BehaviourResult, type Level, type Results, type ShardInfo, type Status } from '../../results/results.ts';

export interface SyntheticBehaviour {
  id: string;
  level: Level;
  namespace: string;
}

/** `count` behaviours over a few namespaces and the three levels. */
export function syntheticBehaviours(count: number): SyntheticBehaviour[] {
  const ns = ['cms/v2', 'spamfilter/v1', 'suite/v4', 'contactform/v1', ''];
  return Array.from({ length: count }, (_, i) => ({
    id: `${['cms', 'spamfilter', 'suite', 'contactform', 'index'][i % 5]}.b${String(i).padStart(4, '0')}`,
    level: (i % 11 === 0 ? 'SECURITY' : i % 7 === 0 ? 'SHOULD' : 'MUST') as Level,
    namespace: ns[i % 5]!,
  }));
}

export function siteResults(
  url: string,
  behaviours: readonly SyntheticBehaviour[],
  statusOf: (b: SyntheticBehaviour, i: number) => Status,
  over: Partial<Results> & { site?: string; shard?: ShardInfo } = {},
): Results {
  const list: BehaviourResult[] = behaviours.map((b, i) => {
    const status = statusOf(b, i);
    return {
      id: b.id,
      level: b.level,
      namespace: b.namespace,
      title: `${b.id} title`,
      spec: 'core-routes.md § 4. Endpoints',
      specRef: { doc: 'core', section: '4. Endpoints' },
      requests: 1,
      durationMs: 2,
      file: 'suites/x.spec.ts',
      covers: [],
      status,
      ...(status === 'failed' ? { reason: `${b.id} answered 404 rest_no_route`, failureKind: 'conformance' as const } : {}),
      ...(status === 'error' ? { reason: 'target error: no response within 10000 ms', failureKind: 'target' as const } : {}),
      ...(status === 'skipped' ? { reason: 'writes not allowed: --read-only' } : {}),
    };
  });
  return {
    schemaVersion: 1,
    tool: { name: 'cms-conformance', version: '0.1.0' },
    startedAt: '2026-11-24T02:00:00.000Z',
    finishedAt: '2026-11-24T02:00:05.000Z',
    durationMs: 5000,
    target: { url, profile: 'spec', profileReason: 'test', embedded: null },
    seed: 1,
    config: { failOn: 'must' },
    summary: summarize(list),
    requests: { count: list.length, latencyMs: 100 },
    behaviours: list,
    errors: [],
    ...over,
  };
}
