/**
 * The comparison of two runs (results/compare.ts) as Markdown (a CI step summary) and as one HTML
 * page: the clients whose readiness changed and the deviations first, then the behaviours by group,
 * then what each side advertises.
 */
import { anchor, badge, copyBlock, counts, esc, page, statusBar } from './html-kit.ts';
import { cell } from './markdown.ts';
import type { AdvertisedDiff } from '../results/advertised.ts';
import { GROUPS, compareExitCode, type ComparedDeviation, type Comparison, type Group, type SideInfo } from '../results/compare.ts';
import type { FailOn, FailOnClients, Status } from '../results/results.ts';
import { readinessChangesHtml, readinessChangesMarkdown } from './clients.ts';

/** A client that was ready on A (or broke in fewer flows) and is not ready on B. */
const clientRegressed = (c: Comparison) => (c.clients ?? []).some((x) => x.b === 'not ready' && (x.a !== 'not ready' || x.newlyFailing.length > 0));

export const GROUP_TITLE: Record<Group, string> = {
  'only-a-fails': 'Only A fails',
  'only-b-fails': 'Only B fails',
  'both-fail': 'Both fail',
  'both-pass': 'Both pass',
  'not-compared': 'Not compared (skipped or not run on a side, failing on neither)',
};

const DEVIATION_GROUP_TITLE: Record<ComparedDeviation['group'], string> = { 'only-b': 'Only B deviates', 'only-a': 'Only A deviates', both: 'Both deviate' };

/** "Deviations: 2 only on B, 1 only on A, 12 on both" */
export function deviationCounts(c: Pick<Comparison, 'deviations'>): string {
  const n = (g: ComparedDeviation['group']) => (c.deviations ?? []).filter((d) => d.group === g).length;
  return `Deviations: ${n('only-b')} only on B, ${n('only-a')} only on A, ${n('both')} on both`;
}

/**
 * The diff as unified-diff-like lines (`-` only on A, `+` only on B, ` ` context). Routes present on
 * one side only are one line each with their methods and arg count, not every arg.
 */
export function diffLines(d: AdvertisedDiff): string[] {
  const lines: string[] = [];
  for (const n of d.namespaces.onlyA) lines.push(`- namespace ${n}`);
  for (const n of d.namespaces.onlyB) lines.push(`+ namespace ${n}`);
  for (const r of d.routes) {
    if (r.change !== 'changed') {
      const sign = r.change === 'only-a' ? '-' : '+';
      lines.push(`${sign} ${r.route}  (${r.endpoints.map((e) => `${e.methods}: ${e.args.length} args`).join('; ') || 'no endpoints'})`);
      continue;
    }
    lines.push(`  ${r.route}`);
    for (const e of r.endpoints) {
      if (e.change !== 'changed') {
        lines.push(`${e.change === 'only-a' ? '-' : '+'}   ${e.methods}  (${e.args.length} args)`);
        continue;
      }
      lines.push(`    ${e.methods}`);
      if (e.allowBatch) {
        lines.push(`-     allow_batch: ${e.allowBatch.a ? 'v1' : 'absent'}`);
        lines.push(`+     allow_batch: ${e.allowBatch.b ? 'v1' : 'absent'}`);
      }
      for (const arg of e.args) {
        if (arg.a !== undefined) lines.push(`-     ${arg.name}: ${arg.a}`);
        if (arg.b !== undefined) lines.push(`+     ${arg.name}: ${arg.b}`);
      }
    }
  }
  return lines;
}

// ---------------------------------------------------------------- Markdown

