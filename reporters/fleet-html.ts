/**
 * The fleet report as one self-contained HTML page (no network): verdict, totals, the deviations
 * the sites share, the groups of sites with the same failures, every site with a link to its own
 * report, and the sites × behaviours matrix with filters by namespace, level, status, behaviour,
 * site and group. The matrix is drawn by a small script from the embedded data, only the rows in
 * view, so a thousand sites × a thousand behaviours stay responsive.
 */
import { LEVELS, gatingLevels } from '../results/results.ts';
import { badge, counts, esc, page, statusBar } from './html-kit.ts';
import type { FleetReport } from '../results/fleet-matrix.ts';

const MAX_DEVIATIONS = 150;
const MAX_GROUPS = 60;
const MAX_GROUP_SITES = 200;

const STYLE = `
.fleet .mwrap{position:relative;height:560px;overflow:auto;border:1px solid var(--line);border-radius:6px;margin-top:8px}
.fleet table.fm{border-collapse:separate;border-spacing:0;width:auto;table-layout:auto}
.fleet table.fm th,.fleet table.fm td{padding:0;border:0;height:18px;line-height:18px}
.fleet table.fm thead th{position:sticky;top:0;background:#fff;z-index:2;vertical-align:bottom;height:auto;border-bottom:1px solid var(--line)}
.fleet table.fm thead th.bh{writing-mode:vertical-rl;transform:rotate(180deg);font:11px var(--mono);text-transform:none;letter-spacing:0;color:#333;max-height:190px;overflow:hidden;white-space:nowrap;padding:4px 0;cursor:default}
.fleet table.fm th.sh,.fleet table.fm td.sh{position:sticky;left:0;background:#fff;z-index:1;padding:0 8px;max-width:260px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font:12px var(--mono);border-right:1px solid var(--line)}
.fleet table.fm thead th.sh{z-index:3}
.fleet table.fm thead th.bh{width:14px;min-width:14px;max-width:14px}
.fleet td.cv canvas{display:block}
.fleet .legend i{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:middle;margin:0 4px 0 10px}
.fleet tr.dev{cursor:pointer}.fleet tr.dev:hover td{background:#f7f9fc}
.fleet .grp{border:1px solid var(--line);border-radius:8px;margin:8px 0;padding:0 12px}
.fleet .grp>summary{cursor:pointer;padding:8px 0}
.fleet .sites a{margin-right:10px;font:12px var(--mono)}
.fleet select{padding:3px 6px;border:1px solid #c9ced6;border-radius:6px}
`;

