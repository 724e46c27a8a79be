/**
 * Shards: `--shard i/n` takes the i-th of n shares of a run, so that a CI job matrix (GitHub
 * Actions `strategy.matrix`, GitLab `parallel:`, Kubernetes Indexed Jobs) spreads one run over n
 * runners. With `--targets FILE` the share is a set of sites; with one target it is a set of
 * suite files (vitest's own file sharding). `cms-conformance merge` puts the shares together.
 */
import { createHash } from 'node:crypto';
import { UsageError } from './errors.ts';
import type { ShardInfo } from '../../results/results.ts';

export interface ShardSpec {
  /** 1-based. */
  index: number;
  count: number;
}

export type { ShardInfo };

/** "2/4" → { index: 2, count: 4 }. */
export function parseShard(raw: string): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  if (!m) throw new UsageError(`--shard must be INDEX/COUNT such as 1/4, got "${raw}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new UsageError(`--shard ${raw}: INDEX must be between 1 and COUNT`);
  return { index, count };
}

/**
 * The shard (1-based) a site belongs to among `count`: from a hash of its ID alone, so a site
 * stays on the same runner when the targets file gains or loses other sites, and reruns hit
 * the same runner.
 */
export function shardOfKey(key: string, count: number): number {
  const h = createHash('sha1').update(key).digest();
  return (h.readUInt32BE(0) % count) + 1;
}

export const shardLabel = (s: ShardSpec): string => `${s.index}/${s.count}`;
