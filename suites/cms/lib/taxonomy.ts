/**
 * The taxonomy filters of a post type (core part 4, Post collection query), where their names state
 * what they mean (issue 40, items 5 and 8), all MUST:
 *
 * - `cms.<type>.query.object-form`: "categories | array of integer, or object" (and
 *   categories_exclude, tags, tags_exclude): the object form is understood in some encoding of the
 *   query string. How an object is written in a query the spec does not state: `o[k]=v` (OpenAPI
 *   deepObject, what PHP reads) or JSON text in the value (src/http/wire.ts ObjectEncoding). Its
 *   positive control is a valid object filtering as documented (terms of no item: no item listed),
 *   next to the same filter as an array, which narrows the list. The owner of the encoding every
 *   other object request is sent in (the `.values` checks of query.ts: invalid objects are judged
 *   only in a form the server showed it reads, never "accepted" for a key it never parsed).
 * - `cms.<type>.filter.tax_relation`: AND is the intersection of the two taxonomy filters' lists,
 *   OR their union (the server's own lists of each filter alone, so a filter that deviates is its
 *   own finding, not this one's).
 * - `cms.<type>.filter.categories.operator`, `….tags.operator`: operator AND lists the
 *   intersection of the lists of each term alone, OR (and no operator: "default OR") their union.
 * - `cms.<type>.filter.categories.include_children`: true lists at least what false lists, and no
 *   include_children what false lists ("default false"); observable only where a category's
 *   children are carried by known items (terms cannot be created through documented routes).
 *
 * On fixtures (a post per category the site's posts carry, three with the tags they carry, one
 * with none), or without them on the site's own published posts (sample.ts). Lists are scoped with
 * `include` of the known items.
 */
import { behaviour, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Client, ObjectEncoding, QueryValue, Response } from '../../../src/sdk/http.ts';
import { encodeObjects } from '../../../src/sdk/http.ts';
import type { PostType } from './collections.ts';
import { expectIncludeHonoured, idsOf } from './items.ts';
import { expectListOk } from './query.ts';
import { describeItems, itemSubjects, onSite, publishedOrSkip, settled, type SiteItem } from './sample.ts';
import { fileSetup } from './setup.ts';
import { OBJECT_ARGS, UNUSED_ID, objectEncodingOf, requestLine } from './object-form.ts';

/** Known items of the site at most (few enough to read again one by one). */
const SCOPE = 20;
/** Categories tried for include_children at most: twice this. */
const TRIES = 4;

type Field = 'categories' | 'tags';
const termsOf = (i: SiteItem, field: Field): number[] => (Array.isArray(i[field]) ? (i[field] as unknown[]).filter((x): x is number => Number.isInteger(x)) : []);
/** The terms the items carry, those carried by fewer items first (they tell items apart). */
function carried(items: readonly SiteItem[], field: Field): number[] {
  const count = new Map<number, number>();
  for (const i of items) for (const term of termsOf(i, field)) count.set(term, (count.get(term) ?? 0) + 1);
  return [...count].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([term]) => term);
}
const sorted = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);
const same = (a: readonly number[], b: readonly number[]) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const union = (a: readonly number[], b: readonly number[]) => sorted([...a, ...b]);
const meet = (a: readonly number[], b: readonly number[]) => sorted(a.filter((x) => b.includes(x)));
const show = (ids: readonly number[]) => `[${sorted(ids).join(', ')}]`;


export interface Taxonomy {
  /** The encoding of objects the target reads (owned by cms.<type>.query.object-form; a skip naming it when none). */
  encoding(t: BehaviourContext): Promise<ObjectEncoding>;
}

