/**
 * The HTML report: one self-contained file (inline CSS and JS, no network; a Content-Security-Policy
 * forbids any load) rendered from a run's results. Written for someone who has never seen the
 * suite: what fails, why, and how to reproduce it, without reading logs.
 */
import { COVERAGE_KINDS, uncoveredCount } from '../results/coverage.ts';
import { deviationHeadline, deviationsOf } from '../results/deviations.ts';
import { anchor, badge, copyBlock, counts, esc, page, percentBar, statusBar, type StatusCounts } from './html-kit.ts';
import { embeddedName, embeddedNote, indexCurl, isEmbedded, onlyOne, rerunCommand, usesCredentials } from './reproduce.ts';
import { readinessHtml } from './clients.ts';
import { LEVELS, LEVEL_BASIS, describeNetwork, gatingFailures, runExitCode, gatingLevels, type BehaviourResult, type FailOn, type Results } from '../results/results.ts';

const KIND_HELP: Record<string, string> = {
  conformance: 'The target does not do what the specification states (a conformance failure).',
  target: 'The target did not answer usably (network error, timeout, 5xx, not JSON): the check could not finish. Not necessarily a conformance problem; rerun, and look at the target’s logs.',
  harness: 'An error inside cms-conformance itself, not a finding about the target. Please report it with this page.',
};

const nsKey = (b: Pick<BehaviourResult, 'namespace'>) => b.namespace || '(site)';

function nsOrder(a: string, b: string): number {
  const rank = (s: string) => (s === '(site)' ? 0 : s === 'cms/v2' ? 1 : 2);
  return rank(a) - rank(b) || a.localeCompare(b);
}

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

function tally(list: readonly BehaviourResult[]): StatusCounts {
  const c = { passed: 0, failed: 0, skipped: 0, error: 0, total: list.length };
  for (const b of list) c[b.status]++;
  return c;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);
const fmtMs = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
const specLine = (b: BehaviourResult) => b.spec;

function header(r: Results): string {
  const failOnFlag = (r.config.failOn as FailOn) ?? 'must';
  const exit = runExitCode(r, failOnFlag);
  const gating = gatingFailures(r, failOnFlag);
  const failOn = gatingLevels(failOnFlag).join(' or ');
  const s = r.summary;
  const tallyLine = `${s.passed} passed, ${s.failed} failed, ${s.error ?? 0} could not be checked, ${s.skipped} skipped of ${s.total}`;
  const verdict = r.incomplete && !gating.length
    ? `INCOMPLETE — the run stopped before its end: ${r.incomplete.message}; ${r.incomplete.notRun} selected behaviour(s) did not run (${tallyLine})`
    : exit === 0
      ? `PASS — no ${failOn} behaviour fails${r.baseline ? ' outside the baseline' : ''} (${tallyLine})`
      : gating.length
        ? `FAIL — ${gating.length} ${failOn} behaviour${gating.length === 1 ? '' : 's'} fail${gating.length === 1 ? 's' : ''}${r.baseline ? ' that the baseline does not list' : ''} (${tallyLine})`
        : `INCOMPLETE — no gating failure, but ${(s.error ?? 0) + r.errors.length} check${(s.error ?? 0) + r.errors.length === 1 ? '' : 's'} could not be made (${exit === 4 ? 'a bug in cms-conformance' : 'the target did not answer usably'}; see below)`;
  const e = r.target.embedded as { kind?: string; version?: string; plugins?: string[] } | null;
  const embedded = e ? ` <span class="note">(embedded ${esc(e.kind === 'wordpress' ? 'WordPress' : e.kind)}${e.version ? ` ${esc(e.version)}` : ''}${e.plugins?.length ? `, plugins: ${esc(e.plugins.join(', '))}` : ''}; booted for this run and stopped after it)</span>` : '';
  const started = new Date(r.startedAt);
  return `<header>
<h1>cms-conformance report</h1>
<div class="verdict ${exit === 0 ? 'pass' : 'fail'}" id="verdict">${esc(verdict)} · exit code ${exit}</div>${r.incomplete && gating.length ? `\n<div class="verdict fail" id="incomplete">INCOMPLETE — the run stopped before its end: ${esc(r.incomplete.message)}; ${r.incomplete.notRun} selected behaviour(s) did not run</div>` : ''}
<dl class="meta">
<dt>Target</dt><dd><code>${esc(r.target.url)}</code>${embedded}</dd>
<dt>Profile</dt><dd>${esc(r.target.profile)} <span class="note">— ${esc(r.target.profileReason)}</span></dd>
<dt>Seed</dt><dd><code>${r.seed}</code> <span class="note">(pass <code>--seed ${r.seed}</code> to repeat the same generated inputs)</span></dd>
<dt>Date</dt><dd>${esc(started.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))} · took ${fmtMs(r.durationMs)} · ${r.requests.count} request${r.requests.count === 1 ? '' : 's'}</dd>
<dt>Tool</dt><dd>${esc(r.tool.name)} ${esc(r.tool.version)}</dd>
<dt>Gating</dt><dd>the exit code is 1 when a ${failOn} behaviour fails${r.baseline ? ` that <code>${esc(r.baseline.file)}</code> does not list` : ''} (<code>--fail-on ${esc(r.config.failOn ?? 'must')}</code>); checks that could not be made never count as failures (exit code 3 for target trouble, 4 for a bug of cms-conformance, when nothing gating fails)</dd>
</dl>
<details><summary>Configuration of this run (secrets redacted)</summary><pre id="config">${esc(json(r.config))}</pre></details>
<details><summary>Reproduce this run</summary>
${copyBlock(rerunCommand(r))}
<p class="note">${usesCredentials(r) ? 'Set <code>TARGET_USER</code> and <code>TARGET_APP_PASSWORD</code> in the environment first (the run used credentials; they are never written to a report). ' : ''}${embeddedNote(r)}Run it where cms-conformance is installed (<code>npm i -D cms-conformance</code>) or in its checkout.</p>
</details>
</header>`;
}

