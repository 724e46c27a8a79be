/**
 * `cms-conformance openapi` (src/openapi/build.ts), in process (the validator and Prism:
 * test/openapi-prism.e2e.test.ts): every catalog item (results/coverage.ts catalogItems: routes x methods, path
 * parameters, allow_batch, arg x stated attribute, field x context, settings, modules, ...)
 * is found in the document with what the catalog states of it (and the check is shown to fail
 * when one is missing); not-shown things are left open with the spec's words; behaviours are
 * linked to the operations and schemas their covers name; the flags give one-line errors.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { catalog } from '../schemas/catalog/index.ts';
import { catalogItems } from '../results/coverage.ts';
import { getProfile, type Profile, type ProfileName } from '../schemas/profiles.ts';
import type { ArgSpec, FieldSpec, RouteSpec } from '../schemas/types.ts';
import { parseOpenApiFlags, renderOpenApi } from '../src/cli/openapi.ts';
import { buildOpenApi, openApiPath, X } from '../src/openapi/build.ts';
import { createReferenceHandler, listenHttp } from '../targets/reference/index.ts';

type Doc = Record<string, any>;
const PROFILES: ProfileName[] = ['spec', 'wordpress'];
const docs = Object.fromEntries(PROFILES.map((p) => [p, buildOpenApi({ profile: p })])) as Record<ProfileName, Doc>;
const clone = <T>(v: T): T => structuredClone(v);

it('the YAML output is the same tree as the JSON output', () => {
  for (const p of PROFILES) expect(parse(renderOpenApi(docs[p], 'yaml'))).toEqual(JSON.parse(renderOpenApi(docs[p], 'json')));
});

// ---------------------------------------------------------------------------- round trip

const routeOfEndpoint = new Map<string, { route: RouteSpec; endpointIndex: number }>();
for (const route of catalog.routes) route.endpoints.forEach((e, i) => routeOfEndpoint.set(e.id, { route, endpointIndex: i }));
const SETTINGS_ROUTES = new Set(['suite.settings', 'suite.settings.item', 'suite.module.item', 'spamfilter.settings']);

function operationsOf(doc: Doc, profile: Profile, endpointId: string): { op: Doc; pathItem: Doc; method: string }[] {
  const hit = routeOfEndpoint.get(endpointId);
  if (!hit) return [];
  const endpoint = hit.route.endpoints[hit.endpointIndex]!;
  const pathItem = doc.paths[openApiPath(profile, hit.route.path)];
  if (!pathItem) return [];
  return endpoint.methods.map((m) => ({ op: pathItem[m.toLowerCase()], pathItem, method: m })).filter((x) => x.op?.operationId === `${endpointId}:${x.method}`);
}

/** Where an arg ended up in one operation: its schema and whether it is required. */
function findArg(o: { op: Doc; pathItem: Doc }, name: string): { schema: Doc; required: boolean } | undefined {
  const path = (o.pathItem.parameters ?? []).find((p: Doc) => p.name === name && p.in === 'path');
  if (path) return { schema: path.schema, required: true };
  const q = (o.op.parameters ?? []).find((p: Doc) => p.name === name);
  if (q) return { schema: q.schema, required: q.required === true };
  const body = o.op.requestBody?.content?.['application/json']?.schema;
  if (body?.properties?.[name]) return { schema: body.properties[name], required: (body.required ?? []).includes(name) };
  return undefined;
}

const sameType = (schema: Doc, t: ArgSpec['type']) => {
  const list = (Array.isArray(t) ? t : [t]).filter((x) => x !== 'text');
  const declared = (Array.isArray(t) ? t : [t]).filter((x) => x === 'text');
  const got = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  return JSON.stringify(got) === JSON.stringify(list) && (declared.length === 0 || schema[`${X}-declared-type`] === 'text');
};

