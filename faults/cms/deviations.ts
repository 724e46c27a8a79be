/**
 * Deviations (issue 25): one broken thing of a server, shown to fail its own behaviours and few
 * others (test/fixtures/deviations).
 */
import { routeShape } from '../../schemas/route-keys.ts';
import { json, type Fault, type FaultRequest, type FaultResponse } from '../proxy.ts';
import { AUTOSAVE, AUTOSAVES, COLLECTION, ITEM, TYPES, argsOf, drop, isGet, itemsOf, perType } from './common.ts';
import { itemRewrite } from './context.ts';
import { FILTER_BEHAVIOURS, documentedFor } from './filters.ts';
import { isFieldWrite } from './fields.ts';
import { bodyRewrite } from './writes.ts';

/** Rewrite the advertised args of the post and page endpoints in the site index (GET /). */
function advertisedArgs(req: FaultRequest, res: FaultResponse, edit: (args: Record<string, any>, specRoute: string, methods: string[]) => void): void {
  if (req.route !== '/' || !isGet(req) || !res.json?.routes) return;
  for (const [key, entry] of Object.entries<any>(res.json.routes)) {
    const spec = routeShape(req.profile.toSpecRoute(key));
    if (!/^\/cms\/v2\/(posts|pages)(\/|$)/.test(spec)) continue;
    for (const e of entry?.endpoints ?? []) if (e?.args && typeof e.args === 'object') edit(e.args, spec, e.methods ?? []);
  }
}

/** An item's meta without footnotes: what a server that does not register the key answers (PHP's empty array is []). */
function withoutFootnotes(meta: unknown): unknown {
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return meta;
  const { footnotes: _, ...rest } = meta as Record<string, unknown>;
  return Object.keys(rest).length ? rest : [];
}

/** A query argument a server neither advertises nor honours, on post and page listings. */
function argUnsupported(arg: string): Fault {
  return {
    id: `cms.arg-unsupported.${arg}`,
    title: `neither advertises nor honours the ${arg} argument of post and page listings (any value accepted and ignored)`,
    caughtBy: [
      ...TYPES.filter((t) => argsOf(`cms.${t}.collection.list`).includes(arg)).flatMap((t) => [`disc.args.cms.${t}.collection.list.${arg}`, `cms.${t}.query.${arg}.values`, ...(FILTER_BEHAVIOURS[arg] ?? []).filter((b) => documentedFor(t, arg, b)).map((b) => `cms.${t}.${b}`)]),
    ],
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route)) drop(req.query, arg);
    },
    response(req, res) {
      advertisedArgs(req, res, (args, route, methods) => {
        if (/^\/cms\/v2\/(posts|pages)$/.test(route) && methods.includes('GET')) delete args[arg];
      });
    },
  };
}

export const deviationFaults: Fault[] = [
  // A server without autosaves (issue 34): a documented route missing is one deviation of that
  // route (disc.route.*); every behaviour that needs it skips, naming it (src/sdk/behaviour.ts).
  {
    id: 'cms.autosaves-missing',
    title: 'has no autosave routes: neither advertised in the index nor served (404 rest_no_route)',
    caughtBy: TYPES.flatMap((t) => [`disc.route.cms.${t}.autosaves.collection`, `disc.route.cms.${t}.autosaves.item`]),
    request(req) {
      if (AUTOSAVES.test(req.route) || AUTOSAVE.test(req.route)) return json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    },
    response(req, res) {
      if (req.method !== 'GET' || (req.route !== '/' && req.route !== '/cms/v2') || !res.json?.routes) return;
      for (const key of Object.keys(res.json.routes)) if (/\/autosaves/.test(req.profile.toSpecRoute(key))) delete res.json.routes[key];
    },
  },
  // orderby=date, now that an ignored order makes filter.orderby.date skip (depending on filter.order).
  {
    id: 'cms.orderby-date-as-id',
    title: 'orders post and page listings by id when orderby=date is asked for',
    caughtBy: perType('filter.orderby.date'),
    request(req) {
      if (isGet(req) && COLLECTION.test(req.route) && req.query.get('orderby') === 'date') req.query.set('orderby', 'id');
    },
  },
  // password.protected-flag, without touching what is stored (cms.password-dropped now fails the owner
  // of "create stores the password", and the password behaviours skip, depending on it).
  itemRewrite('cms.protected-flag-dropped', 'answers anonymous reads of a password-protected post or page with content.protected and excerpt.protected false', perType('password.protected-flag'), (req) => !req.authenticated, (item) => {
    for (const k of ['content', 'excerpt']) if (item[k] && typeof item[k] === 'object' && item[k].protected === true) item[k].protected = false;
  }),
  // A create that ignores status: every new post or page is a draft (WordPress's default).
  // Owner: write.statuses (create stores every write status); every other behaviour's fixtures are
  // checked when made (src/sdk/fixtures.ts verifyStored), so those skip, depending on it.
  bodyRewrite(
    'cms.create-ignores-status',
    'ignores status on create: every new post or page is a draft',
    perType('write.statuses'),
    (req) => req.method === 'POST' && COLLECTION.test(req.route),
    (body) => {
      delete body.status;
    },
  ),
  // A server without the block editor's footnotes meta key: it is neither advertised, stored nor
  // answered (meta answers []).
  {
    id: 'cms.footnotes-missing',
    title: 'has no footnotes meta key: meta answers [], writes of meta.footnotes are ignored, the key is not advertised',
    caughtBy: [...perType('fields.footnotes-default'), ...perType('fields.create-stored'), ...perType('fields.update-stored'), ...TYPES.flatMap((t) => [`disc.args.cms.${t}.collection.create.meta`, `disc.args.cms.${t}.item.update.meta`, `disc.args.cms.${t}.autosaves.collection.create.meta`])],
    request(req) {
      if (!isFieldWrite(req) || !req.json || typeof req.json !== 'object') return;
      const meta = req.json.meta;
      if (meta && typeof meta === 'object' && !Array.isArray(meta) && 'footnotes' in meta) {
        delete meta.footnotes;
        if (!Object.keys(meta).length) delete req.json.meta;
      }
    },
    response(req, res) {
      for (const item of itemsOf(res)) if (item && typeof item === 'object' && 'meta' in item) item.meta = withoutFootnotes(item.meta);
      advertisedArgs(req, res, (args) => {
        const props = args.meta?.properties;
        if (props && typeof props === 'object') delete props.footnotes;
      });
    },
  },
  argUnsupported('format'),
  // An update method that answers 200 with the item as it was and stores nothing.
  ...(['PUT', 'PATCH'] as const).map(
    (method): Fault => ({
      id: `cms.update-stores-nothing.${method.toLowerCase()}`,
      title: `answers ${method} on a post or page with 200 and the item as it was, storing nothing`,
      caughtBy: [
        ...perType(`update.${method.toLowerCase()}`),
        // The behaviours that update by PATCH (enum values stored; invalid values refused).
        ...(method === 'PATCH' ? [...perType('fields.enum-values'), ...perType('fields.invalid-refused')] : []),
      ],
      request(req) {
        if (req.method === method && ITEM.test(req.route) && req.json && typeof req.json === 'object') req.json = {};
      },
    }),
  ),
];

