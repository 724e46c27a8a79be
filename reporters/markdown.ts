/**
 * The Markdown summary: short enough for a CI step summary (GitHub's $GITHUB_STEP_SUMMARY takes
 * up to 1 MiB; long lists are cut with a count), complete enough to act on: verdict, the deviations
 * (failing behaviours grouped by the documented item that broke, each expandable), counts by
 * level and namespace, every failure with its reason (up to a limit), skips grouped by reason,
 * baseline outcome, coverage, and the command to reproduce the run.
 */
import { COVERAGE_KINDS, uncoveredCount } from '../results/coverage.ts';
import { deviationHeadline, deviationsOf } from '../results/deviations.ts';
import { readinessMarkdown } from './clients.ts';
import { embeddedName, isEmbedded, rerunCommand, usesCredentials } from './reproduce.ts';
import { LEVELS, countsOf, describeNetwork, type Counts, type Results } from '../results/results.ts';
import { countsLine, incompleteWhy, modeLine, notCheckedLines, verdictOf } from './headline.ts';
import { leftBehindMarkdown } from './left-behind.ts';

const MAX_FAILURES = 200;
const MAX_UNCOVERED = 300;
/** Item IDs shown per reason of the behavioural gaps (results.json lists them all). */
const MAX_IDS_PER_REASON = 12;
/** "arg:suite", "batch:cms", "namespace", "index": the kind and first segment of an item ID, to summarise a long list. */
const areaOf = (id: string) => /^[a-z-]+:[a-z0-9-]+|^[a-z-]+/i.exec(id)?.[0] ?? id;

/** Escape text for a Markdown table cell (one line, no pipes). */
export const cell = (s: unknown, max = 300): string => {
  let t = String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  return t.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
};

const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

const countsRow = (label: string, c: Counts) => `| ${label} | ${c.passed} | ${c.failed} | ${c.error ?? 0} | ${c.skipped} | ${c.total} |`;
const COUNTS_HEAD = ['| passed | failed | error | skipped | total |', '|---:|---:|---:|---:|---:|'];

/** The icon of a verdict's tone, for the heading of a CI step summary. */
const ICON = { pass: '✅', partial: '⚠️', fail: '❌', incomplete: '⚠️' } as const;

/** The head, part by part (reporters/headline.ts): the verdict with its headline count, the counts under it, how the target was checked and what was left unchecked, the baseline, the run's facts. */
function head(r: Results): string[] {
  const v = verdictOf(r);
  const why = incompleteWhy(r);
  const icon = r.incomplete?.reason === 'signal' && v.tone !== 'fail' ? '⏹' : ICON[v.tone];
  const L = [`## ${icon} cms-conformance: ${v.word} — ${v.count}`, ''];
  if (r.incomplete) L.push(`> **Incomplete run**: ${cell(r.incomplete.message, 500)}; ${r.incomplete.notRun} selected behaviour(s) did not run (exit code ${v.exit}).`, '');
  else if (why) L.push(`> **Incomplete**: ${cell(why, 500)} (exit code ${v.exit}).`, '');
  L.push(...leftBehindMarkdown(r));
  L.push(`${countsLine(r)}.`, '');
  const mode = modeLine(r);
  const left = notCheckedLines(r);
  if (mode) L.push(`${mode.replace(/^checked/, 'Checked')}.`, '');
  if (left.length) L.push(...left.map((l) => `- ${l}`), '');
  const bl = r.baseline;
  if (bl?.source === 'release') L.push(`Judged against the known deviations of ${bl.release}, the embedded release (${code(bl.file)}, each with why it is genuine); only a new one fails the run. \`--no-baseline\` gives the plain verdict.`, '');
  const e = r.target.embedded as { kind?: string; version?: string } | null;
  L.push(
    `Target ${code(r.target.url)}${e ? ` (embedded ${e.kind}${e.version ? ` ${e.version}` : ''})` : ''} · profile ${code(r.target.profile)} · seed ${code(String(r.seed))} · ${r.startedAt.slice(0, 19).replace('T', ' ')} UTC · ${(r.durationMs / 1000).toFixed(1)} s · ${r.tool.name} ${r.tool.version}`,
    '',
  );
  return L;
}

