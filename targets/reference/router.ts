/**
 * Routes built from the catalog, and the request pipeline of WP_REST_Server::dispatch():
 * route match (404 rest_no_route, also for a wrong method), required params
 * (rest_missing_callback_param), validation then sanitization (rest_invalid_param), then the
 * permission check, then the handler (wordpress-behaviour.md §1, §2).
 *
 * Every catalog endpoint must have a handler (checked when the router is built). A route key is
 * the documented path with each `<param>` replaced by `(?P<param>pattern)`, the pattern taken
 * from the catalog (its pattern, or its enum), or where the spec leaves a segment unstated, from
 * WordPress (UNSTATED_SEGMENTS).
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { EndpointSpec, RouteSpec } from '../../schemas/types.ts';
import { RestError, isRestError, noRoute, restError, restForbidden } from './errors.ts';
import { DEFAULT_DIALECT, type Dialect } from './dialect.ts';
import { fillMissing, fromArgSpec, segmentGroup, unionForm, type WpSchema } from './schema.ts';
import { RestResponse, type EndpointEntry, type EndpointImpl, type HandlerContext, type HandlerTable, type Prepared, type RestRequest, type RouteEntry } from './types.ts';
import { sanitizeValue, validateValue } from './validate.ts';

/**
 * Path segments the spec does not characterise: WordPress's (Jetpack's) route patterns.
 * Keyed by `<route id>.<param>`.
 */
const UNSTATED_SEGMENTS: Record<string, string> = {
  'suite.module.active.slug': '[a-z\\-]+',
  'suite.module.data.slug': '[a-z\\-]+',
  'suite.module.key.check.service': '[a-z\\-]+',
  'suite.settings.item.slug': '[a-z\\-]+',
  'suite.plugins.item.plugin': '[^.\\/]+(?:\\/[^.\\/]+)?',
  'suite.verify-site.item.service': '[a-z\\-_]+',
};

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function segmentPattern(route: RouteSpec, name: string): string {
  const p = route.params?.[name];
  if (p?.pattern) return p.pattern;
  if (p?.enum) return p.enum.map((v) => escapeRe(String(v))).join('|');
  return UNSTATED_SEGMENTS[`${route.id}.${name}`] ?? '[^/]+';
}

/** The advertised key of a route and the regex it is matched with (anchored, case-insensitive). */
export function routeKey(route: RouteSpec): { key: string; regex: RegExp } {
  const key = route.path.replace(/<([^>]+)>/g, (_, name: string) => segmentGroup(name, segmentPattern(route, name)));
  return { key, regex: new RegExp(`^${key.replace(/\(\?P</g, '(?<')}$`, 'i') };
}

/** The args of an endpoint: the catalog's, completed by the handler's overlay. */
function endpointArgs(ep: EndpointSpec, impl: EndpointImpl, dialect: Readonly<Dialect>): Record<string, WpSchema> {
  const out: Record<string, WpSchema> = {};
  const overlay = impl.overlay ?? {};
  if (ep.args !== 'not-shown') {
    for (const [name, arg] of Object.entries(ep.args)) {
      const base = fromArgSpec(arg);
      out[name] = overlay[name] ? fillMissing(base, overlay[name]!) : base;
    }
  }
  for (const [name, s] of Object.entries(overlay)) if (!(name in out)) out[name] = s;
  for (const [name, s] of Object.entries(out)) out[name] = unionForm(s, dialect.argUnions);
  return out;
}

/**
 * Namespaces the documents list without any route of theirs: each is served with its namespace
 * index route only (namespace and context args, as WordPress registers every namespace index).
 */
function namespaceOnlyRoutes(): RouteSpec[] {
  const all = [...new Set([...catalog.namespaces.core, ...catalog.namespaces.extensions])];
  const withRoutes = new Set(catalog.routes.map((r) => r.namespace));
  return all
    .filter((ns) => !withRoutes.has(ns))
    .map((ns) => ({
      id: `namespace-index.${ns}`,
      namespace: ns,
      path: `/${ns}`,
      endpoints: [
        {
          id: `namespace-index.${ns}.read`,
          methods: ['GET'],
          args: { namespace: { default: ns }, context: { default: 'view' } },
          spec: { doc: 'core', section: '1. What the service does' },
          note: 'routes of this namespace: not shown',
        },
      ],
      spec: { doc: 'core', section: '1. What the service does' },
    }));
}

