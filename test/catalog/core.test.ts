import { describe, expect, it } from 'vitest';
import type { ArgSpec, EndpointSpec, FieldSpec, RouteSpec } from '../../schemas/types.ts';
import {
  authentication,
  coreIndexFields,
  coreLimits,
  coreNamespaces,
  coreNotShown,
  coreResources,
  coreRoutes,
  statuses,
} from '../../schemas/catalog/core.ts';

const ID_PATTERN = /^[a-z0-9.-]+$/;

/** Heading paths of core-routes.md (trailing parentheticals left out), transcribed by hand. */
const CORE_SECTIONS = new Set([
  '1. What the service does',
  '2. Resources and their fields',
  '2. Resources and their fields › Contexts',
  '2. Resources and their fields › Post',
  '2. Resources and their fields › Page',
  '2. Resources and their fields › Revision and autosave',
  '2. Resources and their fields › Media',
  '2. Resources and their fields › Responses',
  '3. States and transitions',
  '4. Endpoints',
  '4. Endpoints › Index routes',
  '4. Endpoints › Batch',
  '4. Endpoints › oEmbed',
  '4. Endpoints › Posts',
  '4. Endpoints › Posts › Post collection query',
  '4. Endpoints › Posts › Revision collection query',
  '4. Endpoints › Pages',
  '4. Endpoints › Media',
  '5. Authentication',
  '6. Events',
  '7. Errors',
  '8. Limits',
  '9. Versioning',
]);

/** Every route path documented in part 4. */
const DOCUMENTED_PATHS = [
  '/',
  '/oembed/1.0',
  '/cms/v2',
  '/batch/v1',
  '/oembed/1.0/embed',
  '/oembed/1.0/proxy',
  '/cms/v2/posts',
  '/cms/v2/posts/<id>',
  '/cms/v2/posts/<parent>/revisions',
  '/cms/v2/posts/<parent>/revisions/<id>',
  '/cms/v2/posts/<id>/autosaves',
  '/cms/v2/posts/<parent>/autosaves/<id>',
  '/cms/v2/pages',
  '/cms/v2/pages/<id>',
  '/cms/v2/pages/<parent>/revisions',
  '/cms/v2/pages/<parent>/revisions/<id>',
  '/cms/v2/pages/<id>/autosaves',
  '/cms/v2/pages/<parent>/autosaves/<id>',
  '/cms/v2/media',
];

const endpoints: EndpointSpec[] = coreRoutes.flatMap((r) => r.endpoints);

