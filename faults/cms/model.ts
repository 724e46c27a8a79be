/**
 * Faults only a sequence of operations reveals (each single operation behaves): caught by the
 * model-based behaviours `cms.<type>.model` (MUST) and `cms.<type>.model.should` (SHOULD) with a
 * shrunk sequence of a few commands (test/cms/model.test.ts). Routes are in spec names.
 *
 * They keep a little state (which item is in the trash, what status it had), per proxy: the key
 * carries the proxy's Host, so two proxies (or two targets) never share it.
 */
import type { Fault, FaultRequest, FaultResponse } from '../proxy.ts';
import { ITEM, REVISIONS, TYPES } from './common.ts';

const BATCH = '/batch/v1';
const EDIT = new Set(['POST', 'PUT', 'PATCH']);
const model = (suffix = '') => TYPES.map((t) => `cms.${t}.model${suffix}`);

const forced = (v: string | null | undefined) => ['true', '1'].includes((v ?? '').toLowerCase());
const ok = (status: number) => status >= 200 && status <= 299;

/** State of one fault, per proxy. */
function perProxy<T>(make: () => T): (req: FaultRequest) => T {
  const all = new Map<string, T>();
  return (req) => {
    const key = String(req.headers.host ?? '');
    let v = all.get(key);
    if (!v) all.set(key, (v = make()));
    return v;
  };
}

/** A single item write, or the items of a batch, as (method, spec route, force, body) — with a setter for the item's path. */
interface ItemWrite {
  method: string;
  route: string;
  force: boolean;
  body?: any;
  setForce(): void;
}

function writesOf(req: FaultRequest): ItemWrite[] {
  if (req.route === BATCH && req.method === 'POST' && Array.isArray(req.json?.requests)) {
    return req.json.requests.map((item: any) => {
      const [path, query = ''] = String(item?.path ?? '').split('?');
      const q = new URLSearchParams(query);
      return {
        method: String(item?.method ?? 'POST').toUpperCase(),
        route: req.profile.toSpecRoute(path!),
        force: forced(q.get('force')) || forced(String(item?.body?.force ?? '')),
        body: item?.body,
        setForce() {
          q.set('force', 'true');
          item.path = `${path}?${q.toString()}`;
        },
      };
    });
  }
  if (!ITEM.test(req.route)) return [];
  return [{ method: req.method, route: req.route, force: forced(req.query.get('force')), body: req.json, setForce: () => req.query.set('force', 'true') }];
}

/** The answers to `writesOf(req)`, in order. */
function answersOf(req: FaultRequest, res: FaultResponse): { status: number; body: any }[] {
  if (req.route === BATCH) return Array.isArray(res.json?.responses) ? res.json.responses.map((r: any) => ({ status: r?.status, body: r?.body })) : [];
  return [{ status: res.status, body: res.json }];
}

const idOf = (route: string) => Number(ITEM.exec(route)?.[2]);

// ---------------------------------------------------------------------------------------------

const trashedBy = perProxy(() => new Set<number>());

const secondTrashDeletes: Fault = {
  id: 'cms.model.second-trash-deletes',
  title: 'a second DELETE without force (of an item already in the trash) deletes it permanently',
  caughtBy: model(),
  request(req) {
    const trashed = trashedBy(req);
    for (const w of writesOf(req)) if (w.method === 'DELETE' && !w.force && trashed.has(idOf(w.route))) w.setForce();
  },
  response(req, res) {
    const trashed = trashedBy(req);
    const answers = answersOf(req, res);
    writesOf(req).forEach((w, i) => {
      const a = answers[i];
      if (!a || !ok(a.status)) return;
      const id = idOf(w.route);
      if (w.method === 'DELETE' && !w.force) trashed.add(id);
      else if (w.method === 'DELETE') trashed.delete(id);
      else if (EDIT.has(w.method) && a.body?.status !== undefined && a.body.status !== 'trash') trashed.delete(id);
    });
  },
};

// ---------------------------------------------------------------------------------------------

/** The last status each item was seen in (from any answer carrying it), and whether it is in the trash. */
const statusesBy = perProxy(() => ({ last: new Map<number, string>(), before: new Map<number, string>() }));

const updateRestoresTrashed: Fault = {
  id: 'cms.model.update-restores-trashed',
  title: 'an update of a trashed item (without status) restores it to the status it had before the trash',
  caughtBy: model('.should'),
  request(req) {
    const s = statusesBy(req);
    if (!EDIT.has(req.method) || !ITEM.test(req.route) || !req.json || typeof req.json !== 'object') return;
    const id = idOf(req.route);
    if (s.last.get(id) === 'trash' && req.json.status === undefined && s.before.has(id)) req.json.status = s.before.get(id);
  },
  response(req, res) {
    const s = statusesBy(req);
    const seen = (body: any) => {
      if (typeof body?.id !== 'number' || typeof body?.status !== 'string') return;
      if (body.status !== 'trash') s.before.set(body.id, body.status);
      s.last.set(body.id, body.status);
    };
    if (Array.isArray(res.json)) res.json.forEach(seen);
    else if (res.json?.previous) seen(res.json.previous);
    else seen(res.json);
    if (req.route === BATCH) answersOf(req, res).forEach((a) => seen(a.body));
  },
};

// ---------------------------------------------------------------------------------------------

const revisionsStop: Fault = {
  id: 'cms.model.revisions-stop-after-third',
  title: 'revisions stop after the third: updates after it make none (a revision list shows the three oldest)',
  caughtBy: model('.should'),
  response(req, res) {
    if (req.method !== 'GET' || !REVISIONS.test(req.route) || !Array.isArray(res.json)) return;
    const autosave = (r: any) => typeof r?.slug === 'string' && r.slug.includes('autosave');
    const kept = res.json
      .filter((r: any) => !autosave(r))
      .map((r: any) => r.id)
      .sort((a: number, b: number) => a - b)
      .slice(0, 3);
    res.json = res.json.filter((r: any) => autosave(r) || kept.includes(r.id));
  },
};

// ---------------------------------------------------------------------------------------------

const batchReversed: Fault = {
  id: 'cms.model.batch-reversed',
  title: 'applies the items of a batch in reverse order (and answers them in request order)',
  caughtBy: model('.should'),
  request(req) {
    if (req.route === BATCH && req.method === 'POST' && Array.isArray(req.json?.requests)) req.json.requests.reverse();
  },
  response(req, res) {
    if (req.route === BATCH && Array.isArray(res.json?.responses)) res.json.responses.reverse();
  },
};

export const cmsModelFaults: Fault[] = [secondTrashDeletes, updateRestoresTrashed, revisionsStop, batchReversed];
