/**
 * The fleet report in Markdown, for a CI step summary (GitHub's $GITHUB_STEP_SUMMARY takes up to
 * 1 MiB, so every list is cut with a count): verdict, totals, the deviations the sites share, the
 * groups of sites with the same deviations, and the sites that need attention, each linking to
 * its own report.
 */
import { LEVELS, gatingLevels, type Counts } from '../results/results.ts';
import { cell } from './markdown.ts';
import type { FleetReport } from '../results/fleet-matrix.ts';

const MAX_DEVIATIONS = 40;
const MAX_GROUPS = 20;
const MAX_SITES = 100;
const MAX_NAMES = 5;

const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const row = (label: string, c: Counts) => `| ${label} | ${c.passed} | ${c.failed} | ${c.error} | ${c.skipped} | ${c.total} |`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const more = (shown: number, total: number, what: string) => (total > shown ? [`… and ${total - shown} more ${what} (see fleet.html or fleet.json).`, ''] : []);

export function renderFleetMarkdown(r: FleetReport): string {
  const v = r.verdict;
  const levels = gatingLevels(r.failOn).join(' or ');
  const L: string[] = [];
  const head =
    r.exitCode === 0
      ? `✅ cms-conformance fleet: ${plural(r.sites.length, 'site')}, none with a ${levels} failure${r.baseline || r.sites.some((s) => s.known) ? ' outside its baseline' : ''}`
      : v.gatingSites
        ? `❌ cms-conformance fleet: ${v.gatingSites} of ${plural(r.sites.length, 'site')} with gating failures not in their baseline`
        : `⚠️ cms-conformance fleet: incomplete — ${[v.harnessSites ? `${v.harnessSites} with a cms-conformance error` : '', v.troubleSites ? `${v.troubleSites} where the target did not answer usably` : '', v.notRun ? `${v.notRun} not run` : '', v.incomplete ? 'shards missing' : ''].filter(Boolean).join(', ')}`;
  L.push(`## ${head}`, '');
  const shards = r.inputs.map((i) => (i.shard ? `${i.shard.by} ${i.shard.index}/${i.shard.count}` : 'whole run'));
  L.push(
    `${plural(r.sites.length, 'site')} × ${plural(r.behaviours.length, 'behaviour')} from ${plural(r.inputs.length, 'input')} (${[...new Set(shards)].slice(0, 12).join(', ')}${shards.length > 12 ? ', …' : ''}) · seed ${r.seeds.map(String).map(code).join(', ') || '–'} · ${r.tool.name} ${r.toolVersions.join(', ') || r.tool.version} · fail on ${levels}${r.baseline ? ` · baseline ${code(r.baseline)}` : ''}`,
    '',
  );
  for (const w of r.warnings) L.push(`> ⚠️ ${cell(w, 500)}`, '');
  L.push('| level | passed | failed | error | skipped | total |', '|---|---:|---:|---:|---:|---:|');
  for (const l of LEVELS) if (r.totals.byLevel[l]?.total) L.push(row(l, r.totals.byLevel[l]));
  L.push(row('**all**', r.totals), '');
  L.push(`${r.clean} site(s) without any failure; ${v.gatingSites} with gating failures; ${v.troubleSites + v.harnessSites} where some checks could not be made; ${v.notRun} not run.`, '');

  const items = r.itemDeviations ?? [];
  if (items.length) {
    L.push(`### Deviations by documented item (${items.length})`, '', '| sites | deviation | level | behaviours | e.g. |', '|---:|---|---|---:|---|');
    for (const d of items.slice(0, MAX_DEVIATIONS)) L.push(`| ${d.sites.length} | ${cell(d.item, 160)} ${code(d.key)} | ${d.level} | ${d.behaviours.length} | ${cell(d.message, 160)} |`);
    L.push('', ...more(MAX_DEVIATIONS, items.length, 'deviations'));
  }

  if (r.deviations.length) {
    L.push('### Failing behaviours shared by sites', '', '| sites | behaviour | level | most common reason |', '|---:|---|---|---|');
    for (const d of r.deviations.slice(0, MAX_DEVIATIONS)) {
      const b = r.behaviours[d.behaviour]!;
      const n = [d.failed ? `${d.failed} fail` : '', d.error ? `${d.error} could not check` : ''].filter(Boolean).join(', ');
      L.push(`| ${n} | ${code(b.id)} | ${b.level} | ${cell(r.reasons[d.reasons[0]?.reason ?? -1] ?? '', 200)} |`);
    }
    L.push('', ...more(MAX_DEVIATIONS, r.deviations.length, 'deviations'));
  }

  if (r.groups.length) {
    L.push('### Sites grouped by the failures they share', '');
    for (const g of r.groups.slice(0, MAX_GROUPS)) {
      const names = g.sites.slice(0, MAX_NAMES).map((i) => r.sites[i]!.id);
      const ids = g.failed.map((b) => code(r.behaviours[b]!.id));
      L.push(`- **${plural(g.sites.length, 'site')}** fail ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ` and ${ids.length - 8} more` : ''}${g.gating ? '' : ' (not gating)'} — ${names.map(code).join(', ')}${g.sites.length > names.length ? ', …' : ''}`);
    }
    L.push('', ...more(MAX_GROUPS, r.groups.length, 'groups'));
  }

  const attention = r.sites.filter((s) => s.gating.length || s.state === 'not-run' || s.exitCode >= 2);
  if (attention.length) {
    L.push('### Sites that need attention', '', '| site | exit | gating failures | could not be checked | report |', '|---|---:|---|---:|---|');
    for (const s of attention.slice(0, MAX_SITES)) {
      const gating = s.gating.slice(0, 3).map(code).join(', ') + (s.gating.length > 3 ? ` +${s.gating.length - 3}` : '');
      L.push(`| ${code(s.id)} | ${s.exitCode} | ${s.state === 'not-run' ? `not run: ${cell(s.error, 200)}` : gating || '–'} | ${s.counts.error} | ${s.report ? `[report](${s.report})` : '–'} |`);
    }
    L.push('', ...more(MAX_SITES, attention.length, 'sites'));
  }
  return `${L.join('\n').trimEnd()}\n`;
}
