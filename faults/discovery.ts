/**
 * Faults in what a server advertises (its site index). Each changes one documented fact of
 * the index the target answers with.
 */
import { routeParams, routeShape } from '../schemas/route-keys.ts';
import type { Fault, FaultRequest, FaultResponse } from './proxy.ts';

/** Same documented shape, whatever the parameter names and regexes ('/cms/v2/posts/<id>'). */
const sameShape = (a: string, b: string) => routeShape(a).replace(/<[^>]*>/g, '<>') === routeShape(b).replace(/<[^>]*>/g, '<>');

/** Rewrite the site index (GET /) of the target. `route` keys are given in spec names. */
export function indexFault(id: string, title: string, caughtBy: string[], edit: (index: any, routeKey: (specPath: string) => string, req: FaultRequest) => void): Fault {
  return {
    id,
    title,
    caughtBy,
    response(req: FaultRequest, res: FaultResponse) {
      if (req.route !== '/' || req.method !== 'GET' || !res.json?.routes) return;
      const key = (specPath: string) => {
        const k = Object.keys(res.json.routes).find((x) => sameShape(req.profile.toSpecRoute(x), specPath));
        if (!k) throw new Error(`fault ${id}: the target has no route ${specPath}`);
        return k;
      };
      edit(res.json, key, req);
    },
  };
}

export const endpoint = (entry: any, method: string) => entry.endpoints.find((e: any) => e.methods.includes(method));

/**
 * The descriptors of an arg documented "array of integer, or object", in whichever form the target
 * advertises it (WordPress's `oneOf`, `anyOf`, or one descriptor with a type union): the arg itself
 * and each of its alternatives.
 */
const forms = (arg: any): any[] => [arg, ...(Array.isArray(arg.oneOf) ? arg.oneOf : []), ...(Array.isArray(arg.anyOf) ? arg.anyOf : [])];
const types = (d: any): string[] => [d?.type ?? []].flat();

