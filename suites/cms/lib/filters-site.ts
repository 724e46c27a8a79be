/**
 * The collection filters of a post type checked on the site's own content (issue 35): the same
 * behaviours as filters.ts (one ID, one meaning), run when the file's fixtures were not made on
 * purpose (the run may not write, or has no credentials). Each picks its subjects from the
 * published items the site lists (sample.ts) and checks the filter's documented meaning on them;
 * it skips only when the content cannot show it ("not observable on the site's content: …").
 *
 * Lists are scoped with `include` of the subjects (so that what is published meanwhile does not
 * matter) and compared with what the subjects' own fields say (author, date, categories …); a
 * failure on subjects that changed meanwhile is read again (sample.ts onSite).
 */
import { prerequisite, Unmet, type BehaviourContext, type Prerequisite } from '../../../src/sdk/behaviour.ts';
import type { Client, QueryValue } from '../../../src/sdk/http.ts';
import { isValidationError, namesParam, whyNotAccepted } from '../../../src/sdk/controls.ts';
import { ConformanceFailure, TargetError } from '../../../src/sdk/http.ts';
import type { PostType } from './collections.ts';
import { expectIncludeHonoured, idsOf } from './items.ts';
import { expectListOk, orderbyNotRefused, type ItemKind } from './query.ts';
import { withObjects } from './object-form.ts';
import {
  SITE_ATTEMPTS,
  describeItems,
  itemSubjects,
  observable,
  onSite,
  published,
  publishedOrSkip,
  renderedOf,
  searchableOf,
  settled,
  settledOrder,
  spread,
  timeOf,
  titleOf,
  plainCase,
  plainText,
  hidden as hiddenItems,
  type SiteItem,
  changedSubjects,
} from './sample.ts';

/** An id no item or term is likely to have. */
const UNUSED_ID = 987_654_321;
const DAY = 86_400_000;
/** Scopes of up to this many items: enough to tell a filter apart, few enough to read again one by one. */
const SCOPE = 20;
/**
 * Words that may stand in the stored markup of any item without being shown (block attributes,
 * class names): a search for them could match items whose rendered text does not carry them.
 */
const MARKUP_WORDS = new Set(
  'align large medium small image images gallery heading paragraph level class style color colors columns column button buttons group layout width height media sizes sizeslug linkdestination content textalign fontsize wide full center left right anchor block blocks latest quote list separator spacer cover embed caption figure table title excerpt'.split(
    ' ',
  ),
);
/** WordPress drops these from searches (WP_Query::get_search_stopwords). */
const STOPWORDS = new Set('about,an,are,as,at,be,by,com,for,from,how,in,is,it,of,on,or,that,the,this,to,was,what,when,where,who,will,with,www'.split(','));

type Check = (t: BehaviourContext) => Promise<void>;

/**
 * The lists order=asc and order=desc (orderby=id) of the items `trio`, for the shared check that
 * order is honoured (owned by filter.order): an orderby refused, or include not honoured, is the
 * finding of another behaviour (Unmet, skipped); a refused list is a failure.
 */
export async function orderLists(client: Client, type: PostType, trio: number[]): Promise<[number[], number[]]> {
  const lists: number[][] = [];
  for (const order of ['asc', 'desc']) {
    const what = `GET ${type.collection}?include=${trio.join(',')}&orderby=id&order=${order}`;
    const res = await client.get(type.collection, { query: { include: trio, orderby: 'id', order, per_page: 100 } });
    if (isValidationError(res) && namesParam(res, 'orderby') && !namesParam(res, 'order'))
      throw new Unmet(`depends on cms.${type.name}.filter.orderby.id: ${what} was refused naming orderby (${res.status} ${res.text.slice(0, 120)})`, 'skipped');
    if (res.status !== 200 || !Array.isArray(res.body)) throw new ConformanceFailure(whyNotAccepted(res, what));
    const got = idsOf(res.body);
    const outside = got.filter((id) => !trio.includes(id));
    if (outside.length) throw new Unmet(`depends on cms.${type.name}.filter.include: ${what} lists item(s) ${outside.slice(0, 5).join(', ')} outside the include set`, 'skipped');
    lists.push(got);
  }
  return lists as [number[], number[]];
}