/** Problems with one stated attribute of an arg, as found in the document ('' = as stated). */
function attributeProblem(found: { schema: Doc; required: boolean }, arg: ArgSpec, attr: string): string {
  const s = found.schema;
  const eq = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  switch (attr) {
    case 'type':
      return sameType(s, arg.type) ? '' : `type ${JSON.stringify(s.type)}, stated ${JSON.stringify(arg.type)}`;
    case 'default':
      return eq(s.default, arg.default) || eq(s[`${X}-stated-default`], arg.default) ? '' : `default ${JSON.stringify(s.default)}, stated ${JSON.stringify(arg.default)}`;
    case 'required':
      return found.required === arg.required ? '' : `required ${found.required}, stated ${arg.required}`;
    case 'enum':
      return eq(s.enum, arg.enum) ? '' : `enum ${JSON.stringify(s.enum)}`;
    case 'pattern':
      return typeof s.pattern === 'string' && s.pattern.includes(arg.pattern!) && new RegExp(s.pattern) ? '' : `pattern ${s.pattern}`;
    case 'items':
      return s.items && sameType(s.items, arg.items!.type) && eq(s.items.enum, arg.items!.enum) ? '' : `items ${JSON.stringify(s.items)}`;
    case 'properties':
      return eq(Object.keys(s.properties ?? {}), Object.keys(arg.properties!)) ? '' : `properties ${Object.keys(s.properties ?? {})}`;
    case 'closedProperties':
      return s.additionalProperties === false ? '' : 'additionalProperties is not false';
    case 'oneOf':
      return s.oneOf?.length === arg.oneOf!.length ? '' : `oneOf ${JSON.stringify(s.oneOf)}`;
    case 'format':
      // A write's date-time stated in a named zone may leave the offset out: the format is recorded as the spec's.
      return s.format === arg.format || (s[`${X}-format`] === arg.format && typeof s.pattern === 'string') ? '' : `format ${JSON.stringify(s.format)}, stated ${JSON.stringify(arg.format)}`;
    default:
      return eq(s[attr], (arg as Record<string, unknown>)[attr]) ? '' : `${attr} ${JSON.stringify(s[attr])}, stated ${JSON.stringify((arg as Record<string, unknown>)[attr])}`;
  }
}

function fieldAt(fields: Record<string, FieldSpec>, path: string[]): FieldSpec | undefined {
  let f: FieldSpec | undefined = fields[path[0]!];
  for (const k of path.slice(1)) f = f?.properties?.[k];
  return f;
}

