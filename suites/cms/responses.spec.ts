/**
 * What the reference implementation answers where part 7 (Errors) and the response shapes are
 * silent (SHOULD):
 * - a refusal carries a JSON error body `{code, message, data: {status}}` whose data.status is
 *   the HTTP status (a refused argument, an item that does not exist, a route that does not);
 * - collection reads carry X-WP-Total and X-WP-TotalPages consistent with what the collection
 *   returns page by page.
 */
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/sdk/http.ts';
import { answerOf, expectControlAccepted, whyNotAccepted } from '../../src/sdk/controls.ts';
import { posts, postTypes, SPEC_LIMITS, type PostType } from './lib/collections.ts';
import { describeItems, itemSubjects, onSite, publishedOrSkip, settled } from './lib/sample.ts';
import { expectIncludeHonoured, idsOf } from './lib/items.ts';
import { advertisedEndpoint, findAdvertisedRoute } from '../../src/sdk/discovery.ts';
import { siteDateTime } from '../../src/sdk/timezone.ts';

const SPEC_ERRORS = { doc: 'core' as const, section: '7. Errors' };
/** A route of the namespace that is documented nowhere. */
const NO_ROUTE = `${posts.collection.replace(/\/[^/]+$/, '')}/no-such-collection`;

function errorShapeProblem(res: Response, what: string): string | undefined {
  const b = res.body;
  if (res.status < 400) return `${what} answered ${res.status}, not a refusal`;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return `${what} (${res.status}) has no JSON object body: ${res.text.slice(0, 120)}`;
  const wrong: string[] = [];
  if (typeof b.code !== 'string' || b.code === '') wrong.push(`code ${JSON.stringify(b.code)}`);
  if (typeof b.message !== 'string') wrong.push(`message ${JSON.stringify(b.message)}`);
  if (b.data?.status !== res.status) wrong.push(`data.status ${JSON.stringify(b.data?.status)} (HTTP ${res.status})`);
  return wrong.length ? `${what} (${answerOf(res)}): ${wrong.join(', ')}` : undefined;
}

behaviour(
  {
    id: 'cms.errors.body-shape',
    level: 'SHOULD',
    namespace: 'cms/v2',
    route: posts.collection,
    title: 'a refusal answers the error body {code, message, data.status = the HTTP status}: a refused argument, an item that does not exist, a route that does not exist',
    spec: SPEC_ERRORS,
  },
  async (t: BehaviourContext) => {
    const [control, badArg, noItem, noRoute] = await Promise.all([
      t.client.get(posts.collection, { query: { per_page: 1 } }),
      t.client.get(posts.collection, { query: { per_page: 0 }, invalid: ['per_page'] }),
      t.client.get(posts.item(987654321)),
      // A route the interface does not have, on purpose.
      t.client.get(NO_ROUTE, { invalid: ['route'] }),
    ]);
    expectControlAccepted(t, control, `GET ${posts.collection}?per_page=1`, 'the refused requests');
    const problems = [
      errorShapeProblem(badArg, `GET ${posts.collection}?per_page=0`),
      errorShapeProblem(noItem, `GET ${posts.item(987654321)}`),
      errorShapeProblem(noRoute, `GET ${NO_ROUTE}`),
    ].filter((p): p is string => p !== undefined);
    if (problems.length) t.fail(problems.join('; '));
  },
  { concurrent: true },
);

for (const type of postTypes) {
  behaviour(
    {
      id: `cms.${type.name}.pagination.headers`,
      level: 'SHOULD',
      namespace: 'cms/v2',
      route: type.paths.collection,
      title: 'X-WP-Total and X-WP-TotalPages match what the collection returns: 3 items at per_page=2 are 2 pages, 2 items then 1',
      spec: SPEC_LIMITS,
    },
    async (t: BehaviourContext) => {
      // Three items of the run's own, or (the run may not write, or has no credentials) three published items of the site's.
      if (!t.run.info.writes.allowed || !t.client.hasCredentials)
        return onSite(
          t,
          async (fresh) => settled(await publishedOrSkip(t, type, fresh, 3), 3),
          (items) => ({ subjects: itemSubjects(type, items), detail: describeItems(type, items, 'published') }),
          (items) => pages(t, type, items.map((i) => i.id)),
        );
      t.subjects('fixtures');
      const made = await Promise.all([1, 2, 3].map((n) => t.create(type.collection, { title: `pagination ${n}` })));
      await pages(t, type, made.map((m) => m.id as number));
    },
    { concurrent: true },
  );
}

