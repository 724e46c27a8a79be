/**
 * Index route keys as wpapi 1.2.2 reads them when it builds its route methods from an index
 * (client.discovery.route-keys): the key without its namespace is split into components around
 * named groups, and each component becomes a RegExp: a named group `(?P<name>pattern)` its
 * pattern (a setter `.name()`), any other component itself (a literal segment). The two patterns
 * below are wpapi's own (MIT): lib/util/named-group-regexp.js and lib/util/split-path.js.
 */

/** wpapi lib/util/named-group-regexp.js `pattern`: a named group holds at most one inner group, ending where it ends. */
const NAMED_GROUP = "\\(\\?(?:P<|<|')([^>']+)[>']([^\\)]*(\\))?\\??)\\)";
const NAMED_GROUP_RE = new RegExp(NAMED_GROUP);
/** wpapi lib/util/split-path.js: the same pattern, groups made non-capturing, as one component. */
const SPLIT_RE = new RegExp(`([^/]*${NAMED_GROUP.replace(/([^\\])\(([^?])/g, '$1(?:$2')}[^/]*)`);

/** The components of a route key without its namespace (split-path.js). */
function components(path: string): string[] {
  return path.split(SPLIT_RE).reduce<string[]>((out, part) => {
    if (!part) return out;
    if (SPLIT_RE.test(part)) return [...out, part];
    return [...out, ...part.split('/').filter(Boolean)];
  }, []);
}

export type KeyProblem = { kind: 'notation' } | { kind: 'unparsable'; error: string };

/**
 * What wpapi cannot build from an index route key: a component it cannot make a RegExp of (route
 * tree building throws, "Invalid regular expression …", and WPAPI.discover falls back to its
 * bundled wp/v2 routes), or a path parameter not written as a named group (`<id>`, `{id}`: a literal
 * segment, so no `.id()` setter).
 */
export function wpapiKeyProblem(key: string, namespace: string): KeyProblem | undefined {
  const path = key.replace(`/${namespace}/`, '').replace(/\/\?$/, '');
  if (!namespace || `/${namespace}` === key || !path) return undefined;
  let notation = false;
  for (const c of components(path)) {
    const group = NAMED_GROUP_RE.exec(c);
    const source = group ? (group[2] ? `^${group[2]}$` : '.*') : c;
    try {
      new RegExp(source, 'i');
    } catch (e) {
      return { kind: 'unparsable', error: (e as Error).message };
    }
    if (!group && /^(<\w+>|\{\w+\})$/.test(c)) notation = true;
  }
  return notation ? { kind: 'notation' } : undefined;
}