function route(id: string): RouteSpec {
  const found = coreRoutes.find((r) => r.id === id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
}
function ep(id: string): EndpointSpec {
  const found = endpoints.find((e) => e.id === id);
  if (!found) throw new Error(`no endpoint ${id}`);
  return found;
}
function args(id: string): Record<string, ArgSpec> {
  const a = ep(id).args;
  if (a === 'not-shown') throw new Error(`${id} args not shown`);
  return a;
}
function arg(endpointId: string, name: string): ArgSpec {
  const a = args(endpointId)[name];
  if (!a) throw new Error(`${endpointId} has no arg ${name}`);
  return a;
}

describe('core catalog: identifiers', () => {
  it('route IDs are unique and well-formed', () => {
    const ids = coreRoutes.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(ID_PATTERN);
  });

  it('endpoint IDs are unique, well-formed and prefixed by their route ID', () => {
    const ids = endpoints.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(ID_PATTERN);
    for (const r of coreRoutes) {
      for (const e of r.endpoints) {
        expect(e.id).toMatch(new RegExp(`^${r.id.replace(/\./g, '\\.')}\\.(list|create|read|update|delete)$`));
      }
    }
  });

  it('other IDs are unique and well-formed (field names keep their underscores)', () => {
    for (const list of [coreIndexFields, coreLimits, coreNotShown, coreResources]) {
      const ids = list.map((x) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[a-z0-9._-]+$/);
    }
  });

  it('no route declares the same method twice', () => {
    for (const r of coreRoutes) {
      const methods = r.endpoints.flatMap((e) => e.methods);
      expect(new Set(methods).size, r.id).toBe(methods.length);
    }
  });
});

describe('core catalog: routes', () => {
  it('has every documented route path of part 4, and no other', () => {
    const paths = coreRoutes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual([...DOCUMENTED_PATHS].sort());
  });

  it('uses the stated namespaces', () => {
    expect(route('index.root').namespace).toBe('');
    expect(route('batch.v1').namespace).toBe('');
    for (const r of coreRoutes) {
      if (r.path.startsWith('/cms/v2')) expect(r.namespace).toBe('cms/v2');
      if (r.path.startsWith('/oembed/1.0')) expect(r.namespace).toBe('oembed/1.0');
    }
  });

  it('declares path segment parameters for every <segment>', () => {
    for (const r of coreRoutes) {
      const segments = [...r.path.matchAll(/<([a-z_]+)>/g)].map((m) => m[1]);
      expect(Object.keys(r.params ?? {}).sort(), r.id).toEqual([...segments].sort());
      for (const p of Object.values(r.params ?? {})) {
        expect(p.type).toBe('integer');
        expect(p.pattern).toBe('\\d+');
      }
    }
  });

  it('gives every endpoint and route a known spec section of the core document', () => {
    for (const e of endpoints) {
      expect(e.spec.doc, e.id).toBe('core');
      expect(CORE_SECTIONS.has(e.spec.section), `${e.id}: ${e.spec.section}`).toBe(true);
    }
    for (const r of coreRoutes) expect(CORE_SECTIONS.has(r.spec.section), r.id).toBe(true);
    for (const x of [...coreIndexFields, ...coreLimits, ...coreNotShown, ...coreResources, authentication]) {
      expect(x.spec.doc).toBe('core');
      expect(CORE_SECTIONS.has(x.spec.section), x.spec.section).toBe(true);
    }
  });

  it('item update takes POST, PUT, PATCH', () => {
    expect(ep('cms.posts.item.update').methods).toEqual(['POST', 'PUT', 'PATCH']);
    expect(ep('cms.pages.item.update').methods).toEqual(['POST', 'PUT', 'PATCH']);
  });
});

describe('core catalog: batchable flags', () => {
  it('posts and pages collection/item endpoints are batchable, revisions/autosaves are not', () => {
    for (const type of ['posts', 'pages']) {
      for (const e of [...route(`cms.${type}.collection`).endpoints, ...route(`cms.${type}.item`).endpoints]) {
        expect(e.allowBatch, e.id).toBe(true);
      }
      for (const sub of ['revisions.collection', 'revisions.item', 'autosaves.collection', 'autosaves.item']) {
        for (const e of route(`cms.${type}.${sub}`).endpoints) expect(e.allowBatch, e.id).toBe(false);
      }
    }
  });

  it('leaves allow_batch unstated elsewhere', () => {
    for (const e of endpoints) {
      if (!/^cms\.(posts|pages)\./.test(e.id)) expect('allowBatch' in e, e.id).toBe(false);
    }
  });
});

describe('core catalog: collection queries', () => {
  it('posts per_page is 1..100, default 10', () => {
    expect(arg('cms.posts.collection.list', 'per_page')).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 10,
    });
    expect(arg('cms.posts.collection.list', 'page')).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
  });

  it('status filter accepts write and filter-only statuses, default as stated', () => {
    const status = arg('cms.posts.collection.list', 'status');
    expect(status.type).toBe('array');
    expect(status.items?.enum).toEqual([...statuses.write, ...statuses.filterOnly]);
    expect(status.default).toBe('publish');
  });

  it('taxonomy filters are array of integer or a closed object', () => {
    const categories = arg('cms.posts.collection.list', 'categories');
    expect(categories.type).toEqual(['array', 'object']);
    expect(categories.oneOf?.[0]).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(categories.oneOf?.[1]).toMatchObject({ type: 'object', closedProperties: true });
    expect(Object.keys(categories.oneOf?.[1]?.properties ?? {})).toEqual(['terms', 'include_children', 'operator']);
    expect(Object.keys(arg('cms.posts.collection.list', 'categories_exclude').oneOf?.[1]?.properties ?? {})).toEqual([
      'terms',
      'include_children',
    ]);
    expect(Object.keys(arg('cms.posts.collection.list', 'tags').oneOf?.[1]?.properties ?? {})).toEqual([
      'terms',
      'operator',
    ]);
    expect(Object.keys(arg('cms.posts.collection.list', 'tags_exclude').oneOf?.[1]?.properties ?? {})).toEqual([
      'terms',
    ]);
  });

  it('format filter has unique items', () => {
    expect(arg('cms.posts.collection.list', 'format')).toMatchObject({ type: 'array', uniqueItems: true });
  });

  it('page collection applies the documented differences', () => {
    const page = args('cms.pages.collection.list');
    const post = args('cms.posts.collection.list');
    for (const name of ['menu_order', 'parent', 'parent_exclude']) expect(page).toHaveProperty(name);
    expect(page.menu_order).toEqual({ type: 'integer' });
    expect(page.parent).toEqual({ type: 'array', items: { type: 'integer' }, default: [] });
    expect(page.parent_exclude).toEqual({ type: 'array', items: { type: 'integer' }, default: [] });
    for (const name of [
      'tax_relation',
      'categories',
      'categories_exclude',
      'tags',
      'tags_exclude',
      'sticky',
      'ignore_sticky',
      'format',
    ]) {
      expect(page, name).not.toHaveProperty(name);
    }
    expect(page.orderby?.enum).toEqual([...(post.orderby?.enum ?? []), 'menu_order']);
    expect(page.per_page).toEqual(post.per_page);
    expect(page.status).toEqual(post.status);
  });

  it('revision per_page has no default', () => {
    for (const id of ['cms.posts.revisions.collection.list', 'cms.pages.revisions.collection.list']) {
      const perPage = arg(id, 'per_page');
      expect('default' in perPage, id).toBe(false);
      expect(perPage).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    }
  });

  it('revision collection query has exactly the documented parameters', () => {
    expect(Object.keys(args('cms.posts.revisions.collection.list'))).toEqual([
      'parent',
      'context',
      'page',
      'per_page',
      'search',
      'exclude',
      'include',
      'offset',
      'order',
      'orderby',
    ]);
    expect(arg('cms.posts.revisions.collection.list', 'orderby')).toEqual({
      enum: ['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title'],
      default: 'date',
    });
  });

  it('media list is open and has the page query descriptors', () => {
    const media = ep('cms.media.collection.list');
    expect(media.argsOpen).toBe(true);
    const page = args('cms.pages.collection.list');
    for (const [name, descriptor] of Object.entries(args('cms.media.collection.list'))) {
      expect(descriptor, name).toEqual(page[name]);
    }
    expect(Object.keys(args('cms.media.collection.list')).sort()).toEqual(
      [
        'context',
        'page',
        'per_page',
        'search',
        'after',
        'modified_after',
        'author',
        'author_exclude',
        'before',
        'modified_before',
        'exclude',
        'include',
      ].sort(),
    );
    expect(ep('cms.media.collection.create').args).toBe('not-shown');
  });
});

