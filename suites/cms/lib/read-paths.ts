/**
 * Every documented way to reach a post or page, sent without credentials, against items anyone
 * may not see: in a status other than publish (draft, pending, private, future, trash) or whose
 * content and excerpt a password protects. No anonymous answer may yield a hidden item (its id,
 * its status, a word only it carries), nor the protected content or excerpt of a protected one;
 * what the spec protects is content and excerpt (core part 2, "password | protects content and
 * excerpt"), so only those fields of the protected item are judged (its title may say anything,
 * its password too).
 *
 * The paths: the list with each filter that can name the items (include, slug, search, author,
 * exclude, a date range, parent for pages), each context anyone may ask for (view, embed) and
 * the single read in each of those, with excerpt_length; the revisions and autosaves of each item (list
 * and single); and a batch of GETs (the batch takes only writes: a refusal is fine, an answer must
 * not carry them either; not sent where the run may not write). Any refusal does (which status code
 * is not stated); a 2xx is judged.
 */
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { serializeQuery, type Response } from '../../../src/sdk/http.ts';
import type { PostType } from './collections.ts';

export interface Hidden {
  id: number;
  status: string;
  slug: string;
  /** Words only this item carries (title, content, excerpt): none may stand in an anonymous answer. */
  tokens: string[];
}

export interface ReadPathsSubjects {
  /** A published item anyone may read (the positive control: the route answers anonymous readers). */
  published: number;
  hidden: Hidden[];
  /**
   * A published item whose password protects `secrets` (words of its content and excerpt). `own`:
   * words only it carries (fixtures), judged in any record; else (the site's words, which other
   * items may carry too) only in its own record and in the revisions and autosaves of it.
   */
  protected?: { id: number; secrets: string[]; slug: string; own?: boolean };
  /** A word the hidden and protected items carry in their text (search). */
  word?: string;
  author?: number;
  /** Revisions and autosaves known with the credentials: [parent, id]. */
  revisions: [number, number][];
  autosaves: [number, number][];
}

/** One anonymous request and what was leaked by its answer. */
interface Path {
  what: string;
  res: Response;
}

/** Objects of an answer that look like items or records (an integer id), wherever they are nested (batch answers). */
function records(body: unknown, out: any[] = []): any[] {
  if (Array.isArray(body)) body.forEach((x) => records(x, out));
  else if (body && typeof body === 'object') {
    if (Number.isInteger((body as { id?: unknown }).id)) out.push(body);
    for (const v of Object.values(body)) if (v && typeof v === 'object') records(v, out);
  }
  return out;
}

const textOf = (v: unknown): string => (typeof v === 'string' ? v : v && typeof v === 'object' ? JSON.stringify(v) : '');

/** What an anonymous 2xx answer leaks, in words (empty: nothing). */
export function leaks(s: ReadPathsSubjects, res: Pick<Response, 'status' | 'body' | 'text'>, items: boolean): string[] {
  if (res.status < 200 || res.status > 299) return [];
  const out: string[] = [];
  const recs = records(res.body);
  for (const h of s.hidden) {
    const shown = items && recs.some((r) => r.id === h.id);
    const word = h.tokens.find((w) => res.text.includes(w));
    if (shown || word) out.push(`the ${h.status} item ${h.id}${shown ? '' : ` (its word "${word}")`}`);
  }
  if (items) for (const r of recs) if (typeof r.status === 'string' && r.status !== 'publish' && !s.hidden.some((h) => h.id === r.id) && 'title' in r) out.push(`item ${r.id} in status ${r.status}`);
  if (s.protected) {
    const p = s.protected;
    for (const r of recs) {
      if (!p.own && !(items ? r.id === p.id : r.parent === p.id)) continue;
      const fields = ['content', 'excerpt'].map((f) => [f, textOf(r[f])] as const);
      for (const [f, text] of fields) {
        const secret = p.secrets.find((w) => text.includes(w));
        if (secret) out.push(`the ${f} of the password-protected item ${p.id} ("${secret}"${r.id === p.id ? '' : `, in record ${r.id}`})`);
      }
    }
  }
  return [...new Set(out)];
}

/** Send every path anonymously; the leaks found, each with its request. */
export async function anonymousPaths(t: BehaviourContext, type: PostType, s: ReadPathsSubjects): Promise<string[]> {
  const found: string[] = [];
  let first: { route: string; query: Record<string, any> } | undefined;
  const look = (p: Path, items = true) => {
    const l = leaks(s, p.res, items);
    if (l.length) found.push(`${p.what} answered ${p.res.status} with ${l.join(', ')}`);
    return l.length > 0;
  };
  const get = async (route: string, query: Record<string, any> = {}, items = true) => {
    const res = await t.client.get(route, { query, auth: 'none' });
    const q = serializeQuery(query);
    if (look({ what: `GET ${route}${q ? `?${decodeURIComponent(q)}` : ''}`, res }, items)) first ??= { route, query };
  };
  const ids = [...s.hidden.map((h) => h.id), ...(s.protected ? [s.protected.id] : [])];
  const slugs = [...s.hidden, ...(s.protected ? [s.protected] : [])].map((h) => h.slug).filter((x) => x && !/[\s,]/.test(x));
  const lists: Record<string, any>[] = [
    { include: ids },
    ...(slugs.length ? [{ slug: slugs }, { slug: slugs, exclude: [s.published] }] : []),
    ...(s.word ? [{ search: s.word }] : []),
    ...(s.author !== undefined ? [{ author: [s.author], include: ids }] : []),
    { include: ids, after: '1970-01-02T00:00:00Z', before: '2999-01-01T00:00:00Z' },
    ...(type.query.parent ? [{ parent: [s.published, ...ids] }] : []),
  ];
  await Promise.all([
    ...['view', 'embed'].flatMap((context) => lists.map((q) => get(type.collection, { ...q, context, per_page: 100 }))),
    // excerpt_length is documented on the single GET only (core part 4): lists are read without it.
    ...['view', 'embed'].map((context) => get(type.collection, { include: ids, context, per_page: 100 })),
    ...ids.flatMap((id) => [get(type.item(id)), get(type.item(id), { context: 'embed' }), get(type.item(id), { excerpt_length: 3 }), get(type.item(id), { context: 'embed', excerpt_length: 3 })]),
    ...ids.flatMap((id) => [get(type.revisions(id), {}, false), get(type.autosaves(id), {}, false)]),
    ...s.revisions.map(([p, id]) => get(type.revision(p, id), {}, false)),
    ...s.autosaves.map(([p, id]) => get(type.autosave(p, id), {}, false)),
  ]);
  // A batch of GETs: the batch takes writes only (core part 4), so a refusal is the documented answer; an answer must not carry them.
  // (A POST all the same: not sent where the run may not write.)
  if (t.run.info.writes.allowed) {
    const batch = await t.client.post('/batch/v1', { requests: ids.map((id) => ({ method: 'GET', path: t.run.profile.toTargetRoute(type.item(id)) })) }, { auth: 'none', invalid: ['requests'] });
    look({ what: `POST /batch/v1 (GET ${ids.map((id) => type.item(id)).join(', ')})`, res: batch });
  }
  // The first path that leaked, once more: the request a report shows beside the message.
  if (first) await t.client.get(first.route, { query: first.query, auth: 'none' });
  return found;
}
