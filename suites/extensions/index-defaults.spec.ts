/**
 * The namespace indexes of the extension instance (extensions part 4: `GET /spamfilter/v1`,
 * `/contactform/v1` and `/suite/v4` take namespace, default the namespace itself, and context,
 * default view): the index without them answers as with their defaults.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { behaviour } from '../../src/behaviour.ts';
import { deepEqual } from '../../src/discovery.ts';
import { CONTACTFORM, SPAMFILTER, SUITE, brief, expectAnswered, isNoRoute } from './support.ts';

for (const ns of [SPAMFILTER, CONTACTFORM, SUITE]) {
  const route = catalog.routes.find((r) => r.path === `/${ns}`)!;
  const e = route.endpoints.find((x) => x.methods.includes('GET'))!;
  behaviour(
    {
      id: `${route.id}.defaults`,
      level: 'MUST',
      namespace: ns,
      route: route.path,
      title: `GET /${ns} without namespace and context answers as with their defaults (namespace ${ns}, context view)`,
      spec: e.spec,
      covers: [`arg:${e.id}.namespace#default`, `arg:${e.id}.context#default`],
    },
    async (t) => {
      t.requireNamespace(ns);
      const query = { namespace: t.run.profile.toTargetNamespace(ns), context: 'view' };
      const without = await t.client.get(route.path);
      const withDefaults = await t.client.get(route.path, { query });
      for (const [res, what] of [
        [without, `GET ${route.path}`],
        [withDefaults, `GET ${route.path}?${new URLSearchParams(query)}`],
      ] as const) {
        if (isNoRoute(res)) t.fail(`${what} answered ${brief(res)}: the documented namespace index does not exist on the target`);
        expectAnswered(t, res, what);
      }
      if (!deepEqual(without.body, withDefaults.body))
        t.fail(`GET ${route.path} answered otherwise than with namespace = ${query.namespace} and context = view, their documented defaults`);
    },
    { concurrent: true },
  );
}
