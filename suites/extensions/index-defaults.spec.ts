/**
 * The namespace indexes of the extension instance (extensions part 4: `GET /spamfilter/v1`,
 * `/contactform/v1` and `/suite/v4` take namespace, default the namespace itself, and context,
 * default view): the index without them answers as with their defaults (and so the namespace is
 * served).
 */
import { catalog, extensionOnlyNamespaces } from '../../schemas/catalog/index.ts';
import { behaviour } from '../../src/sdk/behaviour.ts';
import { deepEqual } from '../../src/sdk/discovery.ts';
import { CONTACTFORM, SPAMFILTER, SUITE, brief, expectAnswered, idPart, isNoRoute } from './lib/support.ts';

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
      covers: [`namespace.${ns}`, `arg:${e.id}.namespace#default`, `arg:${e.id}.context#default`],
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

/**
 * The other namespaces the extension instance advertises (part 1), whose routes are not shown:
 * each serves its namespace index (GET /<namespace> answers), as every namespace of the site
 * does (core part 1: the index routes of each namespace).
 */
for (const ns of extensionOnlyNamespaces().filter((n) => ![SPAMFILTER, CONTACTFORM, SUITE].includes(n))) {
  behaviour(
    {
      id: `namespaces.${idPart(ns.replace(/\//g, '-'))}`,
      level: 'MUST',
      namespace: ns,
      route: `/${ns}`,
      title: `GET /${ns} (the namespace index of an advertised namespace) answers`,
      spec: { doc: 'extensions', section: '1. What the service does' },
      covers: [`namespace.${ns}`],
    },
    async (t) => {
      // A namespace the index does not advertise is disc.namespace.extension-instance's failure.
      t.requireNamespace(ns);
      const res = await t.client.get(`/${ns}`);
      if (isNoRoute(res)) t.fail(`GET /${ns} answered ${brief(res)}: the site does not serve the namespace`);
      expectAnswered(t, res, `GET /${ns}`);
    },
    { concurrent: true },
  );
}
