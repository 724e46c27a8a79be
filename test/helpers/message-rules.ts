/**
 * The rules a failure message keeps (issue 41), for a reader without our sources: it names the
 * request whose answer it judged (method and route: in its words, or appended as [request: …]),
 * never only the last request sent; every item ID it lists is explained (oN(id), or "524 = …");
 * a refusal names the documented constraint it applied; no internal prefixes or step numbers.
 */
const METHOD_ROUTE = /\b(GET|POST|PUT|PATCH|DELETE) \/\S*/;

export function messageProblems(message: string): string[] {
  const first = message.split('\n')[0] ?? '';
  const problems: string[] = [];
  if (/\b\d+ deviation\(s\)/.test(first)) problems.push('an internal prefix: "N deviation(s)"');
  if (/\bsteps? \d+\.\d+/.test(first)) problems.push('a step number a reader cannot map ("step 3.1")');
  if (/\[last request sent: /.test(first)) problems.push('it shows the last request sent, not the one it judged');
  else if (!METHOD_ROUTE.test(first)) problems.push('it names no request');
  if (/documented constraints reject it/.test(first)) problems.push('a refusal that does not name the constraint it applied');
  for (const list of first.matchAll(/\[((?:\s*(?:o\d+\(\d+\)|\d+)\s*,?)+)\]/g)) {
    for (const m of list[1]!.matchAll(/(?<![o(\d])(\d+)(?![\d)])/g)) {
      const id = m[1]!;
      if (!new RegExp(`(^|\\(|; )(\\d+, )*${id}(, \\d+)* = `).test(first)) problems.push(`a bare id: ${id}`);
    }
  }
  return [...new Set(problems)];
}