/** Pages 1 and 2 of three items at per_page=2: 2 items, then 1, and the totals say 3 items in 2 pages. */
async function pages(t: BehaviourContext, type: PostType, include: number[]): Promise<void> {
  const [p1, p2] = await Promise.all([1, 2].map((page) => t.client.get(type.collection, { query: { include, per_page: 2, page } })));
  const problems: string[] = [];
  for (const [page, res, n] of [[1, p1!, 2], [2, p2!, 1]] as const) {
    if (res.status !== 200 || !Array.isArray(res.body)) t.fail(whyNotAccepted(res, `GET ${type.collection}?include=…&per_page=2&page=${page}`));
    expectIncludeHonoured(t, type, include, idsOf(res.body), `GET ${type.collection}?include=${include.join(',')}&per_page=2&page=${page}`);
    if (res.body.length !== n) problems.push(`page ${page} lists ${res.body.length} items, expected ${n} of the 3 included`);
    const total = res.headers['x-wp-total'];
    const pages = res.headers['x-wp-totalpages'];
    if (total !== '3') problems.push(`page ${page}: X-WP-Total is ${JSON.stringify(total)}, the collection holds 3`);
    if (pages !== '2') problems.push(`page ${page}: X-WP-TotalPages is ${JSON.stringify(pages)}, 3 items at per_page=2 are 2 pages`);
  }
  if (problems.length) t.fail(problems.join('; '));
}

/**
 * ignore_sticky defaults to true (4. Endpoints › Post collection query): without it, a sticky
 * post is listed at its place by date, not moved to the front; ignore_sticky=false moving it to
 * the front is the control that stickiness is observable. Each check reads one answer (the
 * order within it), so posts created meanwhile by other checks do not matter.
 */
behaviour(
  {
    id: 'cms.posts.query.ignore_sticky.default',
    level: 'MUST',
    namespace: 'cms/v2',
    route: posts.collection,
    title: 'without ignore_sticky, an old sticky post is listed by its date, not first (default true); with ignore_sticky=false it comes first',
    spec: { doc: 'core', section: '4. Endpoints › Posts › Post collection query' },
    covers: ['arg:cms.posts.collection.list.ignore_sticky#default'],
  },
  async (t: BehaviourContext) => {
    const advertised = advertisedEndpoint(findAdvertisedRoute(t.index, posts.collection)?.entry, 'GET')?.args;
    if (advertised && typeof advertised === 'object' && !('ignore_sticky' in advertised))
      t.skip('not observable: the target does not advertise ignore_sticky (discovery reports the missing argument; checked only where advertised)');
    // An old sticky post of the run's own, or (the run may not write, or has no credentials) one the site has.
    const own = t.run.info.writes.allowed && t.client.hasCredentials;
    const sticky = own ? await t.create(posts.collection, { title: 'sticky by date', sticky: true, date: siteDateTime(t.index, '2001-01-15T10:00:00') }) : undefined;
    if (own) await t.create(posts.collection, { title: 'newer than the sticky' });

    // Ten items: other checks may hold sticky posts of the same date at the same time (they all
    // lead with ignore_sticky=false), and the newer post must still be in the list after them.
    const [omitted, unsticky] = await Promise.all([
      t.client.get(posts.collection, { query: { per_page: 10 } }),
      t.client.get(posts.collection, { query: { per_page: 10, ignore_sticky: false } }),
    ]);
    if (unsticky.status !== 200 || !Array.isArray(unsticky.body)) t.fail(whyNotAccepted(unsticky, `GET ${posts.collection}?ignore_sticky=false`));
    t.subjects(own ? 'fixtures' : 'site', own ? undefined : `posts ${unsticky.body.map((p: any) => `${p?.id}${p?.sticky ? ' (sticky)' : ''}`).join(', ')} (the newest published posts of the site, sticky ones first)`);
    // Other checks may hold sticky posts too: what matters is that a sticky post older than a later one leads.
    const dates = (list: any[]) => list.map((p) => String(p?.date ?? ''));
    const outOfOrder = (list: any[]) => dates(list).findIndex((d, i, all) => i + 1 < all.length && d < all[i + 1]!);
    if (!unsticky.body[0]?.sticky || outOfOrder(unsticky.body) === -1)
      t.skip(`not observable: with ignore_sticky=false no older sticky post leads the list either (${unsticky.body.map((p: any) => `${p?.id}${p?.sticky ? ' sticky' : ''} ${p?.date}`).join(', ')}; ${sticky ? `sticky post ${sticky.id}` : 'the site\'s own posts: no sticky post older than a published one'})`);
    if (omitted.status !== 200 || !Array.isArray(omitted.body)) t.fail(whyNotAccepted(omitted, `GET ${posts.collection}`));
    const i = outOfOrder(omitted.body);
    if (i !== -1)
      t.fail(`without ignore_sticky the list is not in date order: ${omitted.body.map((p: any) => `${p?.id}${p?.sticky ? ' (sticky)' : ''} ${p?.date}`).join(', ')}; sticky posts are moved to the front (ignore_sticky defaults to true)`);
  },
);
