/**
 * How a failing sequence is reported: a numbered list of its requests (the writes, the lookups
 * the script needs, and the check that failed), with the items it created as #1, #2 ..., and a
 * copy-paste shell script of curl commands that replays it against the target (credentials as
 * `$TARGET_USER:$TARGET_APP_PASSWORD`, as everywhere else) and cleans up after itself.
 */
import { serializeQuery, type QueryValue } from '../../../src/sdk/http.ts';
import { TOKEN_SOURCE, type Rec, type Step } from './model-real.ts';

const TOKEN = new RegExp(TOKEN_SOURCE, 'g');
const shown = (s: string) => s.replace(TOKEN, (_, k: string, ref: string, pos?: string) => (k === 'I' ? `#${ref}` : k === 'A' ? `autosave(#${ref})` : `rev${pos}(#${ref})`));
const shellVar = (k: string, ref: string, pos?: string) => (k === 'I' ? `ID${ref}` : k === 'A' ? `AS${ref}` : `REV${ref}_${pos}`);

/** A query in a readable form: include=#1,#2&status=publish,trash. */
function readableQuery(q: Record<string, QueryValue> | undefined): string {
  if (!q) return '';
  const parts = Object.entries(q).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
  return parts.length ? `?${shown(parts.join('&'))}` : '';
}

/** A body without the generated content (it only repeats the title). */
function readableBody(body: unknown): string {
  if (body === undefined) return '';
  const strip = (b: any): any => {
    if (Array.isArray(b)) return b.map(strip);
    if (b && typeof b === 'object') return Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'content').map(([k, v]) => [k, strip(v)]));
    return b;
  };
  return ` ${shown(JSON.stringify(strip(body)))}`;
}

/** The requests worth showing: writes, lookups the script needs, failed checks. */
const worth = (r: Rec) => r.role === 'write' || (r.defines?.length ?? 0) > 0 || r.verdict !== undefined;

/** The numbered list of requests, grouped by command. */
export function numberedRequests(steps: Step[], created: (ref: number) => string): string[] {
  const lines: string[] = [];
  let n = 0;
  for (const s of steps) {
    const reqs = s.requests.filter(worth);
    if (!reqs.length) continue;
    lines.push(`step ${s.n}: ${s.what}`);
    for (const r of reqs) {
      const defined = (r.defines ?? []).filter((d) => d.token.startsWith('ZZI')).map((d) => created(Number(/\d+/.exec(d.token)![0])));
      lines.push(`  ${++n}. ${r.method} ${shown(r.route)}${readableQuery(r.query)}${r.role === 'write' ? readableBody(r.body) : ''} → ${r.status}${defined.length ? `  (${defined.join(', ')})` : ''}`);
      if (r.verdict) lines.push(`     ✗ ${r.verdict}`);
    }
  }
  return lines;
}

/** Escape for a double-quoted shell string, then turn placeholders into variables. */
function dq(s: string): string {
  return `"${s.replace(/[\\"$`]/g, (c) => `\\${c}`).replace(TOKEN, (_, k: string, ref: string, pos?: string) => `\${${shellVar(k, ref, pos)}}`)}"`;
}

/** A JSON body in single quotes, with placeholders spliced in as variables. */
function sq(body: unknown): string {
  const json = JSON.stringify(body).replace(/'/g, `'\\''`);
  const spliced = json.replace(new RegExp(`"?${TOKEN_SOURCE}"?`, 'g'), (m, k: string, ref: string, pos?: string) => {
    const v = `'"$${shellVar(k, ref, pos)}"'`;
    // A whole JSON string that is a placeholder becomes a number; inside a string, the digits.
    return m.startsWith('"') && m.endsWith('"') ? v : m.startsWith('"') ? `"${v}` : m.endsWith('"') ? `${v}"` : v;
  });
  return `'${spliced}'`;
}

export interface ScriptContext {
  behaviourId: string;
  seed: number;
  baseUrl: string;
  toTargetRoute(route: string): string;
  /** Collection route (spec names) and the statuses of a lookup by slug. */
  collection: string;
  statuses: readonly string[];
  /** Item routes to delete at the end (templates). */
  cleanup: string[];
}

/** A shell script replaying the sequence's requests (writes, lookups, the failed checks). */
export function curlScript(steps: Step[], ctx: ScriptContext): string {
  const out: string[] = [
    '#!/bin/sh',
    `# ${ctx.behaviourId}: the shortest failing sequence (--seed ${ctx.seed}). Needs TARGET_USER and TARGET_APP_PASSWORD.`,
    `U="\${TARGET_URL:-${ctx.baseUrl}}/index.php?rest_route="`,
    `r() { m=$1; p=$2; shift 2; curl -sS -g -u "$TARGET_USER:$TARGET_APP_PASSWORD" -X "$m" -w '\\n-> HTTP %{http_code}\\n' "$U$p" "$@"; }`,
    `id() { grep -o '"id":[0-9]*' | sed -n "\${1:-1}p" | cut -d: -f2; }`,
  ];
  // Every status, as most listings send it: once, as $S.
  const every = serializeQuery({ status: [...ctx.statuses] });
  const url = (route: string, query?: Record<string, QueryValue>) => {
    const q = query ? serializeQuery(query) : '';
    const quoted = dq(`${ctx.toTargetRoute(route)}${q ? `&${q}` : ''}`);
    return every ? quoted.split(every).join('${S}') : quoted;
  };
  if (every) out.push(`S='${every}'`);
  let n = 0;
  for (const s of steps) {
    const reqs = s.requests.filter(worth);
    if (!reqs.length) continue;
    out.push(`# step ${s.n}: ${s.what}`);
    for (const r of reqs) {
      n++;
      if (r.verdict) out.push(`# ${n}. ${r.role === 'write' ? 'answer' : 'check'} ✗ ${r.verdict.replace(/\n/g, ' ')}`);
      const body = r.body === undefined ? '' : ` -H 'Content-Type: application/json' --data ${sq(r.body)}`;
      const call = `r ${r.method} ${url(r.route, r.query)}${body}`;
      const byId = (r.defines ?? []).filter((d) => !d.slug);
      const bySlug = (r.defines ?? []).filter((d) => d.slug);
      if (byId.length === 1 && byId[0]!.nth === 1 && r.role === 'write') {
        const v = byId[0]!.token.replace(TOKEN, (_, k: string, ref: string, pos?: string) => shellVar(k, ref, pos));
        out.push(`${v}=$(${call} | id); echo "${shown(byId[0]!.token)} = $${v}"`);
      } else if (byId.length) {
        out.push(`L=$(${call}); echo "$L"`);
        for (const d of byId) {
          const v = d.token.replace(TOKEN, (_, k: string, ref: string, pos?: string) => shellVar(k, ref, pos));
          out.push(`${v}=$(echo "$L" | id ${d.nth})`);
        }
      } else out.push(call);
      for (const d of bySlug) {
        const v = d.token.replace(TOKEN, (_, k: string, ref: string, pos?: string) => shellVar(k, ref, pos));
        out.push(`${v}=$(r GET ${url(ctx.collection, { slug: [d.slug!], status: [...ctx.statuses], context: 'edit' })} | id); echo "${shown(d.token)} = $${v}"`);
      }
    }
  }
  if (ctx.cleanup.length) {
    out.push('# clean up');
    for (const route of ctx.cleanup) out.push(`r DELETE ${url(route, { force: true })} >/dev/null`);
  }
  return out.join('\n');
}