export class Router {
  readonly routes: RouteEntry[];
  /** Literal routes are tried before routes with parameters (`/module/all` before `/module/<slug>`). */
  private readonly matchOrder: RouteEntry[];

  constructor(handlers: HandlerTable, namespaceIndexImpl: EndpointImpl, dialect: Readonly<Dialect> = DEFAULT_DIALECT) {
    const specs = [...catalog.routes, ...namespaceOnlyRoutes()];
    const missing = catalog.routes.flatMap((r) => r.endpoints.map((e) => e.id)).filter((id) => !handlers[id]);
    if (missing.length) throw new Error(`reference server: no handler for catalog endpoint(s) ${missing.join(', ')}`);
    this.routes = specs.map((route) => {
      const { key, regex } = routeKey(route);
      return {
        id: route.id,
        namespace: route.namespace,
        path: route.path,
        key,
        regex,
        endpoints: route.endpoints.map((ep) => {
          const impl = handlers[ep.id] ?? namespaceIndexImpl;
          return { id: ep.id, methods: [...ep.methods], allowBatch: ep.allowBatch === true, args: endpointArgs(ep, impl, dialect), impl };
        }),
      };
    });
    this.matchOrder = [...this.routes.filter((r) => !r.key.includes('(?P<')), ...this.routes.filter((r) => r.key.includes('(?P<'))];
  }

  /** The route a path matches, with its URL params. */
  match(path: string): { entry: RouteEntry; params: Record<string, string> } | undefined {
    for (const entry of this.matchOrder) {
      const m = entry.regex.exec(path);
      if (m) return { entry, params: { ...(m.groups ?? {}) } };
    }
    return undefined;
  }

  /** The endpoint of a route serving a method (HEAD falls back to GET). */
  static endpointFor(entry: RouteEntry, method: string): EndpointEntry | undefined {
    const hit = entry.endpoints.find((e) => e.methods.includes(method));
    if (hit || method !== 'HEAD') return hit;
    return entry.endpoints.find((e) => e.methods.includes('GET'));
  }
}

/** An argument whose schema takes an object (itself, or one alternative of a union). */
const takesObject = (s: WpSchema): boolean =>
  [s.type].flat().includes('object') || [...((s as { oneOf?: WpSchema[] }).oneOf ?? []), ...((s as { anyOf?: WpSchema[] }).anyOf ?? [])].some(takesObject);