/** Every catalog item that the document does not hold as the catalog states it, with why. */
export function missingItems(doc: Doc, profileName: ProfileName): string[] {
  const profile = getProfile(profileName);
  const problems: string[] = [];
  const schemas = doc.components?.schemas ?? {};
  for (const item of catalogItems()) {
    const id = item.id;
    const fail = (why: string) => problems.push(`${id}: ${why}`);
    switch (item.kind) {
      case 'namespace': {
        const ns = profile.toTargetNamespace(id.slice('namespace.'.length));
        if (!doc[X]?.namespaces?.includes(ns) || !doc.tags?.some((t: Doc) => t.name === ns)) fail(`namespace ${ns} not listed`);
        break;
      }
      case 'index-field': {
        const f = catalog.indexFields.find((x) => x.id === id)!;
        const p = schemas['site-index']?.properties?.[f.name];
        const numeric = f.type === 'number' && p?.anyOf?.[0]?.type === 'number' && p?.anyOf?.[1]?.type === 'string';
        if (!p || !(sameType(p, f.type) || numeric)) fail('not in the site-index schema with its type');
        if (doc.paths['/']?.get?.responses?.['2XX']?.content?.['application/json']?.schema?.$ref !== '#/components/schemas/site-index') fail('GET / does not answer the site index');
        break;
      }
      case 'authentication': {
        const s = doc.components?.securitySchemes?.['application-passwords'];
        if (s?.type !== 'http' || s.scheme !== 'basic') fail('no HTTP Basic application-passwords scheme');
        break;
      }
      case 'route-method': {
        const [, eid, method] = /^endpoint:(.+):([A-Z]+)$/.exec(id)!;
        if (!operationsOf(doc, profile, eid!).some((o) => o.method === method)) fail('no operation');
        break;
      }
      case 'route-param': {
        const route = catalog.routes.find((r) => id.startsWith(`param:${r.id}.`) && Object.keys(r.params ?? {}).includes(id.slice(`param:${r.id}.`.length)))!;
        const name = id.slice(`param:${route.id}.`.length);
        const pi = doc.paths[openApiPath(profile, route.path)];
        const p = pi?.parameters?.find((x: Doc) => x.name === name && x.in === 'path');
        if (!p || p.required !== true || !openApiPath(profile, route.path).includes(`{${name}}`)) fail('no path parameter');
        else if (route.params![name]!.pattern && !String(p.schema.pattern).includes(route.params![name]!.pattern!)) fail(`pattern ${p.schema.pattern}`);
        break;
      }
      case 'allow-batch': {
        const eid = id.slice('batch:'.length);
        const stated = catalog.routes.flatMap((r) => r.endpoints).find((e) => e.id === eid)!.allowBatch;
        const ops = operationsOf(doc, profile, eid);
        if (!ops.length || ops.some((o) => o.op[`${X}-allow-batch`] !== stated)) fail('allow_batch not carried');
        break;
      }
      case 'arg-attribute': {
        const [, rest, attr] = /^arg:(.+)#(\w+)$/.exec(id)!;
        const eid = [...routeOfEndpoint.keys()].filter((e) => rest!.startsWith(`${e}.`)).sort((a, b) => b.length - a.length)[0]!;
        const name = rest!.slice(eid.length + 1);
        const { route, endpointIndex } = routeOfEndpoint.get(eid)!;
        const stated = (route.endpoints[endpointIndex]!.args as Record<string, ArgSpec>)[name]!;
        // A namespace index's `namespace` default names the namespace in the profile's names.
        const arg = name === 'namespace' && typeof stated.default === 'string' ? { ...stated, default: profile.toTargetNamespace(stated.default) } : stated;
        const target = SETTINGS_ROUTES.has(route.id) ? (profile.toTargetSetting(name) !== name ? profile.toTargetSetting(name) : profile.toTargetModule(name)) : name;
        const ops = operationsOf(doc, profile, eid);
        if (!ops.length) fail('no operation');
        for (const o of ops) {
          const found = findArg(o, target);
          // A path segment: the route's descriptor comes first, the arg's facts are merged in.
          if (!found) fail(`${o.method}: arg ${target} not found`);
          else {
            const why = attributeProblem(found, arg, attr!);
            if (why && !(attr === 'required' && route.params?.[name])) fail(`${o.method}: ${why}`);
          }
        }
        break;
      }
      case 'field-context': {
        const resource = catalog.resources.filter((r) => id.startsWith(`field:${r.id}.`)).sort((a, b) => b.id.length - a.id.length)[0]!;
        const rid = resource.id;
        const [, path, ctx] = /^([^@]+)(?:@(\w+))?$/.exec(id.slice(`field:${rid}.`.length))!;
        const names = path!.split('.');
        const field = fieldAt(resource.fields as Record<string, FieldSpec>, names)!;
        let s = schemas[rid!];
        const rename = rid === 'resource.suite.settings' || rid === 'resource.spamfilter.settings';
        names.forEach((n, i) => (s = s?.properties?.[i === 0 && rename ? (profile.toTargetSetting(n) !== n ? profile.toTargetSetting(n) : profile.toTargetModule(n)) : n]));
        if (!s) fail('field not in its schema');
        else if (field.type !== undefined && !sameType(s, field.type)) fail(`type ${JSON.stringify(s.type)}`);
        else if (ctx && !(s['x-contexts'] ?? []).includes(ctx)) fail(`x-contexts ${JSON.stringify(s['x-contexts'])}`);
        else if (!ctx && s['x-contexts'] !== undefined) fail('x-contexts where the spec states none');
        break;
      }
      case 'setting': {
        const setting = catalog.settings.find((x) => x.id === id)!;
        const name = profile.toTargetSetting(setting.name);
        const body = doc.paths[openApiPath(profile, '/suite/v4/settings')]?.post?.requestBody?.content?.['application/json']?.schema;
        if (!body?.properties?.[name] || !schemas['resource.suite.settings']?.properties?.[name]) fail(`setting ${name} not in the settings body and schema`);
        else if (!sameType(body.properties[name], setting.type)) fail('type');
        break;
      }
      case 'module': {
        const slug = profile.toTargetModule(catalog.modules.find((m) => m.id === id)!.slug);
        const body = doc.paths[openApiPath(profile, '/suite/v4/settings')]?.post?.requestBody?.content?.['application/json']?.schema;
        if (body?.properties?.[slug]?.type !== 'boolean' || body.properties[slug].default !== false) fail(`module ${slug} not a boolean toggle, default false`);
        break;
      }
      case 'limit':
        if (!doc[X]?.limits?.some((l: Doc) => l.id === id)) fail('limit not listed');
        break;
    }
  }
  return problems;
}