export function renderCompareMarkdown(c: Comparison, failOn: FailOn = 'must', clients?: FailOnClients): string {
  const L: string[] = [];
  const exit = compareExitCode(c, failOn, clients);
  const regress = c.behaviours.filter((x) => x.group === 'only-b-fails' && (x.level === 'MUST' || failOn === 'should')).length;
  L.push(`## ${exit ? '❌' : '✅'} cms-conformance compare: ${exit ? (regress ? `${regress} gating behaviour(s) fail only on B` : clientRegressed(c) ? 'a client is not ready on B' : 'a side had suite errors') : 'B fails nothing that A passes'}`, '');
  L.push('| | A | B |', '|---|---|---|');
  L.push(`| target | ${cell(c.a.label)} | ${cell(c.b.label)} |`);
  L.push(`| source | ${cell(c.a.source)} | ${cell(c.b.source)} |`);
  L.push(`| profile · seed | ${c.a.profile} · ${c.a.seed} | ${c.b.profile} · ${c.b.seed} |`);
  L.push(`| passed / failed / skipped | ${c.a.summary.passed} / ${c.a.summary.failed} / ${c.a.summary.skipped} | ${c.b.summary.passed} / ${c.b.summary.failed} / ${c.b.summary.skipped} |`, '');
  for (const w of c.warnings) L.push(`> ⚠️ ${w}`, '');
  if (c.clients?.length) L.push(readinessChangesMarkdown(c.clients));
  // Deviations first (failing behaviours grouped by the documented item that broke), each expandable to its behaviours.
  const devs = c.deviations ?? [];
  if (devs.length) {
    L.push(`### ${deviationCounts(c)}`, '');
    for (const d of devs.slice(0, 200)) {
      const ids = [...new Set([...(d.a ?? []), ...(d.b ?? [])])].sort();
      L.push(
        `<details><summary>${DEVIATION_GROUP_TITLE[d.group]}: <b>${d.level}</b> ${cell(d.item, 200)} — A ${d.a?.length ?? 0}, B ${d.b?.length ?? 0} behaviour(s): ${cell(d.message, 200)}</summary>`,
        '',
        `\`${d.key}\``,
        '',
        ...ids.map((id) => `- \`${id}\` (${d.a?.includes(id) ? 'fails on A' : ''}${d.a?.includes(id) && d.b?.includes(id) ? ', ' : ''}${d.b?.includes(id) ? 'fails on B' : ''})`),
        '',
        '</details>',
      );
    }
    if (devs.length > 200) L.push('', `… and ${devs.length - 200} more (see compare.html).`);
    L.push('');
  }
  L.push('| group | behaviours |', '|---|---:|');
  for (const g of GROUPS) L.push(`| ${GROUP_TITLE[g]} | ${c.counts[g]} |`);
  L.push('');
  for (const g of ['only-b-fails', 'only-a-fails', 'both-fail'] as const) {
    const list = c.behaviours.filter((x) => x.group === g);
    if (!list.length) continue;
    L.push(`### ${GROUP_TITLE[g]} (${list.length})`, '', '| behaviour | level | A | B | why (A) | why (B) |', '|---|---|---|---|---|---|');
    for (const x of list.slice(0, 200)) L.push(`| \`${x.id}\` | ${x.level} | ${x.a ?? 'not run'} | ${x.b ?? 'not run'} | ${cell(x.aReason ?? '', 160)} | ${cell(x.bReason ?? '', 160)} |`);
    if (list.length > 200) L.push('', `… and ${list.length - 200} more (see compare.html).`);
    L.push('');
  }
  if (c.advertised) {
    const lines = diffLines(c.advertised);
    L.push(`### Advertised differences (A → B): ${c.advertised.routes.length} route(s), ${c.advertised.argChanges} arg change(s)`, '');
    if (lines.length) {
      L.push('<details><summary>diff</summary>', '', '```diff', ...lines.slice(0, 1500), ...(lines.length > 1500 ? [`# … ${lines.length - 1500} more lines in compare.html`] : []), '```', '', '</details>', '');
    } else L.push('None: both advertise the same namespaces, routes and args.', '');
  }
  return L.join('\n');
}

// ---------------------------------------------------------------- HTML

function sideCell(s: Status | undefined, reason?: string): string {
  return `<td>${s ? badge(s) : '<span class="badge absent">not run</span>'}${reason && s !== 'passed' ? `<div class="${s === 'failed' ? 'why' : 'skipwhy'}">${esc(reason)}</div>` : ''}</td>`;
}

function deviationsHtml(c: Comparison): string {
  const devs = c.deviations ?? [];
  if (!devs.length) return '';
  const items = devs.map((d) => {
    const ids = [...new Set([...(d.a ?? []), ...(d.b ?? [])])].sort();
    return `<details class="deviation" data-group="${d.group}"><summary>${esc(DEVIATION_GROUP_TITLE[d.group])}: <span class="lvl ${d.level}">${d.level}</span> <strong>${esc(d.item)}</strong> — A ${d.a?.length ?? 0}, B ${d.b?.length ?? 0} behaviour(s)<div class="why">${esc(d.message)}</div></summary>
<p class="note"><code>${esc(d.key)}</code></p><ul>${ids.map((id) => `<li><a class="id" href="#${anchor('c', id)}">${esc(id)}</a>${d.a?.includes(id) ? ' · fails on A' : ''}${d.b?.includes(id) ? ' · fails on B' : ''}</li>`).join('')}</ul></details>`;
  });
  return `<section id="deviations"><h2>${esc(deviationCounts(c))}</h2>
<p class="note">Failing behaviours grouped by the documented item that broke, matched between the two runs by that item.</p>
${items.join('\n')}</section>`;
}

