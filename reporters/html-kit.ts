/**
 * Pieces shared by the HTML reports (run report and comparison): escaping, the stylesheet,
 * stacked status bars, copy buttons. Everything is inline: a report opens without network.
 */
export const esc = (v: unknown): string =>
  String(v ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** A string usable as an element ID / fragment. */
export const anchor = (prefix: string, id: string) => `${prefix}-${id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

export interface StatusCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Could not be checked (target trouble or a harness bug); absent in results of earlier versions. */
  error?: number;
  total: number;
}

/**
 * A stacked bar: passed / failed / skipped, each segment's width its share of the total. `scale`
 * (0-1): the bar's own width as a share of its place, so that bars of different totals are
 * weighted by size (a namespace of one behaviour is a sliver beside one of 580).
 */
export function statusBar(c: StatusCounts, label?: string, scale?: number): string {
  const seg = (n: number, cls: string, word: string) =>
    n > 0 ? `<span class="seg ${cls}" style="width:${((n / Math.max(c.total, 1)) * 100).toFixed(2)}%" title="${n} ${word}"></span>` : '';
  const width = scale === undefined ? '' : ` style="width:${(Math.min(1, Math.max(0, scale)) * 100).toFixed(1)}%"`;
  const bar = `<span class="bar"${width} role="img" aria-label="${esc(label ?? '')} ${c.passed} passed, ${c.failed} failed, ${c.error ?? 0} errors, ${c.skipped} skipped">${seg(c.passed, 'passed', 'passed')}${seg(c.failed, 'failed', 'failed')}${seg(c.error ?? 0, 'error', 'could not be checked')}${seg(c.skipped, 'skipped', 'skipped')}</span>`;
  return scale === undefined ? bar : `<span class="barbox">${bar}</span>`;
}

/** A single-value bar (coverage). */
export function percentBar(percent: number): string {
  return `<span class="bar"><span class="seg covered" style="width:${Math.min(100, Math.max(0, percent)).toFixed(1)}%"></span></span>`;
}

export const counts = (c: StatusCounts) =>
  `<span class="n passed">${c.passed} passed</span> <span class="n failed">${c.failed} failed</span>${c.error ? ` <span class="n error">${c.error} error${c.error === 1 ? '' : 's'}</span>` : ''} <span class="n skipped">${c.skipped} skipped</span>`;

export function badge(status: string): string {
  return `<span class="badge ${esc(status)}">${esc(status)}</span>`;
}

/** A <pre> block with a Copy button (works from file:// without clipboard permission, by selection). */
export function copyBlock(text: string, cls = 'cmd'): string {
  return `<div class="copy"><pre class="${cls}">${esc(text)}</pre><button type="button" class="copybtn" title="Copy to the clipboard">Copy</button></div>`;
}

export const STYLE = `
:root{--pass:#1b7f3b;--fail:#c62828;--skip:#8a8f98;--err:#b26a00;--cov:#1f5fbf;--bg:#fff;--fg:#1d2128;--muted:#5b6370;--line:#e3e6ea;--soft:#f5f7f9;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
*{box-sizing:border-box}
html{scroll-padding-top:var(--sticky-offset,0px)}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1200px;margin:0 auto;padding:16px 24px 64px}
h1{font-size:22px;margin:0 0 6px}h2{font-size:18px;margin:28px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:18px 0 6px}h4{font-size:13px;margin:14px 0 4px;font-family:var(--mono);color:#333}
code,pre,.mono{font-family:var(--mono);font-size:12.5px}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-word;margin:4px 0}
a{color:#1f5fbf}
.verdict{font-size:16px;font-weight:600;padding:10px 14px;border-radius:8px;margin:10px 0}
.verdict.pass{background:#e7f5ec;color:var(--pass);border:1px solid #b9e2c6}.verdict.fail{background:#fdecec;color:var(--fail);border:1px solid #f3c1c1}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}
.meta dt{color:var(--muted)}.meta dd{margin:0}
.toc a{margin-right:14px}
.bar{display:inline-flex;width:260px;height:12px;background:#eef0f3;border-radius:6px;overflow:hidden;vertical-align:middle}
.seg{display:block;height:100%}.seg.passed{background:var(--pass)}.seg.failed{background:var(--fail)}.seg.skipped{background:var(--skip)}.seg.error{background:var(--err)}.seg.covered{background:var(--cov)}
.n{font-variant-numeric:tabular-nums;margin-right:6px}.n.passed{color:var(--pass)}.n.failed{color:var(--fail)}.n.skipped{color:var(--skip)}.n.error{color:var(--err)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.03em}
.chart{width:auto;min-width:60%}.chart td{border:0;padding:3px 10px}.chart td:first-child{font-family:var(--mono);white-space:nowrap}
.chart tr.grp th{padding-top:14px;border-bottom:1px solid var(--line)}.chart .barcell{width:340px}.chart .bar{width:100%}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.num.passed{color:var(--pass)}td.num.failed{color:var(--fail);font-weight:600}td.num.skipped{color:var(--skip)}td.num.error{color:var(--err)}td.num.zero{color:#b8bdc4;font-weight:400}
.badge{display:inline-block;min-width:58px;text-align:center;padding:1px 6px;border-radius:10px;font-size:11.5px;font-weight:600;color:#fff}
.badge.passed{background:var(--pass)}.badge.failed{background:var(--fail)}.badge.skipped{background:var(--skip)}.badge.error{background:var(--err)}.badge.absent{background:#c4c8ce}
.lvl{font-size:11px;font-weight:700;padding:1px 5px;border-radius:4px;border:1px solid}.lvl.SECURITY{color:#fff;background:#7a1fa2;border-color:#7a1fa2}.lvl.MUST{color:#8a1c1c;border-color:#e2a3a3}.lvl.SHOULD{color:#6b5200;border-color:#e5d08a}
.tag{font-size:11px;padding:1px 6px;border-radius:4px;background:#eef0f3;color:#333;margin-left:4px}.tag.new{background:#fdecec;color:var(--fail)}.tag.known{background:#fff4d6;color:#6b5200}
.id{font-family:var(--mono);font-size:12px;word-break:break-all}
.why{color:#4a2020;margin-top:2px}details.deviation{margin:6px 0;padding:6px 10px;border:1px solid #e3d0d0;border-radius:4px}details.deviation summary{cursor:pointer}details.deviation .why{display:block}.skipwhy{color:var(--muted);margin-top:2px}
.ns{border:1px solid var(--line);border-radius:8px;margin:10px 0;padding:0 12px}
.ns>summary{cursor:pointer;padding:8px 0;font-weight:600}
.ns>summary .bar{width:160px;margin:0 10px}.ns>summary .barbox{width:180px;margin:0 10px}.ns>summary .barbox .bar{margin:0}
.barbox{display:inline-block;width:260px;vertical-align:middle}.barbox .bar{min-width:3px}.chart .barbox{width:100%}
.verdict.partial,.verdict.incomplete{background:#fff4d6;color:#7a5200;border:1px solid #ecd38a}
.counts{margin:4px 0 2px;font-variant-numeric:tabular-nums}.checked{margin:6px 0}.checked ul{margin:2px 0 0;padding-left:20px}.checked li{color:#7a5200}
details.failure{border:1px solid #f0d4d4;border-radius:6px;margin:6px 0;padding:4px 10px;background:#fffdfd}details.failure.error{border-color:#ecd38a}
details.failure>summary{cursor:pointer}details.failure .title{color:var(--fg)}details.failure>.detail{padding:4px 0 8px 14px;border-left:4px solid var(--fail);margin-top:6px}
details.failure:target,details.failure[open]{background:#fff}.nshown{color:var(--muted);font-weight:400}.ns .nsname{display:inline-block;min-width:150px}
.beh.failed td{background:#fff8f8}
.beh:target td{background:#fff3c4}

.beh td:last-child{white-space:nowrap;text-align:right}
.detail h5{margin:10px 0 2px;font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.exchange{border-left:3px solid #f0b4b4;padding-left:10px;margin:8px 0}
.filters{position:sticky;top:0;background:rgba(255,255,255,.96);padding:8px 0;border-bottom:1px solid var(--line);z-index:2;display:flex;flex-wrap:wrap;gap:6px 18px;align-items:center}
.filters label{cursor:pointer;user-select:none}.filters input[type=search]{padding:4px 8px;border:1px solid #c9ced6;border-radius:6px;min-width:240px}
.filters button{padding:3px 10px;border:1px solid #c9ced6;border-radius:6px;background:#fff;cursor:pointer}
.shown{color:var(--muted)}
.copy{position:relative}.copybtn{position:absolute;top:6px;right:6px;font-size:11px;padding:2px 8px;border:1px solid #c9ced6;border-radius:5px;background:#fff;cursor:pointer}
.copy pre{padding-right:64px}
.hidden{display:none!important}
.note{color:var(--muted);font-size:13px}
.box{border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0;background:var(--soft)}
.box.err{background:#fdecec;border-color:#f3c1c1}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:8px 28px}
ul.ids{columns:2;font-family:var(--mono);font-size:12px;margin:4px 0;padding-left:18px}
.diff{max-height:none}.diff .del{color:#a11;background:#fdf0f0;display:inline-block;width:100%}.diff .add{color:#1a6a2f;background:#eef9f1;display:inline-block;width:100%}
table.cmp,table.matrix{table-layout:fixed}
`;

export const COPY_SCRIPT = `
document.addEventListener('click', function (ev) {
  var b = ev.target.closest && ev.target.closest('.copybtn');
  if (!b) return;
  var pre = b.parentNode.querySelector('pre');
  var text = pre.textContent;
  var done = function () { b.textContent = 'Copied'; setTimeout(function () { b.textContent = 'Copy'; }, 1500); };
  var fallback = function () {
    var r = document.createRange(); r.selectNodeContents(pre);
    var s = getSelection(); s.removeAllRanges(); s.addRange(r);
    try { document.execCommand('copy'); done(); } catch (e) { b.textContent = 'Press Ctrl+C'; }
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback); else fallback();
});
`;

export function page(title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script>${COPY_SCRIPT}${script}</script>
</body>
</html>
`;
}