describe('round trip: every catalog item is in the document as the catalog states it', () => {
  const items = catalogItems();
  it('the catalog has items of every kind', () => {
    expect(new Set(items.map((i) => i.kind)).size).toBe(11);
    expect(items.length).toBeGreaterThan(2000);
  });
  for (const p of PROFILES) {
    it(`${p} profile`, () => {
      expect(missingItems(docs[p], p)).toEqual([]);
      expect(Object.keys(docs[p].paths).length).toBe(catalog.routes.length);
    });
  }

  it('the check finds a missing arg, a dropped bound, a missing method, a field without its context (negative controls)', () => {
    const doc = clone(docs.spec);
    const list = doc.paths['/cms/v2/posts'].get;
    list.parameters = list.parameters.filter((p: Doc) => p.name !== 'orderby');
    delete list.parameters.find((p: Doc) => p.name === 'per_page').schema.maximum;
    delete doc.paths['/cms/v2/posts/{id}'].patch;
    doc.components.schemas.post.properties.title.properties.raw['x-contexts'] = ['view'];
    const problems = missingItems(doc, 'spec');
    expect(problems).toContain('arg:cms.posts.collection.list.orderby#enum: GET: arg orderby not found');
    expect(problems).toContain('arg:cms.posts.collection.list.per_page#maximum: GET: maximum undefined, stated 100');
    expect(problems).toContain('endpoint:cms.posts.item.update:PATCH: no operation');
    expect(problems).toContain('field:post.title.raw@edit: x-contexts ["view"]');
  });
});

// ---------------------------------------------------------------------------- what the document says