export function renderCompareHtml(c: Comparison, failOn: FailOn = 'must', clients?: FailOnClients): string {
  const exit = compareExitCode(c, failOn, clients);
  const regress = c.behaviours.filter((x) => x.group === 'only-b-fails' && (x.level === 'MUST' || failOn === 'should')).length;
  const side = (name: string, s: SideInfo) => `<div class="box"><h3>${name}: ${esc(s.label)}</h3>
<dl class="meta"><dt>URL</dt><dd><code>${esc(s.url)}</code></dd><dt>Given as</dt><dd><code>${esc(s.source)}</code></dd><dt>Profile</dt><dd>${esc(s.profile)}</dd><dt>Seed</dt><dd>${s.seed}</dd><dt>Run</dt><dd>${esc(s.startedAt.replace('T', ' ').slice(0, 19))} UTC · ${esc(s.tool)}</dd>
${s.reportDir ? `<dt>Full report</dt><dd><a href="${esc(s.reportDir)}/report.html">${esc(s.reportDir)}/report.html</a></dd>` : ''}</dl>
<div>${statusBar(s.summary, name)} ${counts(s.summary)}</div></div>`;
  const groupSection = (g: Group) => {
    const list = c.behaviours.filter((x) => x.group === g);
    const rows = list
      .map(
        (x) =>
          `<tr data-level="${x.level}" id="${anchor('c', x.id)}"><td><span class="lvl ${x.level}">${x.level}</span></td><td><span class="id">${esc(x.id)}</span><div>${esc(x.title)}</div></td>${sideCell(x.a, x.aReason)}${sideCell(x.b, x.bReason)}</tr>`,
      )
      .join('');
    const open = g === 'only-a-fails' || g === 'only-b-fails' || (g === 'both-fail' && list.length <= 100);
    return `<details class="ns" id="${g}" ${open ? 'open' : ''}><summary>${esc(GROUP_TITLE[g])} (${list.length})</summary>${list.length ? `<table class="cmp"><colgroup><col style="width:70px"><col style="width:44%"><col><col></colgroup><thead><tr><th>Level</th><th>Behaviour</th><th>A</th><th>B</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="note">None.</p>'}</details>`;
  };
  let diff = '<p class="note">Not compared (see the warnings above).</p>';
  if (c.advertised) {
    const lines = diffLines(c.advertised);
    diff = lines.length
      ? `<p>${c.advertised.namespaces.onlyA.length + c.advertised.namespaces.onlyB.length} namespace(s), ${c.advertised.routes.length} route(s) and ${c.advertised.argChanges} arg(s) differ. <span class="note">Lines starting with − are advertised only by A (or differ there), + only by B; routes and args in spec names.</span></p><pre class="diff" id="advertised-diff">${lines
          .map((l) => `<span class="${l.startsWith('-') ? 'del' : l.startsWith('+') ? 'add' : 'ctx'}">${esc(l)}</span>`)
          .join('\n')}</pre>`
      : '<p>None: both advertise the same namespaces, routes and args.</p>';
  }
  const body = `<header><h1>cms-conformance comparison</h1>
<div class="verdict ${exit ? 'fail' : 'pass'}" id="verdict">${exit ? (regress ? `B REGRESSES — ${regress} gating behaviour${regress === 1 ? '' : 's'} fail${regress === 1 ? 's' : ''} on B and not on A` : clientRegressed(c) ? 'B REGRESSES — a client is not ready on B' : 'a side had suite errors') : 'OK — B fails nothing (gating) that A does not'} · exit code ${exit}</div>
<div class="cols">${side('A', c.a)}${side('B', c.b)}</div>
${c.warnings.map((w) => `<div class="box err">${esc(w)}</div>`).join('')}
</header>
${readinessChangesHtml(c.clients)}
${deviationsHtml(c)}
<section><h2>Groups</h2><table class="chart" id="groups">${GROUPS.map((g) => `<tr><td><a href="#${g}">${esc(GROUP_TITLE[g])}</a></td><td>${c.counts[g]}</td></tr>`).join('')}</table>
<div class="filters" id="filters"><span>Level:</span><label><input type="checkbox" value="MUST" checked> MUST</label><label><input type="checkbox" value="SHOULD" checked> SHOULD</label><label><input type="checkbox" value="CLIENT" checked> CLIENT</label></div>
${GROUPS.map(groupSection).join('\n')}</section>
<section id="advertised"><h2>Advertised differences (discovery)</h2>${diff}</section>
<section><h2>Reproduce</h2>${copyBlock(`cms-conformance compare ${c.a.source} ${c.b.source} --seed ${c.a.seed}`)}<p class="note">Credentials per side: --a-user/--a-app-password and --b-user/--b-app-password (or TARGET_USER/TARGET_APP_PASSWORD for both).</p></section>`;
  const script = `
(function () {
  var boxes = Array.prototype.slice.call(document.querySelectorAll('#filters input'));
  function apply() {
    var lv = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
    document.querySelectorAll('tr[data-level]').forEach(function (r) { r.classList.toggle('hidden', lv.indexOf(r.dataset.level) < 0); });
  }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
})();`;
  return page(`cms-conformance comparison: ${c.a.label} vs ${c.b.label}`, body, script);
}
