/**
 * JUnit XML, rendered from the results alone (so it can be written again from any results.json):
 * - one <testsuite> per namespace ("(site)" for the site index and batch), one <testcase> per
 *   behaviour named "<id> <title>", classname = the namespace, file = where the behaviour is declared;
 * - <properties> per testcase: id, level, namespace, spec section, route, location, failure kind,
 *   the baseline reason of a known failure, and what a skip depends on;
 * - <failure> for a conformance failure (its message, the requests and a curl to reproduce), and
 *   for a CLIENT finding (typed as such: a client would break, not a conformance failure),
 *   <error> for a behaviour that could not be checked (target trouble or a harness bug),
 *   <skipped message="reason"/> for every skip.
 */
import { LEVELS, LEVEL_BASIS, type BehaviourResult, type Results } from '../results/results.ts';

const escapeXml = (s: string) =>
  s
    .replace(/[\0-\x08\v\f\x0E-\x1F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

const attrs = (a: Record<string, string | number | undefined>) =>
  Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');

const secs = (ms: number) => (ms / 1000).toFixed(3);

/** The text body of a failure or error: the message, then the requests it judged (first) and the last ones sent, with a curl each. */
function failureBody(b: BehaviourResult): string {
  const lines = [b.message ?? b.reason ?? ''];
  if (b.diff) lines.push('', b.diff);
  if (b.counterexample !== undefined) lines.push('', `counterexample: ${JSON.stringify(b.counterexample)}`);
  const ex = b.exchanges ?? [];
  for (const e of [...ex.filter((x) => x.judged), ...ex.filter((x) => !x.judged)]) {
    lines.push('', `${e.judged ? 'judged: ' : ''}${e.method} ${e.url} -> ${e.status || e.error || 'no answer'}`);
    if (e.responseText) lines.push(e.responseText.slice(0, 500));
    lines.push(`reproduce: ${e.curl}`);
  }
  return lines.join('\n');
}

function testcase(b: BehaviourResult, known: Map<string, string>): string {
  const props: [string, string | undefined][] = [
    ['id', b.id],
    ['level', b.level],
    ['basis', LEVEL_BASIS[b.level]],
    ['namespace', b.namespace || '(site)'],
    ['spec', b.spec],
    ['route', b.route],
    ['location', b.location],
    ['failure kind', b.status === 'failed' || b.status === 'error' ? b.failureKind : undefined],
    ['skip reason', b.status === 'skipped' ? b.reason : undefined],
    ['depends on', b.dependsOn],
    ['known failure (baseline)', b.status === 'failed' ? known.get(b.id) : undefined],
    // A CLIENT behaviour: the clients that rely on it, and what the spec says of it.
    ['relied on by', b.client?.reliedOnBy.map((x) => `${x.package ?? x.client} ${x.version ?? ''} ${x.file} ${x.function} (${x.flows.join(', ')})`).join('; ')],
    ['spec stance', b.client?.spec],
  ];
  const properties = props
    .filter((p): p is [string, string] => p[1] !== undefined)
    .map(([name, value]) => `        <property${attrs({ name, value })}/>`)
    .join('\n');
  let outcome = '';
  const kind = b.level === 'CLIENT' ? 'CLIENT readiness finding (a real client would break; not a conformance failure)' : `${b.level} conformance failure`;
  if (b.status === 'failed') outcome = `\n      <failure${attrs({ message: b.reason ?? 'failed', type: kind })}>${escapeXml(failureBody(b))}</failure>`;
  else if (b.status === 'error') outcome = `\n      <error${attrs({ message: b.reason ?? 'error', type: `${b.failureKind ?? 'harness'} error` })}>${escapeXml(failureBody(b))}</error>`;
  else if (b.status === 'skipped') outcome = `\n      <skipped${attrs({ message: b.reason ?? 'skipped without a reason' })}/>`;
  return (
    `    <testcase${attrs({ classname: b.namespace || '(site)', name: `${b.id} ${b.title}`, time: secs(b.durationMs), file: b.location?.replace(/:\d+$/, '') ?? b.file })}>\n` +
    `      <properties>\n${properties}\n      </properties>${outcome}\n    </testcase>`
  );
}

export function renderJUnit(r: Results): string {
  const known = new Map((r.baseline?.known ?? []).map((k) => [k.id, k.reason]));
  const byNs = new Map<string, BehaviourResult[]>();
  const rank = (b: BehaviourResult) => LEVELS.indexOf(b.level);
  for (const b of [...r.behaviours].sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id))) {
    const ns = b.namespace || '(site)';
    byNs.set(ns, [...(byNs.get(ns) ?? []), b]);
  }
  const count = (list: BehaviourResult[], s: BehaviourResult['status']) => list.filter((b) => b.status === s).length;
  const suites = [...byNs].map(([ns, list]) => {
    const time = list.reduce((n, b) => n + b.durationMs, 0);
    return (
      `  <testsuite${attrs({ name: ns, tests: list.length, failures: count(list, 'failed'), errors: count(list, 'error'), skipped: count(list, 'skipped'), time: secs(time), timestamp: r.startedAt })}>\n` +
      `${list.map((b) => testcase(b, known)).join('\n')}\n  </testsuite>`
    );
  });
  // Problems outside any behaviour (a suite file that did not load) are a testcase of their own, so CI shows them.
  if (r.errors.length)
    suites.push(
      `  <testsuite${attrs({ name: 'cms-conformance', tests: r.errors.length, failures: 0, errors: r.errors.length, skipped: 0, time: '0.000' })}>\n` +
        r.errors
          .map((e, i) => `    <testcase${attrs({ classname: 'cms-conformance', name: `run error ${i + 1}${e.file ? ` in ${e.file}` : ''}` })}>\n      <error${attrs({ message: e.message, type: `${e.kind ?? 'harness'} error` })}/>\n    </testcase>`)
          .join('\n') +
        '\n  </testsuite>',
    );
  const s = r.summary;
  return (
    `<?xml version="1.0" encoding="UTF-8" ?>\n` +
    `<testsuites${attrs({ name: 'cms-conformance', tests: s.total, failures: s.failed, errors: (s.error ?? 0) + r.errors.length, skipped: s.skipped, time: secs(r.durationMs) })}>\n` +
    `${suites.join('\n')}\n</testsuites>\n`
  );
}
