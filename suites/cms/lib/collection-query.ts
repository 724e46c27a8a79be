/**
 * The collection query of a post type (posts, pages): every documented argument's values,
 * the per_page and page bounds, and the stated defaults where the fixtures make them
 * observable (11+ published items: no per_page gives 10; no order gives descending dates;
 * no status gives only published items; no page gives the first page). Without fixtures (the run
 * may not write, or has no credentials) on the site's own content (sample.ts): up to 20 of the
 * published items it lists and, with credentials, some in other statuses.
 */
import { behaviour, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { PostType } from './collections.ts';
import { expectIncludeHonoured, idsOf } from './items.ts';
import { defineQueryBehaviours, expectListOk, orderbyNotRefused, type QueryData, type QueryTarget } from './query.ts';
import { describeItems, hidden, itemSubjects, onSite, published, settled, spread, type SiteItem } from './sample.ts';
import { fileSetup } from './setup.ts';
import { defineTaxonomy } from './taxonomy.ts';

/** An id no item is expected to have. */
const NO_SUCH_ID = 987654321;
/** Items of the site a check scopes its lists to (few enough to read again one by one). */
const SITE_SCOPE = 20;

interface Known {
  /** Published items, and (with credentials) items in other statuses. */
  published: number[];
  hidden: number[];
}

/** Query data from the site's own content: up to SITE_SCOPE published items it lists, newest and oldest among them. */
async function siteData(type: PostType, fresh: boolean): Promise<{ items: SiteItem[]; data: QueryData }> {
  const { items: all } = await published(type, fresh);
  // Eleven at least where the site lists them: the default per_page (10) is then observable.
  const items = settled(all, SITE_SCOPE, 11);
  const ids = items.map((i) => i.id);
  return {
    items,
    data: {
      route: type.collection,
      scope: ids.length ? { include: ids } : {},
      includeOwner: `cms.${type.name}.filter.include`,
      count: ids.length,
      // orderby=include is sent with an include (and relevance with a search), as with fixtures:
      // an id no item has where the target lists none (a valid value; the list is then empty).
      companions: { search: 'a', include: ids.length ? ids : [NO_SUCH_ID] },
    },
  };
}

const siteDetail = (type: PostType, items: SiteItem[], note: string) => (items.length ? describeItems(type, items, note) : `no published ${type.name} listed by the site`);

export function defineCollectionQuery(type: PostType): void {
  const perPageDefault = type.query.per_page?.default as number | undefined;
  const published = Math.max(11, (perPageDefault ?? 10) + 1);

  const setup = fileSetup(`${type.name}.query`, async (s) => {
    // Distinct dates, in an order unrelated to creation (ids).
    const offsets = Array.from({ length: published }, (_, i) => (i * 7) % published);
    const dated = await Promise.all(
      offsets.map((d, i) => s.create(type.collection, { title: `${s.text().title} ${i}`, date: s.siteDate(`2001-01-${String(d + 1).padStart(2, '0')}T10:00:00`), content: s.text().content })),
    );
    const hidden = await Promise.all(['draft', 'pending', 'private'].map((status) => s.create(type.collection, { title: `${status} ${s.text().title}`, status })));
    return { published: dated.map((p) => p.id as number), hidden: hidden.map((p) => p.id as number), tag: s.tag };
  });

  // The taxonomy filters (posts): the object form and the meanings their names state (taxonomy.ts).
  const taxonomy = type.query.categories ? defineTaxonomy(type) : undefined;

  const target: QueryTarget = {
    ...(taxonomy ? { objectEncoding: (t: BehaviourContext) => taxonomy.encoding(t) } : {}),
    id: `cms.${type.name}`,
    endpoint: type.list.id,
    path: type.paths.collection,
    spec: type.spec.query,
    args: type.query,
    items: { kind: 'fields', fields: type.fields },
    data: async (t) => {
      // Without fixtures (writes not allowed, no credentials), the argument checks still run
      // against what the target already lists.
      if (setup.skipped()) return (await siteData(type, false)).data;
      const f = setup.get(t);
      return {
        route: type.collection,
        scope: { include: f.published },
        includeOwner: `cms.${type.name}.filter.include`,
        count: f.published.length,
        companions: { search: f.tag, include: f.published },
      };
    },
    withData: async (t, check) => {
      if (!setup.skipped()) {
        return check(await target.data(t));
      }
      await onSite(t, (fresh) => siteData(type, fresh), ({ items }) => ({ subjects: itemSubjects(type, items), detail: siteDetail(type, items, 'published') }), ({ data }) => check(data));
    },
  };
  defineQueryBehaviours(target);

  /**
   * Check on the known items: the fixtures, or (without fixtures) the site's own published items
   * and, with credentials, some in other statuses (made again when that content changed meanwhile).
   */
  const withKnown = async (t: BehaviourContext, check: (f: Known) => Promise<void>): Promise<void> => {
    if (!setup.skipped()) {
      const f = setup.get(t);
      return check(f);
    }
    await onSite(
      t,
      async (fresh) => {
        const { items } = await siteData(type, fresh);
        const others = t.client.hasCredentials ? spread((await hidden(type, fresh)).items, 10) : [];
        return { items, others };
      },
      ({ items, others }) => ({ subjects: itemSubjects(type, [...items, ...others]), detail: siteDetail(type, [...items, ...others], others.length ? 'published, and in other statuses' : 'published') }),
      ({ items, others }) => check({ published: items.map((i) => i.id), hidden: others.map((i) => i.id) }),
    );
  };
  const atLeast = (t: BehaviourContext, f: Known, n: number) => {
    if (f.published.length < n) t.skip(`not observable: ${f.published.length} published items known${setup.skipped() ? ` (the site's own; fixtures: ${setup.skipped()})` : ''}, ${n} needed`);
  };

  if (perPageDefault !== undefined) {
    behaviour(
      {
        id: `cms.${type.name}.query.per_page.default`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: type.paths.collection,
        title: `without per_page, ${perPageDefault} items are returned when more match`,
        spec: type.spec.query,
        covers: [`arg:cms.${type.name}.collection.list.per_page`, 'limit.per_page.default'],
      },
      (t: BehaviourContext) =>
        withKnown(t, async (f) => {
          atLeast(t, f, perPageDefault + 1);
          const items = expectListOk(t, target.items, await t.client.get(type.collection, { query: { include: f.published } }), `include of ${f.published.length} items, no per_page`);
          expectIncludeHonoured(t, type, f.published, idsOf(items), `GET ${type.collection}?include=<${f.published.length} items>`);
          if (items.length !== perPageDefault) t.fail(`${f.published.length} items match and no per_page was given: ${items.length} returned, the default per_page is ${perPageDefault}`);
        }),
      { concurrent: true },
    );
  }

  const order = type.query.order;
  const orderby = type.query.orderby;
  if (order?.default !== undefined && orderby?.default === 'date') {
    behaviour(
      {
        id: `cms.${type.name}.query.order.default`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: type.paths.collection,
        title: `without order and orderby, items come by date, ${String(order.default)}ending`,
        spec: type.spec.query,
        covers: [`arg:cms.${type.name}.collection.list.order`, `arg:cms.${type.name}.collection.list.orderby`],
      },
      (t: BehaviourContext) =>
        withKnown(t, async (f) => {
          atLeast(t, f, 2);
          const items = expectListOk(t, target.items, await t.client.get(type.collection, { query: { include: f.published, per_page: 100 } }), 'no order') as any[];
          expectIncludeHonoured(t, type, f.published, idsOf(items), `GET ${type.collection}?include=<${f.published.length} items>&per_page=100`);
          const dates = items.map((i) => Date.parse(i.date));
          if (dates.some((d) => Number.isNaN(d))) t.fail(`items without a readable date: ${items.map((i) => i.date).join(', ')}`);
          const sign = order.default === 'asc' ? 1 : -1;
          for (let i = 1; i < dates.length; i++)
            if (sign * (dates[i]! - dates[i - 1]!) < 0) t.fail(`items are not by date ${order.default}: ${items.map((x) => `${x.id}@${x.date}`).join(', ')}`);
          if (items.length !== f.published.length) t.fail(`${items.length} items returned for ${f.published.length} included`);
        }),
      { concurrent: true },
    );
  }

  const status = type.query.status;
  if (status?.default !== undefined) {
    behaviour(
      {
        id: `cms.${type.name}.query.status.default`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: type.paths.collection,
        title: `without status, only ${String(status.default)} items are listed (also to an authenticated user)`,
        spec: type.spec.query,
        covers: [`arg:cms.${type.name}.collection.list.status`],
      },
      (t: BehaviourContext) =>
        withKnown(t, async (f) => {
          atLeast(t, f, 1);
          const all = [...f.published, ...f.hidden];
          const items = expectListOk(t, target.items, await t.client.get(type.collection, { query: { include: all, per_page: 100 } }), 'no status') as any[];
          expectIncludeHonoured(t, type, all, idsOf(items), `GET ${type.collection}?include=<${all.length} items>&per_page=100`);
          const leaked = items.filter((i) => f.hidden.includes(i.id) || i.status !== status.default);
          if (leaked.length) t.fail(`items that are not ${String(status.default)} are listed without a status filter: ${leaked.map((i) => `${i.id} (${i.status})`).join(', ')}`);
          const missing = f.published.filter((id) => !idsOf(items).includes(id));
          if (missing.length) t.fail(`published items missing from the list: ${missing.join(', ')}`);
        }),
      { concurrent: true },
    );
  }

  const page = type.query.page;
  if (page?.default !== undefined) {
    behaviour(
      {
        id: `cms.${type.name}.query.page.default`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: type.paths.collection,
        title: `without page, page ${String(page.default)} is returned`,
        spec: type.spec.query,
        covers: [`arg:cms.${type.name}.collection.list.page`, 'limit.page.default'],
      },
      (t: BehaviourContext) =>
        withKnown(t, async (f) => {
          atLeast(t, f, 5);
          const scope = { include: f.published, per_page: 4, orderby: 'id', order: 'asc' };
          const [none, first, second] = await Promise.all(
            [{}, { page: Number(page.default) }, { page: Number(page.default) + 1 }].map((extra) => t.client.get(type.collection, { query: { ...scope, ...extra } })),
          );
          for (const r of [none, first, second]) orderbyNotRefused(t, r!, scope.orderby, `cms.${type.name}.filter.orderby.id`, `GET ${type.collection}`);
          const ids = [none, first, second].map((r, i) => idsOf(expectListOk(t, target.items, r!, ['no page', `page=${page.default}`, `page=${Number(page.default) + 1}`][i]!)));
          for (const got of ids) expectIncludeHonoured(t, type, f.published, got, `GET ${type.collection}?include=<${f.published.length} items>&per_page=4`);
          if (JSON.stringify(ids[0]) !== JSON.stringify(ids[1])) t.fail(`without page: ${ids[0]!.join(',')}; page=${page.default}: ${ids[1]!.join(',')}`);
          if (JSON.stringify(ids[0]) === JSON.stringify(ids[2])) t.fail(`page=${Number(page.default) + 1} returns the same items as page ${page.default}: pages are not applied`);
        }),
      { concurrent: true },
    );
  }
}
