/**
 * The reference server: an in-memory implementation of the documented interface (both
 * documents at once), built from the catalog, on node:http. Embedded (`--target reference`),
 * served (`cms-conformance serve`), or mounted in-process with createReferenceHandler().
 *
 * Request handling: `{base}/index.php?rest_route=<route>` (any path with a rest_route query
 * parameter) goes through the REST pipeline (router.ts); the few non-REST addresses a client
 * may follow (post permalinks, uploads, the application authorization page) answer small HTML
 * pages or files. See README.md.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { batchHandlers } from './batch.ts';
import { contactformHandlers } from './contactform.ts';
import { contentHandlers } from './content.ts';
import { linkOf } from './content-render.ts';
import { withEmbeds } from './embed.ts';
import { RestError, noRoute, restError } from './errors.ts';
import { basicCredentials, isJsonContentType, normalizeRoute, parseMultipart, parseQueryAs, rawQueryOf, readBody, type Params } from './http.ts';
import { indexHandlers, routeDoc } from './index-doc.ts';
import { maybeXml, oembedHandlers } from './oembed.ts';
import { inDialect } from './readings.ts';
import { Router, allowHeader, dispatch, prepare, respond } from './router.ts';
import { spamfilterHandlers } from './spamfilter.ts';
import type { Dialect } from './dialect.ts';
import { Site, type SiteContent, type SiteOptions, type User } from './state.ts';
import { suiteHandlers } from './suite.ts';
import { RestRequest, RestResponse, type HandlerContext } from './types.ts';
import { isPlainObject, parseList } from './validate.ts';

export interface ReferenceServer {
  url: string;
  user: string;
  appPassword: string;
  port: number;
  stop(): Promise<void>;
  /** With `deferSiteSetup`: set the fresh site up (until then its settings are at their defaults). */
  setUpSite?: () => void;
}

export interface ReferenceOptions {
  port?: number;
  /** Default 127.0.0.1 */
  host?: string;
  /** Login of the administrator. Default `admin`. */
  user?: string;
  /** Its application password. Default: 24 random alphanumerics. */
  appPassword?: string;
  /** Start as a site nobody set up (settings at their defaults); `setUpSite()` sets it up. */
  deferSiteSetup?: boolean;
  /** The readings of the documents the site serves (dialect.ts); WordPress's by default. */
  dialect?: Partial<Dialect>;
  /** The site timezone (state.ts SiteOptions); UTC by default. */
  timezone?: SiteOptions['timezone'];
  /** The content it starts with (state.ts): `sample` (default) or `blog`, a small real blog's. */
  content?: SiteContent;
}

export interface HandlerOptions extends SiteOptions {
  /** Base URL of the site. Default: from each request's Host header. */
  url?: string;
}

export type ReferenceHandler = ((req: IncomingMessage, res: ServerResponse) => void) & { site: Site; router: Router };

/** The handler tables of every namespace, keyed by catalog endpoint ID. */
function buildRouter(dialect: Readonly<Dialect>): Router {
  let router: Router | undefined;
  const index = indexHandlers(() => router!);
  router = new Router(
    {
      ...index.table,
      ...batchHandlers,
      ...oembedHandlers,
      ...contentHandlers(),
      ...spamfilterHandlers,
      ...contactformHandlers,
      ...suiteHandlers,
    },
    index.namespaceIndex,
    dialect,
  );
  return router;
}

const GLOBAL_HEADERS = {
  'X-Robots-Tag': 'noindex',
  'X-Content-Type-Options': 'nosniff',
  'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
  'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
};