/** A date-time that states its zone (`Z` or `±hh:mm`), as RFC 3339 requires. */
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** has_valid_params() then sanitize_params(). */
export function checkParams(req: RestRequest, endpoint: EndpointEntry, ctx: HandlerContext): RestError | undefined {
  if (req.jsonError) return req.jsonError;
  const args = endpoint.args;
  for (const [name, s] of Object.entries(args)) if ('default' in s) req.defaults[name] = structuredClone(s.default);

  const missing = Object.entries(args)
    .filter(([name, s]) => s.required === true && req.raw(name) === undefined)
    .map(([name]) => name);
  if (missing.length) return restError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, 400, { params: missing });

  // Dialect query-objects=json: an object argument of the query written as JSON text.
  if (ctx.site.dialect.queryObjects === 'json')
    for (const [name, s] of Object.entries(args)) {
      const v = req.query[name];
      if (typeof v !== 'string' || !/^\s*\{/.test(v) || !takesObject(s)) continue;
      try {
        const parsed: unknown = JSON.parse(v);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) req.query[name] = parsed;
      } catch {
        /* not JSON: the text as it is, which the argument's schema refuses */
      }
    }

  const invalid: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  const fail = (name: string, r: RestError | false) => {
    if (r === false) invalid[name] = 'Invalid parameter.';
    else {
      invalid[name] = r.message;
      details[name] = r.toDetails();
    }
  };
  const invalidError = () =>
    restError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(invalid).join(', ')}`, 400, {
      params: invalid,
      // An empty PHP array is serialised as [].
      details: Object.keys(details).length ? details : [],
    });

  for (const [name, s] of Object.entries(args)) {
    const v = req.raw(name);
    if (v === undefined) continue;
    const hook = endpoint.impl.hooks?.[name];
    const r = hook?.validate ? hook.validate(v, req, name, s, ctx) : validateValue(v, s, name);
    if (r !== true) fail(name, r);
    // RFC 3339 (JSON Schema's date-time) has a zone: a strict reading refuses one without it
    // (dialect date-times=strict; WordPress reads it in the site's timezone).
    else if (ctx.site.dialect.dateTimes === 'strict' && s.format === 'date-time' && typeof v === 'string' && !ZONED_DATE_TIME.test(v.trim()))
      fail(name, restError('rest_invalid_date', `${name} is not a date-time with a zone offset (RFC 3339).`, 400));
  }
  if (Object.keys(invalid).length) return invalidError();

  for (const [name, s] of Object.entries(args)) {
    const v = req.raw(name);
    if (v === undefined) continue;
    const hook = endpoint.impl.hooks?.[name];
    const r = hook?.sanitize ? hook.sanitize(v, req, name, s, ctx) : sanitizeValue(v, s, name);
    if (isRestError(r)) fail(name, r);
    else req.sanitized.set(name, r);
  }
  if (Object.keys(invalid).length) return invalidError();
  return undefined;
}

/**
 * Query parameters the endpoint does not document (dialect `unknown-params=refused`): any but its
 * args and `rest_route`, the address itself (core preamble). WordPress ignores them (and reads
 * its own: `_embed`, `_fields`, `_locale` …).
 */
function unknownParams(req: RestRequest, endpoint: EndpointEntry): string[] {
  return Object.keys(req.query).filter((k) => k !== 'rest_route' && !(k in endpoint.args)).sort();
}

/** Route match, then params (WP_REST_Server::match_request_to_handler + has_valid_params + sanitize_params). */
export function prepare(router: Router, req: RestRequest, ctx: HandlerContext): Prepared | RestError {
  const hit = router.match(req.route);
  if (!hit) return noRoute();
  const endpoint = Router.endpointFor(hit.entry, req.method);
  if (!endpoint) return noRoute();
  req.urlParams = hit.params;
  const unknown = ctx.site.dialect.unknownParams === 'refused' ? unknownParams(req, endpoint) : [];
  if (unknown.length)
    return restError('rest_invalid_param', `Unknown parameter(s): ${unknown.join(', ')}`, 400, { params: Object.fromEntries(unknown.map((n) => [n, 'This parameter is not documented.'])) });
  const err = checkParams(req, endpoint, ctx);
  if (err) return err;
  return { entry: hit.entry, endpoint, req };
}

export function toResponse(result: unknown): RestResponse {
  if (result instanceof RestResponse) return result;
  if (isRestError(result)) return new RestResponse(result.toBody(), result.status);
  return new RestResponse(result === undefined ? null : result);
}

/** Permission check, then the handler (respond_to_request). */
export function respond(p: Prepared, ctx: HandlerContext): RestResponse {
  const perm = p.endpoint.impl.permission ? p.endpoint.impl.permission(p.req, ctx) : true;
  if (perm !== true) return toResponse(isRestError(perm) ? perm : restForbidden(p.req.loggedIn));
  try {
    return toResponse(p.endpoint.impl.handler(p.req, ctx));
  } catch (err) {
    return toResponse(
      new RestError('internal_server_error', `The reference server failed: ${(err as Error)?.message ?? String(err)}`, { status: 500 }),
    );
  }
}

/** rest_send_allow_header: the methods whose permission check passes for this request. */
export function allowHeader(entry: RouteEntry, req: RestRequest, ctx: HandlerContext): string {
  const methods: string[] = [];
  for (const ep of entry.endpoints) {
    let ok = true;
    try {
      ok = ep.impl.permission ? ep.impl.permission(req, ctx) === true : true;
    } catch {
      ok = false;
    }
    if (ok) methods.push(...ep.methods);
  }
  return [...new Set(methods)].join(', ');
}

/** The whole pipeline for one request: the response, with the Allow header of the matched route. */
export function dispatch(router: Router, req: RestRequest, ctx: HandlerContext): RestResponse {
  const p = prepare(router, req, ctx);
  if (isRestError(p)) {
    const res = toResponse(p);
    const hit = p.code !== 'rest_no_route' ? router.match(req.route) : undefined;
    if (hit) res.headers.Allow = allowHeader(hit.entry, req, ctx);
    return res;
  }
  const res = respond(p, ctx);
  res.headers.Allow = allowHeader(p.entry, req, ctx);
  return res;
}