export function siteFilterChecks(type: PostType): Record<string, Check> {
  const kinds: ItemKind = { kind: 'fields', fields: type.fields };
  const isPosts = type.name === 'posts';
  const orderOwner = `cms.${type.name}.filter.order`;

  /** List with a query (per_page 100): a documented list, include honoured; its items. */
  async function list(t: BehaviourContext, query: Record<string, QueryValue>): Promise<SiteItem[]> {
    // Objects (the taxonomy filters' object form) in the encoding the target reads (object-form.ts).
    const res = await t.client.get(type.collection, { query: await withObjects(t, type, { per_page: 100, ...query }) });
    if (typeof query.orderby === 'string' && !t.decl.id.startsWith(`cms.${type.name}.filter.orderby.`))
      orderbyNotRefused(t, res, query.orderby, `cms.${type.name}.filter.orderby.${query.orderby}`, `GET ${type.collection}`);
    const items = expectListOk(t, kinds, res, describe(query)) as SiteItem[];
    if (Array.isArray(query.include)) expectIncludeHonoured(t, type, query.include as number[], idsOf(items), `GET ${type.collection}?${describe(query)}`);
    return items;
  }
  const ids = async (t: BehaviourContext, query: Record<string, QueryValue>) => idsOf(await list(t, query));

  const describe = (query: Record<string, QueryValue>) =>
    Object.entries(query)
      .map(([k, v]) => (k === 'include' && Array.isArray(v) && v.length > 3 ? `include=<${v.length} items>` : `${k}=${typeof v === 'object' && v !== null && !Array.isArray(v) ? JSON.stringify(v) : Array.isArray(v) ? v.join(',') : String(v)}`))
      .join('&');

  function expectSet(t: BehaviourContext, got: number[], expected: number[], what: string, values?: (id: number) => string): void {
    const g = [...new Set(got)].sort((a, b) => a - b);
    const e = [...new Set(expected)].sort((a, b) => a - b);
    if (JSON.stringify(g) === JSON.stringify(e)) return;
    const extra = g.filter((id) => !e.includes(id));
    const missing = e.filter((id) => !g.includes(id));
    const show = (l: number[]) => l.map((id) => (values ? `${id} (${values(id)})` : String(id))).join(', ');
    t.fail(`${what}: ${extra.length ? `lists ${show(extra)}, which should not be listed` : ''}${extra.length && missing.length ? '; ' : ''}${missing.length ? `does not list ${show(missing)}` : ''} (the site's own ${type.name}: expected [${e.join(', ')}], got [${g.join(', ')}])`);
  }

  let orderCheck: Prerequisite<number[]> | undefined;
  /** order=asc and order=desc (orderby=id) list three published items one the reverse of the other (their ids): owned by filter.order. */
  const orderHonoured = (): Prerequisite<number[]> =>
    (orderCheck ??= prerequisite(orderOwner, async (client) => {
      const seen: string[] = [];
      for (let attempt = 1; attempt <= SITE_ATTEMPTS; attempt++) {
        const { items } = await published(type, attempt > 1);
        const three = settled(items, 3);
        if (three.length < 2) throw new Unmet(`not observable on the site's content: two published ${type.name} needed, the site lists ${items.length}`, 'skipped');
        const trio = three.map((i) => i.id);
        const [asc, desc] = await orderLists(client, type, trio);
        if (asc.length === trio.length && JSON.stringify(desc) === JSON.stringify([...asc].reverse())) return trio;
        const changed = await changedSubjects(client, itemSubjects(type, three));
        if (!changed.length) throw new ConformanceFailure(`orderby=id&order=asc lists [${asc.join(', ')}], order=desc lists [${desc.join(', ')}] (published ${type.name} ${trio.join(', ')} of the site): not the same items in reverse order`);
        seen.push(changed.join(', '));
      }
      throw new TargetError(`the site's content kept changing while order was checked (${seen.join('; ')})`);
    }));

  async function expectSeq(t: BehaviourContext, got: number[], expected: number[], what: string, values?: (id: number) => string): Promise<void> {
    if (JSON.stringify(got) === JSON.stringify(expected)) return;
    if (/\border=/.test(what) && t.decl.id !== orderOwner) await t.need(orderHonoured());
    const show = (l: number[]) => l.map((id) => (values ? `${id} (${values(id)})` : String(id))).join(', ');
    t.fail(`${what}: got [${show(got)}], expected [${show(expected)}] in that order (the site's own ${type.name})`);
  }

  /** A check on the published items: `pick` chooses its subjects (a skip when the content cannot show the filter). */
  function site<P extends { items: SiteItem[]; note?: string }>(pick: (all: SiteItem[]) => P | Promise<P>, check: (t: BehaviourContext, p: P) => Promise<void>, atLeast = 1): Check {
    return (t) =>
      onSite(
        t,
        async (fresh) => pick(await publishedOrSkip(t, type, fresh, atLeast)),
        (p) => ({ subjects: itemSubjects(type, p.items), detail: describeItems(type, p.items, p.note ?? 'published') }),
        (p) => check(t, p),
      );
  }
  const idList = (items: readonly SiteItem[]) => items.map((i) => i.id);
  const scopeOf = (all: SiteItem[]) => ({ items: settled(all, SCOPE) });
  const by = (items: readonly SiteItem[], f: (i: SiteItem) => string) => (id: number) => f(items.find((i) => i.id === id) ?? ({ id } as SiteItem));

  /** A word of the titles in `scope` that some, not all, of its items carry (rarest first), per `fits`. */
  function wordOf(scope: SiteItem[], fits: (w: string) => boolean): string | undefined {
    const words = new Set(scope.flatMap((i) => titleOf(i).split(/[^a-z]+/)).filter((w) => w.length >= 5 && !MARKUP_WORDS.has(w) && !STOPWORDS.has(w)));
    const carriers = (w: string) => scope.filter((i) => searchableOf(i).includes(w)).length;
    return [...words].filter((w) => carriers(w) < scope.length && fits(w)).sort((a, b) => carriers(a) - carriers(b) || (a < b ? -1 : 1))[0];
  }
  const contentOf = (i: SiteItem) => plainText(renderedOf(i.content));

  /**
   * A cut between the dates (`date` or `modified`, the site's wall times) of two items with a margin
   * either side, as a date-time in the site's offset (part 1: gmt_offset) so that the cut is the
   * same time whichever way a server reads it: two hours of margin (a change of daylight saving
   * time), two days where the site states no offset (sent in UTC). Undefined: no such gap.
   */
  function cutOf(t: BehaviourContext, items: SiteItem[], field: 'date' | 'modified'): string | undefined {
    const hours = Number(t.index?.gmt_offset);
    const offset = t.index?.gmt_offset !== undefined && t.index?.gmt_offset !== '' && Number.isFinite(hours) ? Math.round(hours * 60) : undefined;
    const margin = offset === undefined ? 2 * DAY : 2 * 3_600_000;
    const times = [...new Set(items.map((i) => timeOf(i[field])).filter((x) => Number.isFinite(x)))].sort((a, b) => a - b);
    let best: [number, number] | undefined;
    for (let k = 1; k < times.length; k++) if (times[k]! - times[k - 1]! > 2 * margin && (!best || times[k]! - times[k - 1]! > best[1] - best[0])) best = [times[k - 1]!, times[k]!];
    if (!best) return undefined;
    const wall = new Date(Math.floor((best[0] + best[1]) / 2000) * 1000).toISOString().slice(0, 19);
    if (offset === undefined) return `${wall}Z`;
    const abs = Math.abs(offset);
    return `${wall}${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  }
  /** The wall time of a cut (its digits, as the items' dates are compared). */
  const wallOf = (cut: string) => Date.parse(`${cut.slice(0, 19)}Z`);

  /** A term of `field` that some items of the scope carry and others not (else one all carry). */
  function termOf(scope: SiteItem[], field: 'categories' | 'tags'): number | undefined {
    const terms = [...new Set(scope.flatMap((i) => (Array.isArray(i[field]) ? (i[field] as number[]) : [])))].sort((a, b) => a - b);
    const count = (c: number) => scope.filter((i) => (i[field] as number[] | undefined)?.includes(c)).length;
    return terms.find((c) => count(c) < scope.length) ?? terms[0];
  }
  const has = (field: 'categories' | 'tags', c: number) => (i: SiteItem) => Array.isArray(i[field]) && (i[field] as number[]).includes(c);

  /**
   * `<field>_exclude` on the site's posts: a term some of them carry, as a list and as {terms};
   * with `unused`, a term no post carries excludes nothing.
   */
  const excluded = (field: 'categories' | 'tags', noun: string, unused = false): Check =>
    site(scopeOf, async (t, { items }) => {
      const term = termOf(items, field);
      observable(t, term !== undefined, `published posts that carry a ${noun}`);
      const scope = idList(items);
      const without = items.filter((i) => !has(field, term!)(i)).map((i) => i.id);
      const shown = by(items, (i) => `${field} ${JSON.stringify(i[field])}`);
      const arg = `${field}_exclude`;
      expectSet(t, await ids(t, { include: scope, [arg]: [term!] }), without, `${arg}=${term} within include=<${scope.length} items>`, shown);
      expectSet(t, await ids(t, { include: scope, [arg]: { terms: [term!] } }), without, `${arg}[terms]=${term}`, shown);
      if (unused) expectSet(t, await ids(t, { include: scope, [arg]: [UNUSED_ID] }), scope, `${arg}=${UNUSED_ID}`);
    });
  const checks: Record<string, Check> = {
    include: site(
      (all) => ({ items: settled(all, 2) }),
      async (t, { items: [a, c] }) => expectSet(t, await ids(t, { include: [a!.id, c!.id] }), [a!.id, c!.id], `include=${a!.id},${c!.id}`),
      2,
    ),

    exclude: site(
      (all) => ({ items: all.slice(0, 10) }),
      async (t) => {
        // Not scoped by include: what include and exclude do together is not stated.
        const control = await list(t, { per_page: 10 });
        const b = control[Math.min(1, control.length - 1)];
        observable(t, b !== undefined, `the site lists no published ${type.noun}`);
        const got = await ids(t, { per_page: 10, exclude: [b.id] });
        if (got.includes(b.id)) t.fail(`exclude=${b.id}: ${type.noun} ${b.id} is listed (the newest published ${type.name}: ${idsOf(control).join(', ')})`);
        if (control.length > 1 && got.length === 0) t.fail(`exclude=${b.id} lists nothing, without it ${control.length} ${type.name} are listed`);
      },
    ),

    slug: site(
      (all) => {
        const unique = all.filter((i) => typeof i.slug === 'string' && i.slug !== '' && all.filter((j) => j.slug === i.slug).length === 1);
        return { items: settled(unique, 2) };
      },
      async (t, { items }) => {
        observable(t, items.length === 2, `two published ${type.name} with slugs of their own needed`);
        const [a, c] = items as [SiteItem, SiteItem];
        const got = await list(t, { slug: [a.slug, c.slug] });
        const other = got.filter((i) => ![a.slug, c.slug].includes(i.slug));
        if (other.length) t.fail(`slug=${a.slug},${c.slug} lists ${other.map((i) => `${i.id} (slug ${i.slug})`).join(', ')}`);
        const missing = [a, c].filter((x) => !idsOf(got).includes(x.id));
        if (missing.length) t.fail(`slug=${a.slug},${c.slug} does not list ${missing.map((x) => `${x.id} (slug ${x.slug})`).join(', ')}`);
      },
    ),

    search: site(
      (all) => {
        const scope = settled(all, SCOPE);
        const w = wordOf(scope, () => true);
        return { items: scope, w, note: w ? `published; search word "${w}"` : 'published' };
      },
      async (t, { items, w }) => {
        observable(t, !!w && items.length >= 2, `a word of the title of a published ${type.noun} that others do not carry`);
        const got = await list(t, { include: idList(items), search: w! });
        const byTitle = items.filter((i) => titleOf(i).includes(w!));
        const missing = byTitle.filter((i) => !idsOf(got).includes(i.id));
        if (missing.length) t.fail(`search=${w} does not list ${missing.map((i) => `${i.id} (titled "${titleOf(i)}")`).join(', ')}`);
        const without = got.filter((i) => !searchableOf(i).includes(w!));
        if (without.length) t.fail(`search=${w} lists ${without.map((i) => `${i.id} ("${titleOf(i)}")`).join(', ')}, which do not carry the word`);
      },
      2,
    ),

    search_columns: site(
      (all) => {
        const scope = settled(all, SCOPE);
        const w = wordOf(scope, (w) => scope.some((i) => contentOf(i).includes(w) && !titleOf(i).includes(w)));
        return { items: scope, w, note: w ? `published; search word "${w}"` : 'published' };
      },
      async (t, { items, w }) => {
        observable(t, !!w, `a word in the title of one published ${type.noun} and only in the content of another`);
        const inTitle = items.filter((i) => titleOf(i).includes(w!));
        const onlyContent = items.filter((i) => contentOf(i).includes(w!) && !titleOf(i).includes(w!));
        const titles = await ids(t, { include: idList(items), search: w!, search_columns: ['post_title'] });
        const missed = inTitle.filter((i) => !titles.includes(i.id));
        if (missed.length) t.fail(`search=${w}&search_columns=post_title does not list ${missed.map((i) => `${i.id} (titled "${titleOf(i)}")`).join(', ')}`);
        const leaked = onlyContent.filter((i) => titles.includes(i.id));
        if (leaked.length) t.fail(`search=${w}&search_columns=post_title lists ${leaked.map((i) => i.id).join(', ')}, which carry the word in their content only`);
        const contents = await ids(t, { include: idList(items), search: w!, search_columns: ['post_content'] });
        const missing = onlyContent.filter((i) => !contents.includes(i.id));
        if (missing.length) t.fail(`search=${w}&search_columns=post_content does not list ${missing.map((i) => i.id).join(', ')}, whose content carries the word`);
      },
    ),

    search_semantics: site(
      (all) => {
        const one = settledOrder(all).filter((i) => /^[a-z0-9]{5,}$/.test(titleOf(i)) && !STOPWORDS.has(titleOf(i)));
        return { items: one.slice(0, 1), note: one[0] ? `published, titled "${titleOf(one[0])}"` : 'published' };
      },
      async (t, { items }) => {
        const entry = t.index?.routes?.[type.collection];
        const advertised = entry?.endpoints?.some((e: any) => e?.methods?.includes('GET') && e?.args && 'search_semantics' in e.args);
        if (!advertised) t.skip(`the target does not advertise search_semantics on ${type.collection} (checked only where advertised; discovery reports the missing argument)`);
        observable(t, items.length === 1, `a published ${type.noun} titled with one word (what exactness means for several words is not stated)`);
        const { id } = items[0]!;
        const word = titleOf(items[0]!);
        const part = word.slice(1);
        if (!(await ids(t, { search: part })).includes(id)) t.fail(`search=${part} (without search_semantics) does not find item ${id} titled ${word}`);
        if (!(await ids(t, { search: word, search_semantics: 'exact' })).includes(id)) t.fail(`search=${word}&search_semantics=exact does not find item ${id} whose title is exactly that`);
        if ((await ids(t, { search: part, search_semantics: 'exact' })).includes(id)) t.fail(`search=${part}&search_semantics=exact finds item ${id} although its title ${word} only contains it`);
      },
    ),

    author: site(scopeOf, async (t, { items }) => {
      const a = items[0]!.author as number;
      const scope = idList(items);
      expectSet(t, await ids(t, { include: scope, author: [a] }), items.filter((i) => i.author === a).map((i) => i.id), `author=${a} within include=<${scope.length} items>`, by(items, (i) => `author ${i.author}`));
      expectSet(t, await ids(t, { include: scope, author: [UNUSED_ID] }), [], `author=${UNUSED_ID} (no such author)`);
    }),

    author_exclude: site(scopeOf, async (t, { items }) => {
      const a = items[0]!.author as number;
      const scope = idList(items);
      expectSet(t, await ids(t, { include: scope, author_exclude: [a] }), items.filter((i) => i.author !== a).map((i) => i.id), `author_exclude=${a} within include=<${scope.length} items>`, by(items, (i) => `author ${i.author}`));
    }),

    status: async (t) => {
      t.requireCredentials();
      await onSite(
        t,
        async (fresh) => {
          const pub = settled(await publishedOrSkip(t, type, fresh), 10);
          const { items: hid } = await hiddenItems(type, fresh);
          const items = [...pub, ...settled(hid, 10)];
          return { items };
        },
        ({ items }) => ({ subjects: itemSubjects(type, items), detail: describeItems(type, items, 'published and, as the site lists them with credentials, in other statuses') }),
        async ({ items }) => {
          const scope = idList(items);
          const statusOf = by(items, (i) => String(i.status));
          for (const status of ['publish', 'draft', 'pending', 'private', 'future', 'trash'])
            expectSet(t, await ids(t, { include: scope, status: [status] }), items.filter((i) => i.status === status).map((i) => i.id), `status=${status} within include=<${scope.length} items>`, statusOf);
          expectSet(t, await ids(t, { include: scope, status: ['draft', 'publish'] }), items.filter((i) => ['draft', 'publish'].includes(i.status)).map((i) => i.id), 'status=draft,publish', statusOf);
          const any = await ids(t, { include: scope, status: ['any'] });
          const missing = items.filter((i) => !any.includes(i.id));
          if (missing.length) t.fail(`status=any misses items in write statuses: ${missing.map((i) => `${i.id} (${i.status})`).join(', ')}`);
        },
      );
    },

    ...Object.fromEntries(
      (['after', 'before', 'modified_after', 'modified_before'] as const).map((arg) => {
        const field = arg.startsWith('modified') ? 'modified' : 'date';
        const after = arg.endsWith('after');
        return [
          arg,
          site(scopeOf, async (t, { items }) => {
            if (field === 'modified') observable(t, items.some((i) => typeof i.modified === 'string'), `the items carry no modified date (not a documented field; read where a site serves it)`);
            const cut = cutOf(t, items, field);
            observable(t, cut !== undefined, `two published ${type.name} ${field === 'date' ? 'published' : 'modified'} more than four hours apart (two days where the site states no gmt_offset)`);
            const expected = items.filter((i) => (after ? timeOf(i[field]) > wallOf(cut!) : timeOf(i[field]) < wallOf(cut!))).map((i) => i.id);
            expectSet(t, await ids(t, { include: idList(items), [arg]: cut! }), expected, `${arg}=${cut} within include=<${items.length} items>`, by(items, (i) => `${field} ${i[field]}`));
          }),
        ];
      }),
    ),

    offset: site(
      (all) => ({ items: settled(all, 3).sort((a, b) => a.id - b.id) }),
      async (t, { items }) => expectSeq(t, await ids(t, { include: idList(items), orderby: 'id', order: 'asc', offset: 1 }), idList(items).slice(1), `include=${idList(items).join(',')}&orderby=id&order=asc&offset=1`),
      3,
    ),

    page: site(
      (all) => ({ items: settled(all, 3).sort((a, b) => a.id - b.id) }),
      async (t, { items }) => {
        const trio = idList(items);
        await expectSeq(t, await ids(t, { include: trio, orderby: 'id', order: 'asc', per_page: 2, page: 1 }), trio.slice(0, 2), `include=${trio.join(',')}&orderby=id&order=asc&per_page=2&page=1`);
        await expectSeq(t, await ids(t, { include: trio, orderby: 'id', order: 'asc', per_page: 2, page: 2 }), trio.slice(2), `include=${trio.join(',')}&orderby=id&order=asc&per_page=2&page=2`);
      },
      3,
    ),

    order: async (t) => {
      const trio = await t.need(orderHonoured());
      t.subjects('site', `${type.name} ${trio.join(', ')} (published), in id order`);
    },
  };

  // orderby, one check per documented value.
  const ordered = (items: SiteItem[], key: (i: SiteItem) => number | string) => [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  /**
   * Three items whose `key`s differ, put in order by `key` differently than by id and by date
   * (either way), where the site has such: then a list in that order shows `key` was the order,
   * not the default (date) nor another (id). `other` leaves out the key itself (orderby=id, date).
   * Else three whose keys differ (the list in order still shows the key is honoured, not that it
   * is told apart), spread over the settled part of the listing.
   */
  const distinct = (all: SiteItem[], key: (i: SiteItem) => string | number | undefined, other: ('id' | 'date')[] = ['id', 'date']) => {
    const seen = new Set<string | number>();
    const out: SiteItem[] = [];
    for (const i of settledOrder(all)) {
      const k = key(i);
      if (k === undefined || seen.has(k)) continue;
      seen.add(k);
      out.push(i);
    }
    const candidates = out.slice(0, 40);
    const seq = (items: SiteItem[], f: (i: SiteItem) => string | number) => idList(ordered(items, f)).join();
    const keys: Record<'id' | 'date', (i: SiteItem) => number> = { id: (i) => i.id, date: (i) => timeOf(i.date) };
    for (let a = 0; a < candidates.length; a++)
      for (let b = a + 1; b < candidates.length; b++)
        for (let c = b + 1; c < candidates.length; c++) {
          const three = [candidates[a]!, candidates[b]!, candidates[c]!];
          const mine = seq(three, (i) => key(i)!);
          const others = other.flatMap((o) => [seq(three, keys[o]), seq(three, keys[o]).split(',').reverse().join()]);
          if (!others.includes(mine)) return three;
        }
    // `out` is in settled order already: its newest part last.
    return spread(out.slice(0, Math.max(3, out.length - Math.ceil(out.length / 3))), 3);
  };
  const orderbySite = (pick: (all: SiteItem[]) => SiteItem[], need: string, check: (t: BehaviourContext, items: SiteItem[]) => Promise<void>, atLeast = 2): Check =>
    site(
      (all) => ({ items: pick(all) }),
      async (t, { items }) => {
        observable(t, items.length >= atLeast, need);
        await check(t, items);
      },
    );
  const first = (s: string) => s.charAt(0);
  Object.assign(checks, {
    'orderby.date': orderbySite((all) => distinct(all, (i) => (Number.isFinite(timeOf(i.date)) ? timeOf(i.date) : undefined), ['id']), `published ${type.name} with different dates`, async (t, items) => {
      const want = idList(ordered(items, (i) => timeOf(i.date)));
      await expectSeq(t, await ids(t, { include: idList(items), orderby: 'date', order: 'asc' }), want, 'orderby=date&order=asc', by(items, (i) => String(i.date)));
    }),
    'orderby.id': orderbySite((all) => distinct(all, (i) => i.id, ['date']), `two published ${type.name}`, async (t, items) => {
      const want = idList(items).sort((a, b) => a - b);
      await expectSeq(t, await ids(t, { include: [...want].reverse(), orderby: 'id', order: 'asc' }), want, 'orderby=id&order=asc');
    }),
    'orderby.title': orderbySite(// Titles of letters, digits and spaces, starting with letters of one case, each another letter: every collation agrees.
      (all) => distinct(all.filter((i) => /^[A-Z][A-Za-z0-9 ]*$/.test(plainCase(renderedOf(i.title)))), (i) => first(titleOf(i))),
      `published ${type.name} whose plain titles start with different capital letters`,
      async (t, items) => {
        const want = idList(ordered(items, titleOf));
        await expectSeq(t, await ids(t, { include: idList(items), orderby: 'title', order: 'asc' }), want, 'orderby=title&order=asc', by(items, (i) => `"${renderedOf(i.title)}"`));
      },
    ),
    'orderby.slug': orderbySite((all) => distinct(all.filter((i) => /^[a-z]/.test(String(i.slug ?? ''))), (i) => first(String(i.slug))), `published ${type.name} whose slugs start with different letters`, async (t, items) => {
      const want = idList(ordered(items, (i) => String(i.slug)));
      await expectSeq(t, await ids(t, { include: idList(items), orderby: 'slug', order: 'asc' }), want, 'orderby=slug&order=asc', by(items, (i) => String(i.slug)));
    }),
    'orderby.include': orderbySite((all) => settled(all, 3), `two published ${type.name}`, async (t, items) => {
      const want = [...idList(items)].reverse();
      await expectSeq(t, await ids(t, { include: want, orderby: 'include' }), want, `include=${want.join(',')}&orderby=include`);
    }),
    'orderby.include_slugs': orderbySite((all) => settled(all.filter((i) => typeof i.slug === 'string' && i.slug !== '' && all.filter((j) => j.slug === i.slug).length === 1), 3),
      `two published ${type.name} with slugs of their own`,
      async (t, items) => {
        const want = [...items].reverse();
        await expectSeq(t, await ids(t, { slug: want.map((i) => i.slug), orderby: 'include_slugs' }), idList(want), `slug=${want.map((i) => i.slug).join(',')}&orderby=include_slugs`);
      },
    ),
    'orderby.relevance': site(
      (all) => {
        const scope = settled(all, SCOPE);
        // A word in the title of one item only, and in the content (not the title) of a newer one.
        for (const a of [...scope].sort((x, y) => x.id - y.id)) {
          for (const w of titleOf(a).split(/[^a-z]+/).filter((x) => x.length >= 5 && !MARKUP_WORDS.has(x) && !STOPWORDS.has(x))) {
            if (scope.some((i) => i !== a && titleOf(i).includes(w))) continue;
            const b = scope.find((i) => i !== a && contentOf(i).includes(w) && timeOf(i.date) > timeOf(a.date));
            if (b) return { items: [a, b], w, note: `published; search word "${w}"` };
          }
        }
        return { items: [] as SiteItem[], w: undefined };
      },
      async (t, { items, w }) => {
        observable(t, items.length === 2, `a word in the title of one published ${type.noun} only and in the content of a newer one`);
        const [a, b] = items as [SiteItem, SiteItem];
        const got = await ids(t, { include: [a.id, b.id], search: w!, orderby: 'relevance' });
        if (got[0] !== a.id) t.fail(`search=${w}&orderby=relevance: ${a.id} (titled "${titleOf(a)}", the only title match; ${b.id} is newer and carries it in its content) should come first, got [${got.join(', ')}]`);
      },
    ),
    'orderby.modified': orderbySite((all) => distinct(all, (i) => (Number.isFinite(timeOf(i.modified)) ? timeOf(i.modified) : undefined)),
      `published ${type.name} with different modified dates (where the site serves modified, not a documented field)`,
      async (t, items) => {
        const want = idList(ordered(items, (i) => -timeOf(i.modified)));
        await expectSeq(t, await ids(t, { include: idList(items), orderby: 'modified', order: 'desc' }), want, 'orderby=modified&order=desc', by(items, (i) => String(i.modified)));
      },
    ),
    'orderby.author': site(scopeOf, async (t, { items }) => {
      const got = await list(t, { include: idList(items), orderby: 'author', order: 'asc' });
      expectSet(t, idsOf(got), idList(items), 'orderby=author&order=asc');
      const authors = got.map((i) => i.author as number);
      if (authors.some((x, i) => i > 0 && x < authors[i - 1]!)) t.fail(`orderby=author&order=asc: authors out of order: ${got.map((i) => `${i.id} (author ${i.author})`).join(', ')}`);
    }),
    'orderby.parent': isPosts
      ? site(
          (all) => ({ items: settled(all, 3) }),
          async (t, { items }) => expectSet(t, await ids(t, { include: idList(items), orderby: 'parent', order: 'asc' }), idList(items), 'orderby=parent'),
        )
      : orderbySite((all) => {
            const child = settledOrder(all).find((i) => typeof i.parent === 'number' && i.parent > 0);
            const top = settledOrder(all).find((i) => i.parent === 0);
            return child && top ? [child, top] : [];
          },
          'a published child page and a top-level one',
          async (t, [child, top]) => expectSeq(t, await ids(t, { include: [top!.id, child!.id], orderby: 'parent', order: 'desc' }), [child!.id, top!.id], `include=${top!.id},${child!.id}&orderby=parent&order=desc (a child page, then a top-level one)`),
        ),
    'orderby.menu_order': orderbySite((all) => distinct(all, (i) => (typeof i.menu_order === 'number' ? i.menu_order : undefined)), `published ${type.name} with different menu_order`, async (t, items) => {
      const want = idList(ordered(items, (i) => i.menu_order as number));
      await expectSeq(t, await ids(t, { include: idList(items), orderby: 'menu_order', order: 'asc' }), want, 'orderby=menu_order&order=asc', by(items, (i) => `menu_order ${i.menu_order}`));
    }),
  });

  if (isPosts) {
    Object.assign(checks, {
      sticky: site(
        (all) => ({ items: [...settled(all.filter((i) => i.sticky === true), 5), ...settled(all.filter((i) => i.sticky === false), 5)].sort((a, b) => a.id - b.id) }),
        async (t, { items }) => {
          observable(t, items.length > 0, 'published posts that say whether they are sticky');
          const scope = idList(items);
          const sticky = by(items, (i) => (i.sticky ? 'sticky' : 'not sticky'));
          expectSet(t, await ids(t, { include: scope, sticky: true }), items.filter((i) => i.sticky).map((i) => i.id), `sticky=true within include=${scope.join(',')}`, sticky);
          // sticky=false is not scoped by include: what the two do together is not stated (WordPress then lists sticky posts too).
          const unsticky = await list(t, { sticky: false });
          const listed = unsticky.filter((i) => i.sticky === true);
          if (listed.length) t.fail(`sticky=false lists ${listed.map((i) => `${i.id} (sticky)`).join(', ')}`);
          const missing = items.filter((i) => i.sticky === false && unsticky.length < 100 && !idsOf(unsticky).includes(i.id));
          if (missing.length) t.fail(`sticky=false does not list ${missing.map((i) => `${i.id} (not sticky)`).join(', ')}`);
        },
      ),
      format: site(
        (all) => {
          const formats = [...new Set(all.map((i) => i.format).filter((f): f is string => typeof f === 'string'))].sort();
          return { items: formats.flatMap((f) => settled(all.filter((i) => i.format === f), 4)).sort((a, b) => a.id - b.id), formats };
        },
        async (t, { items, formats }) => {
          observable(t, items.length > 0, 'published posts that carry their format');
          const scope = idList(items);
          const fmt = by(items, (i) => String(i.format));
          const asked = [...new Set([...formats.filter((f) => f !== 'standard').slice(0, 2), formats.includes('aside') ? 'gallery' : 'aside', 'standard'])];
          for (const f of asked) expectSet(t, await ids(t, { include: scope, format: [f] }), items.filter((i) => i.format === f).map((i) => i.id), `format=${f} within include=<${scope.length} items>`, fmt);
          const two = asked.slice(0, 2);
          expectSet(t, await ids(t, { include: scope, format: two }), items.filter((i) => two.includes(i.format)).map((i) => i.id), `format=${two.join(',')}`, fmt);
        },
      ),
      categories: site(scopeOf, async (t, { items }) => {
        const c = termOf(items, 'categories');
        observable(t, c !== undefined, 'published posts that carry a category');
        const scope = idList(items);
        const with_ = items.filter(has('categories', c!)).map((i) => i.id);
        const cats = by(items, (i) => `categories ${JSON.stringify(i.categories)}`);
        expectSet(t, await ids(t, { include: scope, categories: [c!] }), with_, `categories=${c} within include=<${scope.length} items>`, cats);
        expectSet(t, await ids(t, { include: scope, categories: [UNUSED_ID] }), [], `categories=${UNUSED_ID} (no such term)`);
        // Without operator=AND: WordPress takes AND over the term and all its children (an item must carry each).
        const children = await ids(t, { include: scope, categories: { terms: [c!], include_children: true } });
        const lost = with_.filter((id) => !children.includes(id));
        if (lost.length) t.fail(`categories[terms]=${c}&include_children=true does not list ${lost.join(', ')}, which carry category ${c}`);
        expectSet(t, await ids(t, { include: scope, categories: { terms: [c!, UNUSED_ID], operator: 'AND' } }), [], `categories[terms]=${c},${UNUSED_ID}&operator=AND`);
        expectSet(t, await ids(t, { include: scope, categories: { terms: [c!, UNUSED_ID], operator: 'OR' } }), with_, `categories[terms]=${c},${UNUSED_ID}&operator=OR`, cats);
      }),
      categories_exclude: excluded('categories', 'category', true),
      tags: site(scopeOf, async (t, { items }) => {
        const scope = idList(items);
        expectSet(t, await ids(t, { include: scope, tags: [UNUSED_ID] }), [], `tags=${UNUSED_ID} (no such tag)`);
        expectSet(t, await ids(t, { include: scope, tags: { terms: [UNUSED_ID], operator: 'OR' } }), [], `tags[terms]=${UNUSED_ID}`);
        const tag = termOf(items, 'tags');
        if (tag !== undefined) expectSet(t, await ids(t, { include: scope, tags: [tag] }), items.filter(has('tags', tag)).map((i) => i.id), `tags=${tag}`, by(items, (i) => `tags ${JSON.stringify(i.tags)}`));
      }),
      tags_exclude: excluded('tags', 'tag'),
    });
  } else {
    /** A scope with a parent page and its child in it. */
    const treeScope = (all: SiteItem[]) => {
      const scope = settled(all, SCOPE);
      const child = scope.find((i) => i.parent > 0) ?? settledOrder(all).find((i) => i.parent > 0);
      const parent = child ? child.parent : undefined;
      const items = [...new Set([...scope, ...(child ? [child] : []), ...all.filter((i) => i.id === parent)])];
      return { items, parent: parent as number | undefined };
    };
    Object.assign(checks, {
      parent: site(treeScope, async (t, { items, parent }) => {
        observable(t, parent !== undefined, 'a published child page');
        expectSet(t, await ids(t, { include: idList(items), parent: [parent!] }), items.filter((i) => i.parent === parent).map((i) => i.id), `parent=${parent} within include=<${items.length} items>`, by(items, (i) => `parent ${i.parent}`));
      }),
      parent_exclude: site(treeScope, async (t, { items, parent }) => {
        observable(t, parent !== undefined, 'a published child page');
        expectSet(t, await ids(t, { include: idList(items), parent_exclude: [parent!] }), items.filter((i) => i.parent !== parent).map((i) => i.id), `parent_exclude=${parent} within include=<${items.length} items>`, by(items, (i) => `parent ${i.parent}`));
      }),
      menu_order: site(scopeOf, async (t, { items }) => {
        const m = items.map((i) => i.menu_order).find((x) => typeof x === 'number' && x !== 0) as number | undefined;
        observable(t, m !== undefined, 'a published page with a menu_order other than 0');
        expectSet(t, await ids(t, { include: idList(items), menu_order: m! }), items.filter((i) => i.menu_order === m).map((i) => i.id), `menu_order=${m} within include=<${items.length} items>`, by(items, (i) => `menu_order ${i.menu_order}`));
      }),
    });
  }
  return checks;
}