export function defineTaxonomy(type: PostType): Taxonomy {
  const q = type.query;
  const OWNER = `cms.${type.name}.query.object-form`;
  const arg = (name: string) => `arg:cms.${type.name}.collection.list.${name}`;

  const setup = fileSetup(`${type.name}.taxonomy`, async (s) => {
    // Terms cannot be created through documented routes: those the site's posts carry.
    const listed = await s.client.get(type.collection, { query: { per_page: 100 } });
    const posts = Array.isArray(listed.body) ? (listed.body as SiteItem[]) : [];
    const cats = carried(posts, 'categories').slice(0, 6);
    const tags = carried(posts, 'tags').slice(0, 2);
    const made: SiteItem[] = [];
    const make = async (fields: Record<string, unknown>) => made.push(await s.create(type.collection, { title: s.text().title, ...fields }));
    for (const [i, c] of cats.entries()) await make({ categories: [c], ...(tags.length && i < 3 ? { tags: i === 2 ? tags : [tags[i % tags.length]!] } : {}) });
    // One with no category given: the site's default category (WordPress's), or none.
    await make({});
    return { items: made };
  });

  /** Run `check` on the known items: the fixtures, or the site's own published posts (made again when they changed meanwhile). */
  async function withKnown(t: BehaviourContext, check: (items: SiteItem[]) => Promise<void>): Promise<void> {
    if (!setup.skipped()) return check(setup.get(t).items);
    await onSite(
      t,
      async (fresh) => settled(await publishedOrSkip(t, type, fresh), SCOPE),
      (items) => ({ subjects: itemSubjects(type, items), detail: describeItems(type, items, 'published') }),
      check,
    );
  }

  /** The ids a query lists within the known items (include; objects in `encoding`), or the answer when it is not a list. */
  async function listWith(client: Client, scope: readonly number[], query: Record<string, QueryValue>, encoding: ObjectEncoding = 'deep'): Promise<{ res: Response; ids: number[]; what: string }> {
    const full = encodeObjects({ include: [...scope], per_page: 100, ...query }, encoding);
    const res = await client.get(type.collection, { query: full });
    return { res, ids: res.status === 200 ? idsOf(res.body) : [], what: requestLine(type.collection, full) };
  }

  /** The ids a query lists within the known items, checked as a documented list of them. */
  async function list(t: BehaviourContext, scope: readonly number[], query: Record<string, QueryValue>, encoding?: ObjectEncoding): Promise<number[]> {
    const { res, ids, what } = await listWith(t.client, scope, query, encoding);
    expectListOk(t, { kind: 'fields', fields: type.fields }, res, what);
    expectIncludeHonoured(t, type, scope, idsOf(res.body), what);
    return ids;
  }

  // ---------------------------------------------------------------- the object form

  const encodingOn = (scope: readonly number[]) => objectEncodingOf(type, scope);

  /** For the `.values` checks of query.ts: the encoding, found on the known items. */
  async function encoding(t: BehaviourContext): Promise<ObjectEncoding> {
    const items = !setup.skipped() ? setup.get(t).items : settled(await publishedOrSkip(t, type, false), SCOPE);
    return t.need(encodingOn(items.map((i) => i.id)));
  }

  if (!q.categories && !q.tags) return { encoding };

  behaviour(
    {
      id: OWNER,
      level: 'MUST',
      namespace: 'cms/v2',
      route: type.paths.collection,
      title: `the object form of ${OBJECT_ARGS.join(', ')} is understood: an object of terms no item carries lists no item, as the array does (in o[k]=v or JSON text)`,
      spec: type.spec.query,
      covers: OBJECT_ARGS.filter((a) => q[a]).map(arg),
    },
    (t) =>
      withKnown(t, async (items) => {
        await t.need(encodingOn(items.map((i) => i.id)));
      }),
    { concurrent: true },
  );

  /** Check that `combined` lists what `expected` says of the lists of each part alone. */
  function expectCombined(t: BehaviourContext, got: number[], expected: number[], what: string, parts: string): void {
    if (!same(got, expected)) t.fail(`${what} lists ${show(got)}, expected ${show(expected)}: ${parts}`);
  }

  if (q.tax_relation && q.categories && q.tags) {
    behaviour(
      {
        id: `cms.${type.name}.filter.tax_relation`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: type.paths.collection,
        title: 'tax_relation AND lists the intersection of what the categories and the tags filter list alone, OR their union',
        spec: type.spec.query,
        covers: [arg('tax_relation')],
      },
      (t) =>
        withKnown(t, async (items) => {
          const scope = items.map((i) => i.id);
          const c = carried(items, 'categories')[0];
          if (c === undefined) t.skip('not observable: no known post carries a category');
          const tag = carried(items, 'tags')[0] ?? UNUSED_ID;
          const cats = await list(t, scope, { categories: [c] });
          const tags = await list(t, scope, { tags: [tag] });
          if (same(cats, tags)) t.skip(`not observable: categories=${c} and tags=${tag} list the same posts ${show(cats)}, so their intersection and union are one`);
          const parts = `categories=${c} alone lists ${show(cats)}, tags=${tag} alone ${show(tags)}`;
          expectCombined(t, await list(t, scope, { categories: [c], tags: [tag], tax_relation: 'AND' }), meet(cats, tags), `categories=${c}&tags=${tag}&tax_relation=AND`, `${parts} (AND: both)`);
          expectCombined(t, await list(t, scope, { categories: [c], tags: [tag], tax_relation: 'OR' }), union(cats, tags), `categories=${c}&tags=${tag}&tax_relation=OR`, `${parts} (OR: either)`);
        }),
      { concurrent: true },
    );
  }

  for (const field of ['categories', 'tags'] as const) {
    if (!q[field]) continue;
    behaviour(
      {
        id: `cms.${type.name}.filter.${field}.operator`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: type.paths.collection,
        title: `${field}[operator]=AND lists the intersection of what each term lists alone, OR and no operator (its default) their union`,
        spec: type.spec.query,
        covers: [arg(field)],
      },
      (t) =>
        withKnown(t, async (items) => {
          const scope = items.map((i) => i.id);
          const terms = carried(items, field);
          if (!terms.length) t.skip(`not observable: no known post carries a ${field === 'tags' ? 'tag' : 'category'}`);
          const enc = await t.need(encodingOn(scope));
          const one = (term: number) => list(t, scope, { [field]: { terms: [term] } }, enc);
          const a = terms[0]!;
          const first = await one(a);
          // A second term whose posts differ from the first's: another carried term, else one no post carries.
          let b = UNUSED_ID;
          let second = await one(b);
          for (const term of terms.slice(1, 4)) {
            const l = await one(term);
            if (!same(l, first)) {
              [b, second] = [term, l];
              break;
            }
          }
          if (same(first, second)) t.skip(`not observable: ${field} ${a} and ${b} list the same posts ${show(first)}`);
          const parts = `${field}[terms]=${a} alone lists ${show(first)}, ${field}[terms]=${b} alone ${show(second)}`;
          for (const [operator, expected] of [
            ['AND', meet(first, second)],
            ['OR', union(first, second)],
            [undefined, union(first, second)],
          ] as const) {
            const object = { terms: [a, b], ...(operator ? { operator } : {}) };
            expectCombined(t, await list(t, scope, { [field]: object }, enc), expected, `${field}[terms]=${a},${b}${operator ? `&${field}[operator]=${operator}` : ' (no operator)'}`, `${parts} (${operator ?? 'the default OR'}: ${operator === 'AND' ? 'both' : 'either'}; objects sent as ${enc === 'json' ? 'JSON text' : 'o[k]=v'})`);
          }
        }),
      { concurrent: true },
    );
  }

  if (q.categories) {
    behaviour(
      {
        id: `cms.${type.name}.filter.categories.include_children`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: type.paths.collection,
        title: 'categories[include_children]=true lists at least what false lists (also the posts of child categories), and no include_children what false lists (its default)',
        spec: type.spec.query,
        covers: [arg('categories'), ...(q.categories_exclude ? [arg('categories_exclude')] : [])],
      },
      (t) =>
        withKnown(t, async (items) => {
          const scope = items.map((i) => i.id);
          const terms = carried(items, 'categories');
          if (!terms.length) t.skip('not observable: no known post carries a category');
          const enc = await t.need(encodingOn(scope));
          const l = (object: Record<string, QueryValue>, name = 'categories') => list(t, scope, { [name]: object }, enc);
          // A category whose children's posts are listed with it: include_children=true lists a known
          // post that does not carry it (the posts' own fields say which carry it). Tried one by one.
          let c: number | undefined;
          let withChildren: number[] = [];
          for (const term of terms.slice(0, TRIES * 2)) {
            withChildren = await l({ terms: [term], include_children: true });
            if (withChildren.some((id) => !termsOf(items.find((i) => i.id === id) ?? { id }, 'categories').includes(term))) {
              c = term;
              break;
            }
          }
          if (c !== undefined) {
            const without = await l({ terms: [c], include_children: false });
            const lost = without.filter((id) => !withChildren.includes(id));
            if (lost.length) t.fail(`categories[terms]=${c}&categories[include_children]=true lists ${show(withChildren)}, without ${show(lost)}, which include_children=false lists: including children lists at least the category's own posts`);
            if (same(without, withChildren))
              t.skip(`not observable: include_children=true and false list the same posts for category ${c} (${show(without)}), though a post of it does not carry it`);
            const byDefault = await l({ terms: [c] });
            if (!same(byDefault, without)) t.fail(`categories[terms]=${c} without include_children lists ${show(byDefault)}; with include_children=false ${show(without)}, with true ${show(withChildren)}: its default is false`);
            if (q.categories_exclude) {
              const exclude = (v?: boolean) => l({ terms: [c!], ...(v === undefined ? {} : { include_children: v }) }, 'categories_exclude');
              const [exF, exT, exD] = [await exclude(false), await exclude(true), await exclude()];
              const kept = exT.filter((id) => !exF.includes(id));
              if (kept.length) t.fail(`categories_exclude[terms]=${c}&categories_exclude[include_children]=true lists ${show(kept)}, which include_children=false leaves out: excluding children too leaves out at least the category's own posts`);
              if (!same(exD, exF)) t.fail(`categories_exclude[terms]=${c} without include_children lists ${show(exD)}; with include_children=false ${show(exF)}: its default is false`);
            }
            return;
          }
          t.skip(`not observable: with include_children=true, categories ${terms.slice(0, TRIES * 2).join(', ')} list only known posts that carry them: no known post is in a child category of one of them`);
        }),
      { concurrent: true },
    );
  }

  return { encoding };
}
