/**
 * The HTML report: one self-contained file (inline CSS and JS, no network; a Content-Security-Policy
 * forbids any load) rendered from a run's results. Written for someone who has never seen the
 * suite: what fails, why, and how to reproduce it, without reading logs. Light: failures are
 * folded under one line each, and the rows of "All behaviours" are rendered in the browser from
 * compact data (reporters/html-matrix.ts). Its head is made of parts, one function each
 * (reporters/headline.ts says what each holds), so that new parts slot in between them.
 */
import { COVERAGE_KINDS, uncoveredCount } from '../results/coverage.ts';
import { deviationHeadline, deviationsOf } from '../results/deviations.ts';
import { copyBlock, esc, page, percentBar, statusBar, anchor } from './html-kit.ts';
import { failureItem, levelBadge } from './html-failure.ts';
import { countsLine, incompleteWhy, modeLine, notCheckedLines, verdictOf } from './headline.ts';
import { MATRIX_SCRIPT, barScale, matrixSection, nsKey, nsOrder } from './html-matrix.ts';
import { embeddedNote, rerunCommand, usesCredentials } from './reproduce.ts';
import { leftBehindHtml } from './left-behind.ts';
import { LEVELS, describeNetwork, gatingLevels, type BehaviourResult, type FailOn, type Results } from '../results/results.ts';
import { readinessHtml } from './clients.ts';

function group<T>(list: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of list) {
    const k = key(x);
    const arr = m.get(k);
    if (arr) arr.push(x);
    else m.set(k, [x]);
  }
  return m;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);
const fmtMs = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

// ---------------------------------------------------------------- the head, part by part

/** The verdict and its one headline count (deviations), with the exit code. */
function verdictBlock(r: Results): string {
  const v = verdictOf(r);
  const why = incompleteWhy(r);
  // A stop after a gating failure: the failure leads, the stop is said beside it.
  const stopped = r.incomplete && v.tone === 'fail' ? `\n<div class="verdict incomplete" id="incomplete">INCOMPLETE — ${esc(why ?? '')}</div>` : '';
  return `<div class="verdict ${v.tone}" id="verdict">${esc(`${v.word} — ${v.count}${why && v.tone !== 'fail' ? `; ${why}` : ''}`)} · exit code ${v.exit}</div>${stopped}`;
}

/** The behaviours under the headline count. */
const countsBlock = (r: Results) => `<p class="counts" id="counts">${esc(countsLine(r))}</p>`;

