/**
 * Faults in batch, oEmbed, the index routes and authentication (core parts 1, 4, 5, 8, 9).
 * Each breaks one documented (or reference) behaviour of a real target so that the suites
 * under suites/core/ can be shown to catch it.
 *
 * Two tools stand in for a server that does more than the target would:
 * - `runDirectly` answers a batch by sending its items one by one (through the proxy itself,
 *   with the batch's credentials), as a server without the batch checks would;
 * - `credentials` remembers an Authorization header the target accepted, for faults that let
 *   anonymous or wrongly authenticated requests through as if they were authenticated.
 */
import { request } from 'undici';
import { json, type Fault, type FaultRequest, type FaultResponse } from './proxy.ts';

const BATCH = '/batch/v1';
const EMBED = '/oembed/1.0/embed';
const PROXY = '/oembed/1.0/proxy';
const NAMESPACE_INDEXES: Record<string, string> = { '/oembed/1.0': '/cms/v2', '/cms/v2': '/oembed/1.0' };
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);


/** Authorization headers the target accepted (learned from answers; the same target across runs). */
const accepted = new Set<string>();
function learn(req: FaultRequest, res: FaultResponse) {
  const a = req.headers.authorization;
  if (typeof a === 'string' && res.status < 400) accepted.add(a);
}
/** Send the request as if it carried accepted credentials. */
function authenticate(req: FaultRequest) {
  const good = accepted.values().next().value;
  if (good) req.headers.authorization = good;
}

function authFault(id: string, title: string, caughtBy: string[], request: (req: FaultRequest) => void | FaultResponse): Fault {
  return { id, title, caughtBy, request, response: learn };
}

const isBatch = (req: FaultRequest) => req.route === BATCH && req.method === 'POST';
const items = (req: FaultRequest): any[] | undefined => (Array.isArray(req.json?.requests) ? req.json.requests : undefined);

/** Routes that do not advertise allow_batch v1 (spec names). */
const NOT_BATCHABLE = /\/(revisions|autosaves)(\/|$)|^\/cms\/v2\/media(\/|$)|^\/oembed\/|^\/batch\/v1$/;
const specPath = (req: FaultRequest, path: unknown) => req.profile.toSpecRoute(String(path ?? '').split('?')[0] ?? '');

/** Answer a batch by sending each item as its own request, in order, through the proxy. */
async function runDirectly(req: FaultRequest, list: any[]): Promise<FaultResponse> {
  const base = `http://${req.headers.host}`;
  const responses: unknown[] = [];
  for (const item of list) {
    const [pathname = '', qs] = String(item?.path ?? '').split('?');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (req.headers.authorization) headers.authorization = String(req.headers.authorization);
    let body: string | undefined;
    if (item?.body !== undefined) {
      body = JSON.stringify(item.body);
      headers['content-type'] = 'application/json';
    }
    const url = `${base}/index.php?rest_route=${encodeURIComponent(pathname).replace(/%2F/g, '/')}${qs ? `&${qs}` : ''}`;
    const res = await request(url, { method: (item?.method ?? 'POST') as 'POST', headers, body });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    responses.push({ body: parsed, status: res.statusCode, headers: {} });
  }
  return json(207, { responses });
}

/** A fault on POST /batch/v1 that rewrites the body before it is forwarded. */
function batchRewrite(id: string, title: string, caughtBy: string[], rewrite: (body: any, req: FaultRequest) => void): Fault {
  return {
    id,
    title,
    caughtBy,
    request(req) {
      if (isBatch(req) && req.json && typeof req.json === 'object') rewrite(req.json, req);
    },
  };
}

const LIMIT = 25;

