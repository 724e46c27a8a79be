/**
 * Faults of batch (core part 8): oversize batches run or refused wrongly, GET and unbatchable
 * items run, items dropped or reordered, the 207 status and the failed flag lost.
 *
 * `runDirectly` stands in for a server without the batch checks: it answers a batch by sending
 * its items one by one (through the proxy itself, with the batch's credentials).
 */
import { request } from 'undici';
import { json, type Fault, type FaultRequest, type FaultResponse } from '../proxy.ts';

const BATCH = '/batch/v1';

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

export const batchFaults: Fault[] = [
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
