/**
 * Discovery: every documented route, its methods, each documented arg of each endpoint (one
 * behaviour per arg, attribute by attribute), allow_batch, and what its path segments accept
 * (both documents, part 4).
 * A namespace the target does not advertise makes its routes skip with that reason.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { ArgSpec, EndpointSpec, RouteSpec } from '../../schemas/types.ts';
import { behaviour, prerequisite, type BehaviourContext, type Prerequisite } from '../../src/sdk/behaviour.ts';
import { ConformanceFailure } from '../../src/sdk/http.ts';
import {
  advertisedEndpoint,
  argBehaviourId,
  compareArg,
  describeDeviation,
  findAdvertisedRoute,
  routeParams,
  segmentMatches,
  segmentSamples,
} from '../../src/sdk/discovery.ts';

/**
 * The advertised endpoints of a route for some methods, owned by `disc.route.<id>` (which
 * fails when the route or a method is missing): the arg behaviours skip, naming it.
 */
const endpointPrereqs = new Map<string, Prerequisite<any[]>>();
function endpointsOf(route: RouteSpec, methods: readonly string[]): Prerequisite<any[]> {
  const key = `${route.id} ${methods.join(',')}`;
  let p = endpointPrereqs.get(key);
  if (!p)
    endpointPrereqs.set(
      key,
      (p = prerequisite(`disc.route.${route.id}`, async (_client, run) => {
        const hit = findAdvertisedRoute(run.index, route.path);
        if (!hit) throw new ConformanceFailure(`route ${route.path} is not in the index${route.namespace ? ` although ${route.namespace} is advertised` : ''}`);
        const missing = methods.filter((m) => !advertisedEndpoint(hit.entry, m));
        if (missing.length) throw new ConformanceFailure(`${route.path} does not advertise ${missing.join(', ')} (advertises ${JSON.stringify(hit.entry?.methods)})`);
        return methods.map((m) => advertisedEndpoint(hit.entry, m));
      })),
    );
  return p;
}

/** The advertised route (its index key and entry), owned by `disc.route.<id>`: what checks its parameters skips, naming it, when the route is missing. */
const routePrereqs = new Map<string, Prerequisite<{ key: string; entry: any }>>();
function routeOf(route: RouteSpec): Prerequisite<{ key: string; entry: any }> {
  let p = routePrereqs.get(route.id);
  if (!p)
    routePrereqs.set(
      route.id,
      (p = prerequisite(`disc.route.${route.id}`, async (_client, run) => {
        const hit = findAdvertisedRoute(run.index, route.path);
        if (!hit) throw new ConformanceFailure(`route ${route.path} is not in the index${route.namespace ? ` although ${route.namespace} is advertised` : ''}`);
        return hit;
      })),
    );
  return p;
}

function advertisedRoute(t: BehaviourContext, route: RouteSpec) {
  if (route.namespace) t.requireNamespace(route.namespace);
  const hit = findAdvertisedRoute(t.index, route.path);
  if (!hit) t.fail(`route ${route.path} is not in the index${route.namespace ? ` although ${route.namespace} is advertised` : ''}`);
  return hit;
}

