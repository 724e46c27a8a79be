/**
 * Types of the catalog: the documented interface as data.
 *
 * Rule: an attribute is present only when the specification states it. An absent
 * attribute means "the spec says nothing", never "false" or "none". Where the spec
 * explicitly says "not shown", the item carries `notShown` with the spec's words.
 */

export type SpecDoc = 'core' | 'extensions';

/** Where a documented fact comes from: the document and its section heading path. */
export interface SpecRef {
  doc: SpecDoc;
  /** e.g. "4. Endpoints › Posts › Post collection query" */
  section: string;
}

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** Types the spec declares that are not JSON types (e.g. `suite_crm`'s `extension` is declared `text`). */
export type DeclaredType = JsonType | 'text';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One argument (query or body parameter) of an endpoint, as documented. */
export interface ArgSpec {
  /** One type, or several ("string or null" → ['string', 'null']). */
  type?: DeclaredType | DeclaredType[];
  /** Present (even when undefined is impossible) only if the spec states a default. */
  default?: unknown;
  /** true = the spec says required; false = the spec says optional / not required. Absent: not stated. */
  required?: boolean;
  enum?: readonly (string | number | boolean)[];
  minimum?: number;
  maximum?: number;
  format?: 'date-time' | 'uri';
  items?: ArgSpec;
  uniqueItems?: boolean;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  /** For object-typed args whose keys the spec lists. */
  properties?: Record<string, ArgSpec>;
  /** true when the spec says "no other keys". */
  closedProperties?: boolean;
  /** For object-typed args whose keys are free: what each value is ("each value is a string or an array of strings"). */
  values?: ArgSpec;
  /** Alternatives, e.g. "array of integer, or object". */
  oneOf?: ArgSpec[];
  /** Character classes of a path segment parameter, as documented ("a-z and hyphen"). */
  pattern?: string;
  /** Free text the spec adds that is not an attribute (kept for reports). */
  note?: string;
}

/** One endpoint: a set of methods on a route sharing the same args. */
export interface EndpointSpec {
  /** Stable ID, e.g. "cms.posts.list". Never renamed. */
  id: string;
  methods: HttpMethod[];
  /** Documented args. `'not-shown'` when the spec says the parameters are not shown. */
  args: Record<string, ArgSpec> | 'not-shown';
  /**
   * true when the spec lists only some of the args ("accepts at least ...",
   * "further parameters unknown"): extra advertised args are then not a deviation.
   */
  argsOpen?: boolean;
  /** `allow_batch.v1` as documented: true (batchable), false (stated not batchable), absent (not stated). */
  allowBatch?: boolean;
  /**
   * Parameters the spec says the endpoint does not have ("Differences in the collection query: no
   * tax_relation, ..."): a server that advertises one deviates; what it does when one is sent
   * anyway (ignore or refuse) is not stated.
   */
  absentArgs?: readonly string[];
  spec: SpecRef;
  note?: string;
}

/** A documented route pattern and its endpoints. */
export interface RouteSpec {
  /** Stable ID, e.g. "cms.posts.item". */
  id: string;
  namespace: string;
  /** Documented shape with named segments: "/cms/v2/posts/<id>". */
  path: string;
  /** Path segment parameters and what they accept, as documented. */
  params?: Record<string, ArgSpec>;
  endpoints: EndpointSpec[];
  spec: SpecRef;
}

/** A field of a resource, with the contexts it appears in. */
export interface FieldSpec {
  type?: DeclaredType | DeclaredType[];
  format?: 'date-time' | 'uri';
  enum?: readonly string[];
  items?: ArgSpec;
  /** Contexts the field is declared in; absent = not stated (top-level fields of part 2 state none). */
  contexts?: ('view' | 'edit' | 'embed')[];
  readonly?: boolean;
  /** Sub-properties for object fields (title.raw, content.rendered ...). */
  properties?: Record<string, FieldSpec>;
  default?: unknown;
  note?: string;
}

export interface ResourceSpec {
  id: string;
  /** Collection route the resource is served from, if stated. */
  route?: string;
  fields: Record<string, FieldSpec> | 'not-shown';
  /**
   * Fields the spec says the resource does not have ("Page: same fields as a post except: no
   * format, sticky, categories, tags"): in no context, and not among its write endpoints' args.
   */
  absentFields?: readonly string[];
  spec: SpecRef;
  note?: string;
}

/** A `suite/v4` setting (extensions part 2). */
export interface SettingSpec {
  id: string;
  name: string;
  type: DeclaredType;
  /** Absent when no default is stated. */
  default?: unknown;
  enum?: readonly string[];
  /** For array settings: the element type, when stated ("array of string"). */
  items?: ArgSpec;
  /** For object settings: the keys the spec names. */
  keys?: string[];
  note?: string;
  spec: SpecRef;
}

export interface ModuleSpec {
  id: string;
  slug: string;
  /** Module toggles are boolean, default false. */
  default: false;
  spec: SpecRef;
}

/** A field of the site index (`GET /`). */
export interface IndexFieldSpec {
  id: string;
  name: string;
  type: DeclaredType | DeclaredType[];
  format?: 'uri';
  /** Item type of an array field ("array of strings"). */
  items?: { type: DeclaredType };
  /** Extra facts the spec states about the value on a given instance. */
  nonEmpty?: boolean;
  note?: string;
  spec: SpecRef;
}

/** Something the spec explicitly does not show. Kept so reports can say "not checked: not shown". */
export interface NotShown {
  id: string;
  what: string;
  spec: SpecRef;
}

export interface Catalog {
  /** Site index fields; `doc` tells which document states them. */
  indexFields: IndexFieldSpec[];
  /** Namespaces each document says its site advertises. */
  namespaces: Record<SpecDoc, string[]>;
  authentication: {
    scheme: 'application-passwords';
    /** `{base_url}/<admin_path>/authorize-application.php` */
    authorizationPath: string;
    spec: SpecRef;
  };
  routes: RouteSpec[];
  resources: ResourceSpec[];
  settings: SettingSpec[];
  modules: ModuleSpec[];
  limits: { id: string; what: string; value: number | string; spec: SpecRef }[];
  /** Statuses (core part 3). */
  statuses: { write: readonly string[]; filterOnly: readonly string[] };
  notShown: NotShown[];
}

/** Why catalog items cannot be exercised by a request (schemas/catalog/uncovered.ts). */
export interface UncoveredReason {
  /** The item IDs the reason applies to (catalog item IDs as in results/coverage.ts). */
  items: RegExp;
  reason: string;
}
