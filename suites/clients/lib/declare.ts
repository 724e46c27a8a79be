/**
 * The one way a client-readiness behaviour is declared (level CLIENT, results/clients.ts):
 * `clientDecl('client.paging.totals', { title, route, spec, client: { spec: 'silent', reliedOnBy } })`.
 * Each names the client code that relies on it (file, function), the client's flows that break
 * without it and how, and what the spec says of it; package and version come from CLIENTS.
 *
 * And what the checks share: the posts they look at (two published posts of their own where the
 * run may write, else the site's own), the route of a post the site does not have, and the
 * target's own addresses (a page URL, a route under `/wp-json/`) with the namespace mapped through
 * the profile. Names the clients hard-code (`X-WP-Total`, `wp:term`, `rel="https://api.w.org/"`)
 * are checked literally.
 */
import { withPackages, type ClientReliance } from '../../../results/clients.ts';
import type { BehaviourDecl } from '../../../results/results.ts';
import type { SpecRef } from '../../../schemas/types.ts';
import { fixtures, prerequisite, type BehaviourContext, type RunContext } from '../../../src/sdk/behaviour.ts';
import type { Client, Response } from '../../../src/sdk/http.ts';

export interface ClientDeclFields {
  title: string;
  /** The documented route it is about (spec names), for grouping in reports. */
  route?: string;
  /** The spec section closest to it (for `contrary`, the one it contradicts). */
  spec: SpecRef;
  client: ClientReliance;
}

export function clientDecl(id: `client.${string}`, f: ClientDeclFields): BehaviourDecl {
  return { id, level: 'CLIENT', namespace: 'cms/v2', title: f.title, spec: f.spec, ...(f.route ? { route: f.route } : {}), client: withPackages(f.client) };
}

export const POSTS = '/cms/v2/posts';
/** A post id no site has (the id route of a post that does not exist). */
export const MISSING_ID = 999_999_999;
export const CORE_INTRO: SpecRef = { doc: 'core', section: 'Content Site REST Interface: Core Content Routes' };
export const POSTS_SPEC: SpecRef = { doc: 'core', section: '4. Endpoints › Posts' };

/** The posts the read checks look at: their own (published, tagged) where the run may write, else the site's newest. */
export interface Subjects {
  ids: number[];
  source: 'fixtures' | 'site';
}

/**
 * Two published posts (owned by `client.records.id`, which checks they can be read): created where
 * the run may write with credentials, else the newest two the site lists (one, or none, on a
 * site with fewer). Checks restrict their listings to these ids (`include`), so that other suite
 * files writing at the same time change nothing they count.
 */
export const SUBJECTS = prerequisite('client.records.id', async (client: Client, run: RunContext): Promise<Subjects> => {
  if (run.info.writes.allowed && client.hasCredentials) {
    const fx = fixtures();
    const a = await fx.create(POSTS, { title: 'client readiness A', status: 'publish' }, client);
    const b = await fx.create(POSTS, { title: 'client readiness B', status: 'publish' }, client);
    return { ids: [a.id, b.id], source: 'fixtures' };
  }
  const res = await client.get(POSTS, { query: { per_page: 2 } });
  const ids = Array.isArray(res.body) ? res.body.map((p: { id?: unknown }) => p?.id).filter((x: unknown): x is number => Number.isInteger(x)) : [];
  return { ids, source: 'site' };
});

/** The subjects, recorded on the behaviour; skips when the site has fewer than `n` published posts. */
export async function subjectsFor(t: BehaviourContext, n: number): Promise<Subjects> {
  const s = await t.need(SUBJECTS);
  if (s.ids.length < n) t.skip(`not observable on the site's content: needs ${n} published post${n === 1 ? '' : 's'}, the site lists ${s.ids.length} (and the run may not create any: ${t.run.info.writes.allowed ? 'no credentials' : t.run.info.writes.reason})`);
  t.subjects(s.source, `posts ${s.ids.join(', ')} (published)`);
  return s;
}

/** The target's base URL (no trailing slash). */
export const baseUrl = (t: BehaviourContext): string => t.run.info.targetUrl.replace(/\/+$/, '');

/** A documented route under WordPress's path address `{base}/wp-json` (the target's names). */
export const wpJsonUrl = (t: BehaviourContext, route: string, query = ''): string => `${baseUrl(t)}/wp-json${t.run.profile.toTargetRoute(route)}${query ? `?${query}` : ''}`;

/** "GET /cms/v2/posts?… answered 400 rest_invalid_param: …" for a message. */
export function answered(res: Response, what: string): string {
  const code = res.body && typeof res.body === 'object' && typeof (res.body as { code?: unknown }).code === 'string' ? ` ${(res.body as { code: string }).code}` : '';
  return `${what} answered ${res.status}${code}${res.text ? `: ${res.text.slice(0, 160).replace(/\s+/g, ' ')}` : ''}`;
}

/** A header of an answer, by its name in any case. */
export const header = (res: Response, name: string): string | undefined => {
  const k = Object.keys(res.headers).find((h) => h.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : res.headers[k];
};
