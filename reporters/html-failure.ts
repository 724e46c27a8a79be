/**
 * One failure (or check that could not be made) in the HTML report: what was checked, the message,
 * the request whose answer it judged with that answer and its curl, the shrunk input, and the
 * command that reruns it. Folded under its one-line summary (level, ID, why) in "What fails".
 */
import { anchor, copyBlock, esc } from './html-kit.ts';
import { embeddedName, indexCurl, isEmbedded, onlyOne, rerunCommand, usesCredentials } from './reproduce.ts';
import { LEVEL_BASIS, type BehaviourResult, type RecordedExchange, type Results } from '../results/results.ts';

const KIND_HELP: Record<string, string> = {
  conformance: 'The target does not do what the specification states (a conformance failure).',
  target: 'The target did not answer usably (network error, timeout, 5xx, not JSON): the check could not finish. Not necessarily a conformance problem; rerun, and look at the target’s logs.',
  harness: 'An error inside cms-conformance itself, not a finding about the target. Please report it with this page.',
};

/** Bodies shown in the report are cut here (results.json keeps up to 2,000 characters, the curl repeats the request). */
const SHOWN_BODY = 1200;

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** JSON bodies pretty-printed when complete (a truncated body is shown as it is), cut at SHOWN_BODY. */
function body(text: string): string {
  let t = text;
  try {
    t = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON, or truncated: as it is
  }
  return t.length > SHOWN_BODY ? `${t.slice(0, SHOWN_BODY)}… [${t.length - SHOWN_BODY} more characters in results.json]` : t;
}

/** A behaviour's level badge: short; what it rests on is its title (a SHOULD is a WordPress convention the spec does not state). */
export const levelBadge = (level: BehaviourResult['level']) => `<span class="lvl ${level}" title="${esc(LEVEL_BASIS[level])}">${level}</span>`;

function exchangeBlock(e: RecordedExchange, title: string): string {
  const ct = e.responseHeaders?.['content-type'];
  return `<div class="exchange"><h5>${esc(title)}</h5>
<pre>${esc(`${e.method} ${e.url}`)}${e.auth && e.auth !== 'none' ? esc(`\nAuthorization: ${e.auth === 'configured' ? '(the configured credentials, redacted)' : '[redacted]'}`) : ''}${e.requestBody !== undefined ? esc(`\n\n${body(e.requestBody)}`) : ''}</pre>
<h5>Response</h5>
<pre>${esc(e.error ? `no response: ${e.error}` : `HTTP ${e.status}${ct ? `\ncontent-type: ${ct}` : ''}${e.durationMs !== undefined ? `  (${Math.round(e.durationMs)} ms)` : ''}\n\n${e.responseText ? body(e.responseText) : '(empty body)'}`)}</pre>
<h5>Reproduce with curl</h5>
${copyBlock(e.curl)}</div>`;
}

/**
 * The recorded exchanges: the ones the check judged first (`judged`), each with its answer and
 * curl; the other requests it sent before the failure folded below them. Results of earlier
 * versions have no `judged`: their last exchange is shown as the last request sent.
 */
function exchanges(b: BehaviourResult): string[] {
  const ex = b.exchanges ?? [];
  if (!ex.length) return [];
  const judged = ex.filter((e) => e.judged);
  const lead = judged.length ? judged : [ex[ex.length - 1]!];
  const rest = ex.filter((e) => !lead.includes(e));
  const title = (i: number) =>
    judged.length ? `The request whose answer the check judged${lead.length > 1 ? ` (${i + 1} of ${lead.length})` : ''}` : ex.length > 1 ? 'Request (the last one sent before the failure)' : 'Request';
  return [
    ...lead.map((e, i) => exchangeBlock(e, title(i))),
    ...(rest.length
      ? [`<details class="earlier"><summary>${rest.length} other request${rest.length > 1 ? 's' : ''} of this check</summary>${rest.map((e, i) => exchangeBlock(e, `Request ${i + 1} of ${rest.length}`)).join('')}</details>`]
      : []),
  ];
}

export function failureDetail(r: Results, b: BehaviourResult): string {
  const known = r.baseline?.known.find((k) => k.id === b.id);
  const parts: string[] = [];
  parts.push(`<h5>Checked</h5><div>${esc(b.title)} <span class="note">— ${esc(b.spec)}${b.level === 'SHOULD' ? ' (SHOULD: a WordPress convention the specification does not state)' : ''}</span></div>`);
  parts.push(`<h5>Why it failed</h5><pre class="msg">${esc(b.message ?? b.reason ?? 'failed')}</pre>`);
  if (b.failureKind) parts.push(`<div class="note">Failure kind <strong>${esc(b.failureKind)}</strong>: ${esc(KIND_HELP[b.failureKind] ?? '')}</div>`);
  if (b.diff) parts.push(`<h5>Expected / received</h5><pre>${esc(b.diff)}</pre>`);
  if (known) parts.push(`<div class="box">Known failure, listed in the baseline: ${esc(known.reason)}${known.link ? ` — <a href="${esc(known.link)}">${esc(known.link)}</a>` : ''}</div>`);
  if (b.counterexample !== undefined) parts.push(`<h5>Shrunk input (smallest failing input found)</h5><pre>${esc(json(b.counterexample))}</pre>`);
  if (b.details !== undefined) parts.push(`<h5>Details</h5><pre>${esc(typeof b.details === 'string' ? b.details : json(b.details))}</pre>`);
  const ex = exchanges(b);
  if (ex.length) parts.push(...ex);
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

/** A failure folded under its one line (level, ID, title, why), the anchor the deviations link to. */
export function failureItem(r: Results, b: BehaviourResult, tag: string): string {
  return `<details class="failure ${b.status}" id="${anchor('b', b.id)}" data-status="${b.status}" data-level="${b.level}"><summary>${levelBadge(b.level)} <span class="id">${esc(b.id)}</span>${tag} <span class="title">${esc(b.title)}</span><div class="why">${esc(b.reason ?? '')}</div></summary>
<div class="detail">${failureDetail(r, b)}</div></details>`;
}
