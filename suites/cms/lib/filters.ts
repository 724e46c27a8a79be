/**
 * Collection filters of a post type, checked against a model of the items (lib/query-model.ts):
 * one behaviour per documented filter, `orderby` value, `order`, `page` and `offset`, each a
 * property over combinations that hold its argument with other filters, an order and a page
 * (lib/query-combos.ts), after every bound at its edge (lib/query-edges.ts). The answer is compared
 * whole with what the model expects: membership, order where the spec fixes it (ties are free) and
 * paging; a behaviour fails only on what its own argument explains (lib/query-check.ts), with the
 * smallest combination that still fails.
 *
 * The items are fixtures this file creates (lib/query-fixtures.ts); when the run may not write, or
 * has no credentials, the site's own items (lib/query-site.ts), anonymously only what anyone may
 * see. `include` and `exclude` together are their own behaviour (what WordPress makes of the pair
 * is its own); the other combinations never send them together.
 *
 * Level: MUST where the query table states what the filter means ("limit to / omit
 * identifiers", "published after/before", "skip that many items", "limit to sticky posts",
 * part 3 for status ...); SHOULD where it only names the parameter and its values and the
 * meaning is WordPress's (format, categories/tags, search_columns,
 * search_semantics, parent, menu_order, orderby relevance/include/include_slugs).
 */
import { behaviour, declarationSite, fixtures, prerequisite, Unmet, type BehaviourContext, type Prerequisite } from '../../../src/sdk/behaviour.ts';
import { whyNotAccepted } from '../../../src/sdk/controls.ts';
import { ConformanceFailure } from '../../../src/sdk/http.ts';
import type { QueryValue } from '../../../src/sdk/http.ts';
import type { SpecRef } from '../../../schemas/types.ts';
import { SPEC_STATES, type PostType } from './collections.ts';
import { expectIncludeHonoured, idsOf, tokenMatches } from './items.ts';
import { expectListOk, type ItemKind } from './query.ts';
import { fileSetup } from './setup.ts';
import { withObjects } from './object-form.ts';
import { siteFilterChecks } from './filters-site.ts';
import { checkModel, type Featured, type RunOptions } from './query-check.ts';
import { modelCtx, UNUSED_ID, type ModelCtx } from './query-combos.ts';
import { makeFilterFixtures, type FilterFixtures } from './query-fixtures.ts';
import { modelItem } from './query-items.ts';
import { onSiteModel } from './query-site.ts';
import type { Query } from './query-model.ts';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Random combinations per behaviour after its edges: `--runs` spread over a collection's filters, at least one. */
const randomRuns = (runs: number) => Math.max(1, Math.ceil(runs / 5));

