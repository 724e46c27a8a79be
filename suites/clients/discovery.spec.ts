/**
 * Client readiness, finding the API (level CLIENT, results/clients.ts): how the real clients
 * reach the routes. wpapi discovers the root from the home page and builds its route methods from
 * the index's route keys; Frontity and HeadstartWP address routes under `{base}/wp-json/`; the
 * block editor gives api-fetch a root, here the spec's own `index.php?rest_route=/`, whose route
 * api-fetch percent-encodes. Read-only.
 */
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { CORE_INTRO, POSTS, answered, baseUrl, clientDecl, header, wpJsonUrl } from './lib/declare.ts';
import { wpapiKeyProblem } from './lib/route-keys.ts';

const INDEX_SPEC = { doc: 'core', section: '1. What the service does' } as const;

behaviour(
  clientDecl('client.discovery.head-link', {
    title: 'HEAD on the home page answers 2xx with Link: <api root>; rel="https://api.w.org/", and that root serves the index',
    route: '/',
    spec: INDEX_SPEC,
    client: {
      spec: 'silent',
      specSays: 'neither document states how the API root is found from the site',
      reliedOnBy: [
        {
          client: 'wpapi',
          file: 'wpapi.js; lib/autodiscovery.js',
          function: 'WPAPI.discover (L426-441), locateAPIRootHeader (L17-31)',
          flows: ['discover'],
          breaks: 'WPAPI.discover fails ("Autodiscovery failed"; its GET fallback cannot read a header): the root must be given by hand',
        },
      ],
    },
  }),
  async (t) => {
    const home = `${baseUrl(t)}/`;
    const res = await t.client.request('HEAD', '/', { pageUrl: home });
    if (res.status < 200 || res.status > 299) t.fail(`HEAD ${home} answered ${res.status}`);
    const link = header(res, 'Link') ?? '';
    const root = /<([^>]+)>\s*;\s*rel="?https:\/\/api\.w\.org\/"?/.exec(link)?.[1];
    if (!root) t.fail(`HEAD ${home} answered ${res.status} with no Link rel="https://api.w.org/"${link ? ` (Link: ${link.slice(0, 200)})` : ' (no Link header)'}`);
    const index = await t.client.get('/', { pageUrl: new URL(root!, home).href });
    if (index.status !== 200 || typeof index.body?.routes !== 'object') t.fail(`the root it links, ${root}, ${answered(index, 'GET')}: not the site index with routes`);
  },
);

/** The index's route keys (target names) with their namespaces; skips without them. */
function routeKeys(t: BehaviourContext): [key: string, namespace: string][] {
  const routes = (t.run.info.index as { routes?: Record<string, { namespace?: unknown }> } | undefined)?.routes;
  if (!routes || typeof routes !== 'object') t.skip('the index has no routes object (checked by disc.index.routes)');
  return Object.entries(routes!).map(([k, r]) => [k, String(r?.namespace ?? '')]);
}
const show = (ks: string[]) => `${ks.slice(0, 3).join(', ')}${ks.length > 3 ? ` and ${ks.length - 3} more` : ''}`;
const ROUTE_KEYS_SPEC = 'core-routes.md § 1: routes is an "object keyed by route pattern", and the spec writes patterns as /cms/v2/posts/<id>; any pattern is allowed';

behaviour(
  clientDecl('client.discovery.route-keys', {
    title: "the index's route keys write path parameters as PCRE named groups ((?P<id>[\\d]+)), from which wpapi builds .id()",
    route: '/',
    spec: INDEX_SPEC,
    client: {
      spec: 'contrary',
      specSays: ROUTE_KEYS_SPEC,
      reliedOnBy: [
        { client: 'wpapi', file: 'lib/route-tree.js; lib/util/named-group-regexp.js', function: 'buildRouteTree, reduceRouteComponents (L36)', flows: ['discover'], breaks: 'its discovery builds no .id(): a key in <id> notation is a literal segment' },
      ],
    },
  }),
  (t) => {
    const keys = routeKeys(t);
    const notation = keys.filter(([k, ns]) => wpapiKeyProblem(k, ns)?.kind === 'notation').map(([k]) => k);
    const posts = t.run.profile.toTargetRoute(POSTS);
    if (notation.length)
      t.fail(`index route keys are not PCRE named groups: ${show([...notation.filter((k) => k.startsWith(`${posts}/`)), ...notation.filter((k) => !k.startsWith(`${posts}/`))])} (${notation.length} of ${keys.length} keys)`);
  },
);