describe('core catalog: other endpoints', () => {
  it('every cms/v2 context arg takes view, embed, edit with default view', () => {
    for (const r of coreRoutes.filter((x) => x.namespace === 'cms/v2' && x.path !== '/cms/v2')) {
      for (const e of r.endpoints) {
        if (e.args === 'not-shown' || !e.args.context) continue;
        expect(e.args.context.default, e.id).toBe('view');
        expect([...(e.args.context.enum ?? [])].sort(), e.id).toEqual(['edit', 'embed', 'view']);
      }
    }
  });

  it('index routes state only the defaults', () => {
    expect(args('index.root.read')).toEqual({ context: { default: 'view' } });
    expect(args('index.oembed.read')).toEqual({ namespace: { default: 'oembed/1.0' }, context: { default: 'view' } });
    expect(args('index.cms.read')).toEqual({ namespace: { default: 'cms/v2' }, context: { default: 'view' } });
  });

  it('batch requests: required, at most 25, item method enum', () => {
    const requests = arg('batch.v1.create', 'requests');
    expect(requests).toMatchObject({ type: 'array', required: true, maxItems: 25 });
    expect(requests.items?.properties?.method).toMatchObject({
      enum: ['POST', 'PUT', 'PATCH', 'DELETE'],
      default: 'POST',
      required: false,
    });
    expect(requests.items?.properties?.path?.required).toBe(true);
    expect(arg('batch.v1.create', 'validation')).toMatchObject({ required: false, default: 'normal' });
  });

  it('oEmbed args', () => {
    expect(arg('oembed.embed.read', 'url')).toEqual({ type: 'string', format: 'uri', required: true });
    expect(arg('oembed.embed.read', 'format')).toEqual({ default: 'json' });
    expect(arg('oembed.embed.read', 'maxwidth')).toEqual({ default: 600 });
    expect(arg('oembed.proxy.read', 'format')).toEqual({ type: 'string', enum: ['json', 'xml'], default: 'json' });
    expect(arg('oembed.proxy.read', 'discover')).toMatchObject({ type: 'boolean', default: true });
  });

  it('write args are the writable post fields, optional, without read-only sub-properties', () => {
    const create = args('cms.posts.collection.create');
    expect(create.status?.enum).toEqual(statuses.write);
    expect(create.title).toMatchObject({ type: 'object', properties: { raw: { type: 'string' } } });
    expect(create.content?.properties).not.toHaveProperty('rendered');
    expect(create.content?.properties).not.toHaveProperty('block_version');
    expect(create.content?.properties).not.toHaveProperty('protected');
    expect(create.meta?.properties?.footnotes).toEqual({ type: 'string', default: '' });
    expect(create.date).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    for (const [name, a] of Object.entries(create)) expect(a.required, name).toBe(false);
    expect(Object.keys(args('cms.posts.item.update'))).toEqual(['id', ...Object.keys(create)]);
    expect(arg('cms.posts.item.update', 'id')).toEqual({ type: 'integer' });
  });

  it('page write args apply the page field differences', () => {
    const create = args('cms.pages.collection.create');
    for (const name of ['format', 'sticky', 'categories', 'tags']) expect(create, name).not.toHaveProperty(name);
    expect(create.parent).toMatchObject({ type: 'integer' });
    expect(create.menu_order).toMatchObject({ type: 'integer' });
  });

  it('delete args', () => {
    expect(args('cms.posts.item.delete')).toEqual({ id: { type: 'integer' }, force: { type: 'boolean', default: false } });
    expect(arg('cms.posts.revisions.item.delete', 'force')).toMatchObject({ type: 'boolean', default: false });
    expect(arg('cms.posts.revisions.item.delete', 'force').note).toMatch(/must be true/);
  });

  it('autosave create takes parent and the post fields', () => {
    const autosave = args('cms.posts.autosaves.collection.create');
    expect(Object.keys(autosave)[0]).toBe('parent');
    expect(autosave.parent?.type).toBe('integer');
    expect(Object.keys(autosave).slice(1)).toEqual(Object.keys(args('cms.posts.collection.create')));
    const pageAutosave = args('cms.pages.autosaves.collection.create');
    expect(Object.keys(pageAutosave).sort()).toEqual(Object.keys(args('cms.pages.collection.create')).sort());
  });
});