const batchFaults: Fault[] = [
  batchRewrite('batch.truncates-oversize', 'runs the first 25 items of a 26-item batch instead of refusing it', ['batch.requests.too-many-rejected'], (body) => {
    if (body.requests?.length > LIMIT) body.requests = body.requests.slice(0, LIMIT);
  }),
  {
    id: 'batch.applies-refused-oversize',
    title: 'answers a 26-item batch with 400 but has already run its first 25 items',
    caughtBy: ['batch.requests.too-many-rejected'],
    request(req) {
      const list = isBatch(req) ? items(req) : undefined;
      if (list && list.length > LIMIT) {
        req.json.requests = list.slice(0, LIMIT);
        (req as FaultRequest & { oversize?: boolean }).oversize = true;
      }
    },
    response(req, res) {
      if (!(req as FaultRequest & { oversize?: boolean }).oversize) return;
      res.status = 400;
      res.json = { code: 'rest_invalid_param', message: 'Invalid parameter(s): requests', data: { status: 400, params: { requests: 'requests must contain at most 25 items.' } } };
    },
  },
  {
    id: 'batch.limit-off-by-one',
    title: 'refuses a batch of exactly 25 items',
    caughtBy: ['batch.requests.max-accepted'],
    request(req) {
      if (isBatch(req) && (items(req)?.length ?? 0) >= LIMIT) return json(400, { code: 'rest_invalid_param', message: 'requests must contain at most 24 items.', data: { status: 400 } });
    },
  },
  {
    id: 'batch.requests-optional',
    title: 'answers a batch body without requests as an empty batch',
    caughtBy: ['batch.requests.required', 'batch.envelope.errors-400'],
    request(req) {
      if (isBatch(req) && !items(req)) return json(207, { responses: [] });
    },
  },
  batchRewrite('batch.validation-unchecked', 'treats an unknown validation mode as normal', ['batch.validation.enum'], (body) => {
    if (body.validation !== undefined && !['normal', 'require-all-validate'].includes(body.validation)) body.validation = 'normal';
  }),
  {
    id: 'batch.get-item-accepted',
    title: 'runs a batch that holds a GET item, the GET included',
    caughtBy: ['batch.item.method.enum', 'batch.envelope.errors-400'],
    request(req) {
      const list = isBatch(req) ? items(req) : undefined;
      if (list?.some((i) => String(i?.method).toUpperCase() === 'GET')) return runDirectly(req, list);
    },
  },
  batchRewrite('batch.default-method-put', 'sends an item without method as PUT instead of POST', ['batch.item.method.default-post'], (body) => {
    for (const i of body.requests ?? []) if (i && typeof i === 'object' && i.method === undefined) i.method = 'PUT';
  }),
  batchRewrite('batch.path-optional', 'silently drops items without path and runs the others', ['batch.item.path.required', 'batch.envelope.errors-400'], (body) => {
    if (Array.isArray(body.requests)) body.requests = body.requests.filter((i: any) => i?.path !== undefined);
  }),
  batchRewrite('batch.headers-unchecked', 'ignores item header values that are neither strings nor arrays of strings', ['batch.item.headers.values', 'batch.envelope.errors-400'], (body) => {
    for (const i of body.requests ?? [])
      if (i?.headers && typeof i.headers === 'object')
        for (const [k, v] of Object.entries(i.headers)) if (typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) delete i.headers[k];
  }),
  batchRewrite('batch.require-all-validate-ignored', 'runs a require-all-validate batch as normal: the valid items are applied although one item is invalid', ['batch.validation.require-all-validate', 'batch.response.failed-validation'], (body) => {
    if (body.validation === 'require-all-validate') body.validation = 'normal';
  }),
  batchRewrite('batch.normal-all-or-nothing', 'runs normal batches as require-all-validate', ['batch.validation.normal', 'batch.validation.default-normal'], (body) => {
    if (body.validation === undefined || body.validation === 'normal') body.validation = 'require-all-validate';
  }),
  batchRewrite('batch.default-validation-wrong', 'takes require-all-validate as the default validation mode', ['batch.validation.default-normal'], (body) => {
    if (body.validation === undefined) body.validation = 'require-all-validate';
  }),
  {
    id: 'batch.not-batchable-accepted',
    title: 'runs items aimed at non-batchable routes (revisions, autosaves, media, oEmbed, a nested batch)',
    caughtBy: ['batch.not-batchable.revisions-autosaves', 'batch.not-batchable.error-items', 'batch.not-batchable.pages'],
    request(req) {
      const list = isBatch(req) ? items(req) : undefined;
      if (list?.some((i) => NOT_BATCHABLE.test(specPath(req, i?.path)))) return runDirectly(req, list);
    },
  },
  batchRewrite(
    'batch.delete-items-ignored',
    'answers DELETE items on posts and pages but deletes nothing (aims them at an item that does not exist)',
    ['batch.endpoints.posts.batchable', 'batch.endpoints.pages.batchable'],
    (body, req) => {
      for (const i of items(req) ?? []) {
        const [path, query] = String(i?.path ?? '').split('?');
        if (i?.method === 'DELETE' && /^\/cms\/v2\/(posts|pages)\/\d+$/.test(req.profile.toSpecRoute(path ?? ''))) i.path = `${path!.replace(/\d+$/, '987654')}${query ? `?${query}` : ''}`;
      }
    },
  ),
  batchRewrite('batch.drops-last-item', 'silently drops the last item of every batch', ['batch.property.same-as-one-by-one', 'batch.requests.max-accepted'], (body) => {
    if (Array.isArray(body.requests) && body.requests.length) body.requests = body.requests.slice(0, -1);
  }),
  {
    id: 'batch.responses-reversed',
    title: 'answers the items of a batch in reverse order',
    caughtBy: ['batch.response.multi-status'],
    response(req, res) {
      if (isBatch(req) && Array.isArray(res.json?.responses)) res.json.responses.reverse();
    },
  },
  {
    id: 'batch.status-200',
    title: 'answers a batch with 200 instead of 207',
    caughtBy: ['batch.response.multi-status', 'batch.response.failed-validation'],
    response(req, res) {
      if (isBatch(req) && res.status === 207) res.status = 200;
    },
  },
  {
    id: 'batch.failed-marker-missing',
    title: 'answers a failed require-all-validate batch without failed: "validation"',
    caughtBy: ['batch.response.failed-validation'],
    response(req, res) {
      if (isBatch(req) && res.json && typeof res.json === 'object') delete res.json.failed;
    },
  },
];