describe('the document', () => {
  const spec = docs.spec;
  const wp = docs.wordpress;

  it('addresses routes under {base}/wp-json; the wordpress profile uses the WordPress names', () => {
    expect(spec.servers[0].url).toBe('{base}/wp-json');
    expect(Object.keys(spec.paths)).toContain('/cms/v2/posts/{parent}/revisions/{id}');
    expect(Object.keys(wp.paths)).toEqual(expect.arrayContaining(['/wp/v2/posts', '/akismet/v1/settings', '/contact-form-7/v1/contact-forms/{id}', '/jetpack/v4/jetpack_crm', '/jetpack/v4/jetpack-ai-jwt']));
    expect(Object.keys(wp.paths).filter((p) => /\/(cms|spamfilter|contactform|suite)\//.test(p))).toEqual([]);
    const body = wp.paths['/jetpack/v4/settings'].post.requestBody.content['application/json'].schema.properties;
    expect(body).toHaveProperty('jetpack_comment_form_color_scheme');
    expect(body).toHaveProperty('photon');
    expect(body).not.toHaveProperty('suite_comment_form_color_scheme');
    expect(wp.paths['/akismet/v1/settings'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('akismet_strictness');
    expect(wp.paths['/wp/v2'].get.parameters.find((p: Doc) => p.name === 'namespace').schema.default).toBe('wp/v2');
    expect(wp.components.securitySchemes['application-passwords'].description).toContain('/wp-admin/authorize-application.php');
  });

  it('states what the catalog states of an arg: type, enum, bounds, default, format, pattern, required, arrays as comma lists', () => {
    const per = spec.paths['/cms/v2/posts'].get.parameters.find((p: Doc) => p.name === 'per_page');
    expect(per.schema).toEqual({ type: 'integer', default: 10, minimum: 1, maximum: 100 });
    const status = spec.paths['/cms/v2/posts'].get.parameters.find((p: Doc) => p.name === 'status');
    expect(status).toMatchObject({ style: 'form', explode: false, schema: { type: 'array', default: ['publish'], [`${X}-stated-default`]: 'publish' } });
    const cats = spec.paths['/cms/v2/posts'].get.parameters.find((p: Doc) => p.name === 'categories');
    expect(cats.schema.oneOf[1]).toMatchObject({ type: 'object', additionalProperties: false });
    expect(spec.paths['/oembed/1.0/proxy'].get.parameters.find((p: Doc) => p.name === 'url')).toMatchObject({ required: true, schema: { type: 'string', format: 'uri' } });
    expect(spec.paths['/suite/v4/widgets/{id}'].parameters[0].schema.pattern).toBe('^(?:[0-9a-z_-]+)$');
    const batch = spec.paths['/batch/v1'].post.requestBody.content['application/json'].schema;
    expect(batch.required).toEqual(['requests']);
    expect(batch.properties.requests).toMatchObject({ maxItems: 25, items: { required: ['path'] } });
    const key = spec.paths['/spamfilter/v1/key'].post.requestBody;
    expect(key).toMatchObject({ required: true, content: { 'application/json': { schema: { required: ['key'], properties: { key: { minLength: 12, maxLength: 12 } } } } } });
    expect(spec.paths['/suite/v4/suite_crm'].post.requestBody.content['application/json'].schema.properties.extension).toEqual({ [`${X}-declared-type`]: 'text', description: 'type declared `text`' });
  });

  it('fields: contexts as x-contexts, read-only, response schemas on the post and page endpoints, open to undocumented keys', () => {
    const post = spec.components.schemas.post;
    expect(post.properties.title.properties.raw['x-contexts']).toEqual(['edit']);
    expect(post.properties.content.properties.rendered).toMatchObject({ readOnly: true, 'x-contexts': ['view', 'edit'] });
    expect(post.additionalProperties).toBeUndefined();
    expect(post.required).toBeUndefined();
    expect(spec.paths['/cms/v2/posts'].get.responses['2XX'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/post' } });
    expect(spec.paths['/cms/v2/pages/{id}'].get.responses['2XX'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/page' });
  });

  it('what the spec does not show is left open and named in its words', () => {
    const words = (id: string) => catalog.notShown.find((n) => n.id === id)!.what;
    expect(spec[X].notShown.map((n: Doc) => n.id)).toEqual(catalog.notShown.map((n) => n.id));
    const cf = spec.paths['/contactform/v1/contact-forms'].post;
    expect(cf.parameters).toBeUndefined();
    expect(cf.requestBody).toBeUndefined();
    expect(cf[`${X}-not-shown`].join(' ')).toContain(`${words('extensions.not-shown.contactform.parameters')}: not shown`);
    expect(spec.components.schemas.media).not.toHaveProperty('properties');
    expect(spec.components.schemas.media).not.toHaveProperty('type');
    expect(spec.components.schemas.media[`${X}-not-shown`][0]).toContain(`${words('core.not-shown.media.fields')}: not shown`);
    const media = spec.paths['/cms/v2/media'].get;
    expect(media[`${X}-args-open`]).toBe(true);
    // Extension responses and every error: no schema, the spec's words.
    const suite = spec.paths['/suite/v4/settings'].get;
    expect(suite.responses).toEqual({ default: { description: expect.stringContaining(`${words('extensions.not-shown.responses.bodies')}: not shown`) } });
    expect(spec.paths['/cms/v2/posts'].get.responses.default).toEqual({ description: expect.stringContaining(`${words('core.not-shown.errors')}: not shown`) });
    expect(spec.paths['/batch/v1'].post.responses['2XX']).toBeUndefined();
    expect(spec.components.securitySchemes['application-passwords'].description).toContain(`${words('core.not-shown.auth.header-format')}: not shown`);
    expect(spec.security).toEqual([{}, { 'application-passwords': [] }]);
  });

  it('every operation names its spec section and catalog endpoint', () => {
    for (const pathItem of Object.values(spec.paths) as Doc[])
      for (const m of ['get', 'post', 'put', 'patch', 'delete']) {
        if (!pathItem[m]) continue;
        expect(pathItem[m][`${X}-spec`]).toMatchObject({ doc: expect.stringMatching(/^(core|extensions)$/), section: expect.any(String) });
        expect(pathItem[m][`${X}-endpoint`]).toEqual(pathItem[m].operationId.split(':')[0]);
      }
  });

  it('links behaviours to the operations and schemas their covers name (the coverage rule)', () => {
    const doc = buildOpenApi({
      behaviours: [
        { id: 'b.arg', covers: ['arg:cms.posts.collection.list.per_page'] },
        { id: 'b.route', covers: ['route:cms.posts.item'] },
        { id: 'b.patch', covers: ['endpoint:cms.posts.item.update:PATCH'] },
        { id: 'b.field', covers: ['field:post.title'] },
        { id: 'b.setting', covers: ['suite.setting.lang_id'] },
        { id: 'b.auth', covers: ['authentication.application-passwords'] },
        { id: 'b.index', covers: ['index.field.name'] },
      ],
    });
    const b = (op: Doc) => op[`${X}-behaviours`];
    expect(b(doc.paths['/cms/v2/posts'].get)).toEqual(['b.arg']);
    expect(b(doc.paths['/cms/v2/posts'].post)).toEqual([]);
    expect(b(doc.paths['/cms/v2/posts/{id}'].get)).toEqual(['b.route']);
    expect(b(doc.paths['/cms/v2/posts/{id}'].patch)).toEqual(['b.patch', 'b.route']);
    expect(b(doc.paths['/cms/v2/posts/{id}'].put)).toEqual(['b.route']);
    expect(b(doc.components.schemas.post)).toEqual(['b.field']);
    expect(b(doc.components.schemas['resource.suite.settings'])).toEqual(['b.setting']);
    expect(b(doc.components.securitySchemes['application-passwords'])).toEqual(['b.auth']);
    expect(b(doc.components.schemas['site-index'])).toEqual(['b.index']);
    // Without behaviours (a library call), no links at all rather than empty ones.
    expect(docs.spec.paths['/cms/v2/posts'].get).not.toHaveProperty(`${X}-behaviours`);
  });
});

describe('openapi flags', () => {
  it('defaults, and the format from the --out extension', () => {
    expect(parseOpenApiFlags([])).toEqual({ profile: 'spec', format: 'yaml', help: false });
    expect(parseOpenApiFlags(['--out', 'x.json'])).toMatchObject({ format: 'json', out: 'x.json' });
    expect(parseOpenApiFlags(['--out', 'x.yml', '--profile', 'wordpress'])).toMatchObject({ format: 'yaml', profile: 'wordpress' });
    expect(parseOpenApiFlags(['--format', 'json'])).toMatchObject({ format: 'json' });
  });
  it.each([
    [['--profile', 'auto'], '--profile must be spec or wordpress, got "auto"'],
    [['--format', 'xml'], '--format must be yaml or json, got "xml"'],
    [['--bogus'], "Unknown option '--bogus' (see cms-conformance openapi --help)"],
    [['extra'], 'unexpected argument "extra" (see cms-conformance openapi --help)'],
    [['--out'], '--out needs a value (see cms-conformance openapi --help)'],
    [['--out', ' '], '--out needs a file name'],
  ])('%j: %s', (argv, message) => {
    expect(() => parseOpenApiFlags(argv as string[])).toThrow(message);
  });
});

describe('the reference server answers the document\'s addresses ({base}/wp-json/<route>)', () => {
  it('as it answers ?rest_route=', async () => {
    const handler = createReferenceHandler();
    const server = await listenHttp(0, '127.0.0.1');
    server.server.on('request', handler);
    try {
      const pretty = await fetch(`${server.url}/wp-json/cms/v2/posts?per_page=1&_fields=id,slug`).then(async (r) => [r.status, await r.json()]);
      const plain = await fetch(`${server.url}/index.php?rest_route=/cms/v2/posts&per_page=1&_fields=id,slug`).then(async (r) => [r.status, await r.json()]);
      expect(pretty).toEqual(plain);
      expect(pretty[0]).toBe(200);
      const index = await fetch(`${server.url}/wp-json/`).then((r) => r.json());
      expect(index.namespaces).toContain('cms/v2');
      expect((await fetch(`${server.url}/wp-json/cms/v2/nothing`)).status).toBe(404);
      // Other paths are still the site's pages.
      expect((await fetch(`${server.url}/wp-jsonx`)).headers.get('content-type')).toMatch(/html/);
    } finally {
      await server.stop();
    }
  });
});