describe('core catalog: resources, index, limits, not shown', () => {
  function fields(id: string): Record<string, FieldSpec> {
    const r = coreResources.find((x) => x.id === id);
    if (!r || r.fields === 'not-shown') throw new Error(`no fields for ${id}`);
    return r.fields;
  }

  it('has the five resources', () => {
    expect(coreResources.map((r) => r.id)).toEqual(['post', 'page', 'revision', 'autosave', 'media']);
    expect(coreResources.find((r) => r.id === 'media')?.fields).toBe('not-shown');
  });

  it('top-level post fields state no contexts; sub-properties do', () => {
    const post = fields('post');
    for (const [name, f] of Object.entries(post)) expect('contexts' in f, name).toBe(false);
    expect(post.title?.properties?.raw?.contexts).toEqual(['edit']);
    expect(post.title?.properties?.rendered).toMatchObject({ readonly: true, contexts: ['view', 'edit', 'embed'] });
    expect(post.content?.properties?.rendered?.contexts).toEqual(['view', 'edit']);
    expect(post.content?.properties?.block_version).toMatchObject({ type: 'integer', readonly: true, contexts: ['edit'] });
  });

  it('page fields are post fields with the stated differences', () => {
    const post = fields('post');
    const page = fields('page');
    expect(Object.keys(page)).toEqual([
      ...Object.keys(post).filter((k) => !['format', 'sticky', 'categories', 'tags'].includes(k)),
      'parent',
      'menu_order',
    ]);
  });

  it('index fields and namespaces', () => {
    expect(coreIndexFields.map((f) => f.name)).toEqual([
      'name',
      'description',
      'url',
      'home',
      'gmt_offset',
      'timezone_string',
      'page_for_posts',
      'page_on_front',
      'show_on_front',
      'namespaces',
      'authentication',
      'routes',
    ]);
    expect(coreIndexFields.find((f) => f.name === 'url')?.format).toBe('uri');
    expect(coreIndexFields.find((f) => f.name === 'gmt_offset')?.type).toBe('number');
    expect(coreNamespaces).toEqual(['oembed/1.0', 'cms/v2', 'cms-site-health/v1', 'cms-block-editor/v1', 'cms-abilities/v1']);
    expect(authentication.scheme).toBe('application-passwords');
    expect(authentication.authorizationPath).toBe('/<admin_path>/authorize-application.php');
  });

  it('limits', () => {
    const value = (id: string) => coreLimits.find((l) => l.id === id)?.value;
    expect(value('limit.batch.requests')).toBe(25);
    expect(value('limit.per_page.minimum')).toBe(1);
    expect(value('limit.per_page.maximum')).toBe(100);
    expect(value('limit.per_page.default')).toBe(10);
    expect(value('limit.page.minimum')).toBe(1);
    expect(value('limit.page.default')).toBe(1);
    expect(value('limit.oembed.maxwidth.default')).toBe(600);
  });

  it('records each of the 14 "not shown" sentences once', () => {
    expect(coreNotShown).toHaveLength(14);
    expect(new Set(coreNotShown.map((n) => n.what)).size).toBe(14);
  });

  it('is immutable', () => {
    expect(Object.isFrozen(coreRoutes)).toBe(true);
    expect(Object.isFrozen(arg('cms.posts.collection.list', 'per_page'))).toBe(true);
  });
});