export function defineFilters(type: PostType): void {
  const q = type.query;
  const setup = fileSetup(`${type.name}.filters`, (s) => makeFilterFixtures(type, s));
  type Data = FilterFixtures;
  const siteChecks = siteFilterChecks(type);
  const kinds: ItemKind = { kind: 'fields', fields: type.fields };

  /** List ids with a query (per_page 100), checking the response is a documented list. */
  async function ids(t: BehaviourContext, query: Record<string, QueryValue>, what = JSON.stringify(query)): Promise<number[]> {
    // Objects (the taxonomy filters' object form) in the encoding the target reads (object-form.ts).
    const res = await t.client.get(type.collection, { query: await withObjects(t, type, { per_page: 100, ...query }) });
    const items = expectListOk(t, kinds, res, what);
    const got = idsOf(items);
    if (Array.isArray(query.include)) expectIncludeHonoured(t, type, query.include as number[], got, `GET ${type.collection}?include=${(query.include as number[]).join(',')}`);
    const f = setup.get(t);
    const owner = `cms.${type.name}.filter.search`;
    if (query.search === f.Y && t.decl.id !== owner) {
      const outside = got.filter((id) => !f.known.includes(id));
      if (outside.length) t.dependsOn(owner, `GET ${type.collection}?search=${f.Y} lists item(s) ${outside.slice(0, 5).join(', ')} that do not carry the token (only this check's fixtures do): the search filter this check finds its fixtures by is not honoured`);
    }
    if (typeof query.search === 'string' && !query.search_semantics && !query.search_columns) tokenMatches(t, type, query.search, items, `GET ${type.collection}?search=${query.search}`);
    return got;
  }

  const name = (f: Data, id: number) => {
    const i = f.trio.findIndex((x) => x.id === id);
    return i >= 0 ? `o${i + 1}(${id})` : String(id);
  };
  const show = (f: Data, list: number[]) => `[${list.map((id) => name(f, id)).join(', ')}]`;
  /** Explains the oN(id) labels where a message uses them. */
  const legend = `(oN(id): the N-th of the three ${type.name} created for these checks, with its id: o1 "mike …" dated 2001-03-01, o2 "kilo" 2001-02-01, o3 "lima" 2001-04-01; a bare number is the id of another item)`;

  function expectSet(t: BehaviourContext, f: Data, got: number[], expected: number[], what: string): void {
    const g = [...new Set(got)].sort((a, b) => a - b);
    const e = [...new Set(expected)].sort((a, b) => a - b);
    if (JSON.stringify(g) !== JSON.stringify(e)) t.fail(`${what}: got ${show(f, got)}, expected ${show(f, expected)} ${legend}`);
  }

  const modifiedOwner = `cms.${type.name}.filter.modified_after`;
  let modifiedCheck: Prerequisite<number> | undefined;
  /**
   * An update moves `modified`: o1, updated after the cut, is the only one of the trio that
   * modified_after=cut lists (checked once, owned by filter.modified_after; modified_before and
   * orderby=modified need it). No undocumented field is read: the cut is a time of the target's own
   * clock between the trio's creation and o1's update (lib/query-fixtures.ts).
   */
  const modifiedMoved = (t: BehaviourContext, f: Data): Promise<number> => {
    if (f.notTouched) t.dependsOn(`cms.${type.name}.update.post`, `${f.notTouched}: no item was modified after the others`);
    const cut = f.modifiedCut;
    if (cut === undefined) t.skip('not observable: the target\'s answers carry no Date header (RFC 9110), so no time between the creation of these items and the update of one of them is known');
    return t.need(
      (modifiedCheck ??= prerequisite(modifiedOwner, async (client) => {
        const trio = f.trio.map((x) => x.id);
        const what = `GET ${type.collection}?include=${trio.join(',')}&modified_after=${iso(cut!)}`;
        const res = await client.get(type.collection, { query: { include: trio, modified_after: iso(cut!), per_page: 100 } });
        if (res.status !== 200 || !Array.isArray(res.body)) throw new ConformanceFailure(whyNotAccepted(res, what));
        const got = idsOf(res.body);
        const outside = got.filter((id) => !trio.includes(id));
        if (outside.length) throw new Unmet(`depends on cms.${type.name}.filter.include: ${what} lists item(s) ${outside.slice(0, 5).join(', ')} outside the include set`, 'skipped');
        if (JSON.stringify(got) !== JSON.stringify([trio[0]]))
          throw new ConformanceFailure(
            `${what} (a time of the target's clock after the three items were created and before o1 was updated) lists ${show(f, got)}, expected [${name(f, trio[0]!)}]: ` +
              (got.length === 0 ? 'the update did not move o1 past the creation of the others (an update modifies the item)' : 'items not modified since their creation are listed') +
              ` ${legend}`,
          );
        return cut!;
      })),
    );
  };

  /** The model of this check: the fixtures, or the site's own items (made again when they changed meanwhile). */
  async function withModel(t: BehaviourContext, featured: Featured, check: (ctx: ModelCtx, site?: Pick<RunOptions, 'onQuery' | 'changed'>) => Promise<void>): Promise<void> {
    if (setup.skipped()) return onSiteModel(t, type, check);
    const f = setup.get(t);
    // The modified filters and orderby=modified rely on an update moving `modified` (filter.modified_after owns that).
    if (/modified/.test(featured)) await modifiedMoved(t, f);
    return check(modelCtx(type, f.stored.map((i) => modelItem(i, t.index, true)), t.client.hasCredentials, [f.X, f.Y, f.Z]));
  }

  /** A behaviour of the model, declared where `filter` is called (a loop of them shares its place). */
  const filter = (key: string, level: 'MUST' | 'SHOULD', title: string, opts: { spec?: SpecRef; arg?: string; credentials?: boolean; covers?: string[] } = {}) => {
    const arg = opts.arg ?? key.split('.')[0]!;
    behaviour(
      {
        id: `cms.${type.name}.filter.${key}`,
        level,
        namespace: 'cms/v2',
        route: type.paths.collection,
        title,
        spec: opts.spec ?? type.spec.query,
        covers: opts.covers ?? [`arg:cms.${type.name}.collection.list.${arg}`],
      },
      async (t: BehaviourContext) => {
        if (opts.credentials) t.requireCredentials();
        await withModel(t, key, (ctx, site) => checkModel(t, key, ctx, { randomRuns: randomRuns(t.run.info.config.runs), tag: setup.skipped() ? undefined : fixtures().tag, ...site }));
      },
      { concurrent: true, location: declarationSite(filter) },
    );
  };

  /** A check of its own on the fixtures (or, without them, the site's content: filters-site.ts). */
  const legacy = (key: string, level: 'MUST' | 'SHOULD', title: string, fn: (t: BehaviourContext, f: Data, trio: number[]) => Promise<void>) => {
    behaviour(
      { id: `cms.${type.name}.filter.${key}`, level, namespace: 'cms/v2', route: type.paths.collection, title, spec: type.spec.query, covers: [`arg:cms.${type.name}.collection.list.${key}`] },
      async (t: BehaviourContext) => {
        const onSite = setup.skipped() ? siteChecks[key] : undefined;
        if (onSite) return onSite(t);
        const f = setup.get(t);
        await fn(t, f, f.trio.map((x) => x.id));
      },
      { concurrent: true },
    );
  };

  filter('include', 'MUST', 'include limits the list to the given identifiers (with other filters, orders and pages)');
  filter('exclude', 'MUST', 'exclude omits the given identifiers (with other filters, orders and pages)');
  // What exclude means where include is given too: a check of exclude (its item when it fails).
  filter('include-exclude', 'MUST', 'include and exclude together list the items include names that exclude does not', { arg: 'exclude' });
  filter('slug', 'MUST', 'slug limits the list to the given slugs (with other filters, orders and pages)');
  filter('search', 'MUST', 'search matches the text of items (with other filters, orders and pages)');
  if (q.search_columns) filter('search_columns', 'SHOULD', 'search_columns restricts the search to the named columns');
  filter('author', 'MUST', 'author limits the list to items of the given authors');
  filter('author_exclude', 'MUST', 'author_exclude omits items of the given authors');
  filter('status', 'MUST', 'status limits the list to items in the given statuses (trash, any and the write statuses)', { spec: SPEC_STATES, credentials: true });
  // The bounds of dates, at their edges (an item's own date and a second either side): one check, made for each bound.
  for (const bound of ['after', 'before', 'modified_after', 'modified_before'] as const) {
    const field = bound.startsWith('modified') ? 'modified' : 'published';
    filter(bound, 'MUST', `${bound} limits the list to items ${field} strictly ${bound.endsWith('after') ? 'after' : 'before'} the date (an item ${field} at that very second is not listed)`);
  }
  filter('offset', 'MUST', 'offset skips that many items (up to the total and past it)');
  filter('page', 'MUST', 'page selects the page of per_page items (the last page, and an empty list or a refusal after it)');
  filter('order', 'MUST', 'order asc and desc reverse the ordering');
  // orderby, one behaviour per documented value, each sorting before it cuts the page.
  const SHOULD_ORDERBY = new Set(['relevance', 'include', 'include_slugs', 'menu_order', 'parent']);
  for (const v of (q.orderby?.enum ?? []).map(String)) filter(`orderby.${v}`, SHOULD_ORDERBY.has(v) ? 'SHOULD' : 'MUST', `orderby=${v} orders the list by ${v}, before it is cut into pages`, { arg: 'orderby' });
  if (q.sticky) filter('sticky', 'MUST', 'sticky=true limits the list to sticky posts, false leaves them out');
  for (const tax of ['categories', 'categories_exclude', 'tags', 'tags_exclude'] as const)
    if (q[tax]) filter(tax, 'SHOULD', `${tax} (list and object forms) ${tax.endsWith('exclude') ? 'omits items in' : 'limits the list to items in'} the given terms`);
  if (q.parent) filter('parent', 'SHOULD', 'parent limits the list to children of the given pages');
  if (q.parent_exclude) filter('parent_exclude', 'SHOULD', 'parent_exclude omits children of the given pages');
  if (q.menu_order) filter('menu_order', 'SHOULD', 'menu_order limits the list to items with that order value');

  if (q.search_semantics) {
    legacy('search_semantics', 'SHOULD', 'search_semantics=exact matches the whole text only (where the target advertises it)', async (t, f) => {
      const entry = t.index?.routes?.[type.collection];
      const advertised = entry?.endpoints?.some((e: any) => e?.methods?.includes('GET') && e?.args && 'search_semantics' in e.args);
      if (!advertised) t.skip(`the target does not advertise search_semantics on ${type.collection} (checked only where advertised; discovery reports the missing argument)`);
      const { id, word } = f.exact;
      const part = word.slice(f.exact.word.length - 8);
      if (!(await ids(t, { search: part })).includes(id)) t.fail(`search=${part} (without search_semantics) does not find item ${id} titled ${word}`);
      if (!(await ids(t, { search: word, search_semantics: 'exact' })).includes(id)) t.fail(`search=${word}&search_semantics=exact does not find item ${id} whose title is exactly that`);
      if ((await ids(t, { search: part, search_semantics: 'exact' })).includes(id)) t.fail(`search=${part}&search_semantics=exact finds item ${id} although its title ${word} only contains it`);
    });
  }

  if (q.format) {
    legacy('format', 'SHOULD', 'format limits the list to items of the given formats', async (t, f, [, b]) => {
      const aside = f.extra.aside.id as number;
      const s = f.extra.sticky.id as number;
      expectSet(t, f, await ids(t, { search: f.Y, format: ['aside'] }), [aside], `search=${f.Y}&format=aside`);
      expectSet(t, f, await ids(t, { search: f.Y, format: ['standard'] }), [b!, s], `search=${f.Y}&format=standard`);
      expectSet(t, f, await ids(t, { search: f.Y, format: ['aside', 'standard'] }), [aside, b!, s], `search=${f.Y}&format=aside,standard`);
    });
  }

  const category = (t: BehaviourContext, f: Data): number => {
    const c = f.trio[0].categories?.[0];
    if (typeof c !== 'number') t.skip('the fixtures carry no category (terms cannot be created through documented routes)');
    return c;
  };

  // tax_relation (MUST: AND the intersection, OR the union): taxonomy.ts, with the object forms.
}

