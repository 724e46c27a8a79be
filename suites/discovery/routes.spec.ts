/**
 * Discovery: every documented route, its methods, each endpoint's args attribute by
 * attribute, allow_batch, and what its path segments accept (both documents, part 4).
 * A namespace the target does not advertise makes its routes skip with that reason.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { RouteSpec } from '../../schemas/types.ts';
import { behaviour, type BehaviourContext } from '../../src/behaviour.ts';
import {
  advertisedEndpoint,
  compareArgs,
  describeDeviation,
  findAdvertisedRoute,
  routeParams,
  segmentMatches,
  segmentSamples,
} from '../../src/discovery.ts';

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
    if (args !== 'not-shown' && Object.keys(args).length > 0) {
      behaviour(
        {
          id: `disc.args.${endpoint.id}`,
          level: 'MUST',
          namespace: route.namespace,
          route: route.path,
          title: `${endpoint.methods.join(',')} ${route.path} advertises its documented args (${Object.keys(args).length}) with documented attributes`,
          spec: endpoint.spec,
          covers: Object.keys(args).map((a) => `arg:${endpoint.id}.${a}`),
        },
        (t) => {
          const { entry } = advertisedRoute(t, route);
          const problems: string[] = [];
          const seen = new Set<unknown>();
          for (const m of endpoint.methods) {
            const adv = advertisedEndpoint(entry, m);
            if (!adv) problems.push(`no ${m} endpoint`);
            else if (!seen.has(adv)) {
              seen.add(adv);
              problems.push(...compareArgs(args, adv.args).map(describeDeviation));
            }
          }
          if (problems.length) t.fail(`${problems.length} deviation(s): ${problems.join('; ')}`, { deviations: problems });
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
        (t) => {
          const { entry } = advertisedRoute(t, route);
          for (const m of endpoint.methods) {
            const adv = advertisedEndpoint(entry, m);
            if (!adv) t.fail(`no ${m} endpoint on ${route.path}`);
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
    const samples = segmentSamples(spec.pattern ?? (spec.enum ?? []).map(String).map(escapeRe).join('|'), (spec.enum ?? []).map(String));
    behaviour(
      {
        id: `disc.param.${route.id}.${param}`,
        level: 'MUST',
        namespace: route.namespace,
        route: route.path,
        title: `<${param}> of ${route.path} accepts ${spec.enum ? `exactly ${spec.enum.join(', ')}` : `/${spec.pattern}/`} and nothing else`,
        spec: route.spec,
        covers: [`param:${route.id}.${param}`],
      },
      (t) => {
        const { key } = advertisedRoute(t, route);
        const params = routeParams(key);
        const position = [...route.path.matchAll(/<([^>]+)>/g)].findIndex((m) => m[1] === param);
        const group = params[position];
        if (!group) t.fail(`${key} has no parameter at the position of <${param}>`);
        const wrongAccept = samples.accept.filter((s) => !segmentMatches(group.source, s));
        const wrongReject = samples.reject.filter((s) => segmentMatches(group.source, s));
        if (wrongAccept.length || wrongReject.length)
          t.fail(
            `advertised pattern ${group.source}` +
              (wrongAccept.length ? ` rejects documented ${wrongAccept.map((s) => JSON.stringify(s)).join(', ')}` : '') +
              (wrongReject.length ? `${wrongAccept.length ? ' and' : ''} accepts undocumented ${wrongReject.map((s) => JSON.stringify(s)).join(', ')}` : ''),
          );
      },
    );
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