/** The matrix script: filters, then draws only the rows in view. */
const SCRIPT = `
(function () {
  var D = JSON.parse(document.getElementById('fleet-data').textContent);
  var B = D.behaviours, S = D.sites, M = D.matrix, NB = B.length;
  var MAXCOL = 1000, ROW = 18;
  var $ = function (id) { return document.getElementById(id); };
  var reasonOf = null;
  function reasons() {
    if (reasonOf) return reasonOf;
    reasonOf = new Map();
    for (var k = 0; k < D.failures.length; k++) { var f = D.failures[k]; reasonOf.set(f[0] * NB + f[1], D.reasons[f[2]]); }
    return reasonOf;
  }
  var NAME = { p: 'passed', f: 'failed', s: 'skipped', e: 'could not be checked', '.': 'not run' };
  var state = { rows: [], cols: [] };
  function filters() {
    var st = {};
    document.querySelectorAll('#ff input[data-st]').forEach(function (c) { if (c.checked) st[c.getAttribute('data-st')] = 1; });
    return { ns: $('f-ns').value, lvl: $('f-lvl').value, st: st, beh: $('f-beh').value.trim().toLowerCase(), site: $('f-site').value.trim().toLowerCase(), group: $('f-group').value, gating: $('f-gating').checked };
  }
  function apply() {
    var t0 = performance.now();
    var f = filters();
    var inGroup = null;
    if (f.group !== '') { inGroup = {}; D.groups[+f.group].sites.forEach(function (i) { inGroup[i] = 1; }); }
    var cand = [];
    for (var j = 0; j < NB; j++) {
      var b = B[j];
      if (f.ns && b.namespace !== f.ns) continue;
      if (f.lvl && b.level !== f.lvl) continue;
      if (f.beh && b.id.toLowerCase().indexOf(f.beh) < 0 && b.title.toLowerCase().indexOf(f.beh) < 0) continue;
      cand.push(j);
    }
    var sites = [];
    for (var i = 0; i < S.length; i++) {
      var s = S[i];
      if (inGroup && !inGroup[i]) continue;
      if (f.gating && !s.gating) continue;
      if (f.site && s.id.toLowerCase().indexOf(f.site) < 0 && s.url.toLowerCase().indexOf(f.site) < 0) continue;
      sites.push(i);
    }
    // Columns: behaviours with a selected status on some site; rows: sites with a selected status in those columns (or not run, when shown).
    var used = new Uint8Array(NB), rows = [];
    for (var r = 0; r < sites.length; r++) {
      var row = M[sites[r]], hit = false;
      if (!row.length) { if (f.st.n) rows.push(sites[r]); continue; }
      for (var c = 0; c < cand.length; c++) { if (f.st[row.charCodeAt(cand[c]) === 46 ? 'n' : row[cand[c]]]) { used[cand[c]] = 1; hit = true; } }
      if (hit) rows.push(sites[r]);
    }
    var cols = cand.filter(function (j) { return used[j]; });
    state.rows = rows; state.allCols = cols.length; state.cols = cols.slice(0, MAXCOL);
    var head = '<tr><th class="sh">site</th>';
    for (var k = 0; k < state.cols.length; k++) { var bb = B[state.cols[k]]; head += '<th class="bh" title="' + esc(bb.id + ' (' + bb.level + ') ' + bb.title) + '">' + esc(bb.id) + '</th>'; }
    $('fm-head').innerHTML = head + '</tr>';
    $('fm-shown').textContent = rows.length + ' of ' + S.length + ' sites × ' + state.cols.length + (cols.length > state.cols.length ? ' (first ' + MAXCOL + ' of ' + cols.length + '; narrow the filters)' : '') + ' of ' + NB + ' behaviours';
    $('fm-wrap').scrollTop = 0;
    draw();
    $('fm-time').textContent = 'filtered in ' + Math.round(performance.now() - t0) + ' ms';
  }
  function esc(s) { return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'); }
  var COLOR = { p: '#1b7f3b', f: '#c62828', s: '#d5d8dd', e: '#b26a00' }, CELL = 14;
  // Each row in view is one canvas (a cell is a 12 × 14 px square): a thousand rows × hundreds of
  // behaviours stay fast, since only the rows in view exist and a row costs one element.
  function draw() {
    var wrap = $('fm-wrap'), rows = state.rows, cols = state.cols;
    var first = Math.max(0, Math.floor(wrap.scrollTop / ROW) - 5), last = Math.min(rows.length, first + Math.ceil(wrap.clientHeight / ROW) + 10);
    var h = '<tr style="height:' + first * ROW + 'px"></tr>';
    for (var r = first; r < last; r++) {
      var i = rows[r], s = S[i];
      h += '<tr data-i="' + i + '"><td class="sh" title="' + esc(s.url) + '">' + (s.report ? '<a href="' + esc(s.report) + '">' + esc(s.id) + '</a>' : esc(s.id)) + '</td>' +
        (cols.length ? '<td class="cv" colspan="' + cols.length + '"><canvas width="' + cols.length * CELL + '" height="' + ROW + '"></canvas></td>' : '') + '</tr>';
    }
    h += '<tr style="height:' + (rows.length - last) * ROW + 'px"></tr>';
    var body = $('fm-body');
    body.innerHTML = h;
    body.querySelectorAll('tr[data-i]').forEach(function (tr) {
      var cv = tr.querySelector('canvas');
      if (!cv) return;
      var row = M[+tr.getAttribute('data-i')], g = cv.getContext('2d');
      for (var c = 0; c < cols.length; c++) {
        var ch = row.length ? row[cols[c]] : '.';
        if (ch === '.') { g.strokeStyle = '#d5d8dd'; g.strokeRect(c * CELL + 1.5, 2.5, 11, 13); }
        else { g.fillStyle = COLOR[ch]; g.fillRect(c * CELL + 1, 2, 12, 14); }
      }
    });
  }
  var pending = false;
  $('fm-wrap').addEventListener('scroll', function () { if (!pending) { pending = true; requestAnimationFrame(function () { pending = false; draw(); }); } });
  $('fm-body').addEventListener('mousemove', function (ev) {
    var cv = ev.target;
    if (!cv || cv.tagName !== 'CANVAS') return;
    var i = +cv.parentNode.parentNode.getAttribute('data-i'), c = Math.floor(ev.offsetX / CELL), j = state.cols[c];
    if (j === undefined) return;
    var ch = M[i].length ? M[i][j] : '.', why = reasons().get(i * NB + j);
    cv.title = S[i].id + ' · ' + B[j].id + ': ' + NAME[ch] + (why ? ' — ' + why : '');
  });
  document.querySelectorAll('#ff input, #ff select').forEach(function (el) { el.addEventListener(el.type === 'search' ? 'input' : 'change', apply); });
  $('f-reset').addEventListener('click', function () {
    $('f-ns').value = ''; $('f-lvl').value = ''; $('f-beh').value = ''; $('f-site').value = ''; $('f-group').value = ''; $('f-gating').checked = false;
    document.querySelectorAll('#ff input[data-st]').forEach(function (c) { c.checked = c.getAttribute('data-st') === 'f' || c.getAttribute('data-st') === 'e'; });
    apply();
  });
  document.addEventListener('click', function (ev) {
    var tr = ev.target.closest && ev.target.closest('[data-show-beh],[data-show-group]');
    if (!tr || ev.target.closest('a')) return;
    if (tr.hasAttribute('data-show-beh')) { $('f-beh').value = tr.getAttribute('data-show-beh'); $('f-group').value = ''; }
    else { $('f-group').value = tr.getAttribute('data-show-group'); $('f-beh').value = ''; }
    apply();
    $('matrix').scrollIntoView();
  });
  apply();
})();
`;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function renderFleetHtml(r: FleetReport): string {
  const v = r.verdict;
  const levels = gatingLevels(r.failOn).join(' or ');
  const verdict =
    r.exitCode === 0
      ? `<div class="verdict pass" id="verdict">PASS — ${plural(r.sites.length, 'site')}, none with a ${esc(levels)} failure outside its baseline</div>`
      : v.gatingSites
        ? `<div class="verdict fail" id="verdict">FAIL — ${v.gatingSites} of ${plural(r.sites.length, 'site')} with ${esc(levels)} failures not in their baseline</div>`
        : `<div class="verdict fail" id="verdict">INCOMPLETE — ${esc([v.harnessSites ? `${v.harnessSites} with a cms-conformance error` : '', v.troubleSites ? `${v.troubleSites} where the target did not answer usably` : '', v.notRun ? `${v.notRun} not run` : '', v.incomplete ? 'shards missing' : ''].filter(Boolean).join(', '))}</div>`;
  const shardList = [...new Set(r.inputs.map((i) => (i.shard ? `${i.shard.by} ${i.shard.index}/${i.shard.count}` : 'whole run')))];
  const meta = `<dl class="meta">
<dt>sites</dt><dd>${r.sites.length} (${r.clean} without any failure, ${v.gatingSites} with gating failures, ${v.troubleSites + v.harnessSites} where some checks could not be made, ${v.notRun} not run)</dd>
<dt>behaviours</dt><dd>${r.behaviours.length}</dd>
<dt>inputs</dt><dd>${plural(r.inputs.length, 'input')}: ${esc(shardList.slice(0, 20).join(', '))}${shardList.length > 20 ? ', …' : ''}</dd>
<dt>seed</dt><dd>${esc(r.seeds.join(', ') || '–')}</dd>
<dt>tool</dt><dd>${esc(r.tool.name)} ${esc(r.toolVersions.join(', ') || r.tool.version)}</dd>
<dt>fail on</dt><dd>${esc(levels)}${r.baseline ? `; baseline for every site: <code>${esc(r.baseline)}</code>` : ''}</dd>
<dt>generated</dt><dd>${esc(r.generatedAt.slice(0, 19).replace('T', ' '))} UTC</dd>
</dl>`;
  const warnings = r.warnings.length ? `<div class="box err" id="warnings">${r.warnings.map((w) => `<div>⚠ ${esc(w)}</div>`).join('')}</div>` : '';
  const totals = `<h2 id="totals">Totals</h2>
<p>${statusBar(r.totals, 'all')} ${counts(r.totals)} of ${r.totals.total} (sites × behaviours run)</p>
<table class="chart"><tbody>${LEVELS.filter((l) => r.totals.byLevel[l]?.total)
    .map((l) => `<tr><td>${l}</td><td class="barcell">${statusBar(r.totals.byLevel[l], l)}</td><td>${counts(r.totals.byLevel[l])}</td></tr>`)
    .join('')}</tbody></table>`;

  const devRows = r.deviations.slice(0, MAX_DEVIATIONS).map((d) => {
    const b = r.behaviours[d.behaviour]!;
    const why = d.reasons.map((x) => `<div class="why">${x.sites}× ${esc(r.reasons[x.reason])}</div>`).join('');
    return `<tr class="dev" data-show-beh="${esc(b.id)}"><td class="num failed">${d.failed || ''}</td><td class="num error">${d.error || ''}</td><td><span class="lvl ${b.level}">${b.level}</span> <span class="id">${esc(b.id)}</span><div class="note">${esc(b.title)}</div></td><td>${why}</td></tr>`;
  });
  const deviations = r.deviations.length
    ? `<h2 id="deviations">Failing behaviours shared by sites</h2>
<p class="note">Each behaviour that fails (or could not be checked) somewhere, by the number of sites; click one to see those sites in the matrix.</p>
<table id="deviation-list"><thead><tr><th class="num">sites failing</th><th class="num">could not check</th><th>behaviour</th><th>reasons (most common first)</th></tr></thead><tbody>${devRows.join('')}</tbody></table>
${r.deviations.length > MAX_DEVIATIONS ? `<p class="note">… and ${r.deviations.length - MAX_DEVIATIONS} more (filter the matrix, or read fleet.json)</p>` : ''}`
    : '<h2 id="deviations">Failing behaviours shared by sites</h2><p>No behaviour fails on any site.</p>';

  // Deviations by documented item first: one broken thing is one line, however many behaviours it fails.
  const items = r.itemDeviations ?? [];
  const itemSection = items.length
    ? `<h2 id="item-deviations">Deviations by documented item (${items.length})</h2>
<p class="note">The sites' failing behaviours grouped by the documented item that broke (an arg, a field, a setting, an endpoint); open one for its behaviours and sites.</p>
${items
  .slice(0, MAX_DEVIATIONS)
  .map(
    (d) =>
      `<details class="deviation"><summary><span class="num failed">${d.sites.length}</span> site${d.sites.length === 1 ? '' : 's'} · <span class="lvl ${d.level}">${d.level}</span> <strong>${esc(d.item)}</strong> — ${d.behaviours.length} behaviour${d.behaviours.length === 1 ? '' : 's'}<div class="why">${esc(d.message)}</div></summary><p class="note"><code>${esc(d.key)}</code></p><ul>${d.behaviours.map((id) => `<li><span class="id">${esc(id)}</span></li>`).join('')}</ul><p class="note">Sites: ${d.sites
        .slice(0, 50)
        .map((i) => esc(r.sites[i]!.id))
        .join(', ')}${d.sites.length > 50 ? ', …' : ''}</p></details>`,
  )
  .join('\n')}
${items.length > MAX_DEVIATIONS ? `<p class="note">… and ${items.length - MAX_DEVIATIONS} more (fleet.json lists them all)</p>` : ''}`
    : '';

  const link = (i: number) => {
    const s = r.sites[i]!;
    return s.report ? `<a href="${esc(s.report)}">${esc(s.id)}</a>` : `<span>${esc(s.id)}</span>`;
  };
  const groups = r.groups.length
    ? `<h2 id="groups">Sites grouped by the failures they share</h2>
${r.groups
  .slice(0, MAX_GROUPS)
  .map(
    (g, k) =>
      `<details class="grp"><summary><b>${plural(g.sites.length, 'site')}</b> fail ${g.failed
        .slice(0, 6)
        .map((b) => `<code>${esc(r.behaviours[b]!.id)}</code>`)
        .join(', ')}${g.failed.length > 6 ? ` and ${g.failed.length - 6} more` : ''}${g.gating ? '' : ' <span class="tag known">not gating</span>'}</summary>
<p><button type="button" data-show-group="${k}">show these sites in the matrix</button></p>
<div class="sites">${g.sites.slice(0, MAX_GROUP_SITES).map(link).join(' ')}${g.sites.length > MAX_GROUP_SITES ? ` … and ${g.sites.length - MAX_GROUP_SITES} more` : ''}</div>
${g.failed.length > 6 ? `<ul class="ids">${g.failed.map((b) => `<li>${esc(r.behaviours[b]!.id)}</li>`).join('')}</ul>` : ''}</details>`,
  )
  .join('\n')}
${r.groups.length > MAX_GROUPS ? `<p class="note">… and ${r.groups.length - MAX_GROUPS} more groups</p>` : ''}
<p class="note">${r.clean} site(s) have no failure.</p>`
    : '';

  const nss = [...new Set(r.behaviours.map((b) => b.namespace))].sort();
  const matrix = `<h2 id="matrix">Sites × behaviours</h2>
<div class="filters" id="ff">
<label>namespace <select id="f-ns"><option value="">all</option>${nss.map((n) => `<option value="${esc(n)}">${esc(n || '(site)')}</option>`).join('')}</select></label>
<label>level <select id="f-lvl"><option value="">all</option>${LEVELS.map((l) => `<option>${l}</option>`).join('')}</select></label>
<span>status ${[
    ['f', 'failed', true],
    ['e', 'could not be checked', true],
    ['s', 'skipped', false],
    ['p', 'passed', false],
    ['n', 'not run', false],
  ]
    .map(([k, name, on]) => `<label><input type="checkbox" data-st="${k}"${on ? ' checked' : ''}> ${name}</label>`)
    .join(' ')}</span>
<label>group <select id="f-group"><option value="">all sites</option>${r.groups
    .slice(0, MAX_GROUPS)
    .map((g, k) => `<option value="${k}">${plural(g.sites.length, 'site')}: ${esc(r.behaviours[g.failed[0]!]!.id)}${g.failed.length > 1 ? ` +${g.failed.length - 1}` : ''}</option>`)
    .join('')}</select></label>
<label><input type="checkbox" id="f-gating"> only sites with gating failures</label>
<input type="search" id="f-beh" placeholder="behaviour ID or title">
<input type="search" id="f-site" placeholder="site ID or URL">
<button type="button" id="f-reset">reset</button>
<span class="shown" id="fm-shown"></span> <span class="note" id="fm-time"></span>
</div>
<div class="legend note">${[
    ['p', 'passed'],
    ['f', 'failed'],
    ['e', 'could not be checked'],
    ['s', 'skipped'],
    ['n', 'not run'],
  ]
    .map(([c, n]) => `<i class="${c}" style="${c === 'p' ? 'background:var(--pass)' : c === 'f' ? 'background:var(--fail)' : c === 'e' ? 'background:var(--err)' : c === 's' ? 'background:#d5d8dd' : 'border:1px dashed #d5d8dd'}"></i>${n}`)
    .join('')} · hover a cell for the reason; a site's name opens its own report</div>
<div class="mwrap" id="fm-wrap"><table class="fm"><thead id="fm-head"></thead><tbody id="fm-body"></tbody></table></div>`;

  const siteRows = r.sites.map((s, i) => {
    const c = s.counts;
    return `<tr><td class="id">${link(i)}</td><td class="id">${esc(s.url)}</td><td>${esc(s.shards.join(', '))}</td><td class="num">${s.exitCode}</td><td>${s.state === 'not-run' ? `<span class="why">not run: ${esc(s.error)}</span>` : `${statusBar(c, s.id)} ${counts(c)}`}</td><td>${s.gating.length ? `<span class="why">${s.gating.length} gating: ${esc(s.gating.slice(0, 3).join(', '))}${s.gating.length > 3 ? ' …' : ''}</span>` : ''}${s.known ? ` <span class="tag known">${s.known} in baseline</span>` : ''}</td></tr>`;
  });
  const sites = `<h2 id="sites">Sites</h2>
<details${r.sites.length <= 50 ? ' open' : ''}><summary>${plural(r.sites.length, 'site')}, the ones that need attention first</summary>
<table><thead><tr><th>site</th><th>URL</th><th>shard</th><th class="num">exit</th><th>behaviours</th><th>failures</th></tr></thead><tbody>${siteRows.join('')}</tbody></table></details>`;

  const inputs = `<h2 id="inputs">Inputs</h2><table><thead><tr><th>folder</th><th>kind</th><th>shard</th><th class="num">sites</th><th>behaviours</th></tr></thead><tbody>${r.inputs
    .map((i) => `<tr><td class="id">${esc(i.path)}</td><td>${i.kind}</td><td>${i.shard ? `${i.shard.by} ${i.shard.index}/${i.shard.count}` : '–'}</td><td class="num">${i.sites}</td><td>${counts(i.counts)}</td></tr>`)
    .join('')}</tbody></table>`;

  // The matrix's data: what the script needs, nothing more.
  const data = {
    behaviours: r.behaviours.map((b) => ({ id: b.id, level: b.level, namespace: b.namespace, title: b.title })),
    sites: r.sites.map((s) => ({ id: s.id, url: s.url, ...(s.report ? { report: s.report } : {}), gating: s.gating.length })),
    matrix: r.matrix,
    reasons: r.reasons,
    failures: r.failures,
    groups: r.groups.slice(0, MAX_GROUPS).map((g) => ({ sites: g.sites })),
  };
  const body = `<div class="fleet">
<h1>cms-conformance fleet report</h1>
${verdict}
${meta}
${warnings}
<nav class="toc">${items.length ? '<a href="#item-deviations">deviations</a>' : ''}<a href="#totals">totals</a><a href="#deviations">failing behaviours</a><a href="#groups">groups</a><a href="#matrix">matrix</a><a href="#sites">sites</a><a href="#inputs">inputs</a></nav>
${itemSection}
${totals}
${deviations}
${groups}
${matrix}
${sites}
${inputs}
<p class="note">Statuses: ${['passed', 'failed', 'error', 'skipped'].map(badge).join(' ')} — error: the check could not be made (the target did not answer usably, or a bug of cms-conformance).</p>
</div>
<script type="application/json" id="fleet-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
<style>${STYLE}</style>`;
  return page(`cms-conformance fleet: ${r.sites.length} sites`, body, SCRIPT);
}