export const discoveryFaults: Fault[] = [
  indexFault('disc.maximum-wrong', 'advertises per_page maximum 50 on the posts collection', ['disc.args.cms.posts.collection.list.per_page'], (i, k) => {
    endpoint(i.routes[k('/cms/v2/posts')], 'GET').args.per_page.maximum = 50;
  }),
  indexFault('disc.enum-value-missing', 'advertises the batch validation enum without "normal"', ['disc.args.batch.v1.create.validation'], (i, k) => {
    const arg = endpoint(i.routes[k('/batch/v1')], 'POST').args.validation;
    arg.enum = arg.enum.filter((v: string) => v !== 'normal');
  }),
  // A second deviation on an endpoint that already deviates on WordPress 7.1 (subscription_options'
  // default): with one behaviour per arg it is a new failure, even under a baseline listing the first.
  indexFault('disc.sibling-arg-wrong', 'advertises carousel_background_color of the suite settings without its enum', ['disc.args.suite.settings.update.carousel_background_color'], (i, k) => {
    delete endpoint(i.routes[k('/suite/v4/settings')], 'POST').args.carousel_background_color.enum;
  }),
  indexFault('disc.default-wrong', 'advertises oEmbed maxwidth default 500', ['disc.args.oembed.embed.read.maxwidth'], (i, k) => {
    endpoint(i.routes[k('/oembed/1.0/embed')], 'GET').args.maxwidth.default = 500;
  }),
  indexFault('disc.allow-batch-missing', 'drops allow_batch from the post item endpoints', ['disc.allow-batch.cms.posts.item.*'], (i, k) => {
    for (const e of i.routes[k('/cms/v2/posts/<id>')].endpoints) delete e.allow_batch;
  }),
  // Issue 40: one flag advertised wrongly on a family of endpoints is one deviation.
  indexFault(
    'disc.allow-batch-subroutes',
    'advertises allow_batch v1 on every revision and autosave endpoint of posts and pages (documented not batchable)',
    ['disc.allow-batch.cms.posts.revisions.*', 'disc.allow-batch.cms.posts.autosaves.*', 'disc.allow-batch.cms.pages.revisions.*', 'disc.allow-batch.cms.pages.autosaves.*'],
    (i, k) => {
      for (const type of ['posts', 'pages'])
        for (const path of [`/cms/v2/${type}/<parent>/revisions`, `/cms/v2/${type}/<parent>/revisions/<id>`, `/cms/v2/${type}/<id>/autosaves`, `/cms/v2/${type}/<parent>/autosaves/<id>`])
          for (const e of i.routes[k(path)].endpoints) e.allow_batch = { v1: true };
    },
  ),
  indexFault(
    'disc.route-missing',
    'does not advertise the page revisions collection',
    // Its <parent> parameter's check skips, naming disc.route: one missing route is one finding.
    ['disc.route.cms.pages.revisions.collection'],
    (index, k) => {
      delete index.routes[k('/cms/v2/pages/<parent>/revisions')];
    },
  ),
  // "array of integer, or object": faults in either form, in whichever notation the target uses.
  indexFault('disc.union-form-open', 'advertises the object form of categories without "no other keys" (additionalProperties)', ['disc.args.cms.posts.collection.list.categories'], (i, k) => {
    for (const d of forms(endpoint(i.routes[k('/cms/v2/posts')], 'GET').args.categories)) delete d.additionalProperties;
  }),
  indexFault('disc.union-array-form-missing', 'advertises tags only in its object form (no array of integer)', ['disc.args.cms.posts.collection.list.tags'], (i, k) => {
    const arg = endpoint(i.routes[k('/cms/v2/posts')], 'GET').args.tags;
    for (const key of ['oneOf', 'anyOf']) if (Array.isArray(arg[key])) arg[key] = arg[key].filter((alt: any) => !types(alt).includes('array'));
    if (types(arg).includes('array')) {
      arg.type = types(arg).filter((t) => t !== 'array');
      if (arg.type.length === 1) arg.type = arg.type[0];
      delete arg.items;
    }
  }),
  // Core part 4, Pages: "Differences in the collection query: no tax_relation, categories, ... or format".
  indexFault('disc.page-query-post-args', 'advertises the post-only categories and format among the args of the page collection', ['disc.absent-args.cms.pages.collection.list'], (i, k) => {
    const args = endpoint(i.routes[k('/cms/v2/pages')], 'GET').args;
    Object.assign(args, { categories: { type: 'array', items: { type: 'integer' } }, format: { type: 'array', items: { type: 'string' } } });
  }),
  // Endpoints given without parameters ("none", "no parameters unless stated").
  indexFault('disc.no-args-context-added', 'advertises a context arg on GET /spamfilter/v1/settings and GET /suite/v4/plans, documented without parameters', ['disc.no-args.spamfilter-v1', 'disc.no-args.suite-v4'], (i, k) => {
    for (const path of ['/spamfilter/v1/settings', '/suite/v4/plans']) {
      const e = endpoint(i.routes[k(path)], 'GET');
      e.args = { ...(e.args ?? {}), context: { type: 'string', enum: ['view', 'edit'], default: 'view' } };
    }
  }),
  indexFault('disc.field-type-wrong', 'answers page_on_front as the string "0"', ['disc.index.field.page_on_front'], (index) => {
    index.page_on_front = '0';
  }),
  indexFault('disc.namespace-missing', 'does not list cms-site-health/v1 among its namespaces', ['disc.namespace.cms-site-health-v1'], (index, _k, req) => {
    const ns = req.profile.toTargetNamespace('cms-site-health/v1');
    index.namespaces = index.namespaces.filter((n: string) => n !== ns);
  }),
  indexFault('disc.batch-namespace-named', 'gives the /batch/v1 route the namespace "batch/v1" instead of ""', ['disc.index.routes.namespace-empty'], (index, k) => {
    index.routes[k('/batch/v1')].namespace = 'batch/v1';
  }),
  indexFault('disc.authentication-missing', 'advertises no application-passwords scheme', ['disc.index.authentication'], (index) => {
    index.authentication = {};
  }),
  indexFault('disc.param-too-permissive', 'routes any word as a post id (/posts/(?P<id>[\\w-]+))', ['disc.param.cms.posts.item.id'], (index, k) => {
    const key = k('/cms/v2/posts/<id>');
    const entry = index.routes[key];
    delete index.routes[key];
    // The <id> segment, a regex group or in the spec's notation, becomes a regex accepting any word.
    const id = routeParams(key).find((p) => p.name === 'id')!;
    index.routes[`${key.slice(0, id.start)}(?P<id>[\\w-]+)${key.slice(id.end)}`] = entry;
  }),
  indexFault(
    'disc.param-name-undefined',
    "keys the post item route in the spec's notation with a parameter the documents do not define there (/cms/v2/posts/<post>)",
    ['disc.param.cms.posts.item.id'],
    (index, k) => {
      const key = k('/cms/v2/posts/<id>');
      const entry = index.routes[key];
      delete index.routes[key];
      const id = routeParams(key).find((p) => p.name === 'id')!;
      index.routes[`${key.slice(0, id.start)}<post>${key.slice(id.end)}`] = entry;
    },
  ),
];
