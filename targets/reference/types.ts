/** The request, response and endpoint types shared by the reference server's modules. */
import type { RestError } from './errors.ts';
import type { Params, UploadedFile } from './http.ts';
import type { WpSchema } from './schema.ts';
import type { Site, User } from './state.ts';

/**
 * A REST request as WordPress's WP_REST_Request sees it: parameters by source, looked up in
 * WordPress's order (JSON body, form body, query, URL, defaults; wordpress-behaviour.md §1).
 * A null value counts as absent (PHP isset()).
 */
export class RestRequest {
  urlParams: Params = {};
  defaults: Params = {};
  /** Sanitized values of the endpoint's args (they replace the raw values). */
  readonly sanitized = new Map<string, unknown>();
  /** Set when the JSON body could not be parsed. */
  jsonError?: RestError;

  constructor(
    public method: string,
    /** The concrete route, e.g. /cms/v2/posts/5 */
    public route: string,
    public query: Params,
    /** Form / multipart body fields (WordPress's POST source), or a batch item's body. */
    public body: Params,
    /** The decoded JSON body (JSON content type only). */
    public json: Params | null,
    public headers: Record<string, string>,
    public user: User | null,
    public files: Record<string, UploadedFile> = {},
    public rawBody: Buffer = Buffer.alloc(0),
  ) {}

  get contentType(): string {
    return this.headers['content-type'] ?? '';
  }

  /** The sources in lookup order. */
  sources(): Params[] {
    const out: Params[] = [];
    if (this.json) out.push(this.json);
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(this.method)) out.push(this.body);
    out.push(this.query, this.urlParams, this.defaults);
    return out;
  }

  /** The raw value (before sanitization), or undefined. */
  raw(name: string): unknown {
    for (const src of this.sources()) {
      const v = src[name];
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  }

  /** get_param(): the sanitized value when the name is an endpoint arg, else the raw value. */
  get(name: string): unknown {
    if (this.sanitized.has(name)) return this.sanitized.get(name);
    return this.raw(name);
  }

  /** has_param(): present in some source (even as null). */
  has(name: string): boolean {
    return this.sources().some((src) => Object.prototype.hasOwnProperty.call(src, name));
  }

  /** Present in the request itself, not only as a default. */
  given(name: string): boolean {
    return this.sources()
      .filter((s) => s !== this.defaults)
      .some((src) => src[name] !== undefined && src[name] !== null);
  }

  /** The body parameters (JSON body, else form body): what an update reads. */
  bodyParams(): Params {
    return this.json ?? this.body;
  }

  get loggedIn(): boolean {
    return this.user !== null;
  }
}

export class RestResponse {
  /** A non-JSON body (oEmbed XML): sent as is. */
  raw?: { body: string; contentType: string };
  constructor(
    public data: unknown,
    public status = 200,
    public headers: Record<string, string> = {},
  ) {}
}

/** The request pipeline, split as the batch route needs it (match and validate all, then run). */
export interface Pipeline {
  prepare(req: RestRequest): Prepared | RestError;
  respond(p: Prepared): RestResponse;
  allow(entry: Prepared['entry'], req: RestRequest): string;
}

export type HandlerResult = RestResponse | RestError | unknown;

export interface HandlerContext {
  site: Site;
  /** Base URL of the site, e.g. http://127.0.0.1:8080 */
  base: string;
  /** rest_url(route) */
  restUrl(route: string): string;
  pipeline: Pipeline;
}

/**
 * A per-arg hook for WordPress behaviour a schema cannot express: a validate_callback (runs in
 * the validate stage instead of the schema check) and/or a sanitize_callback (runs in the
 * sanitize stage instead of the schema sanitizer).
 */
export interface ArgHook {
  validate?: (value: unknown, req: RestRequest, param: string, schema: WpSchema, ctx: HandlerContext) => true | false | RestError;
  sanitize?: (value: unknown, req: RestRequest, param: string, schema: WpSchema, ctx: HandlerContext) => unknown;
}

export interface EndpointImpl {
  /**
   * Attributes WordPress has where the catalog states none (filled in, never overriding a catalog
   * fact), and extra args of endpoints whose parameter list the spec leaves open or not shown.
   */
  overlay?: Record<string, WpSchema>;
  hooks?: Record<string, ArgHook>;
  /** permission_callback; absent = public. */
  permission?: (req: RestRequest, ctx: HandlerContext) => true | RestError;
  handler: (req: RestRequest, ctx: HandlerContext) => HandlerResult;
}

export type HandlerTable = Record<string, EndpointImpl>;

export interface EndpointEntry {
  id: string;
  methods: string[];
  allowBatch: boolean;
  args: Record<string, WpSchema>;
  impl: EndpointImpl;
}

export interface RouteEntry {
  id: string;
  namespace: string;
  /** Documented shape, e.g. /cms/v2/posts/<id> */
  path: string;
  /** Index key, e.g. /cms/v2/posts/(?P<id>\d+) */
  key: string;
  regex: RegExp;
  endpoints: EndpointEntry[];
}

export interface Prepared {
  entry: RouteEntry;
  endpoint: EndpointEntry;
  req: RestRequest;
}