function summary(r: Results): string {
  const nss = Object.keys(r.summary.byNamespace).sort(nsOrder);
  const row = (label: string, c: StatusCounts, cls = '') =>
    `<tr class="${cls}"><td>${esc(label)}</td><td class="barcell">${statusBar(c, label)}</td><td class="num passed${c.passed ? '' : ' zero'}">${c.passed}</td><td class="num failed${c.failed ? '' : ' zero'}">${c.failed}</td><td class="num error${c.error ? '' : ' zero'}">${c.error ?? 0}</td><td class="num skipped${c.skipped ? '' : ' zero'}">${c.skipped}</td><td class="num">${c.total}</td></tr>`;
  const head = (title: string) => `<tr class="grp"><th>${title}</th><th></th><th class="num">passed</th><th class="num">failed</th><th class="num">error</th><th class="num">skipped</th><th class="num">total</th></tr>`;
  return `<section id="summary"><h2>Summary</h2>
<p><strong>${r.summary.total}</strong> behaviours: ${counts(r.summary)}</p>
<table class="chart" id="chart">
${head('By level')}${LEVELS.filter((l) => r.summary.byLevel[l]?.total).map((l) => row(l, r.summary.byLevel[l]!)).join('')}
${head('By namespace')}${nss.map((n) => row(n, r.summary.byNamespace[n]!)).join('')}
</table>
<p class="note">SECURITY: who may read or write what without credentials (the specification does not state which routes need authentication, so these are their own class); gating by default. MUST: stated by the specification; a failure fails the run. SHOULD: what the reference implementation (WordPress) does where the specification is silent; reported, gating only with <code>--fail-on should</code>. An error is a check that could not be made (the target did not answer usably, or a bug in cms-conformance): never a failure. A skip is never a pass: it names why the behaviour could not be checked here.</p>
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
/** A behaviour's level, with what it rests on (a SHOULD says it is a WordPress convention the spec does not state). */
const levelBadge = (level: BehaviourResult['level']) =>
  `<span class="lvl ${level}" title="${esc(LEVEL_BASIS[level])}">${level}</span>${level === 'SHOULD' ? '<div class="note">WordPress convention, not in the spec</div>' : ''}`;

function failuresIndex(r: Results): string {
  const failed = r.behaviours.filter((b) => b.status === 'failed' || b.status === 'error');
  const known = new Map((r.baseline?.known ?? []).map((k) => [k.id, k]));
  const bl = r.baseline;
  const baselineBox = bl
    ? `<div class="box" id="baseline"><strong>Baseline</strong> <code>${esc(bl.file)}</code>: ${bl.entries} known failure${bl.entries === 1 ? '' : 's'} listed · ${bl.known.length} still fail (not gating) · <strong>${bl.newFailures.length} new</strong> · ${bl.nowPassing.length} now pass${bl.notRun.length ? ` · ${bl.notRun.length} not run` : ''}
${bl.nowPassing.length ? `<p>These entries pass now: remove them from the baseline so it shrinks:</p><ul>${bl.nowPassing.map((e) => `<li><code>${esc(e.id)}</code> — ${esc(e.reason)}${e.link ? ` (<a href="${esc(e.link)}">${esc(e.link)}</a>)` : ''}</li>`).join('')}</ul>` : ''}
${bl.notRun.length ? `<details><summary>Entries not checked in this run (${bl.notRun.length})</summary><ul>${bl.notRun.map((e) => `<li><code>${esc(e.id)}</code>: ${esc(e.status)}</li>`).join('')}</ul></details>` : ''}</div>`
    : '';
  if (!failed.length) return `<section id="failures"><h2>What fails</h2>${baselineBox}<p>Nothing: no behaviour failed.</p></section>`;
  const rows = failed
    .sort((a, b) => Number(a.status === 'error') - Number(b.status === 'error') || levelRank(a) - levelRank(b) || nsOrder(nsKey(a), nsKey(b)) || a.id.localeCompare(b.id))
    .map((b) => {
      const k = known.get(b.id);
      const tag = b.status === 'error' ? '<span class="tag">could not be checked</span>' : bl ? (k ? '<span class="tag known" title="listed in the baseline">known</span>' : '<span class="tag new" title="not in the baseline">new</span>') : '';
      return `<tr><td>${levelBadge(b.level)}</td><td><a class="id" href="#${anchor('b', b.id)}">${esc(b.id)}</a>${tag}<div>${esc(b.title)}</div></td><td class="why">${esc(b.reason ?? '')}</td></tr>`;
    });
  return `<section id="failures"><h2>What fails (${failed.length})</h2>
${baselineBox}
<p class="note">Each line links to the details below: the full message, the shrunk input, the requests and responses, and a command to reproduce it.</p>
<table id="failure-index"><thead><tr><th>Level</th><th>Behaviour</th><th>Why it failed</th></tr></thead><tbody>${rows.join('')}</tbody></table>
</section>`;
}

/** The deviations: failing behaviours grouped by the documented item that broke, each expandable to its behaviours (linked to their details below). */
function deviationsSection(r: Results): string {
  const ds = deviationsOf(r);
  if (!ds.length) return '';
  const items = ds.map((d) => {
    const n = d.behaviours.length;
    return `<details class="deviation" id="${anchor('d', d.key)}"><summary><span class="lvl ${d.level}">${d.level}</span> <strong>${esc(d.item)}</strong> — ${n} behaviour${n === 1 ? '' : 's'}<div class="why">${esc(d.message)}</div></summary>
<p class="note"><code>${esc(d.key)}</code> · ${esc(d.spec)}${d.sentence ? ` · “${esc(d.sentence)}”` : ''}</p>${d.items ? `\n<p class="note">The documented items it joins: ${d.items.map((k) => `<code>${esc(k)}</code>`).join(', ')}</p>` : ''}
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

/** JSON bodies pretty-printed when complete (a truncated body is shown as it is). */
function body(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function exchangeBlock(e: NonNullable<BehaviourResult['exchanges']>[number], title: string): string {
  const ct = e.responseHeaders?.['content-type'];
  return `<div class="exchange"><h5>${esc(title)}</h5>
<pre>${esc(`${e.method} ${e.url}`)}${e.auth && e.auth !== 'none' ? esc(`\nAuthorization: ${e.auth === 'configured' ? '(the configured credentials, redacted)' : '[redacted]'}`) : ''}${e.requestBody !== undefined ? esc(`\n\n${body(e.requestBody)}`) : ''}</pre>
<h5>Response</h5>
<pre>${esc(e.error ? `no response: ${e.error}` : `HTTP ${e.status}${ct ? `\ncontent-type: ${ct}` : ''}${e.durationMs !== undefined ? `  (${Math.round(e.durationMs)} ms)` : ''}\n\n${e.responseText ? body(e.responseText) : '(empty body)'}`)}</pre>
<h5>Reproduce with curl</h5>
${copyBlock(e.curl)}</div>`;
}

function failureDetail(r: Results, b: BehaviourResult): string {
  const known = r.baseline?.known.find((k) => k.id === b.id);
  const parts: string[] = [];
  parts.push(`<h5>Checked</h5><div>${esc(b.title)} <span class="note">— ${esc(specLine(b))}</span></div>`);
  parts.push(`<h5>Why it failed</h5><pre class="msg">${esc(b.message ?? b.reason ?? 'failed')}</pre>`);
  if (b.failureKind) parts.push(`<div class="note">Failure kind <strong>${esc(b.failureKind)}</strong>: ${esc(KIND_HELP[b.failureKind] ?? '')}</div>`);
  if (b.diff) parts.push(`<h5>Expected / received</h5><pre>${esc(b.diff)}</pre>`);
  if (known) parts.push(`<div class="box">Known failure, listed in the baseline: ${esc(known.reason)}${known.link ? ` — <a href="${esc(known.link)}">${esc(known.link)}</a>` : ''}</div>`);
  if (b.counterexample !== undefined) parts.push(`<h5>Shrunk input (smallest failing input found)</h5><pre>${esc(json(b.counterexample))}</pre>`);
  if (b.details !== undefined) parts.push(`<h5>Details</h5><pre>${esc(typeof b.details === 'string' ? b.details : json(b.details))}</pre>`);
  const ex = b.exchanges ?? [];
  if (ex.length) {
    parts.push(exchangeBlock(ex[ex.length - 1]!, ex.length > 1 ? 'Request (the last one sent before the failure)' : 'Request'));
    if (ex.length > 1)
      parts.push(
        `<details class="earlier"><summary>${ex.length - 1} earlier request${ex.length > 2 ? 's' : ''} of this behaviour</summary>${ex
          .slice(0, -1)
          .map((e, i) => exchangeBlock(e, `Request ${i + 1} of ${ex.length}`))
          .join('')}</details>`,
      );
  }
  else if (b.requests === 0)
    parts.push(`<h5>Reproduce</h5><p class="note">This check sent no request of its own: it reads the site index the run fetched once at the start. This shows the part it checked:</p>${copyBlock(indexCurl(r, b))}`);
  else parts.push(`<p class="note">No request was recorded for this failure.</p>`);
  parts.push(
    `<h5>Rerun only this behaviour</h5>${copyBlock(rerunCommand(r, onlyOne(b.id)))}${usesCredentials(r) ? '<p class="note">With <code>TARGET_USER</code> and <code>TARGET_APP_PASSWORD</code> set (curl uses them too).</p>' : ''}${isEmbedded(r) ? `<p class="note">The ${embeddedName(r)} was stopped after the run: curl commands need a target running at that URL; the rerun command starts a fresh one.</p>` : ''}`,
  );
  if (b.subjects?.source === 'site') parts.push(`<p class="note">Checked on the site's own content (the run had no fixtures of its own): ${esc(b.subjects.detail ?? '')}</p>`);
  parts.push(`<div class="note">Declared at <code>${esc(b.location ?? b.file)}</code> · ${b.requests} request${b.requests === 1 ? '' : 's'} · ${b.durationMs} ms</div>`);
  return parts.join('\n');
}

function matrix(r: Results): string {
  const byNs = group(r.behaviours, nsKey);
  const known = new Set((r.baseline?.known ?? []).map((k) => k.id));
  const statusCount = tally(r.behaviours);
  const level = (l: string) => r.behaviours.filter((b) => b.level === l).length;
  const sections = [...byNs.keys()].sort(nsOrder).map((ns) => {
    const list = byNs.get(ns)!;
    const c = tally(list);
    const routes = group(list, (b) => b.route || '(no route)');
    const body = [...routes.keys()].sort().map((route) => {
      const rows = routes
        .get(route)!
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((b) => {
          const text = `${b.id} ${b.title} ${b.reason ?? ''}`.toLowerCase();
          const tag = b.status === 'failed' && r.baseline ? (known.has(b.id) ? '<span class="tag known">known</span>' : '<span class="tag new">new</span>') : '';
          const note =
            b.status === 'failed' || b.status === 'error' ? `<div class="why">${esc(b.reason ?? '')}</div>` : b.status === 'skipped' ? `<div class="skipwhy">skipped: ${esc(b.reason ?? '(no reason given)')}</div>` : '';
          const row = `<tr class="beh ${b.status}" id="${anchor('b', b.id)}" data-status="${b.status}" data-level="${b.level}" data-text="${esc(text)}"><td>${badge(b.status)}</td><td>${levelBadge(b.level)}</td><td><span class="id">${esc(b.id)}</span>${tag}<div>${esc(b.title)}</div>${note}</td><td class="note">${esc(specLine(b).replace(/^.*? § /, '§ '))}</td><td class="note">${b.durationMs} ms</td></tr>`;
          const detail =
            b.status === 'failed' || b.status === 'error'
              ? `<tr class="detail" data-status="${b.status}" data-level="${b.level}" data-text="${esc(text)}" data-for="${esc(b.id)}"><td colspan="5">${failureDetail(r, b)}</td></tr>`
              : '';
          return row + detail;
        });
      return `<div class="route"><h4>${esc(route)}</h4><table class="matrix"><colgroup><col style="width:84px"><col style="width:70px"><col><col style="width:230px"><col style="width:72px"></colgroup><tbody>${rows.join('')}</tbody></table></div>`;
    });
    // A namespace where nothing ran (all skipped, e.g. not advertised) starts folded; its summary says why in numbers.
    return `<details class="ns"${c.skipped === c.total ? '' : ' open'} data-ns="${esc(ns)}"><summary>${esc(ns)} ${statusBar(c, ns)} ${counts(c)}</summary>${body.join('')}</details>`;
  });
  return `<section id="matrix"><h2>All behaviours</h2>
<div class="filters" id="filters">
<span>Status:</span>
<label><input type="checkbox" data-filter="status" value="failed" checked> failed (${statusCount.failed})</label>
<label><input type="checkbox" data-filter="status" value="passed" checked> passed (${statusCount.passed})</label>
<label><input type="checkbox" data-filter="status" value="error" checked> error (${statusCount.error ?? 0})</label>
<label><input type="checkbox" data-filter="status" value="skipped" checked> skipped (${statusCount.skipped})</label>
<span>Level:</span>
${LEVELS.map((l) => `<label><input type="checkbox" data-filter="level" value="${l}" checked> ${l} (${level(l)})</label>`).join('\n')}
<input type="search" id="search" placeholder="Filter by ID, title or reason">
<button type="button" id="only-failures">Failures only</button>
<button type="button" id="show-all">Show all</button>
<span class="shown" id="shown"></span>
</div>
${sections.join('\n')}
</section>`;
}

const FILTER_SCRIPT = `
(function () {
  var boxes = Array.prototype.slice.call(document.querySelectorAll('#filters input[type=checkbox]'));
  var search = document.getElementById('search');
  var rows = Array.prototype.slice.call(document.querySelectorAll('#matrix tr[data-status]'));
  var behaviours = rows.filter(function (r) { return r.classList.contains('beh'); });
  function chosen(kind) { return boxes.filter(function (b) { return b.dataset.filter === kind && b.checked; }).map(function (b) { return b.value; }); }
  function apply() {
    var st = chosen('status'), lv = chosen('level'), q = search.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (r) {
      var ok = st.indexOf(r.dataset.status) >= 0 && lv.indexOf(r.dataset.level) >= 0 && (!q || r.dataset.text.indexOf(q) >= 0);
      r.classList.toggle('hidden', !ok);
      if (ok && r.classList.contains('beh')) shown++;
    });
    document.querySelectorAll('#matrix .route').forEach(function (g) { g.classList.toggle('hidden', !g.querySelector('tr.beh:not(.hidden)')); });
    document.querySelectorAll('#matrix details.ns').forEach(function (d) { d.classList.toggle('hidden', !d.querySelector('tr.beh:not(.hidden)')); });
    document.getElementById('shown').textContent = 'showing ' + shown + ' of ' + behaviours.length;
    offset();
  }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  search.addEventListener('input', apply);
  document.getElementById('only-failures').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = b.dataset.filter === 'level' || b.value === 'failed' || b.value === 'error'; }); apply();
  });
  document.getElementById('show-all').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = true; }); search.value = ''; apply();
  });
  // A link to a behaviour scrolls its row below the sticky filter bar (however many lines it wraps to), not under it.
  var bar = document.getElementById('filters');
  function offset() { document.documentElement.style.setProperty('--sticky-offset', (bar.offsetHeight + 8) + 'px'); }
  window.addEventListener('resize', offset);
  document.addEventListener('click', function (ev) {
    var a = ev.target.closest && ev.target.closest('a[href^="#b-"]');
    if (!a) return;
    var row = document.getElementById(a.getAttribute('href').slice(1));
    if (row && row.classList.contains('hidden')) { boxes.forEach(function (b) { b.checked = true; }); search.value = ''; apply(); }
    var d = row && row.closest('details'); if (d) d.open = true;
  });
  apply();
})();
`;

export function renderHtml(r: Results): string {
  const failed = r.summary.failed;
  const title = `cms-conformance: ${failed ? `${failed} failed` : 'passed'} — ${r.target.url}`;
  const deviations = deviationsOf(r);
  const toc = `<nav class="toc">${deviations.length ? `<a href="#deviations">Deviations (${deviations.length})</a>` : ''}<a href="#summary">Summary</a><a href="#failures">What fails (${failed})</a><a href="#coverage">Coverage${r.coverage ? ` (${r.coverage.behavioural ? `${r.coverage.behavioural.percent} % behavioural` : `${r.coverage.percent} %`})` : ''}</a><a href="#matrix">All behaviours (${r.summary.total})</a></nav>`;
  return page(title, [header(r), readinessHtml(r.clients), toc, deviationsSection(r), summary(r), failuresIndex(r), coverageSection(r), matrix(r)].join('\n'), FILTER_SCRIPT);
}