/** rest_filter_response_fields(): keep the requested fields (`a.b` selects nested ones). */
function filterFields(data: unknown, fields: string[]): unknown {
  if (Array.isArray(data)) return data.map((d) => filterFields(d, fields));
  if (!isPlainObject(data)) return data;
  const tree: Record<string, unknown> = {};
  for (const f of fields) {
    let node = tree;
    const parts = f.split('.');
    parts.forEach((p, i) => {
      if (i === parts.length - 1) node[p] = true;
      else if (node[p] !== true) node = (node[p] = isPlainObject(node[p]) ? node[p] : {}) as Record<string, unknown>;
    });
  }
  const pick = (obj: Record<string, unknown>, t: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, sub] of Object.entries(t)) {
      if (!(k in obj)) continue;
      out[k] = sub === true || !isPlainObject(obj[k]) ? obj[k] : pick(obj[k] as Record<string, unknown>, sub as Record<string, unknown>);
    }
    return out;
  };
  return pick(data, tree);
}

/** WordPress's authentication of a Basic header (application passwords): a user, null (no header), or an error. */
function authenticate(site: Site, header: string | undefined): User | null | RestError {
  const creds = basicCredentials(header);
  if (!creds) return null;
  const isEmail = /^[^\s@]+@[^\s@]+$/.test(creds.user);
  const user = site.users.find((u) => u.login === creds.user) ?? (isEmail ? site.users.find((u) => u.email === creds.user) : undefined);
  if (!user) {
    return isEmail
      ? restError('invalid_email', '<strong>Error:</strong> Unknown email address. Check again or try your username.', 401)
      : restError('invalid_username', '<strong>Error:</strong> Unknown username. Check again or try your email address.', 401);
  }
  // Non-alphanumerics are stripped, so the spaced form `abcd efgh ...` works.
  const password = creds.password.replace(/[^a-z\d]/gi, '');
  if (!user.appPasswords.includes(password))
    return restError('incorrect_password', 'The provided password is an invalid application password.', 401);
  return user;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer | undefined, head: boolean): void {
  res.statusCode = status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (body !== undefined && !head) res.end(body);
  else res.end();
}

const escHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Non-REST addresses: permalinks, uploads, the application authorization page, the home page. */
function serveSite(site: Site, base: string, path: string, query: Params, res: ServerResponse, head: boolean): void {
  // WordPress's discovery of the API root (dialect discovery=none: a site that does not announce it).
  const announce = site.dialect.discovery === 'link';
  const apiLink: Record<string, string> = announce ? { Link: `<${base}/index.php?rest_route=/>; rel="https://api.w.org/"` } : {};
  const linkTag = announce ? `<link rel="https://api.w.org/" href="${base}/index.php?rest_route=/">` : '';
  const html = (status: number, title: string, body: string) =>
    send(
      res,
      status,
      { 'Content-Type': 'text/html; charset=UTF-8', ...apiLink },
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escHtml(title)}</title>${linkTag}</head><body>${body}</body></html>\n`,
      head,
    );
  const file = site.content.files.get(path);
  if (file) return send(res, 200, { 'Content-Type': file.type, 'Content-Length': String(file.data.length) }, file.data, head);
  if (path === `/${site.adminPath}/authorize-application.php`)
    return html(200, 'Authorize Application', `<h1>Authorize Application</h1><p>Application passwords of ${escHtml(site.name)} are created by its administrator.</p>`);
  if (path !== '/' && path !== '/index.php') return html(404, 'Page not found', '<h1>Page not found</h1>');
  const id = Number(query.p ?? query.page_id ?? query.attachment_id ?? 0);
  if (id) {
    const rec = site.content.get(id);
    const visible = rec && ['post', 'page', 'attachment'].includes(rec.type) && (rec.status === 'publish' || rec.status === 'inherit');
    if (!rec || !visible) return html(404, 'Page not found', '<h1>Page not found</h1>');
    const body = rec.password ? '<p>This content is password protected.</p>' : rec.content;
    return html(200, rec.title, `<article><h1>${escHtml(rec.title)}</h1>${body}</article>`);
  }
  const posts = [...site.content.posts.values()].filter((p) => p.type === 'post' && p.status === 'publish').sort((a, b) => b.date - a.date);
  return html(
    200,
    site.name,
    `<h1>${escHtml(site.name)}</h1><ul>${posts.map((p) => `<li><a href="${linkOf(p, base)}">${escHtml(p.title)}</a></li>`).join('')}</ul>`,
  );
}

/** A percent-decoded path (the raw path when it is not valid percent-encoding). */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A request handler serving one in-memory site. */
export function createReferenceHandler(opts: HandlerOptions = {}): ReferenceHandler {
  const site = new Site(opts);
  const router = buildRouter(site.dialect);

  const context = (base: string): HandlerContext => {
    const ctx: HandlerContext = {
      site,
      base,
      restUrl: (route) => `${base}/index.php?rest_route=${route}`,
      pipeline: {
        prepare: (req) => prepare(router, req, ctx),
        respond: (p) => respond(p, ctx),
        allow: (entry, req) => allowHeader(entry, req, ctx),
      },
    };
    return ctx;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const base = (opts.url ?? `http://${req.headers.host ?? '127.0.0.1'}`).replace(/\/+$/, '');
    const rawUrl = req.url ?? '/';
    const path = rawUrl.split('?')[0]!.replace(/\/{2,}/g, '/');
    const query = parseQueryAs(rawQueryOf(rawUrl), site.dialect.queryArrays, site.dialect.queryObjects);
    const head = req.method === 'HEAD';
    // `{base}/wp-json/<route>`: WordPress's pretty REST address (with pretty permalinks), the one
    // OpenAPI tools can use (an OpenAPI path cannot carry `?rest_route=`; see `cms-conformance openapi`).
    // A site that answers only the address the spec states (dialect addressing=rest-route) serves `/wp-json/…` as any other unknown page.
    const pretty = typeof query.rest_route !== 'string' && site.dialect.addressing === 'both' ? /^\/wp-json(\/.*)?$/.exec(path) : null;
    if (pretty) query.rest_route = safeDecode(pretty[1] ?? '/');
    if (typeof query.rest_route !== 'string') return serveSite(site, base, path, query, res, head);

    const ctx = context(base);
    const headers: Record<string, string> = {
      ...GLOBAL_HEADERS,
      'Content-Type': 'application/json; charset=UTF-8',
      ...(site.dialect.discovery === 'link' ? { Link: `<${base}/index.php?rest_route=/>; rel="https://api.w.org/"` } : {}),
    };
    const origin = req.headers.origin;
    if (origin) {
      Object.assign(headers, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
        'Access-Control-Allow-Credentials': 'true',
        Vary: 'Origin',
      });
    }
    // WordPress's global parameters (_fields, _envelope, _method, X-HTTP-Method-Override): a site
    // that follows none of its conventions does not read them.
    const wpGlobals = site.dialect.conventions === 'wordpress';
    const prettyJson = query._pretty !== undefined;
    const anonymous = !req.headers.authorization;
    const finish = (r: RestResponse, restReq?: RestRequest): void => {
      let response = r;
      if (restReq) response = maybeXml(restReq, response);
      const data0 = response.raw ? null : wpGlobals && response.status < 400 ? withEmbeds(response.data, ctx, query) : response.data;
      const answer = inDialect({ status: response.status, headers: { ...headers, ...response.headers }, data: data0 }, restReq, anonymous, site.dialect);
      if (response.raw) return send(res, answer.status, { ...answer.headers, 'Content-Type': response.raw.contentType }, response.raw.body, head);
      let data = answer.data;
      if (data === undefined) return send(res, answer.status, answer.headers, undefined, head);
      const fields = wpGlobals ? query._fields : undefined;
      if (fields !== undefined && answer.status < 400) data = filterFields(data, parseList(fields).map((f) => String(f).trim()).filter(Boolean));
      if (wpGlobals && query._envelope !== undefined) {
        return send(res, 200, headers, JSON.stringify({ body: data, status: response.status, headers: response.headers }, null, prettyJson ? 4 : 0), head);
      }
      send(res, answer.status, answer.headers, JSON.stringify(data, null, prettyJson ? 4 : 0), head);
    };

    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch {
      return finish(new RestResponse(restError('rest_invalid_body', 'The request body could not be read.', 400).toBody(), 400));
    }

    // Authentication comes before routing: a bad credential fails every route.
    const user = authenticate(site, req.headers.authorization);
    if (user instanceof RestError) return finish(new RestResponse(user.toBody(), user.status));

    // _method (query string only) overrides the method; X-HTTP-Method-Override when it is absent.
    let method = (req.method ?? 'GET').toUpperCase();
    const honoured = wpGlobals && site.dialect.methodOverride === 'honoured';
    const override = !honoured ? undefined : typeof query._method === 'string' ? query._method : req.headers['x-http-method-override'];
    if (typeof override === 'string' && override) method = override.toUpperCase();

    const contentType = req.headers['content-type'] ?? '';
    let json: Params | null = null;
    let body: Params = {};
    let files = {};
    let jsonError: RestError | undefined;
    if (isJsonContentType(contentType)) {
      const text = raw.toString('utf8');
      if (text.trim() !== '') {
        try {
          const parsed = JSON.parse(text);
          json = isPlainObject(parsed) ? parsed : Array.isArray(parsed) ? Object.fromEntries(parsed.map((v, i) => [String(i), v])) : {};
        } catch {
          jsonError = restError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 4, json_error_message: 'Syntax error' });
        }
      }
    } else if (/^multipart\/form-data/i.test(contentType)) {
      // PHP parses multipart bodies of real POST requests only.
      if ((req.method ?? '').toUpperCase() === 'POST') ({ fields: body, files } = parseMultipart(raw, contentType));
    } else if (/^application\/x-www-form-urlencoded/i.test(contentType) || (contentType === '' && raw.length > 0)) {
      body = parseQueryAs(raw.toString('utf8'), site.dialect.queryArrays);
    }

    const headersIn: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headersIn[k] = Array.isArray(v) ? v.join(', ') : v;
    const restReq = new RestRequest(method, normalizeRoute(query.rest_route), query, body, json, headersIn, user, files, raw);
    restReq.jsonError = jsonError;

    if (method === 'OPTIONS') {
      // rest_handle_options_request(): the route's description and its Allow header.
      const hit = router.match(restReq.route);
      if (!hit) return finish(new RestResponse(noRoute().toBody(), 404));
      restReq.urlParams = hit.params;
      const doc = routeDoc(hit.entry, ctx);
      delete doc._links;
      return finish(new RestResponse(doc, 200, { Allow: allowHeader(hit.entry, restReq, ctx) }), restReq);
    }
    finish(dispatch(router, restReq, ctx), restReq);
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json; charset=UTF-8');
      }
      res.end(JSON.stringify({ code: 'internal_server_error', message: String((err as Error)?.message ?? err), data: { status: 500 } }));
    });
  }) as ReferenceHandler;
  handler.site = site;
  handler.router = router;
  return handler;
}

/** An HTTP server listening on `host:port` (0: any free port), its URL, and a stop that may be called many times. */
export async function listenHttp(port: number, host: string): Promise<{ server: Server; port: number; url: string; stop: () => Promise<void> }> {
  const server = createServer();
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let stopping: Promise<void> | undefined;
  return {
    server,
    port: actual,
    url: `http://${urlHost}:${actual}`,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

/** Start the reference server on a port (0: any free port). */
export async function startReferenceServer(opts: ReferenceOptions = {}): Promise<ReferenceServer> {
  const { server, port, url, stop } = await listenHttp(opts.port ?? 0, opts.host ?? '127.0.0.1');
  const handler = createReferenceHandler({
    url,
    user: opts.user,
    appPassword: opts.appPassword,
    ...(opts.dialect ? { dialect: opts.dialect } : {}),
    ...(opts.timezone ? { timezone: opts.timezone } : {}),
    ...(opts.content ? { content: opts.content } : {}),
  });
  server.on('request', handler);
  const setUpSite = opts.deferSiteSetup ? handler.site.suite.deferSetup() : undefined;
  return { url, user: handler.site.admin.login, appPassword: handler.site.admin.appPasswords[0]!, port, stop, ...(setUpSite ? { setUpSite } : {}) };
}
