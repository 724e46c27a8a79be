/**
 * The keys of an index's `routes`, in either notation a server may use (core part 1: "object keyed
 * by route pattern"): WordPress's regex with named groups (`/cms/v2/posts/(?P<id>[\d]+)`), or the
 * spec's own notation (`/cms/v2/posts/<id>`, core preamble); and the documented shape of a key
 * (`/cms/v2/posts/<id>`).
 */

/** A path parameter of a route key: its name, where it stands in the key, and its pattern. */
export interface RouteParam {
  name: string;
  /**
   * The body of the regex group (`[\d]+`); undefined for a parameter in the spec's notation
   * (`<id>`), which states no pattern of its own: it names the documented parameter.
   */
  source: string | undefined;
  /** `regex`: a named group `(?P<name>…)`; `spec`: the spec's `<name>`. */
  notation: 'regex' | 'spec';
  start: number;
  end: number;
}

/** Find the path parameters of a route key: named groups `(?P<name>...)` with their bodies, and `<name>` segments of the spec's notation. */
export function routeParams(key: string): RouteParam[] {
  const out: RouteParam[] = [];
  const re = /\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>|<([A-Za-z_][A-Za-z0-9_]*)>/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(key))) {
    if (m[2] !== undefined) {
      out.push({ name: m[2], source: undefined, notation: 'spec', start: m.index, end: m.index + m[0].length });
      continue;
    }
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
    out.push({ name: m[1]!, source: key.slice(m.index + m[0].length, i - 1), notation: 'regex', start: m.index, end: i });
    re.lastIndex = i;
  }
  return out;
}

/**
 * '/cms/v2/posts/(?P<id>[\d]+)' (or '/cms/v2/posts/<id>') → '/cms/v2/posts/<id>' (trailing slash
 * dropped, as WordPress untrailingslashes routes).
 */
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

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A JavaScript regex (anchored) matching the concrete routes of a key: a regex key as WordPress
 * matches it, a `<name>` segment of the spec's notation as one path segment (the text around it
 * literal). Undefined when the key is a regex JavaScript cannot read.
 */
export function routeKeyRegex(key: string, flags = ''): RegExp | undefined {
  const params = routeParams(key);
  const specOnly = params.length > 0 && params.every((p) => p.notation === 'spec');
  const text = (s: string) => (specOnly ? escapeRe(s) : s);
  let body = '';
  let last = 0;
  for (const p of params) {
    body += text(key.slice(last, p.start)) + (p.notation === 'spec' ? '([^/]+)' : `(?<${p.name}>${p.source})`);
    last = p.end;
  }
  body += text(key.slice(last));
  try {
    return new RegExp(`^${body}$`, flags);
  } catch {
    return undefined;
  }
}
