/**
 * The post types of the core content namespace (posts and pages) and what the suites need
 * about them, all derived from the catalog: routes, the collection query, the fields of
 * part 2, the spec sections. Posts and pages share most behaviours; they are written once
 * and parameterised by one of these.
 */
import { catalog, endpointById, routeById } from '../../../schemas/catalog/index.ts';
import { CONTEXT_VALUES, coreSections } from '../../../schemas/catalog/core.ts';
import type { ArgSpec, EndpointSpec, FieldSpec, ResourceSpec, SpecRef } from '../../../schemas/types.ts';

export interface PostType {
  /** 'posts' | 'pages': route base and behaviour ID segment. */
  name: 'posts' | 'pages';
  /** Singular, for titles. */
  noun: 'post' | 'page';
  /** Collection route in spec names, e.g. /cms/v2/posts. */
  collection: string;
  item(id: number): string;
  revisions(parent: number): string;
  revision(parent: number, id: number): string;
  autosaves(id: number): string;
  autosave(parent: number, id: number): string;
  /** Documented route shapes, for behaviour declarations. */
  paths: { collection: string; item: string; revisions: string; revision: string; autosaves: string; autosave: string };
  /** The collection GET endpoint and its documented query. */
  list: EndpointSpec;
  query: Record<string, ArgSpec>;
  /** The single-item GET endpoint (context, password ...). */
  read: EndpointSpec;
  revisionList: EndpointSpec;
  revisionQuery: Record<string, ArgSpec>;
  /** Resource fields of part 2. */
  resource: ResourceSpec;
  fields: Record<string, FieldSpec>;
  /** Sections: the route table (4. Endpoints › Posts / Pages), the collection query, the field table (part 2). */
  spec: { routes: SpecRef; query: SpecRef; fields: SpecRef; revisionQuery: SpecRef };
}

const fill = (path: string, values: Record<string, number>) => path.replace(/<([^>]+)>/g, (_, k: string) => String(values[k]));

function postType(name: 'posts' | 'pages'): PostType {
  const base = `cms.${name}`;
  const collection = routeById(`${base}.collection`);
  const item = routeById(`${base}.item`);
  const revisions = routeById(`${base}.revisions.collection`);
  const revision = routeById(`${base}.revisions.item`);
  const autosaves = routeById(`${base}.autosaves.collection`);
  const autosave = routeById(`${base}.autosaves.item`);
  const list = endpointById(`${base}.collection.list`).endpoint;
  const read = endpointById(`${base}.item.read`).endpoint;
  const revisionList = endpointById(`${base}.revisions.collection.list`).endpoint;
  const resource = catalog.resources.find((r) => r.route === collection.path);
  if (!resource || resource.fields === 'not-shown') throw new Error(`no resource fields for ${collection.path}`);
  if (list.args === 'not-shown' || revisionList.args === 'not-shown') throw new Error(`no documented query for ${collection.path}`);
  return {
    name,
    noun: name === 'posts' ? 'post' : 'page',
    collection: collection.path,
    item: (id) => fill(item.path, { id }),
    revisions: (parent) => fill(revisions.path, { parent }),
    revision: (parent, id) => fill(revision.path, { parent, id }),
    autosaves: (id) => fill(autosaves.path, { id }),
    autosave: (parent, id) => fill(autosave.path, { parent, id }),
    paths: { collection: collection.path, item: item.path, revisions: revisions.path, revision: revision.path, autosaves: autosaves.path, autosave: autosave.path },
    list,
    query: list.args,
    read,
    revisionList,
    revisionQuery: revisionList.args,
    resource,
    fields: resource.fields,
    spec: { routes: collection.spec, query: list.spec, fields: resource.spec, revisionQuery: revisionList.spec },
  };
}

export const posts = postType('posts');
export const pages = postType('pages');
export const postTypes: PostType[] = [posts, pages];

/** The documented media collection (GET query only; upload is not documented). */
export const media = (() => {
  const { route, endpoint } = endpointById('cms.media.collection.list');
  if (endpoint.args === 'not-shown') throw new Error('media query not documented');
  return { route, endpoint, query: endpoint.args };
})();

export const statuses = catalog.statuses;

/** Part 3: a status value accepted on write. */
export const WRITE_STATUSES: readonly string[] = catalog.statuses.write;
/** Part 3: values accepted only by the list filter. */
export const FILTER_ONLY_STATUSES: readonly string[] = catalog.statuses.filterOnly;
/** Values an item's `status` can hold when read back (a trashed item says "trash"). */
export const READABLE_STATUSES: readonly string[] = [...catalog.statuses.write, ...catalog.statuses.filterOnly.filter((s) => s !== 'any')];

export const CONTEXTS = CONTEXT_VALUES;
export type Context = (typeof CONTEXTS)[number];

/** The spec section of part 3 and part 5. */
export const SPEC_STATES: SpecRef = coreSections.part3;
export const SPEC_AUTH: SpecRef = coreSections.part5;
export const SPEC_CONTEXTS: SpecRef = coreSections.contexts;
export const SPEC_REVISIONS: SpecRef = coreSections.revisionAutosave;
export const SPEC_LIMITS: SpecRef = coreSections.part8;
