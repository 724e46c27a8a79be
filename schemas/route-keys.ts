/**
 * The keys of a WordPress-style index: a route as a regex with named groups
 * (`/cms/v2/posts/(?P<id>[\d]+)`), and its documented shape (`/cms/v2/posts/<id>`).
 */
/** Find the named groups `(?P<name>...)` of a route regex, with their bodies. */
export function routeParams(key: string): { name: string; source: string; start: number; end: number }[] {
  const out: { name: string; source: string; start: number; end: number }[] = [];
  const re = /\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(key))) {
    let depth = 1;
    let i = m.index + m[0].length;
    let inClass = false;
    for (; i < key.length && depth > 0; i++) {
      const c = key[i];
      if (c === '\\') {
        i++;
        continue;
      }
      if (inClass) {
        if (c === ']') inClass = false;
        continue;
      }
      if (c === '[') inClass = true;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    out.push({ name: m[1]!, source: key.slice(m.index + m[0].length, i - 1), start: m.index, end: i });
    re.lastIndex = i;
  }
  return out;
}

/** '/cms/v2/posts/(?P<id>[\d]+)' → '/cms/v2/posts/<id>' (trailing slash dropped, as WordPress untrailingslashes routes). */
export function routeShape(key: string): string {
  let out = '';
  let last = 0;
  for (const p of routeParams(key)) {
    out += key.slice(last, p.start) + `<${p.name}>`;
    last = p.end;
  }
  out += key.slice(last);
  return out.length > 1 ? out.replace(/\/+$/, '') : out;
}
