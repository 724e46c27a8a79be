/**
 * Client readiness in every report (results/clients.ts): one line per real client beside the
 * conformance verdict ("wpapi 1.2.2: ready", "api-fetch …: not ready — write: …"), for the console,
 * report.html, report.md and the comparison of two runs ("api-fetch: ready → not ready").
 * Renders results only; the shared renderers call these with one line each.
 */
import { FLOWS, clientLabel, type ClientFinding, type ClientReadiness, type ReadinessChange } from '../results/clients.ts';
import { esc } from './html-kit.ts';

/** Text for Markdown: one line, no pipes, no HTML (route keys hold <id>, which a renderer would take for a tag). */
const mdText = (t: string) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const clip = (t: string, n: number) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);
const firstLine = (t: string) => t.split('\n')[0]!;

/** Where the spec stands on a finding, and whose limitation it is, in words. */
export function stanceOf(f: ClientFinding, client: string): string {
  if (f.spec === 'contrary') return `the server is right by the spec (${f.specSays}); ${client} would still break: its limitation`;
  if (f.spec === 'stated') return `the spec states it (${f.specSays}): the server deviates`;
  return `the spec does not state it (${f.specSays}); ${client} relies on it`;
}

/** "ready", "ready (not checked: write, batch: writes not allowed …)", "not ready — discover, read". */
export function verdictText(c: ClientReadiness): string {
  if (c.verdict === 'not ready') return `not ready — ${c.failingFlows.join(', ')}`;
  if (c.verdict === 'not checked') return `not checked${c.unchecked[0] ? `: ${firstLine(c.unchecked[0].reason)}` : ''}`;
  const why = c.unchecked.find((u) => u.flows.some((f) => c.uncheckedFlows.includes(f)));
  return c.uncheckedFlows.length ? `ready (not checked: ${c.uncheckedFlows.join(', ')}${why ? `: ${clip(firstLine(why.reason), 120)}` : ''})` : 'ready';
}

/** One finding as a line: "discover: route keys … (its discovery builds no .id()); the server is right by the spec …". */
export function findingText(f: ClientFinding, client: string, width = 400): string {
  return `${f.flows.join(', ')}: ${clip(firstLine(f.message), width)} (${f.breaks}); ${stanceOf(f, client)}`;
}

/** The console's lines: a heading, then one line per client and one per finding (at most 3 per client). */
export function readinessLines(clients: readonly ClientReadiness[] | undefined, width = 160): string[] {
  if (!clients?.length) return [];
  const out = ['client readiness (level CLIENT: what real clients rely on; never a conformance failure):'];
  for (const c of clients) {
    out.push(clip(`  ${clientLabel(c.client)}: ${verdictText(c)}`, Math.max(width, 60)));
    for (const f of c.findings.slice(0, 3)) out.push(clip(`    ${findingText(f, c.client, 120)}`, width * 3));
    if (c.findings.length > 3) out.push(`    … and ${c.findings.length - 3} more (in the report)`);
  }
  return out;
}

/** A Markdown table of the clients and their readiness, then each finding. */
export function readinessMarkdown(clients: readonly ClientReadiness[] | undefined): string {
  if (!clients?.length) return '';
  const cell = mdText;
  const rows = clients.map((c) => `| ${cell(clientLabel(c.client))} | ${cell(verdictText(c))} |`);
  const details = clients.flatMap((c) => c.findings.map((f) => `- **${cell(c.client)}** ${cell(findingText(f, c.client, 300))} — \`${f.behaviour}\`, ${cell(f.where)}`));
  return ['## Client readiness', '', 'Level CLIENT: what real clients of the interface rely on (their code is cited per behaviour); never a conformance failure.', '', '| client | readiness |', '|---|---|', ...rows, '', ...(details.length ? [...details, ''] : [])].join('\n');
}

/** The HTML table of the clients and their readiness (beside the verdict of report.html). */
export function readinessHtml(clients: readonly ClientReadiness[] | undefined): string {
  if (!clients?.length) return '';
  const rows = clients
    .map((c) => {
      const cls = c.verdict === 'ready' ? 'passed' : c.verdict === 'not ready' ? 'failed' : 'skipped';
      const findings = c.findings
        .map((f) => `<li><b>${esc(f.flows.map((x) => `${x} (${FLOWS[x]})`).join(', '))}</b>: ${esc(firstLine(f.message))} — ${esc(f.breaks)}; ${esc(stanceOf(f, c.client))} <code>${esc(f.behaviour)}</code>, <small>${esc(f.where)}</small></li>`)
        .join('');
      const note = c.note ? `<br><small>${esc(c.note)}</small>` : '';
      return `<tr><td>${esc(clientLabel(c.client))}${note}</td><td><span class="n ${cls}">${esc(verdictText(c))}</span>${findings ? `<ul>${findings}</ul>` : ''}</td></tr>`;
    })
    .join('');
  return `<section id="clients"><h2>Client readiness</h2><p>Level CLIENT: what real clients of the interface rely on (each behaviour cites the client code); never a conformance failure.</p><table><tr><th>client</th><th>readiness</th></tr>${rows}</table></section>`;
}

/** The comparison's lines: each client whose readiness changed, "api-fetch: ready → not ready (write: …)". */
export function readinessChangeLines(changes: readonly ReadinessChange[] | undefined): string[] {
  return (changes ?? []).map((c) => {
    const flows = c.a === c.b && c.newlyFailing.length ? ` (now also failing: ${c.newlyFailing.join(', ')})` : '';
    const why = c.b === 'not ready' ? c.findings.filter((f) => !c.newlyFailing.length || f.flows.some((x) => c.newlyFailing.includes(x))).map((f) => `${f.flows.join(', ')}: ${f.breaks}`) : [];
    return `${c.client}: ${c.a} → ${c.b}${flows}${why.length ? ` — ${why.join('; ')}` : ''}`;
  });
}

/** The comparison's section in Markdown (first, with the deviations). */
export function readinessChangesMarkdown(changes: readonly ReadinessChange[] | undefined): string {
  const lines = readinessChangeLines(changes);
  return lines.length ? ['## Client readiness changed', '', ...lines.map((l) => `- **${mdText(l)}**`), ''].join('\n') : '';
}

/** The comparison's section in HTML. */
export function readinessChangesHtml(changes: readonly ReadinessChange[] | undefined): string {
  const lines = readinessChangeLines(changes);
  return lines.length ? `<section id="clients"><h2>Client readiness changed</h2><ul>${lines.map((l) => `<li><b class="n failed">${esc(l)}</b></li>`).join('')}</ul></section>` : '';
}
