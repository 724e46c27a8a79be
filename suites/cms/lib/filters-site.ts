/**
 * The collection filters the query model does not hold (lib/query-model.ts: format,
 * search_semantics), checked on the site's own content when the file's fixtures were
 * not made on purpose (the run may not write, or has no credentials): the same behaviours as
 * filters.ts (one ID, one meaning), on subjects picked from the published items the site lists
 * (sample.ts), skipping only when the content cannot show the filter ("not observable on the
 * site's content: …"). Lists are scoped with `include` of the subjects and compared with what
 * their own fields say; a failure on subjects that changed meanwhile is read again (sample.ts onSite).
 */
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { QueryValue } from '../../../src/sdk/http.ts';
import type { PostType } from './collections.ts';
import { expectIncludeHonoured, idsOf } from './items.ts';
import { expectListOk, type ItemKind } from './query.ts';
import { STOPWORDS } from './query-site.ts';
import { describeItems, itemSubjects, observable, onSite, publishedOrSkip, settled, settledOrder, titleOf, type SiteItem } from './sample.ts';

/** An id no item or term is likely to have. */
const UNUSED_ID = 987_654_321;
/** Scopes of up to this many items: enough to tell a filter apart, few enough to read again one by one. */
const SCOPE = 20;

type Check = (t: BehaviourContext) => Promise<void>;

export function siteFilterChecks(type: PostType): Record<string, Check> {
  const kinds: ItemKind = { kind: 'fields', fields: type.fields };
  const isPosts = type.name === 'posts';

  /** List with a query (per_page 100): a documented list, include honoured; its items. */
  async function list(t: BehaviourContext, query: Record<string, QueryValue>): Promise<SiteItem[]> {
    const res = await t.client.get(type.collection, { query: { per_page: 100, ...query } });
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

  /** A term of `field` that some items of the scope carry and others not (else one all carry). */
  function termOf(scope: SiteItem[], field: 'categories' | 'tags'): number | undefined {
    const terms = [...new Set(scope.flatMap((i) => (Array.isArray(i[field]) ? (i[field] as number[]) : [])))].sort((a, b) => a - b);
    const count = (c: number) => scope.filter((i) => (i[field] as number[] | undefined)?.includes(c)).length;
    return terms.find((c) => count(c) < scope.length) ?? terms[0];
  }
  const has = (field: 'categories' | 'tags', c: number) => (i: SiteItem) => Array.isArray(i[field]) && (i[field] as number[]).includes(c);

  const checks: Record<string, Check> = {
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

  };

  if (isPosts) {
    Object.assign(checks, {
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
    });
  }
  return checks;
}
