/**
 * Request parsing the way PHP and WordPress see a request: the query string with PHP's
 * `parse_str` rules (`a[]=1&a[]=2`, `o[k]=v`, `o[k][]=v`), JSON / form / multipart bodies,
 * HTTP Basic credentials, and the `rest_route` and `_method` parameters. In the `query-arrays=form`
 * dialect (dialect.ts) the query string is read as a server written from the spec alone reads it
 * (parseFormQuery): arrays only without brackets, objects as `o[k]=v`.
 */
import type { IncomingMessage } from 'node:http';

export type Params = Record<string, unknown>;

/** PHP urldecode: `+` is a space, a bad %-sequence is kept as is. */
function urldecode(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** A PHP array under construction: keys in insertion order, with PHP's next-index rule for `[]`. */
type PhpArray = Map<string, unknown>;

function nextIndex(arr: PhpArray): string {
  let max = -1;
  for (const k of arr.keys()) if (/^(0|-?[1-9]\d*)$/.test(k)) max = Math.max(max, Number(k));
  return String(max + 1);
}

/** Assign `value` at `name` (a PHP variable name with optional `[..]` indices). */
function assign(root: PhpArray, rawName: string, value: unknown): void {
  let name = rawName.replace(/^ +/, '');
  const open = name.indexOf('[');
  let base = open === -1 ? name : name.slice(0, open);
  const rest = open === -1 ? '' : name.slice(open);
  // PHP turns spaces and dots of the base name into underscores.
  base = base.replace(/[ .]/g, '_');
  if (base === '') return;
  const keys: (string | null)[] = [base];
  let i = 0;
  while (i < rest.length && rest[i] === '[') {
    const close = rest.indexOf(']', i);
    if (close === -1) {
      // An unmatched '[' makes PHP treat the whole name as a plain name with '[' replaced by '_'.
      if (keys.length === 1) keys[0] = `${base}_${rest.slice(i + 1)}`.replace(/[ .]/g, '_');
      break;
    }
    const key = rest.slice(i + 1, close);
    keys.push(key === '' ? null : key);
    i = close + 1;
  }
  let target = root;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] ?? nextIndex(target);
    const last = k === keys.length - 1;
    if (last) {
      target.set(key, value);
      return;
    }
    let child = target.get(key);
    if (!(child instanceof Map)) {
      child = new Map();
      target.set(key, child);
    }
    target = child as PhpArray;
  }
}

/** Turn PHP arrays into JS values: a list 0..n-1 becomes an array, anything else an object. */
function finish(v: unknown): unknown {
  if (!(v instanceof Map)) return v;
  const keys = [...v.keys()];
  const isList = keys.every((k, i) => k === String(i));
  if (isList) return keys.map((k) => finish(v.get(k)));
  const out: Params = {};
  for (const k of keys) out[k] = finish(v.get(k));
  return out;
}

/**
 * A query string as a server written from the spec alone reads it (`query-arrays=form`): a key
 * sent once is its value (a comma list `a=1,2` stays the text, which the argument's schema splits,
 * as OpenAPI's `style: form, explode: false` has it); a key sent more than once is the array of its
 * values (`a=1&a=2`); `o[k]=v` is the object `o` (`style: deepObject`). Any other name with brackets
 * (`a[]`, `o[k][]`) is nothing such a server knows: kept under its literal name, an unknown
 * parameter.
 */
export function parseFormQuery(qs: string): Params {
  const out: Params = {};
  const put = (target: Params, key: string, value: string) => {
    if (!(key in target)) target[key] = value;
    else if (Array.isArray(target[key])) (target[key] as unknown[]).push(value);
    else target[key] = [target[key], value];
  };
  for (const pair of qs.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = urldecode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : urldecode(pair.slice(eq + 1));
    const deep = /^([^[\]]+)\[([^[\]]+)\]$/.exec(name);
    if (deep) {
      const base = deep[1]!;
      const obj = out[base];
      if (obj !== null && typeof obj === 'object' && !Array.isArray(obj)) put(obj as Params, deep[2]!, value);
      else if (!(base in out)) put((out[base] = {}) as Params, deep[2]!, value);
      continue;
    }
    put(out, name, value);
  }
  return out;
}

/**
 * The query of a request as the dialect reads it: PHP's parse_str (`php`) or parseFormQuery
 * (`form`); with `objects` other than `deep`, a name with a key in brackets (`o[k]`) is a plain key
 * of its own (dialect query-objects: the object form is JSON text, or not read at all).
 */
export function parseQueryAs(qs: string, mode: 'php' | 'form', objects: 'deep' | 'json' | 'none' = 'deep'): Params {
  if (objects === 'deep') return mode === 'form' ? parseFormQuery(qs) : parseQuery(qs);
  const plain: Params = {};
  const rest = qs
    .split('&')
    .filter((pair) => {
      const name = urldecode(pair.split('=')[0] ?? '');
      if (!/\[[^\]]+\]/.test(name)) return true;
      const eq = pair.indexOf('=');
      plain[name] = eq === -1 ? '' : urldecode(pair.slice(eq + 1));
      return false;
    })
    .join('&');
  return { ...(mode === 'form' ? parseFormQuery(rest) : parseQuery(rest)), ...plain };
}

/** PHP parse_str. */
export function parseQuery(qs: string): Params {
  const root: PhpArray = new Map();
  for (const pair of qs.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = urldecode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : urldecode(pair.slice(eq + 1));
    assign(root, name, value);
  }
  return finish(root) as Params;
}

export interface UploadedFile {
  name: string;
  type: string;
  data: Buffer;
}

/** multipart/form-data: fields (PHP names) and files. */
export function parseMultipart(body: Buffer, contentType: string): { fields: Params; files: Record<string, UploadedFile> } {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const root: PhpArray = new Map();
  const files: Record<string, UploadedFile> = {};
  if (!m) return { fields: {}, files };
  const boundary = Buffer.from(`--${(m[1] ?? m[2] ?? '').trim()}`);
  let pos = body.indexOf(boundary);
  while (pos !== -1) {
    const start = pos + boundary.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(boundary, start);
    if (next === -1) break;
    let part = body.subarray(start, next);
    if (part.subarray(0, 2).toString() === '\r\n') part = part.subarray(2);
    if (part.subarray(part.length - 2).toString() === '\r\n') part = part.subarray(0, part.length - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      const data = part.subarray(headerEnd + 4);
      const disp = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disp)?.[1];
      const filename = /\bfilename="([^"]*)"/i.exec(disp)?.[1];
      const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
      if (name !== undefined) {
        if (filename !== undefined) files[name] = { name: filename, type, data };
        else assign(root, name, data.toString('utf8'));
      }
    }
    pos = next;
  }
  return { fields: finish(root) as Params, files };
}

export function readBody(req: IncomingMessage, limit = 32 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `Authorization: Basic base64(user:password)` → the pair, or undefined for any other header. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  if (!header) return undefined;
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** WordPress's is_json_content_type(). */
export const isJsonContentType = (ct: string): boolean => /^application\/([\w!#$&^.+-]+\+)?json\b/i.test(ct.trim());

/** rest_route: untrailingslashed; empty means '/'. */
export function normalizeRoute(route: string): string {
  const r = route.replace(/\/+$/, '');
  return r === '' ? '/' : r.startsWith('/') ? r : `/${r}`;
}

/** The raw query string of a request URL (without the '?'). */
export function rawQueryOf(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return '';
  const hash = url.indexOf('#', q);
  return url.slice(q + 1, hash === -1 ? undefined : hash);
}
