/** `cms-conformance run --targets FILE [--shard i/n]`: the sites of a targets file, one after the other (src/fleet/fleet.ts), and the shard's summary. */
import type { RunConfig } from '../core/config.ts';
import { runFleet } from '../fleet/fleet.ts';
import { shownPath } from './text.ts';

/** `run --targets FILE [--shard i/n]`: the shard's sites one after the other (src/fleet/fleet.ts). */
export async function runTargets(cfg: RunConfig, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const outcome = await runFleet(cfg, (l) => err.write(`${l}\n`));
  const sites = outcome.shard.sites;
  const done = sites.filter((s) => s.state === 'done');
  const sum = (k: 'passed' | 'failed' | 'skipped' | 'error') => done.reduce((n, s) => n + (s.summary?.[k] ?? 0), 0);
  out.write(`\nshard ${outcome.shard.shard.index}/${outcome.shard.shard.count}: ${sites.length} site(s), ${done.length} run, ${sites.length - done.length} not run; ${sum('passed')} passed, ${sum('failed')} failed, ${sum('error')} could not be checked, ${sum('skipped')} skipped\n`);
  for (const s of sites.filter((x) => x.exitCode)) out.write(`  ${s.id}: exit ${s.exitCode}${s.error ? ` (${s.error})` : ''}\n`);
  out.write(`seed ${outcome.shard.seed}; shard output: ${shownPath(outcome.dir)}${outcome.latest ? ` (also ${shownPath(outcome.latest)})` : ''} (merge with: cms-conformance merge DIR...)\n`);
  return outcome.exitCode;
}
