/**
 * Discovery: the site index (core part 1, part 5; extensions part 1). Read-only; uses the
 * index the CLI fetched once.
 */
import { catalog, extensionOnlyNamespaces } from '../../schemas/catalog/index.ts';
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import {
  checkIndexField,
  findAdvertisedRoute,
  OTHER_ROUTE_ENTRIES_ID,
  routeEntryBehaviourId,
  routeParams,
  SELF_LINK_PLAIN_ID,
  SELF_LINK_TEMPLATED_ID,
} from '../../src/sdk/discovery.ts';

/** The extension document describes a second instance: the one with all its plugin namespaces. */
function requireExtensionInstance(t: { index: any; skip(r: string): never }) {
  const advertised: string[] = t.index?.namespaces ?? [];
  const plugins = ['spamfilter/v1', 'contactform/v1', 'suite/v4'];
  const missing = plugins.filter((n) => !advertised.includes(n));
  if (missing.length)
    t.skip(`applies to the extension instance (advertising ${plugins.join(', ')}); this target lacks ${missing.join(', ')}`);
}

for (const field of catalog.indexFields) {
  const extension = field.spec.doc === 'extensions';
  behaviour(
    {
      id: `disc.${field.id}`,
      level: 'MUST',
      namespace: '',
      route: '/',
      title: `site index field ${field.name} is ${[field.type].flat().join(' or ')}${field.format ? ` (${field.format})` : ''}${field.nonEmpty ? ', non-empty' : ''}`,
      spec: field.spec,
      covers: [field.id],
    },
    (t) => {
      if (extension) requireExtensionInstance(t);
      const problem = checkIndexField(field, t.run.info.index && (t.run.info.index as any)[field.name]);
      if (problem) t.fail(problem);
    },
  );
}

for (const ns of catalog.namespaces.core) {
  behaviour(
    {
      id: `disc.namespace.${ns.replace(/[^a-z0-9]+/g, '-')}`,
      level: 'MUST',
      namespace: ns,
      route: '/',
      title: `site index advertises namespace ${ns}`,
      spec: { doc: 'core', section: '1. What the service does' },
      covers: [`namespace.${ns}`],
    },
    (t) => {
      const advertised: string[] = t.index?.namespaces ?? [];
      if (!advertised.includes(ns)) t.fail(`namespace ${ns} is not in the index's namespaces [${advertised.join(', ')}]`);
    },
  );
}

behaviour(
  {
    id: 'disc.namespace.extension-instance',
    level: 'MUST',
    namespace: '',
    route: '/',
    title: 'the extension instance advertises every namespace of the extension document',
    spec: { doc: 'extensions', section: '1. What the service does' },
    covers: extensionOnlyNamespaces().map((n) => `namespace.${n}`),
  },
  (t) => {
    requireExtensionInstance(t);
    const advertised: string[] = t.index?.namespaces ?? [];
    const missing = catalog.namespaces.extensions.filter((n) => !advertised.includes(n));
    if (missing.length) t.fail(`not advertised: ${missing.join(', ')}`);
  },
);

/** What is wrong with one routes entry (part 1: namespace, methods and endpoints; `_links.self` is checked apart). */
function entryProblems(e: any): string[] {
  const problems: string[] = [];
  if (typeof e?.namespace !== 'string') problems.push('namespace is not a string');
  if (!Array.isArray(e?.methods) || !e.methods.every((m: unknown) => typeof m === 'string')) problems.push('methods is not an array of methods');
  if (!Array.isArray(e?.endpoints) || !e.endpoints.every((x: any) => Array.isArray(x?.methods) && x?.args && typeof x.args === 'object'))
    problems.push('endpoints is not an array of {methods, args}');
  return problems;
}

const hasSelfLink = (e: any) => Array.isArray(e?._links?.self) && e._links.self.length > 0 && e._links.self.every((l: any) => typeof l?.href === 'string');

const ENTRY_SENTENCE = 'Each entry under `routes` has: `namespace` (string, empty for `/` and `/batch/v1`), `methods` (array of HTTP methods), `endpoints` (array of `{methods, args, allow_batch?}`) and `_links.self[].href`.';

// One behaviour per documented route (namespace, methods, endpoints of its entry), one for the
// entries of every other route, and `_links.self` apart for routes without and with path
// parameters (a server may leave the link out of templated routes as a rule: one deviation, one
// failure): a deviation of one entry never hides another's.
for (const route of catalog.routes) {
  behaviour(
    {
      id: routeEntryBehaviourId(route.id),
      level: 'MUST',
      namespace: route.namespace,
      route: route.path,
      title: `the routes entry of ${route.path} has namespace, methods and endpoints`,
      spec: { doc: 'core', section: '1. What the service does' },
      sentence: ENTRY_SENTENCE,
      covers: ['index.field.routes'],
    },
    (t) => {
      if (route.namespace) t.requireNamespace(route.namespace);
      const hit = findAdvertisedRoute(t.index, route.path);
      if (!hit) return t.skip(`depends on disc.route.${route.id}: ${route.path} is not in the index`);
      const problems = entryProblems(hit.entry);
      if (problems.length) t.fail(`${hit.key}: ${problems.join('; ')}`);
    },
  );
}

