/**
 * The site index as the target answers it now (core part 1; extensions part 1), and every
 * advertised namespace answering its own index (part 4 › Index routes; part 9: "The version is
 * part of the namespace").
 *
 * suites/discovery/index.spec.ts checks the types of the index fields on the index the CLI
 * fetched once (a missing field or a wrong type is reported there); here a live GET / is read:
 * the URLs must be absolute, the page identifiers must name pages.
 */
import { catalog, extensionOnlyNamespaces } from '../../schemas/catalog/index.ts';
import { behaviour } from '../../src/sdk/behaviour.ts';
import { answerOf, whyNotAccepted } from '../../src/sdk/controls.ts';
import { findAdvertisedRoute } from '../../src/sdk/discovery.ts';
import { normalizeIndex } from '../../schemas/profiles.ts';

const ok = (status: number) => status >= 200 && status <= 299;
const SPEC = { doc: 'core' as const, section: '1. What the service does' };
const coreFields = catalog.indexFields.filter((f) => f.id.startsWith('index.field.'));
const extensionFields = catalog.indexFields.filter((f) => !f.id.startsWith('index.field.'));

behaviour(
  {
    id: 'index.root.fields',
    level: 'MUST',
    namespace: '',
    route: '/',
    title: 'GET / answers the site index: url and home are absolute URLs; page_for_posts and page_on_front are 0 or name a page',
    spec: SPEC,
  },
  async (t) => {
    const res = await t.client.get('/');
    if (!ok(res.status) || !res.body || typeof res.body !== 'object') t.fail(whyNotAccepted(res, 'GET /'));
    const index = normalizeIndex(res.body, t.run.profile) as Record<string, any>;
    const problems: string[] = [];
    // A field missing from the answer is reported by disc.index.field.<name>; the fields present are exercised here.
    t.covers(...coreFields.filter((f) => f.name in index).map((f) => f.id));
    for (const name of ['url', 'home']) {
      const v = index[name];
      if (typeof v !== 'string') continue; // its type: disc.index.field.<name>
      let url: URL | undefined;
      try {
        url = new URL(v);
      } catch {
        url = undefined;
      }
      if (!url || !/^https?:$/.test(url.protocol)) problems.push(`${name} ${JSON.stringify(v)} is not an absolute http(s) URL`);
    }
    for (const name of ['page_for_posts', 'page_on_front']) {
      const id = index[name];
      if (typeof id !== 'number' || !Number.isInteger(id)) continue; // its type: disc.index.field.<name>
      if (id < 0) problems.push(`${name} is ${id}, not a page identifier`);
      else if (id > 0) {
        const page = await t.client.get(`/cms/v2/pages/${id}`);
        if (!ok(page.status)) problems.push(`${name} is ${id}, but GET /cms/v2/pages/${id} answered ${answerOf(page)}`);
      }
    }
    // On the extension instance the index carries the extension document's fields too (their values: disc.*).
    if (extensionOnlyNamespaces().some((ns) => (index.namespaces ?? []).includes(ns))) {
      t.covers(...extensionFields.filter((f) => f.name in index).map((f) => f.id));
    }
    if (problems.length) t.fail(problems.join('; '));
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'index.namespaces.served',
    level: 'MUST',
    namespace: '',
    route: '/<namespace>',
    title: 'every documented namespace the site advertises answers its namespace index at GET /<namespace>: its routes, all under it',
    spec: { doc: 'core', section: '9. Versioning' },
  },
  // Namespaces a document lists but the site does not advertise are reported by discovery.
  async (t) => {
    const documented = [...new Set([...catalog.namespaces.core, ...catalog.namespaces.extensions])];
    const advertised: string[] = t.run.index?.namespaces ?? [];
    const served = documented.filter((ns) => advertised.includes(ns));
    if (!served.length) t.skip('the target advertises none of the documented namespaces (reported by discovery)');
    const answers = await Promise.all(served.map((ns) => t.client.get(`/${ns}`)));
    const problems: string[] = [];
    served.forEach((ns, i) => {
      const res = answers[i]!;
      if (!ok(res.status)) return void problems.push(whyNotAccepted(res, `GET /${ns}`));
      const v = normalizeIndex(res.body, t.run.profile) as any;
      const routes = v?.routes && typeof v.routes === 'object' ? Object.keys(v.routes) : [];
      if (!routes.length) return void problems.push(`GET /${ns} answered no routes`);
      const foreign = routes.filter((k) => k !== `/${ns}` && !k.startsWith(`/${ns}/`));
      if (foreign.length) problems.push(`GET /${ns} lists ${foreign.length} routes outside ${ns} (first ${foreign[0]})`);
      if (!findAdvertisedRoute(v, `/${ns}`)) problems.push(`GET /${ns} does not list the namespace's own index route /${ns}`);
    });
    t.covers(...served.map((ns) => `namespace.${ns}`));
    if (problems.length) t.fail(problems.join('; '));
  },
  { concurrent: true },
);