behaviour(
  clientDecl('client.discovery.route-keys-parsable', {
    title: "no index route key nests a group inside a named group, which wpapi's route parser cannot read",
    route: '/',
    spec: INDEX_SPEC,
    client: {
      spec: 'contrary',
      specSays: ROUTE_KEYS_SPEC,
      reliedOnBy: [
        {
          client: 'wpapi',
          file: 'lib/util/named-group-regexp.js; lib/route-tree.js; wpapi.js',
          function: 'namedGroupRE (a named group holds at most one group, ending where it ends); reduceRouteComponents; WPAPI.discover (L457-466)',
          flows: ['discover'],
          breaks: 'building the route tree throws ("Unterminated group") and WPAPI.discover falls back to its bundled wp/v2 routes: only those work',
        },
      ],
    },
  }),
  (t) => {
    const keys = routeKeys(t);
    const bad = keys.flatMap(([k, ns]) => {
      const p = wpapiKeyProblem(k, ns);
      return p?.kind === 'unparsable' ? [{ key: k, error: p.error }] : [];
    });
    if (bad.length) t.fail(`index route keys nest a group inside a named group: ${show(bad.map((x) => x.key))} (${bad.length} of ${keys.length} keys; wpapi 1.2.2: ${bad[0]!.error})`);
  },
);

behaviour(
  clientDecl('client.addressing.wp-json', {
    title: 'routes answer under {base}/wp-json/ as under {base}/index.php?rest_route=',
    route: POSTS,
    spec: CORE_INTRO,
    client: {
      spec: 'contrary',
      specSays: 'core-routes.md (preamble): "Routes are addressed as {base_url}/index.php?rest_route=<route>", the only address it states',
      reliedOnBy: [
        { client: 'frontity', file: 'src/state.ts; src/libraries/api.ts', function: 'wpSource.api, prefix "/wp-json" (L131-161); Api.get (L92-121)', flows: ['list', 'read', 'embed', 'errors'], breaks: 'every request goes to {base}/wp-json/wp/v2/… (a ?rest_route= root yields a second "?"): nothing loads, every page is a 404' },
        { client: 'headstartwp', file: 'dist/mjs/utils/endpoints.js', function: 'endpoints (literal /wp-json/wp/v2/…)', flows: ['list', 'read', 'embed', 'errors'], breaks: 'every request goes to {base}/wp-json/wp/v2/…: nothing loads' },
      ],
    },
  }),
  async (t) => {
    // The site's oldest post (the newest may be another suite file's, deleted at any moment), by both addresses.
    const oldest = await t.client.get(POSTS, { query: { per_page: 1, order: 'asc' } });
    const id = Array.isArray(oldest.body) ? oldest.body[0]?.id : undefined;
    const url = Number.isInteger(id) ? wpJsonUrl(t, `${POSTS}/${id}`) : wpJsonUrl(t, POSTS, 'per_page=1');
    const pretty = await t.client.get(POSTS, { pageUrl: url });
    if (pretty.status !== 200 || !/^application\/json/i.test(header(pretty, 'Content-Type') ?? '')) t.fail(answered(pretty, `GET ${url}`));
    if (Number.isInteger(id) && pretty.body?.id !== id) t.fail(`GET ${url} answered ${JSON.stringify(pretty.body).slice(0, 120)}, not post ${id} as GET ${POSTS}/${id} by rest_route does`);
  },
);

behaviour(
  clientDecl('client.addressing.rest-route-encoded', {
    title: 'a percent-encoded rest_route (rest_route=%2Fcms%2Fv2%2Fposts) addresses the same route',
    route: POSTS,
    spec: CORE_INTRO,
    client: {
      spec: 'stated',
      specSays: 'core-routes.md (preamble): routes are addressed as {base_url}/index.php?rest_route=<route> (a query value, URL-encoded or not)',
      reliedOnBy: [
        { client: 'api-fetch', file: 'src/middlewares/root-url.ts; src/middlewares/user-locale.ts', function: 'createRootURLMiddleware (L19-31), addQueryArgs', flows: ['list', 'read', 'write', 'batch'], breaks: 'with the root {base}/index.php?rest_route=/ every path is sent percent-encoded: nothing is found' },
      ],
    },
  }),
  async (t) => {
    const url = `${baseUrl(t)}/index.php?rest_route=${encodeURIComponent(t.run.profile.toTargetRoute(POSTS))}&per_page=1`;
    const res = await t.client.get(POSTS, { pageUrl: url });
    if (res.status !== 200 || !Array.isArray(res.body)) t.fail(answered(res, `GET ${url}`));
  },
);