for (const route of catalog.routes) {
  const methods = [...new Set(route.endpoints.flatMap((e) => e.methods))];
  behaviour(
    {
      id: `disc.route.${route.id}`,
      level: 'MUST',
      namespace: route.namespace,
      route: route.path,
      title: `${route.path} is advertised with ${methods.join(', ')}`,
      spec: route.spec,
      covers: [`route:${route.id}`, ...route.endpoints.map((e) => `endpoint:${e.id}`)],
    },
    (t) => {
      const { entry } = advertisedRoute(t, route);
      const missing = methods.filter((m) => !advertisedEndpoint(entry, m));
      if (missing.length) t.fail(`${route.path} does not advertise ${missing.join(', ')} (advertises ${JSON.stringify(entry?.methods)})`);
    },
  );

  for (const endpoint of route.endpoints) {
    const args = endpoint.args;
    if (args !== 'not-shown') {
      // One behaviour per documented arg: a deviation of one arg never hides another's.
      for (const [name, doc] of Object.entries(args)) {
        behaviour(
          {
            id: argBehaviourId(endpoint.id, name),
            level: 'MUST',
            namespace: route.namespace,
            route: route.path,
            title: `${endpoint.methods.join(',')} ${route.path} advertises arg ${name} with its documented attributes`,
            spec: endpoint.spec,
            covers: [`arg:${endpoint.id}.${name}`],
          },
          async (t) => {
            if (route.namespace) t.requireNamespace(route.namespace);
            // The route and its methods are disc.route.<id>'s: when they are missing, this skips naming it.
            const advertised = await t.need(endpointsOf(route, endpoint.methods));
            const problems = [...new Set(advertised)].flatMap((adv) => compareArg(name, doc, adv.args && typeof adv.args === 'object' ? adv.args[name] : undefined).map(describeDeviation));
            if (problems.length) t.fail(`in the index's entry for ${endpoint.methods.join(',')} ${route.path}, ${problems.join('; ')}`, { deviations: problems });
          },
        );
      }
    }

    const absent = endpoint.absentArgs ?? [];
    if (absent.length) {
      behaviour(
        {
          id: `disc.absent-args.${endpoint.id}`,
          level: 'MUST',
          namespace: route.namespace,
          route: route.path,
          title: `${endpoint.methods.join(',')} ${route.path} advertises none of the parameters the spec says it does not have (${absent.join(', ')})`,
          spec: endpoint.spec,
          covers: [`endpoint:${endpoint.id}`],
        },
        async (t) => {
          if (route.namespace) t.requireNamespace(route.namespace);
          // The route and its methods are disc.route.<id>'s: when they are missing, this skips naming it.
          const advertised = await t.need(endpointsOf(route, endpoint.methods));
          // What a server does with such a parameter sent anyway (ignore or refuse) is not stated: only the advertisement is judged.
          const found = absent.filter((a) => advertised.some((adv) => adv?.args && typeof adv.args === 'object' && Object.prototype.hasOwnProperty.call(adv.args, a)));
          if (found.length)
            t.fail(`the site index (GET /) advertises ${found.join(', ')} among the args of ${endpoint.methods.join(',')} ${route.path}; the spec says this endpoint has no ${absent.join(', ')} (${endpoint.spec.section})`);
        },
      );
    }

    if (endpoint.allowBatch !== undefined) {
      behaviour(
        {
          id: `disc.allow-batch.${endpoint.id}`,
          level: 'MUST',
          namespace: route.namespace,
          route: route.path,
          title: `${endpoint.methods.join(',')} ${route.path} ${endpoint.allowBatch ? 'carries' : 'does not carry'} allow_batch v1`,
          spec: endpoint.spec,
          covers: [`batch:${endpoint.id}`],
        },
        async (t) => {
          if (route.namespace) t.requireNamespace(route.namespace);
          // The route and its methods are disc.route.<id>'s: when they are missing, this skips naming it.
          const advertised = await t.need(endpointsOf(route, endpoint.methods));
          for (const [i, m] of endpoint.methods.entries()) {
            const adv = advertised[i];
            const v1 = adv.allow_batch?.v1 === true;
            if (v1 !== endpoint.allowBatch)
              t.fail(`${m} ${route.path}: allow_batch is ${JSON.stringify(adv.allow_batch)}, documented ${endpoint.allowBatch ? '{"v1":true}' : 'absent'}`);
          }
        },
      );
    }
  }

  for (const [param, spec] of Object.entries(route.params ?? {})) {
    if (!spec.pattern && !spec.enum) continue;
    const documented = spec.enum ? `exactly ${spec.enum.join(', ')}` : `/${spec.pattern}/`;
    const samples = segmentSamples(spec.pattern ?? (spec.enum ?? []).map(String).map(escapeRe).join('|'), (spec.enum ?? []).map(String));
    behaviour(
      {
        id: `disc.param.${route.id}.${param}`,
        level: 'MUST',
        namespace: route.namespace,
        route: route.path,
        title:
          `<${param}> of ${route.path} is advertised accepting ${documented} and nothing else ` +
          `(a route regex that does, or <${param}> in the spec's notation)`,
        spec: route.spec,
        covers: [`param:${route.id}.${param}`],
      },
      async (t) => {
        if (route.namespace) t.requireNamespace(route.namespace);
        // The route is disc.route.<id>'s: when it is missing, this skips naming it.
        const { key } = await t.need(routeOf(route));
        const params = routeParams(key);
        const position = [...route.path.matchAll(/<([^>]+)>/g)].findIndex((m) => m[1] === param);
        const group = params[position];
        if (!group) t.fail(`${key} has no parameter at the position of <${param}>`);
        if (group.notation === 'spec') {
          // A key in the spec's own notation (core preamble: "In route shapes, `<id>` and `<parent>`
          // are decimal integer identifiers"; the extension document states each other segment)
          // states no pattern: `<name>` refers to the documented parameter, whose values the
          // documents state. All the index can show then is that the key names that parameter at
          // its place; what the route really accepts is not advertised, so it is not judged here.
          // `<id>` and `<parent>` are the same notation of a decimal integer identifier.
          const sameNotation = group.name === param || (integerId(spec) && ['id', 'parent'].includes(group.name));
          if (!sameNotation)
            t.fail(
              `${key} gives the segment of <${param}> as <${group.name}> in the spec's notation, which the documents do not define there: ` +
                `the key does not say that the segment accepts ${documented}`,
            );
          return;
        }
        const source = group.source ?? '';
        const wrongAccept = samples.accept.filter((s) => !segmentMatches(source, s));
        const wrongReject = samples.reject.filter((s) => segmentMatches(source, s));
        if (wrongAccept.length || wrongReject.length)
          t.fail(
            `advertised pattern ${source}` +
              (wrongAccept.length ? ` rejects documented ${wrongAccept.map((s) => JSON.stringify(s)).join(', ')}` : '') +
              (wrongReject.length ? `${wrongAccept.length ? ' and' : ''} accepts undocumented ${wrongReject.map((s) => JSON.stringify(s)).join(', ')}` : ''),
          );
      },
    );
  }
}

