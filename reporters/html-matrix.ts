/**
 * "All behaviours" of the HTML report, light: one folded box per namespace (its counts and a bar
 * as wide as its share of the run), whose rows are rendered in the browser from compact data
 * embedded in the page (a JSON block: strings said once, each behaviour an array) when the box is
 * opened, a filter is set or a search typed. So a run of 2,119 behaviours is about 350 KB of data
 * instead of 1.7 MB of rows, the first paint shows the verdict at once, and every behaviour is
 * still reachable: by namespace, by status and level, by a search over ID, title and reason, and
 * by a link to `#b-<ID>`.
 */
import { counts, esc, statusBar, type StatusCounts } from './html-kit.ts';
import { LEVELS, LEVEL_BASIS, STATUSES, type BehaviourResult, type Results } from '../results/results.ts';

export const nsKey = (b: Pick<BehaviourResult, 'namespace'>) => b.namespace || '(site)';

export function nsOrder(a: string, b: string): number {
  const rank = (s: string) => (s === '(site)' ? 0 : s === 'cms/v2' ? 1 : 2);
  return rank(a) - rank(b) || a.localeCompare(b);
}

export function tally(list: readonly Pick<BehaviourResult, 'status'>[]): StatusCounts {
  const c = { passed: 0, failed: 0, skipped: 0, error: 0, total: list.length };
  for (const b of list) c[b.status]++;
  return c;
}

/** The width of a namespace's bar: its share of the largest namespace (a 1-behaviour namespace is a sliver, not a full bar). */
export const barScale = (total: number, largest: number) => Math.max(total / Math.max(largest, 1), 0.02);

/**
 * A string as its difference from the one before it: [characters it shares at the start, at the
 * end, what is between]. IDs and titles of neighbouring behaviours are mostly the same template
 * (`suite.settings.type.<setting>`): this halves them (2,119 behaviours: 290 KB to 160 KB).
 */
export function againstPrevious(prev: string, s: string): [number, number, string] {
  let p = 0;
  const max = Math.min(s.length, prev.length);
  while (p < max && s[p] === prev[p]) p++;
  let q = 0;
  while (q < max - p && s[s.length - 1 - q] === prev[prev.length - 1 - q]) q++;
  return [p, q, s.slice(p, s.length - q)];
}

/**
 * The behaviours as compact data: `t` holds every repeated string once (reasons, routes, spec
 * sections, namespaces); each behaviour is [...id against the previous ID, status, level,
 * ...title against the previous title, reason, namespace, route, spec, ms, known] with indexes
 * into STATUSES, LEVELS and `t` (-1: none); known is 1 (in the baseline), 2 (new) or 0.
 */