// ---------------------------------------------------------------------------
// oEmbed
// ---------------------------------------------------------------------------

const isGet = (req: FaultRequest, route: string) => req.route === route && req.method === 'GET';
const FAKE_EMBED = { version: '1.0', type: 'rich', provider_name: 'fault', title: 'fault', width: 600, height: 338, html: '<blockquote>fault</blockquote>' };

const oembedFaults: Fault[] = [
  {
    id: 'oembed.url-not-required',
    title: 'answers embed data to embed and proxy requests without url',
    caughtBy: ['oembed.embed.url-required', 'oembed.proxy.url-required'],
    request(req) {
      if ((isGet(req, EMBED) || isGet(req, PROXY)) && !req.query.has('url')) return json(200, FAKE_EMBED);
    },
  },
  {
    id: 'oembed.post-url-refused',
    title: "answers 404 for a published post's own URL",
    caughtBy: ['oembed.embed.post-url'],
    request(req) {
      if (isGet(req, EMBED) && req.query.has('url')) return json(404, { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    },
  },
  {
    id: 'oembed.data-incomplete',
    title: 'answers embed data without version and html',
    caughtBy: ['oembed.embed.data'],
    response(req, res) {
      if (isGet(req, EMBED) && res.json && typeof res.json === 'object') {
        delete res.json.version;
        delete res.json.html;
      }
    },
  },
  {
    id: 'oembed.maxwidth-default-wrong',
    title: 'takes maxwidth 400 when it is omitted (documented default 600)',
    caughtBy: ['oembed.embed.maxwidth-default'],
    request(req) {
      if (isGet(req, EMBED) && !req.query.has('maxwidth')) req.query.set('maxwidth', '400');
    },
  },
  {
    id: 'oembed.format-default-xml',
    title: 'answers XML when format is omitted (documented default json)',
    caughtBy: ['oembed.embed.format-default'],
    request(req) {
      if (isGet(req, EMBED) && !req.query.has('format')) req.query.set('format', 'xml');
    },
  },
  {
    id: 'oembed.maxwidth-ignored',
    title: 'ignores maxwidth (always 600 wide)',
    caughtBy: ['oembed.embed.maxwidth-clamped'],
    request(req) {
      if (isGet(req, EMBED)) req.query.delete('maxwidth');
    },
  },
  {
    id: 'oembed.unknown-url-accepted',
    title: 'answers embed data for a URL that identifies no post',
    caughtBy: ['oembed.embed.unknown-url'],
    response(req, res) {
      if (isGet(req, EMBED) && res.status === 404) Object.assign(res, json(200, FAKE_EMBED));
    },
  },
  {
    id: 'oembed.proxy-maxwidth-default-wrong',
    title: 'takes proxy maxwidth 300 when it is omitted (documented default 600)',
    caughtBy: ['oembed.proxy.defaults'],
    request(req) {
      if (isGet(req, PROXY) && !req.query.has('maxwidth')) req.query.set('maxwidth', '300');
    },
  },
  {
    id: 'oembed.embed-xml-as-json',
    title: 'answers an embed asked for format=xml in JSON',
    caughtBy: ['oembed.format.xml'],
    request(req) {
      if (isGet(req, EMBED) && req.query.get('format') === 'xml') req.query.delete('format');
    },
  },
  {
    id: 'oembed.proxy-format-unchecked',
    title: 'takes any proxy format other than xml as json',
    caughtBy: ['oembed.proxy.format.validated'],
    request(req) {
      const f = req.query.get('format');
      if (isGet(req, PROXY) && f !== null && f !== 'json' && f !== 'xml') req.query.set('format', 'json');
    },
  },
  {
    id: 'oembed.proxy-discover-unchecked',
    title: 'ignores a proxy discover value that is not a boolean',
    caughtBy: ['oembed.proxy.discover.validated'],
    request(req) {
      const d = req.query.get('discover');
      if (isGet(req, PROXY) && d !== null && !/^(true|false|1|0)$/i.test(d)) req.query.delete('discover');
    },
  },
  authFault('oembed.proxy-without-auth', 'serves the proxy to requests without credentials', ['oembed.proxy.anonymous-refused'], (req) => {
    if (isGet(req, PROXY) && !req.authenticated) authenticate(req);
  }),
  {
    id: 'oembed.proxy-dimensions-unchecked',
    title: 'takes a proxy maxwidth or maxheight that is not an integer as 0 (absint), as WordPress does',
    caughtBy: ['oembed.proxy.maxwidth.validated', 'oembed.proxy.maxheight.validated'],
    request(req) {
      for (const k of ['maxwidth', 'maxheight']) {
        const v = req.query.get(k);
        if (isGet(req, PROXY) && v !== null && !/^\d+$/.test(v)) req.query.set(k, '0');
      }
    },
  },
  {
    id: 'oembed.proxy-auth-before-validation',
    title: 'refuses anonymous proxy requests (401) before validating their args',
    caughtBy: ['oembed.proxy.anonymous-validation'],
    request(req) {
      if (isGet(req, PROXY) && !req.authenticated) return json(401, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to make proxied oEmbed requests.', data: { status: 401 } });
    },
  },
];

// ---------------------------------------------------------------------------
// Index routes
// ---------------------------------------------------------------------------

const indexFaults: Fault[] = [
  {
    id: 'index.context-refused',
    title: 'the site and namespace indexes refuse a context other than view',
    caughtBy: ['index.root.context', 'index.oembed.context', 'index.cms.context'],
    request(req) {
      const c = req.query.get('context');
      if (req.method === 'GET' && (req.route === '/' || req.route in NAMESPACE_INDEXES) && c !== null && c !== 'view')
        return json(400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): context', data: { status: 400 } });
    },
  },
  {
    id: 'index.namespace-index-foreign-routes',
    title: "the namespace indexes also list a route of the other namespace",
    caughtBy: ['index.oembed.routes', 'index.cms.routes'],
    response(req, res) {
      const other = NAMESPACE_INDEXES[req.route];
      if (req.method !== 'GET' || !other || !res.json?.routes) return;
      const foreign = req.profile.toTargetRoute(other === '/cms/v2' ? '/cms/v2/posts' : '/oembed/1.0/embed');
      res.json.routes[foreign] = { namespace: req.profile.toTargetNamespace(other.slice(1)), methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] };
    },
  },
  {
    id: 'index.namespace-default-wrong',
    title: 'a namespace index without the namespace parameter answers the other namespace',
    caughtBy: ['index.oembed.namespace-default', 'index.cms.namespace-default'],
    request(req) {
      const other = NAMESPACE_INDEXES[req.route];
      if (req.method === 'GET' && other && !req.query.has('namespace')) req.query.set('namespace', req.profile.toTargetNamespace(other.slice(1)));
    },
  },
  {
    id: 'index.namespace-param-ignored',
    title: 'the namespace indexes ignore the namespace parameter',
    caughtBy: ['index.oembed.namespace-selects', 'index.cms.namespace-selects'],
    request(req) {
      if (req.method === 'GET' && NAMESPACE_INDEXES[req.route]) req.query.delete('namespace');
    },
  },
  {
    id: 'index.gmt-offset-out-of-range',
    title: 'the site index answers gmt_offset 99',
    caughtBy: ['index.gmt-offset.value'],
    response(req, res) {
      if (req.method === 'GET' && req.route === '/' && res.json && 'gmt_offset' in res.json) res.json.gmt_offset = 99;
    },
  },
  {
    id: 'index.route-namespace-unlisted',
    title: 'a routes entry of the site index names a namespace that namespaces does not list',
    caughtBy: ['index.routes.namespace-values'],
    response(req, res) {
      if (req.method !== 'GET' || req.route !== '/' || !res.json?.routes) return;
      const key = Object.keys(res.json.routes).find((k) => req.profile.toSpecRoute(k) === '/oembed/1.0/embed');
      if (key) res.json.routes[key].namespace = 'elsewhere/v9';
    },
  },
  {
    id: 'index.page-on-front-dangling',
    title: 'the site index answers a page_on_front that names no page',
    caughtBy: ['index.root.fields'],
    response(req, res) {
      if (req.method === 'GET' && req.route === '/' && res.json && typeof res.json === 'object') res.json.page_on_front = 987654;
    },
  },
  {
    id: 'index.namespace-index-missing',
    title: 'an advertised namespace (cms-site-health/v1) has no namespace index: 404 rest_no_route',
    caughtBy: ['index.namespaces.served'],
    request(req) {
      if (req.method === 'GET' && req.route === '/cms-site-health/v1') return json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    },
  },
];

// ---------------------------------------------------------------------------
// Authentication
// ---------------------------------------------------------------------------

const POSTS = /^\/cms\/v2\/posts(\/\d+)?$/;

const authFaults: Fault[] = [
  authFault('auth.anonymous-write-accepted', 'lets writes without credentials through as if authenticated', ['auth.anonymous.write-refused', 'auth.anonymous.batch-write-refused'], (req) => {
    if (!req.authenticated && WRITES.has(req.method)) authenticate(req);
  }),
  authFault('auth.wrong-password-accepted', 'accepts any application password of a known user', ['auth.wrong-password.refused'], (req) => {
    const a = req.headers.authorization;
    if (typeof a === 'string' && accepted.size && !accepted.has(a)) authenticate(req);
  }),
  authFault('auth.edit-context-anonymous', 'serves context=edit without credentials', ['auth.anonymous.edit-context-refused', 'auth.anonymous.protected-content'], (req) => {
    if (!req.authenticated && req.method === 'GET' && req.query.get('context') === 'edit') authenticate(req);
  }),
  authFault('auth.unpublished-visible-anonymously', 'shows drafts and private posts to readers without credentials', ['auth.anonymous.drafts-hidden', 'auth.anonymous.private-hidden'], (req) => {
    if (!req.authenticated && req.method === 'GET' && POSTS.test(req.route)) authenticate(req);
  }),
  authFault('auth.credentials-ignored-on-put', 'ignores valid credentials on PUT updates of posts', ['auth.credentials.write-accepted'], (req) => {
    if (req.method === 'PUT' && POSTS.test(req.route)) delete req.headers.authorization;
  }),
  authFault('auth.authorization-page-missing', 'answers 404 on its non-REST pages, the advertised authorization page included', ['auth.authorization-url.answers'], (req) => {
    if (req.route === '' && req.method === 'GET') return { status: 404, headers: { 'content-type': 'text/html; charset=UTF-8' }, text: '<html><body>Not Found</body></html>' };
  }),
];

export const coreFaults: Fault[] = [...batchFaults, ...oembedFaults, ...indexFaults, ...authFaults];