/**
 * Endpoints the documents give without parameters ("GET /spamfilter/v1/key | none"; the suite's
 * "Read-only routes (GET, no parameters unless stated)") advertise none: one check per namespace,
 * so that a server that adds the same parameter everywhere is one finding. A route's own path
 * segments (`<id>` of /comments/<id>/backup) may be listed as args, as WordPress lists them on the
 * content routes; what a server does with a parameter sent anyway is not stated.
 */
const withoutArgs = new Map<string, { route: RouteSpec; endpoint: EndpointSpec }[]>();
for (const route of catalog.routes)
  for (const endpoint of route.endpoints)
    if (endpoint.args !== 'not-shown' && !endpoint.argsOpen && Object.keys(endpoint.args).length === 0)
      withoutArgs.set(route.namespace, [...(withoutArgs.get(route.namespace) ?? []), { route, endpoint }]);
for (const [namespace, list] of withoutArgs) {
  behaviour(
    {
      id: `disc.no-args.${namespace.replace(/[^a-z0-9]+/g, '-')}`,
      level: 'MUST',
      namespace,
      route: list[0]!.route.path,
      title: `the ${list.length} ${namespace} endpoints documented without parameters advertise none (but their own path segments)`,
      spec: list[0]!.endpoint.spec,
      covers: list.map(({ endpoint }) => `endpoint:${endpoint.id}`),
    },
    (t) => {
      t.requireNamespace(namespace);
      const found: string[] = [];
      for (const { route, endpoint } of list) {
        // A route or method the index lacks is disc.route.<id>'s finding.
        const entry = findAdvertisedRoute(t.index, route.path)?.entry;
        const segments = new Set(Object.keys(route.params ?? {}));
        for (const m of endpoint.methods) {
          const args = advertisedEndpoint(entry, m)?.args;
          const extra = args && typeof args === 'object' ? Object.keys(args).filter((a) => !segments.has(a)) : [];
          if (extra.length) found.push(`${m} ${route.path}: ${extra.join(', ')}`);
        }
      }
      if (found.length) t.fail(`the site index (GET /) advertises parameters on endpoints the spec gives without any (${list[0]!.endpoint.spec.section}): ${found.join('; ')}`);
    },
  );
}

/** A segment the core preamble calls a decimal integer identifier (`<id>`, `<parent>`). */
const integerId = (spec: ArgSpec): boolean => spec.type === 'integer' && spec.pattern === '\\d+';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