export function matrixData(r: Results): string {
  const table: string[] = [];
  const at = new Map<string, number>();
  const ref = (s: string | undefined) => {
    if (!s) return -1;
    let i = at.get(s);
    if (i === undefined) at.set(s, (i = table.push(s) - 1));
    return i;
  };
  const known = new Set((r.baseline?.known ?? []).map((k) => k.id));
  let prev = { id: '', title: '' };
  const rows = [...r.behaviours]
    .sort((a, b) => nsOrder(nsKey(a), nsKey(b)) || (a.route ?? '').localeCompare(b.route ?? '') || a.id.localeCompare(b.id))
    .map((b) => {
      const row = [
        ...againstPrevious(prev.id, b.id),
        STATUSES.indexOf(b.status),
        LEVELS.indexOf(b.level),
        ...againstPrevious(prev.title, b.title),
        ref(b.reason),
        ref(nsKey(b)),
        ref(b.route || '(no route)'),
        ref(b.spec.replace(/^.*? § /, '§ ')),
        b.durationMs,
        b.status === 'failed' && r.baseline ? (known.has(b.id) ? 1 : 2) : 0,
      ];
      prev = b;
      return row;
    });
  // Inside <script>, "</" would end the element: written as "<\/" (the same string to JSON.parse).
  return JSON.stringify({ t: table, b: rows, basis: LEVEL_BASIS }).replace(/<\//g, '<\\/');
}

export function matrixSection(r: Results): string {
  const byNs = new Map<string, BehaviourResult[]>();
  for (const b of r.behaviours) byNs.set(nsKey(b), [...(byNs.get(nsKey(b)) ?? []), b]);
  const largest = Math.max(...[...byNs.values()].map((l) => l.length), 1);
  const statusCount = tally(r.behaviours);
  const level = (l: string) => r.behaviours.filter((b) => b.level === l).length;
  const boxes = [...byNs.keys()].sort(nsOrder).map((ns) => {
    const c = tally(byNs.get(ns)!);
    return `<details class="ns" data-ns="${esc(ns)}"><summary><span class="nsname">${esc(ns)}</span> ${statusBar(c, ns, barScale(c.total, largest))} ${counts(c)} <span class="note">of ${c.total}</span> <span class="nshown"></span></summary><div class="nsbody"></div></details>`;
  });
  return `<section id="matrix"><h2>All behaviours (${r.behaviours.length})</h2>
<p class="note">One box per namespace: open one to list its behaviours, or filter and search across all of them. A link to <code>#m-&lt;ID&gt;</code> opens that behaviour's row (<code>#b-&lt;ID&gt;</code>: a failure's details).</p>
<div class="filters" id="filters">
<span>Status:</span>
<label><input type="checkbox" data-filter="status" value="failed" checked> failed (${statusCount.failed})</label>
<label><input type="checkbox" data-filter="status" value="passed" checked> passed (${statusCount.passed})</label>
<label><input type="checkbox" data-filter="status" value="error" checked> error (${statusCount.error ?? 0})</label>
<label><input type="checkbox" data-filter="status" value="skipped" checked> skipped (${statusCount.skipped})</label>
<span>Level:</span>
${LEVELS.map((l) => `<label><input type="checkbox" data-filter="level" value="${l}" checked> ${l} (${level(l)})</label>`).join('\n')}
<input type="search" id="search" placeholder="Search ID, title or reason">
<button type="button" id="only-failures">Failures only</button>
<button type="button" id="show-all">Show all</button>
<span class="shown" id="shown"></span>
</div>
${boxes.join('\n')}
<script type="application/json" id="behaviours-data">${matrixData(r)}</script>
</section>`;
}

export const MATRIX_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('behaviours-data').textContent);
  var T = data.t, S = ${JSON.stringify(STATUSES)}, L = ${JSON.stringify(LEVELS)};
  // Each ID and title is kept as its difference from the one before: [shared start, shared end, middle].
  function undo(prev, p, q, mid) { return prev.slice(0, p) + mid + (q ? prev.slice(prev.length - q) : ''); }
  var pid = '', ptitle = '';
  var all = data.b.map(function (x) {
    var id = pid = undo(pid, x[0], x[1], x[2]), title = ptitle = undo(ptitle, x[5], x[6], x[7]), reason = x[8] < 0 ? '' : T[x[8]];
    return { id: id, status: S[x[3]], level: L[x[4]], title: title, reason: reason, ns: T[x[9]], route: T[x[10]], spec: T[x[11]], ms: x[12], known: x[13],
      text: (id + ' ' + title + ' ' + reason).toLowerCase() };
  });
  var boxes = Array.prototype.slice.call(document.querySelectorAll('#filters input[type=checkbox]'));
  var search = document.getElementById('search');
  var nss = Array.prototype.slice.call(document.querySelectorAll('#matrix details.ns'));
  function esc(s) { return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'); }
  function anchor(id, prefix) { return (prefix || 'b') + '-' + id.replace(/[^A-Za-z0-9_.-]/g, '_'); }
  function chosen(kind) { return boxes.filter(function (b) { return b.dataset.filter === kind && b.checked; }).map(function (b) { return b.value; }); }
  function narrowed() { return boxes.some(function (b) { return !b.checked; }) || search.value.trim() !== ''; }
  function matches() {
    var st = chosen('status'), lv = chosen('level'), q = search.value.trim().toLowerCase();
    return all.filter(function (b) { return st.indexOf(b.status) >= 0 && lv.indexOf(b.level) >= 0 && (!q || b.text.indexOf(q) >= 0); });
  }
  function row(b) {
    var tag = b.known === 1 ? '<span class="tag known">known</span>' : b.known === 2 ? '<span class="tag new">new</span>' : '';
    var note = b.status === 'failed' || b.status === 'error' ? '<div class="why">' + esc(b.reason) + ' <a href="#' + anchor(b.id) + '">details</a></div>'
      : b.status === 'skipped' ? '<div class="skipwhy">skipped: ' + esc(b.reason || '(no reason given)') + '</div>' : '';
    return '<tr class="beh ' + b.status + '" id="' + anchor(b.id, 'm') + '" data-status="' + b.status + '" data-level="' + b.level + '"><td><span class="badge ' + b.status + '">' + b.status + '</span></td>' +
      '<td><span class="lvl ' + b.level + '" title="' + esc(data.basis[b.level]) + '">' + b.level + '</span></td><td><span class="id">' + esc(b.id) + '</span>' + tag + '<div>' + esc(b.title) + '</div>' + note + '</td>' +
      '<td class="note">' + esc(b.spec) + '</td><td class="note">' + b.ms + ' ms</td></tr>';
  }
  function body(list) {
    var out = [], route = null, rows = [];
    function flush() { if (rows.length) out.push('<div class="route"><h4>' + esc(route) + '</h4><table class="matrix"><colgroup><col style="width:84px"><col style="width:78px"><col><col style="width:230px"><col style="width:72px"></colgroup><tbody>' + rows.join('') + '</tbody></table></div>'); rows = []; }
    list.forEach(function (b) { if (b.route !== route) { flush(); route = b.route; } rows.push(row(b)); });
    flush();
    return out.join('');
  }
  var shown = [];
  function render(d) {
    var ns = d.dataset.ns;
    d.querySelector('.nsbody').innerHTML = body(shown.filter(function (b) { return b.ns === ns; }));
    d.dataset.rendered = '1';
  }
  function apply(open) {
    shown = matches();
    var narrow = narrowed();
    nss.forEach(function (d) {
      var n = shown.filter(function (b) { return b.ns === d.dataset.ns; }).length;
      d.classList.toggle('hidden', n === 0);
      d.querySelector('.nshown').textContent = narrow ? '· ' + n + ' shown' : '';
      if (open && narrow && n > 0) d.open = true;
      if (d.open) render(d); else d.dataset.rendered = '';
    });
    document.getElementById('shown').textContent = 'showing ' + shown.length + ' of ' + all.length;
    offset();
  }
  nss.forEach(function (d) { d.addEventListener('toggle', function () { if (d.open && !d.dataset.rendered) render(d); }); });
  boxes.forEach(function (b) { b.addEventListener('change', function () { apply(true); }); });
  search.addEventListener('input', function () { apply(true); });
  document.getElementById('only-failures').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = b.dataset.filter === 'level' || b.value === 'failed' || b.value === 'error'; }); apply(true);
  });
  document.getElementById('show-all').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = true; }); search.value = ''; apply(false);
  });
  // A link to a behaviour scrolls its row below the sticky filter bar (however many lines it wraps to), not under it.
  var bar = document.getElementById('filters');
  function offset() { document.documentElement.style.setProperty('--sticky-offset', (bar.offsetHeight + 8) + 'px'); }
  window.addEventListener('resize', offset);
  /** Show what a link to a behaviour names: its failure's details (#b-<ID>), else its row in its namespace (rendered on demand), and scroll to it. */
  function reveal(hash, scroll) {
    if (!/^#[bm]-/.test(hash)) return;
    var el = /^#b-/.test(hash) && document.getElementById(hash.slice(1));
    if (!el) {
      var key = hash.slice(3);
      var b = all.filter(function (x) { return anchor(x.id, 'x') === 'x-' + key; })[0];
      if (!b) return;
      if (shown.indexOf(b) < 0) { boxes.forEach(function (x) { x.checked = true; }); search.value = ''; apply(false); }
      var d = nss.filter(function (x) { return x.dataset.ns === b.ns; })[0];
      if (d) { d.open = true; if (!d.dataset.rendered) render(d); }
      el = document.getElementById(anchor(b.id, 'm'));
    }
    if (!el) return;
    if (el.tagName === 'DETAILS') el.open = true;
    var p = el.parentElement && el.parentElement.closest('details'); if (p) p.open = true;
    if (scroll) el.scrollIntoView();
  }
  document.addEventListener('click', function (ev) {
    var a = ev.target.closest && ev.target.closest('a[href^="#b-"], a[href^="#m-"]');
    if (!a) return;
    ev.preventDefault();
    history.replaceState(null, '', a.getAttribute('href'));
    reveal(a.getAttribute('href'), true);
  });
  window.addEventListener('hashchange', function () { reveal(location.hash, true); });
  apply(false);
  if (location.hash) reveal(location.hash, true);
})();
`;
