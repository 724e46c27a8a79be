/**
 * A site the real clients run their flows against (test/clients.test.ts, the WordPress 7.1 test):
 * its base URL, credentials, the name it gives the core namespace (`cms/v2` on a server with the
 * spec's names, `wp/v2` on WordPress), two published posts of the test's own (each in a category),
 * and, for clients that hard-code `wp/v2` (Frontity, HeadstartWP, wpapi's bundled routes), the
 * address through which they reach it: the site itself, or on a spec-named site the namespace
 * proxy, which renames `wp/v2` to the site's namespace in request paths and nothing else (the
 * profile's namespace mapping; header, rel and embed names stay as the clients hard-code them).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SubjectPost {
  id: number;
  slug: string;
  link: string;
  author: number;
  categories: number[];
}

export interface ClientSite {
  /** For messages: "reference paging-headers=none", "WordPress 7.1". */
  name: string;
  url: string;
  /** The server itself, where `url` is a proxy in front of it: what the test's own checks ask (whether a post is gone). */
  origin?: string;
  user: string;
  appPassword: string;
  /** The site's name of the core namespace: `cms/v2` or `wp/v2`. */
  namespace: string;
  /** Where a client that hard-codes `wp/v2` reaches the site (the namespace proxy on a spec-named site). */
  wpUrl: string;
  /** Two published posts of the test's own, newest last. */
  posts: SubjectPost[];
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** One request to the site (its origin, past any proxy) with the test's credentials: `{status, body}` (body parsed when JSON). */
export async function siteRequest(site: Pick<ClientSite, 'url' | 'origin' | 'user' | 'appPassword'>, method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const [path, query] = route.split('?');
  const url = `${site.origin ?? site.url}/index.php?rest_route=${encodeURIComponent(path!).replace(/%2F/g, '/')}${query ? `&${query}` : ''}`;
  const res = await fetch(url, {
    method,
    headers: { authorization: basic(site.user, site.appPassword), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed };
}

/** Create the two subject posts (published, in the default category); returns them and their cleanup. */
export async function createSubjects(site: Omit<ClientSite, 'posts' | 'name' | 'wpUrl'>, tag: string): Promise<{ posts: SubjectPost[]; remove: () => Promise<void> }> {
  const posts: SubjectPost[] = [];
  for (const n of [1, 2]) {
    const slug = `${tag}-client-flow-${n}`;
    const res = await siteRequest(site, 'POST', `/${site.namespace}/posts`, { title: { raw: `${tag} client flow ${n}` }, content: { raw: `<p>client flow ${n}</p>` }, status: 'publish', slug, categories: [1] });
    if (res.status < 200 || res.status > 299 || !Number.isInteger(res.body?.id)) throw new Error(`${site.url}: could not create a subject post: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    posts.push({ id: res.body.id, slug: res.body.slug, link: res.body.link, author: res.body.author, categories: res.body.categories });
  }
  return {
    posts,
    remove: async () => {
      for (const p of posts) await siteRequest(site, 'DELETE', `/${site.namespace}/posts/${p.id}?force=true`);
    },
  };
}

/**
 * The namespace proxy in front of a spec-named site: `/wp-json/wp/v2/…` and `rest_route=/wp/v2/…`
 * (plain or percent-encoded) are sent on as the site's namespace; everything else as it is.
 */
export async function startNamespaceProxy(target: string, namespace: string): Promise<{ url: string; close: () => Promise<void> }> {
  const to = new URL(target);
  const rename = (s: string) =>
    s
      .replace(/^\/wp-json\/wp\/v2(?=\/|\?|$)/, `/wp-json/${namespace}`)
      .replace(/([?&]rest_route=)\/wp\/v2(?=\/|&|$)/, `$1/${namespace}`)
      .replace(/([?&]rest_route=)%2Fwp%2Fv2(?=%2F|&|$)/i, `$1${encodeURIComponent(`/${namespace}`)}`);
  const server: Server = createServer((req, res) => {
    const out = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: rename(req.url ?? '/'), headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (e) => {
      res.statusCode = 502;
      res.end(String(e));
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