export function renderMarkdown(r: Results, opts: { reportFiles?: string[] } = {}): string {
  const s = { ...r.summary, ...countsOf(r.summary) };
  const L: string[] = [...head(r)];
  // Deviations first: failing behaviours grouped by the documented item that broke, each expandable to its behaviours.
  const all = deviationsOf(r);
  // Against a baseline: the new deviations first, each known one with the baseline's reason.
  const fresh = new Set((r.baseline?.newDeviations ?? []).map((d) => d.key));
  const known = new Map((r.baseline?.knownDeviations ?? []).map((d) => [d.key, d]));
  const deviations = r.baseline ? [...all.filter((d) => fresh.has(d.key)), ...all.filter((d) => !fresh.has(d.key))] : all;
  if (deviations.length) {
    L.push(`### ${deviationHeadline(deviations)}`, '');
    for (const d of deviations.slice(0, MAX_FAILURES)) {
      const n = d.behaviours.length;
      const tag = !r.baseline ? '' : fresh.has(d.key) ? ' **new**' : known.has(d.key) ? ' known' : '';
      const why = known.has(d.key) ? `known: ${cell(known.get(d.key)!.reason, 240)}` : cell(d.message, 240);
      L.push(
        `<details><summary><b>${d.level}</b>${tag} ${cell(d.item, 200)} — ${n} behaviour${n === 1 ? '' : 's'}: ${why}</summary>`,
        '',
        `${code(d.key)} · ${cell(d.spec)}${d.sentence ? ` · “${cell(d.sentence, 300)}”` : ''}`,
        '',
        ...(d.items ? [`The documented items it joins: ${d.items.map(code).join(', ')}`, ''] : []),
        ...d.behaviours.map((id) => `- ${code(id)}`),
        '',
        '</details>',
      );
    }
    if (deviations.length > MAX_FAILURES) L.push('', `… and ${deviations.length - MAX_FAILURES} more (see the HTML report or results.json).`);
    L.push('');
  }
  if (r.clients?.length) L.push(readinessMarkdown(r.clients));
  L.push(`| level ${COUNTS_HEAD[0]}`, `|---${COUNTS_HEAD[1]}`);
  for (const l of LEVELS) if (s.byLevel[l]?.total) L.push(countsRow(l, countsOf(s.byLevel[l])));
  L.push(countsRow('**all**', s), '');
  L.push('<details><summary>By namespace</summary>', '', `| namespace ${COUNTS_HEAD[0]}`, `|---${COUNTS_HEAD[1]}`);
  for (const [ns, c] of Object.entries(s.byNamespace).sort(([a], [b]) => a.localeCompare(b))) L.push(countsRow(code(ns), countsOf(c)));
  L.push('', '</details>', '');

  const n = r.network;
  if (n && (n.retried || n.gaveUp || n.oversized)) {
    L.push('### Target trouble', '', `${describeNetwork(n)}.`, '');
    if (n.affected.length) L.push(`<details><summary>Behaviours that met it (${n.behavioursAffected})</summary>`, '', n.affected.map(code).join(', '), '', '</details>', '');
  }

  if (r.errors.length) {
    L.push('### Run errors', '', 'Problems outside any behaviour (not findings about the target):', '');
    for (const x of r.errors) L.push(`- ${x.file ? `${code(x.file)}: ` : ''}${cell(x.message, 500)}`);
    L.push('');
  }

  const failed = r.behaviours
    .filter((b) => b.status === 'failed')
    .sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || a.id.localeCompare(b.id));
  if (failed.length) {
    const known = new Set((r.baseline?.known ?? []).map((k) => k.id));
    L.push(`### Failures (${failed.length})`, '');
    L.push(r.baseline ? '| behaviour | level | baseline | why |' : '| behaviour | level | why |', r.baseline ? '|---|---|---|---|' : '|---|---|---|');
    for (const b of failed.slice(0, MAX_FAILURES)) {
      const why = `${b.failureKind && b.failureKind !== 'conformance' ? `(${b.failureKind}) ` : ''}${b.reason ?? ''}`;
      const level = b.level === 'SHOULD' ? 'SHOULD (a WordPress convention the spec does not state)' : b.level;
      L.push(r.baseline ? `| ${code(b.id)} | ${level} | ${known.has(b.id) ? 'known' : '**new**'} | ${cell(why)} |` : `| ${code(b.id)} | ${level} | ${cell(why)} |`);
    }
    if (failed.length > MAX_FAILURES) L.push('', `… and ${failed.length - MAX_FAILURES} more (see the HTML report or results.json).`);
    L.push('');
  }

  const errored = r.behaviours.filter((b) => b.status === 'error');
  if (errored.length) {
    L.push(`### Could not be checked (${errored.length})`, '', 'Not failures: the target did not answer usably, or cms-conformance broke.', '', '| behaviour | level | why |', '|---|---|---|');
    for (const b of errored.slice(0, MAX_FAILURES)) L.push(`| ${code(b.id)} | ${b.level} | ${cell(b.reason)} |`);
    L.push('');
  }

  if (r.baseline) {
    const bl = r.baseline;
    L.push(`### Baseline ${code(bl.file)}`, '');
    L.push(`${bl.entries} entries · ${bl.known.length} still fail (not gating) · **${bl.newFailures.length} new failure(s)**${bl.newDeviations ? ` in **${bl.newDeviations.length} deviation(s)**` : ''} · ${bl.nowPassing.length} now pass · ${bl.notRun.length} not run`, '');
    if (bl.newDeviations?.length) {
      L.push('New deviations (not in the baseline):', '');
      for (const d of bl.newDeviations) L.push(`- **${d.level}** ${cell(d.item, 200)}: ${d.newFailures.map(code).join(', ')}`);
      L.push('');
    }
    if (bl.nowPassing.length) {
      L.push('Now passing — remove from the baseline:', '');
      for (const x of bl.nowPassing) L.push(`- ${code(x.id)} — ${cell(x.reason)}${x.link ? ` (${x.link})` : ''}`);
      L.push('');
    }
  }

  const skipped = r.behaviours.filter((b) => b.status === 'skipped');
  if (skipped.length) {
    const byReason = new Map<string, string[]>();
    for (const b of skipped) byReason.set(b.reason ?? '(no reason)', [...(byReason.get(b.reason ?? '(no reason)') ?? []), b.id]);
    L.push(`<details><summary>Skipped (${skipped.length}), by reason</summary>`, '', '| reason | behaviours | e.g. |', '|---|---:|---|');
    for (const [reason, ids] of [...byReason].sort((a, b) => b[1].length - a[1].length)) L.push(`| ${cell(reason)} | ${ids.length} | ${code(ids[0]!)} |`);
    L.push('', '</details>', '');
  }

  const c = r.coverage;
  if (c) {
    if (c.behavioural) {
      L.push(`### Behavioural coverage: ${c.behavioural.percent} % (${c.behavioural.covered} of ${c.behavioural.items} items exercised by a request)`, '');
      const gaps = c.behavioural.uncovered ?? [];
      const n = gaps.reduce((k, g) => k + g.ids.length, 0);
      if (n) {
        L.push(`<details><summary>Not exercised by a request (${n}), by reason</summary>`, '');
        for (const g of gaps) {
          const ids = g.ids.slice(0, MAX_IDS_PER_REASON);
          const byArea = new Map<string, number>();
          for (const id of g.ids) byArea.set(areaOf(id), (byArea.get(areaOf(id)) ?? 0) + 1);
          const areas = byArea.size > 1 ? ` [${[...byArea].sort((a, b) => b[1] - a[1]).map(([a, n]) => `${a} ${n}`).join(', ')}]` : '';
          L.push(`- ${g.reason === null ? '**no reason stated**' : cell(g.reason)} (${g.ids.length}${areas}): ${ids.map(code).join(', ')}${ids.length < g.ids.length ? `, … ${g.ids.length - ids.length} more` : ''}`);
        }
        L.push('', '</details>', '');
      }
    }
    L.push(`### Catalog coverage with discovery: ${c.percent} % (${c.covered} of ${c.items} items)`, '');
    L.push('| kind | covered | items | % |', '|---|---:|---:|---:|');
    for (const k of COVERAGE_KINDS) if (c.byKind[k]?.items) L.push(`| ${k} | ${c.byKind[k].covered} | ${c.byKind[k].items} | ${c.byKind[k].percent} |`);
    L.push('');
    const missing = uncoveredCount(c);
    if (missing) {
      L.push(`<details><summary>Not covered (${missing})</summary>`, '');
      let shown = 0;
      for (const g of c.uncovered) {
        if (shown >= MAX_UNCOVERED) break;
        const ids = g.ids.slice(0, MAX_UNCOVERED - shown);
        shown += ids.length;
        L.push(`- ${g.namespace || '(site)'} · ${g.kind} (${g.ids.length}): ${ids.map(code).join(', ')}${ids.length < g.ids.length ? ', …' : ''}`);
      }
      if (missing > shown) L.push(`- … ${missing - shown} more (results.json lists them all)`);
      L.push('', '</details>', '');
    }
  }

  L.push('### Reproduce', '', '```sh', rerunCommand(r), '```');
  const notes: string[] = [];
  if (usesCredentials(r)) notes.push('set `TARGET_USER` and `TARGET_APP_PASSWORD` first');
  if (isEmbedded(r)) notes.push(embeddedName(r) === 'reference server' ? 'it starts the reference server again' : 'without `--target` it boots the embedded WordPress');
  notes.push('run it where cms-conformance is installed, or in its checkout');
  if (notes.length) L.push('', `(${notes.join('; ')}.)`);
  if (opts.reportFiles?.length) L.push('', `Reports: ${opts.reportFiles.map(code).join(', ')}`);
  L.push('');
  return L.join('\n');
}