/** A behaviour over the whole routes object of the index (part 1's sentence on routes entries). */
function routesBehaviour(id: string, title: string, check: (t: BehaviourContext, routes: Record<string, any>) => void): void {
  behaviour(
    { id, level: 'MUST', namespace: '', route: '/', title, spec: { doc: 'core', section: '1. What the service does' }, sentence: ENTRY_SENTENCE, covers: ['index.field.routes'] },
    (t) => {
      const routes = t.index?.routes;
      if (!routes || typeof routes !== 'object') t.fail('the index has no routes object');
      check(t, routes);
    },
  );
}

routesBehaviour(OTHER_ROUTE_ENTRIES_ID, 'every routes entry of a route the documents do not list has namespace, methods and endpoints', (t, routes) => {
  const documented = new Set(catalog.routes.map((r) => findAdvertisedRoute(t.index, r.path)?.key).filter((k): k is string => k !== undefined));
  const problems: string[] = [];
  const others = Object.entries<any>(routes).filter(([key]) => !documented.has(key));
  for (const [key, e] of others) for (const p of entryProblems(e)) problems.push(`${key}: ${p}`);
  if (problems.length) t.fail(`${problems.length} ${problems.length === 1 ? 'problem' : 'problems'} in ${others.length} entries of undocumented routes${problems.length > 5 ? '; the first 5' : ''}: ${problems.slice(0, 5).join('; ')}`, { deviations: problems });
});

for (const templated of [false, true]) {
  routesBehaviour(
    templated ? SELF_LINK_TEMPLATED_ID : SELF_LINK_PLAIN_ID,
    `every routes entry of a route ${templated ? 'with' : 'without'} path parameters has _links.self[].href`,
    (t, routes) => {
      const entries = Object.entries<any>(routes).filter(([key]) => routeParams(key).length > 0 === templated);
      const missing = entries.filter(([, e]) => !hasSelfLink(e)).map(([key]) => key);
      if (missing.length) t.fail(`${missing.length} of ${entries.length} entries have no _links.self[].href; first: ${missing.slice(0, 5).join(', ')}`, { missing });
    },
  );
}

behaviour(
  {
    id: 'disc.index.routes.namespace-empty',
    level: 'MUST',
    namespace: '',
    route: '/',
    title: 'the routes / and /batch/v1 have an empty namespace',
    spec: { doc: 'core', section: '1. What the service does' },
  },
  (t) => {
    for (const key of ['/', '/batch/v1']) {
      const e = t.index?.routes?.[key];
      if (!e) t.fail(`route ${key} is not in the index`);
      if (e.namespace !== '') t.fail(`route ${key} has namespace ${JSON.stringify(e.namespace)}, documented ""`);
    }
  },
);

behaviour(
  {
    id: 'disc.index.authentication',
    level: 'MUST',
    namespace: '',
    route: '/',
    title: 'authentication advertises application-passwords with an authorization URL {base_url}/<admin_path>/authorize-application.php',
    spec: catalog.authentication.spec,
    covers: ['index.field.authentication', 'authentication.application-passwords'],
  },
  (t) => {
    const auth = (t.run.info.index as any)?.authentication;
    const scheme = auth?.[catalog.authentication.scheme];
    if (!scheme) t.fail(`authentication does not advertise ${catalog.authentication.scheme} (got ${JSON.stringify(auth)?.slice(0, 200)})`);
    const href = scheme?.endpoints?.authorization;
    if (typeof href !== 'string') t.fail('application-passwords has no endpoints.authorization string');
    const admin = t.run.profile.adminPath;
    const tail = catalog.authentication.authorizationPath.replace('<admin_path>', admin ?? '[^/]+');
    if (!new RegExp(`${tail.replace(/\./g, '\\.')}$`).test(href)) t.fail(`authorization URL ${href} does not end in ${catalog.authentication.authorizationPath}${admin ? ` (admin path ${admin})` : ''}`);
    // {base_url} is the site's own address (the index's `url`): a proxy in front of the site does not change it.
    const base = String((t.run.info.index as any)?.url ?? '').replace(/\/+$/, '');
    if (!base || !href.startsWith(`${base}/`)) t.fail(`authorization URL ${href} is not under the site URL ${base}`);
  },
);