/** How the target was checked (anonymous or with credentials, read-only or writes) and what that left unchecked. */
function checkedBlock(r: Results): string {
  const mode = modeLine(r);
  const left = notCheckedLines(r);
  if (!mode && !left.length) return '';
  return `<div class="checked" id="checked">${mode ? `<div id="mode">${esc(mode.replace(/^checked/, 'Checked'))}</div>` : ''}${left.length ? `<ul id="not-checked">${left.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>` : ''}</div>`;
}

/** What the baseline is: the known deviations of the embedded release, or the user's file. */
function baselineNote(r: Results): string {
  const bl = r.baseline;
  if (!bl) return '';
  if (bl.source === 'release')
    return `<p class="note" id="baseline-note">Judged against the known deviations of ${esc(bl.release)}, the embedded release: each is a genuine deviation of that release from the specification, listed with why in <code>${esc(bl.file)}</code> (shipped with cms-conformance). Only a new one fails the run; <code>--no-baseline</code> gives the plain verdict.</p>`;
  return `<p class="note" id="baseline-note">Judged against the baseline <code>${esc(bl.file)}</code>: the failures it lists do not fail the run.</p>`;
}

function metaBlock(r: Results): string {
  const failOnFlag = (r.config.failOn as FailOn) ?? 'must';
  const failOn = gatingLevels(failOnFlag).join(' or ');
  const e = r.target.embedded as { kind?: string; version?: string; plugins?: string[] } | null;
  const embedded = e ? ` <span class="note">(embedded ${esc(e.kind === 'wordpress' ? 'WordPress' : e.kind)}${e.version ? ` ${esc(e.version)}` : ''}${e.plugins?.length ? `, plugins: ${esc(e.plugins.join(', '))}` : ''}; booted for this run and stopped after it)</span>` : '';
  const started = new Date(r.startedAt);
  return `<dl class="meta">
<dt>Target</dt><dd><code>${esc(r.target.url)}</code>${embedded}</dd>
<dt>Profile</dt><dd>${esc(r.target.profile)} <span class="note">— ${esc(r.target.profileReason)}</span></dd>
<dt>Seed</dt><dd><code>${r.seed}</code> <span class="note">(pass <code>--seed ${r.seed}</code> to repeat the same generated inputs)</span></dd>
<dt>Date</dt><dd>${esc(started.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))} · took ${fmtMs(r.durationMs)} · ${r.requests.count} request${r.requests.count === 1 ? '' : 's'}</dd>
<dt>Tool</dt><dd>${esc(r.tool.name)} ${esc(r.tool.version)}</dd>
<dt>Gating</dt><dd>the exit code is 1 when a ${failOn} behaviour fails${r.baseline ? ` that <code>${esc(r.baseline.file)}</code> does not list` : ''} (<code>--fail-on ${esc(r.config.failOn ?? 'must')}</code>); checks that could not be made never count as failures (exit code 3 for target trouble, 4 for a bug of cms-conformance, when nothing gating fails)</dd>
</dl>`;
}

function reproduceBlock(r: Results): string {
  return `<details><summary>Configuration of this run (secrets redacted)</summary><pre id="config">${esc(json(r.config))}</pre></details>
<details><summary>Reproduce this run</summary>
${copyBlock(rerunCommand(r))}
<p class="note">${usesCredentials(r) ? 'Set <code>TARGET_USER</code> and <code>TARGET_APP_PASSWORD</code> in the environment first (the run used credentials; they are never written to a report). ' : ''}${embeddedNote(r)}Run it where cms-conformance is installed (<code>npm i -D cms-conformance</code>) or in its checkout.</p>
</details>`;
}

function header(r: Results): string {
  return `<header>
<h1>cms-conformance report</h1>
${[verdictBlock(r), leftBehindHtml(r), countsBlock(r), checkedBlock(r), baselineNote(r), metaBlock(r), reproduceBlock(r)].filter(Boolean).join('\n')}
</header>`;
}

function summary(r: Results): string {
  const nss = Object.keys(r.summary.byNamespace).sort(nsOrder);
  const largest = Math.max(...nss.map((n) => r.summary.byNamespace[n]!.total), 1);
  const row = (label: string, c: Results['summary'], scale?: number) =>
    `<tr><td>${esc(label)}</td><td class="barcell">${statusBar(c, label, scale)}</td><td class="num passed${c.passed ? '' : ' zero'}">${c.passed}</td><td class="num failed${c.failed ? '' : ' zero'}">${c.failed}</td><td class="num error${c.error ? '' : ' zero'}">${c.error ?? 0}</td><td class="num skipped${c.skipped ? '' : ' zero'}">${c.skipped}</td><td class="num">${c.total}</td></tr>`;
  const head = (title: string) => `<tr class="grp"><th>${title}</th><th></th><th class="num">passed</th><th class="num">failed</th><th class="num">error</th><th class="num">skipped</th><th class="num">total</th></tr>`;
  return `<section id="summary"><h2>Summary</h2>
<table class="chart" id="chart">
${head('By level')}${LEVELS.filter((l) => r.summary.byLevel[l]?.total).map((l) => row(l, r.summary.byLevel[l]! as Results['summary'])).join('')}
${head('By namespace')}${nss.map((n) => row(n, r.summary.byNamespace[n]! as Results['summary'], barScale(r.summary.byNamespace[n]!.total, largest))).join('')}
</table>
<p class="note">A namespace's bar is as wide as its share of the largest namespace. SECURITY: who may read or write what without credentials (the specification does not state which routes need authentication, so these are their own class); gating by default. MUST: stated by the specification; a failure fails the run. SHOULD: a WordPress convention where the specification is silent; reported, gating only with <code>--fail-on should</code>. An error is a check that could not be made (the target did not answer usably, or a bug in cms-conformance): never a failure. A skip is never a pass: it names why the behaviour could not be checked here.</p>
${networkBox(r)}
${r.errors.length ? `<div class="box err" id="harness-errors"><strong>Problems outside any behaviour</strong> (not findings about the target):<ul>${r.errors.map((e) => `<li>${e.file ? `<code>${esc(e.file)}</code>: ` : ''}${esc(e.message)}</li>`).join('')}</ul></div>` : ''}
</section>`;
}

/** How noisy the target was: requests sent again, given up, answers over --max-body, and the behaviours that met it. */
function networkBox(r: Results): string {
  const n = r.network;
  if (!n) return '';
  const line = describeNetwork(n) ?? '';
  if (!n.retried && !n.gaveUp && !n.oversized) return `<p class="note" id="target-trouble">${esc(line)}.</p>`;
  return `<div class="box" id="target-trouble"><strong>Target trouble</strong>: ${esc(line.replace(/^target trouble: /, ''))}.${n.affected.length ? `<details><summary>Behaviours that met it (${n.behavioursAffected})</summary>${n.affected.map((id) => `<code>${esc(id)}</code>`).join(', ')}</details>` : ''}</div>`;
}

const levelRank = (b: BehaviourResult) => LEVELS.indexOf(b.level);

/** The failures and the checks that could not be made, each one line folding its details; and the baseline's outcome. */
function failuresSection(r: Results): string {
  const failed = r.behaviours.filter((b) => b.status === 'failed' || b.status === 'error');
  const known = new Set((r.baseline?.known ?? []).map((k) => k.id));
  const bl = r.baseline;
  const baselineBox = bl
    ? `<div class="box" id="baseline"><strong>Baseline</strong> <code>${esc(bl.file)}</code>: ${bl.entries} known failure${bl.entries === 1 ? '' : 's'} listed · ${bl.known.length} still fail (not gating) · <strong>${bl.newFailures.length} new</strong> · ${bl.nowPassing.length} now pass${bl.notRun.length ? ` · ${bl.notRun.length} not run` : ''}
${bl.nowPassing.length ? `<p>These entries pass now${bl.source === 'release' ? '' : ': remove them from the baseline so it shrinks'}:</p><ul>${bl.nowPassing.map((e) => `<li><code>${esc(e.id)}</code> — ${esc(e.reason)}${e.link ? ` (<a href="${esc(e.link)}">${esc(e.link)}</a>)` : ''}</li>`).join('')}</ul>` : ''}
${bl.notRun.length ? `<details><summary>Entries not checked in this run (${bl.notRun.length})</summary><ul>${bl.notRun.map((e) => `<li><code>${esc(e.id)}</code>: ${esc(e.status)}</li>`).join('')}</ul></details>` : ''}</div>`
    : '';
  if (!failed.length) return `<section id="failures"><h2>What fails</h2>${baselineBox}<p>Nothing: no behaviour failed.</p></section>`;
  const items = failed
    .sort((a, b) => Number(a.status === 'error') - Number(b.status === 'error') || Number(known.has(a.id)) - Number(known.has(b.id)) || levelRank(a) - levelRank(b) || nsOrder(nsKey(a), nsKey(b)) || a.id.localeCompare(b.id))
    .map((b) => {
      const tag = b.status === 'error' ? '<span class="tag">could not be checked</span>' : bl ? (known.has(b.id) ? '<span class="tag known" title="listed in the baseline">known</span>' : '<span class="tag new" title="not in the baseline">new</span>') : '';
      return failureItem(r, b, tag);
    });
  return `<section id="failures"><h2>What fails (${failed.length})</h2>
${baselineBox}
<p class="note">Open a line for the full message, the request whose answer the check judged with that answer and a curl command, the shrunk input, and a command that reruns the check.</p>
<div id="failure-index">${items.join('\n')}</div>
</section>`;
}

/**
 * The deviations: failing behaviours grouped by the documented item that broke, each expandable to
 * its behaviours (linked to their details). Against a baseline, the new ones first, then the known
 * ones with the baseline's reason for them.
 */
function deviationsSection(r: Results): string {
  const ds = deviationsOf(r);
  if (!ds.length) return '';
  const bl = r.baseline;
  const fresh = new Set((bl?.newDeviations ?? []).map((d) => d.key));
  const knownReason = new Map((bl?.knownDeviations ?? []).map((d) => [d.key, d]));
  const ordered = bl ? [...ds.filter((d) => fresh.has(d.key)), ...ds.filter((d) => !fresh.has(d.key))] : ds;
  const items = ordered.map((d) => {
    const n = d.behaviours.length;
    const k = knownReason.get(d.key);
    const tag = !bl ? '' : fresh.has(d.key) ? ' <span class="tag new">new</span>' : k ? ' <span class="tag known">known</span>' : '';
    return `<details class="deviation" id="${anchor('d', d.key)}"><summary>${levelBadge(d.level)}${tag} <strong>${esc(d.item)}</strong> — ${n} behaviour${n === 1 ? '' : 's'}<div class="why">${esc(d.message)}</div>${k ? `<div class="note">known: ${esc(k.reason)}${k.link ? ` (<a href="${esc(k.link)}">${esc(k.link)}</a>)` : ''}</div>` : ''}</summary>
<p class="note"><code>${esc(d.key)}</code> · ${esc(d.spec)}${d.sentence ? ` · “${esc(d.sentence)}”` : ''}</p>${d.items ? `\n<p class="note">The documented items it joins: ${d.items.map((x) => `<code>${esc(x)}</code>`).join(', ')}</p>` : ''}
<ul>${d.behaviours.map((id) => `<li><a class="id" href="#${anchor('b', id)}">${esc(id)}</a></li>`).join('')}</ul></details>`;
  });
  return `<section id="deviations"><h2>${esc(deviationHeadline(ds))}</h2>
<p class="note">Failing behaviours grouped by the documented item that broke (an arg, a field, a setting, an endpoint): one broken thing is one deviation. Open one for its behaviours; each keeps its own verdict below.</p>
${items.join('\n')}
</section>`;
}

function coverageSection(r: Results): string {
  const c = r.coverage;
  if (!c) return '';
  const kindRows = COVERAGE_KINDS.filter((k) => c.byKind[k]?.items).map(
    (k) => `<tr><td>${esc(k)}</td><td class="barcell">${percentBar(c.byKind[k].percent)}</td><td class="num">${c.byKind[k].covered} / ${c.byKind[k].items}</td><td class="num">${c.byKind[k].percent} %</td></tr>`,
  );
  const nsRows = Object.entries(c.byNamespace)
    .sort(([a], [b]) => nsOrder(a, b))
    .map(([ns, v]) => `<tr><td>${esc(ns)}</td><td class="barcell">${percentBar(v.percent)}</td><td class="num">${v.covered} / ${v.items}</td><td class="num">${v.percent} %</td></tr>`);
  const byNs = group(c.uncovered, (g) => g.namespace || '(site)');
  const missing = uncoveredCount(c);
  const uncovered = [...byNs.keys()]
    .sort(nsOrder)
    .map((ns) => {
      const gs = byNs.get(ns)!;
      return `<h4>${esc(ns)} (${gs.reduce((n, g) => n + g.ids.length, 0)})</h4>${gs
        .map((g) => `<div class="note">${esc(g.kind)} (${g.ids.length})</div><ul class="ids">${g.ids.map((id) => `<li>${esc(id)}</li>`).join('')}</ul>`)
        .join('')}`;
    })
    .join('');
  const beh = c.behavioural;
  return `<section id="coverage"><h2>Coverage: ${beh ? `${beh.percent} % behavioural · ` : ''}${c.percent} % with discovery</h2>
${beh ? `<p id="behavioural-coverage"><strong>Behavioural: ${beh.percent} %</strong> — ${beh.covered} of ${beh.items} documented items were exercised by a request of a behaviour that ran (what the target <em>does</em>).</p>` : ''}
${beh?.uncovered?.length ? `<details id="not-exercised"><summary>Not exercised by a request (${beh.uncovered.reduce((n, g) => n + g.ids.length, 0)}), by reason</summary>${beh.uncovered
    .map((g) => `<h4>${g.reason === null ? 'No reason stated' : esc(g.reason)} (${g.ids.length})</h4><ul class="ids">${g.ids.map((id) => `<li>${esc(id)}</li>`).join('')}</ul>`)
    .join('')}</details>` : ''}
<p>With discovery: <strong>${c.covered}</strong> of <strong>${c.items}</strong> items were named by a behaviour that ran (${c.coveredByRequests} by behaviours that sent requests; the rest only by comparing what the site index advertises). ${missing} are not covered at all.</p>
<p class="note">${esc(c.definition)}</p>
<div class="cols"><div><h3>By kind</h3><table class="chart">${kindRows.join('')}</table></div><div><h3>By namespace</h3><table class="chart">${nsRows.join('')}</table></div></div>
<details id="uncovered"><summary>Items not covered (${missing})</summary>${uncovered || '<p>None.</p>'}</details>
${c.unknownCovers.length ? `<details><summary>Covers IDs that match no catalog item (${c.unknownCovers.length})</summary><ul>${c.unknownCovers.map((u) => `<li><code>${esc(u.id)}</code> — ${esc(u.behaviours.join(', '))}</li>`).join('')}</ul></details>` : ''}
</section>`;
}

export function renderHtml(r: Results): string {
  const failed = r.summary.failed;
  const v = verdictOf(r);
  const title = `cms-conformance: ${v.word} — ${v.count} — ${r.target.url}`;
  const deviations = deviationsOf(r);
  const toc = `<nav class="toc">${deviations.length ? `<a href="#deviations">Deviations (${deviations.length})</a>` : ''}<a href="#summary">Summary</a><a href="#failures">What fails (${failed})</a><a href="#coverage">Coverage${r.coverage ? ` (${r.coverage.behavioural ? `${r.coverage.behavioural.percent} % behavioural` : `${r.coverage.percent} %`})` : ''}</a><a href="#matrix">All behaviours (${r.summary.total})</a></nav>`;
  return page(title, [header(r), readinessHtml(r.clients), toc, deviationsSection(r), summary(r), failuresSection(r), coverageSection(r), matrixSection(r)].join('\n'), MATRIX_SCRIPT);
}
