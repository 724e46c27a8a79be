/**
 * The routes under an item (revisions, autosaves) beyond their lists (4. Endpoints):
 * - "`<id>` and `<parent>` are decimal integer identifiers": every documented route shape
 *   answers with integer identifiers, and a segment that is not decimal matches no route (or is
 *   refused); nothing is ever accepted for it;
 * - the `context` of the revision read, the autosave list and the autosave read: view, embed
 *   and edit accepted, another value refused, omitted answers as view.
 */
import { catalog } from '../../../schemas/catalog/index.ts';
import { behaviour, declarationSite, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Method, QueryValue } from '../../../src/sdk/http.ts';
import { answerOf, expectControlAccepted, whyNotAccepted } from '../../../src/sdk/controls.ts';
import { CONTEXTS, SPEC_CONTEXTS, type PostType } from './collections.ts';
import { describeItems, itemSubject, onSite, onSiteItem, revisioned, revisionsSubject, type Revisioned } from './sample.ts';
import { fileSetup, waitSince } from './setup.ts';
import { cmsDecl } from './declare.ts';
import { textFields } from '../../../src/sdk/http.ts';
import { autosaveRecovering } from '../../../src/sdk/fixtures.ts';

const ok = (status: number) => status >= 200 && status <= 299;

export function defineSubroutes(type: PostType): void {
  const setup = fileSetup(`${type.name}.subroutes`, async (s) => {
    const item = await s.create(type.collection, { title: `subroutes ${s.text().title}`, content: s.text().content });
    // Each update makes a revision, a second apart (revision dates have second resolution: the
    // default order by date is then observable); an autosave of the published item makes an autosave.
    for (let i = 0; i < 3; i++) {
      const since = Date.now();
      await s.client.post(type.item(item.id), textFields({ content: `<p>${s.token()} revised ${i}</p>` }));
      if (i < 2) await waitSince(since, 1100);
    }
    const [revs, auto] = await Promise.all([
      s.client.get(type.revisions(item.id)),
      autosaveRecovering(s.client, type.autosaves(item.id), textFields({ title: `${s.tag} subroutes autosave`, content: `<p>${s.token()} autosaved</p>` })),
    ]);
    const revision = Array.isArray(revs.body) && typeof revs.body[0]?.id === 'number' ? (revs.body[0].id as number) : undefined;
    const autosave = ok(auto.status) && typeof auto.body?.id === 'number' ? (auto.body.id as number) : undefined;
    return { item: item.id as number, revision, autosave, why: { revision: `GET ${type.revisions(item.id)} answered ${answerOf(revs)} ${revs.text.slice(0, 120)}`, autosave: `POST ${type.autosaves(item.id)} answered ${answerOf(auto)}` } } as Fx;
  });
  interface Fx {
    item: number;
    revision?: number;
    autosave?: number;
    /** The item the autosave belongs to (default: item). */
    autosaveParent?: number;
    why: { revision: string; autosave: string };
  }

  /**
   * Check on the fixtures, or without them (the run may not write) on an item of the site's own
   * that has revisions (and an autosave of one, where the site has one): sample.ts.
   */
  const withFx = async (t: BehaviourContext, check: (f: Fx) => Promise<void>): Promise<void> => {
    if (!setup.skipped()) return check(setup.get(t));
    await onSite(
      t,
      async (fresh): Promise<Fx & { r: Revisioned }> => {
        const r = await revisioned(type, fresh);
        if (!r.revisions.length) t.skip(`not observable on the site's content: a published ${type.noun} with revisions (${r.why})`);
        const why = `the site has none on the ${type.name} probed (checked by cms.${type.name}.autosaves.create where the run may write)`;
        return { r, item: r.parent.id, revision: r.revisions[0], ...(r.autosave ? { autosave: r.autosave.id, autosaveParent: r.autosave.parent.id } : {}), why: { revision: r.why ?? '', autosave: why } };
      },
      ({ r }) => ({ subjects: [itemSubject(type, r.parent), revisionsSubject(type, r)], detail: `${describeItems(type, [r.parent], 'published')}, its revisions ${r.revisions.join(', ')}${r.autosave ? `, autosave ${r.autosave.id} of ${type.noun} ${r.autosave.parent.id}` : ''}` }),
      check,
    );
  };

  const need = (t: BehaviourContext, f: Fx, what: 'revision' | 'autosave'): number => {
    const id = f[what];
    if (id === undefined) t.skip(`no ${what} to address: ${f.why[what]} (checked by cms.${type.name}.${what === 'revision' ? 'revisions.parent' : 'autosaves.create'})`);
    return id;
  };

  const routes = catalog.routes.filter((r) => r.id.startsWith(`cms.${type.name}.`) && r.params && Object.keys(r.params).length);
  const paramCovers = routes.flatMap((r) => Object.keys(r.params!).map((p) => `param:${r.id}.${p}`));
  /** The documented id/parent args of the endpoints of those routes: integers, the path's segments. */
  const idArgCovers = routes.flatMap((r) =>
    r.endpoints.flatMap((e) => (e.args === 'not-shown' ? [] : ['id', 'parent'].filter((n) => n in (e.args as object) && !(n === 'parent' && e.id.endsWith('autosaves.collection.create'))).map((n) => `arg:${e.id}.${n}#type`))),
  );

  behaviour(
    {
      id: `cms.${type.name}.route-params.integer`,
      level: 'MUST',
      namespace: 'cms/v2',
      route: type.paths.item,
      title: `every route shape under ${type.paths.collection} answers for integer identifiers, and a segment that is not a decimal integer is never accepted`,
      spec: type.spec.routes,
      covers: [...paramCovers, ...new Set(idArgCovers)],
    },
    async (t: BehaviourContext) => {
      // Without credentials or fixtures: the item's route shape, the one a reader without them may use.
      if (setup.skipped() && !t.client.hasCredentials)
        return onSiteItem(t, type, (items) => items[0], `a published ${type.noun}`, async (item) => {
          t.subjects('site', `${describeItems(type, [item], 'published')}; the item's route shape only (revisions and autosaves are read with credentials)`);
          expectControlAccepted(t, await t.client.get(type.item(item.id)), `GET ${type.item(item.id)}`, `GET ${type.collection}/abc`);
          const res = await t.client.get(`${type.collection}/abc`);
          if (ok(res.status) || res.status >= 500) t.fail(`a segment that is not a decimal integer was answered as an identifier: GET ${type.collection}/abc: ${answerOf(res)}`);
        });
      t.requireCredentials();
      await withFx(t, async (f) => {
        const rev = need(t, f, 'revision');
        // The site's content may hold no autosave: then the autosave read's shape is left out (its list is not).
        const auto = setup.skipped() ? f.autosave : need(t, f, 'autosave');
        const ap = f.autosaveParent ?? f.item;
        const valid: [Method, string][] = [
          ['GET', type.item(f.item)],
          ['GET', type.revisions(f.item)],
          ['GET', type.revision(f.item, rev)],
          ['GET', type.autosaves(ap)],
          ...(auto === undefined ? [] : [['GET', type.autosave(ap, auto)] as [Method, string]]),
        ];
        for (const [method, route] of valid) {
          const res = await t.client.request(method, route);
          if (!ok(res.status)) t.fail(`positive control: ${whyNotAccepted(res, `${method} ${route}`)}`);
        }
        const x = 'abc';
        // Each with the path segment that is not a decimal integer (the argument sent wrong on purpose).
        const invalid: [Method, string, string][] = [
          ['GET', `${type.collection}/${x}`, 'id'],
          ['DELETE', `${type.collection}/${x}`, 'id'],
          ['GET', `${type.collection}/${x}/revisions`, 'parent'],
          ['GET', `${type.collection}/${x}/revisions/${rev}`, 'parent'],
          ['GET', `${type.collection}/${f.item}/revisions/${x}`, 'id'],
          ['DELETE', `${type.collection}/${f.item}/revisions/${x}`, 'id'],
          ['GET', `${type.collection}/${x}/autosaves`, 'id'],
          ...(auto === undefined ? [] : [['GET', `${type.collection}/${x}/autosaves/${auto}`, 'parent'] as [Method, string, string]]),
          ['GET', `${type.collection}/${ap}/autosaves/${x}`, 'id'],
        ];
        const wrong: string[] = [];
        // A run that may not write sends no DELETE (src/http/client.ts): the GETs show the same routes.
        for (const [method, route, segment] of invalid.filter(([m]) => m === 'GET' || t.run.info.writes.allowed)) {
          const res = await t.client.request(method, route, { ...(method === 'DELETE' ? { query: { force: true } } : {}), invalid: [segment] });
          if (ok(res.status) || res.status >= 500) wrong.push(`${method} ${route}: ${answerOf(res)}`);
        }
        if (wrong.length) t.fail(`a segment that is not a decimal integer was answered as an identifier: ${wrong.join('; ')}`);
      });
    },
    { concurrent: true },
  );

  behaviour(
    {
      id: `cms.${type.name}.revisions.query.defaults`,
      level: 'MUST',
      namespace: 'cms/v2',
      route: type.paths.revisions,
      title: 'the revision list without order, orderby and page answers as order=desc, orderby=date, page=1 (newest first), not as order=asc',
      spec: type.spec.revisionQuery,
      covers: ['order', 'orderby', 'page'].map((a) => `arg:${type.revisionList.id}.${a}#default`),
    },
    async (t: BehaviourContext) => {
      t.requireCredentials();
      await withFx(t, async (f) => {
        need(t, f, 'revision');
        const route = type.revisions(f.item);
        const [omitted, explicit, asc] = await Promise.all([
          t.client.get(route),
          t.client.get(route, { query: { order: 'desc', orderby: 'date', page: 1 } }),
          t.client.get(route, { query: { order: 'asc', orderby: 'date' } }),
        ]);
        for (const [res, what] of [[omitted, ''], [explicit, '?order=desc&orderby=date&page=1'], [asc, '?order=asc&orderby=date']] as const)
          if (res.status !== 200 || !Array.isArray(res.body)) t.fail(whyNotAccepted(res, `GET ${route}${what}`));
        const ids = (res: { body: any[] }) => res.body.map((r: any) => r?.id);
        if (ids(omitted).length < 3) t.skip(`not observable: ${ids(omitted).length} revisions listed ${setup.skipped() ? `of the site's ${type.noun} ${f.item}` : 'after three updates'} (three with distinct dates are needed)`);
        // The two orders list different revisions: a revision is missing from a list, so the order cannot be judged.
        const set = (res: { body: any[] }) => JSON.stringify([...ids(res)].sort());
        if (set(asc) !== set(explicit))
          t.dependsOn(`cms.${type.name}.revisions.created-on-update`, `order=asc lists revisions ${ids(asc).join(',')}, order=desc ${ids(explicit).join(',')}: not the same revisions, so a revision is missing from a list and the order cannot be judged`);
        if (JSON.stringify(ids(asc)) !== JSON.stringify([...ids(explicit)].reverse())) t.fail(`order=asc does not reverse order=desc (${ids(asc).join(',')} vs ${ids(explicit).join(',')}): the order cannot be observed`);
        if (JSON.stringify(ids(omitted)) !== JSON.stringify(ids(explicit))) t.fail(`without order, orderby and page the revisions are listed ${ids(omitted).join(',')}; with order=desc, orderby=date, page=1 ${ids(explicit).join(',')}`);
      });
    },
    { concurrent: true },
  );

  /**
   * The revisions of the item as listed by `query`: a 200 list of ids (else a failure naming the
   * request), all the item's revisions (else the list check owns it: a revision missing).
   */
  const revisionIds = async (t: BehaviourContext, route: string, query: Record<string, QueryValue>, all?: number[]): Promise<number[]> => {
    const res = await t.client.get(route, { query });
    const what = `GET ${route}?${Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&')}`;
    if (res.status !== 200 || !Array.isArray(res.body)) t.fail(whyNotAccepted(res, what));
    const ids = res.body.map((r: any) => r?.id);
    if (all && JSON.stringify([...ids].sort()) !== JSON.stringify([...all].sort()))
      t.dependsOn(`cms.${type.name}.revisions.created-on-update`, `${what} lists revisions ${ids.join(',')}, the list without it ${all.join(',')}: a revision is missing from a list, so the order cannot be judged`);
    return ids;
  };
  /** A check of one orderby value on the revisions of the fixture (or of a site item): all of them, and their ids ascending. */
  function revisionOrder(value: string, level: 'MUST' | 'SHOULD', title: string, args: string[], check: (t: BehaviourContext, route: string, all: number[], sorted: number[]) => Promise<void>): void {
    // Located where it is called (the line that names the orderby value), as a behaviour() call would be.
    const location = declarationSite(revisionOrder);
    behaviour(
      cmsDecl(type, `revisions.filter.orderby.${value}`, { level, title, route: type.paths.revisions, spec: type.spec.revisionQuery, covers: args.map((a) => `arg:${type.revisionList.id}.${a}`) }),
      async (t: BehaviourContext) => {
        t.requireCredentials();
        await withFx(t, async (f) => {
          need(t, f, 'revision');
          const route = type.revisions(f.item);
          const all = await revisionIds(t, route, {});
          if (all.length < 2) t.skip(`not observable: ${all.length} revision listed ${setup.skipped() ? `of the site's ${type.noun} ${f.item}` : 'after three updates'} (two are needed)`);
          await check(t, route, all, [...all].sort((a, b) => a - b));
        });
      },
      { concurrent: true, ...(location ? { location } : {}) },
    );
  }

  // orderby's values whose meaning the revision records show (their fields are not shown but the
  // id): id, in both orders (MUST: "order (asc or desc)", "orderby (... id ...)"); include, the order
  // of the include list (SHOULD: WordPress's meaning). date is the defaults check's; relevance,
  // slug, include_slugs and title order by what a revision record does not show: accepted only
  // (cms.<type>.revisions.query.orderby.values).
  revisionOrder('id', 'MUST', 'orderby=id lists the revisions by id: ascending with order=asc, descending with order=desc', ['order', 'orderby'], async (t, route, all, sorted) => {
    const [asc, desc] = await Promise.all(['asc', 'desc'].map((order) => revisionIds(t, route, { orderby: 'id', order }, all)));
    const wrong = [
      ...(JSON.stringify(asc) === JSON.stringify(sorted) ? [] : [`orderby=id&order=asc lists ${asc!.join(',')}`]),
      ...(JSON.stringify(desc) === JSON.stringify([...sorted].reverse()) ? [] : [`orderby=id&order=desc lists ${desc!.join(',')}`]),
    ];
    if (wrong.length) t.fail(`GET ${route}: ${wrong.join('; ')}; by id the revisions are ${sorted.join(',')} ascending`);
  });

  revisionOrder('include', 'SHOULD', 'orderby=include lists the revisions in the order of the include list', ['include', 'orderby'], async (t, route, all, sorted) => {
    // An order that is neither the default (newest first) nor its reverse where three allow one.
    const include = sorted.length > 2 ? [sorted[1]!, sorted[0]!, ...sorted.slice(2)] : sorted;
    const got = await revisionIds(t, route, { include, orderby: 'include' }, all);
    if (JSON.stringify(got) !== JSON.stringify(include)) t.fail(`GET ${route}?include=${include.join(',')}&orderby=include lists ${got.join(',')}, not in the order of the include list`);
  });

  const targets = [
    { name: 'revisions.item.read', path: type.paths.revision, what: 'revision' as const, route: (f: Fx, id: number) => type.revision(f.item, id) },
    { name: 'autosaves.collection.list', path: type.paths.autosaves, what: 'autosave' as const, route: (f: Fx) => type.autosaves(f.autosaveParent ?? f.item) },
    { name: 'autosaves.item.read', path: type.paths.autosave, what: 'autosave' as const, route: (f: Fx, id: number) => type.autosave(f.autosaveParent ?? f.item, id) },
  ];
  for (const sub of targets) {
    behaviour(
      {
        id: `cms.${type.name}.${sub.name.replace('.collection.list', '.list').replace('.item.read', '.read')}.context`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: sub.path,
        title: `GET ${sub.path} accepts context ${CONTEXTS.join(', ')}, refuses another value, and answers as view without it`,
        spec: SPEC_CONTEXTS,
        covers: [`arg:cms.${type.name}.${sub.name}.context`, `endpoint:cms.${type.name}.${sub.name}`],
      },
      async (t: BehaviourContext) => {
        t.requireCredentials();
        await withFx(t, async (f) => {
          const route = sub.route(f, need(t, f, sub.what));
          const [omitted, ...answers] = await Promise.all([t.client.get(route), ...CONTEXTS.map((context) => t.client.get(route, { query: { context } }))]);
          CONTEXTS.forEach((context, i) => expectControlAccepted(t, answers[i]!, `GET ${route}?context=${context}`, 'context=bogus'));
          const bogus = await t.client.get(route, { query: { context: 'bogus' }, invalid: ['context'] });
          if (ok(bogus.status) || bogus.status >= 500) t.fail(`GET ${route}?context=bogus answered ${answerOf(bogus)}; context takes view, embed or edit`);
          if (!ok(omitted!.status)) t.fail(whyNotAccepted(omitted!, `GET ${route}`));
          const view = answers[CONTEXTS.indexOf('view')]!;
          if (omitted!.text !== view.text) t.fail(`GET ${route} without context differs from context=view (context defaults to view): ${omitted!.text.slice(0, 120)} vs ${view.text.slice(0, 120)}`);
        });
      },
      { concurrent: true },
    );
  }
}
