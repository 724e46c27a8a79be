/**
 * The combinations every check of the collection query sends first (fast-check examples, before
 * the random ones of lib/query-combos.ts): each documented bound at its edge and each filter on its
 * own. Dates equal to an item's own date and modified time, and one second either side (the items
 * are made so that two share a second and two are a second apart); per_page 1 and 100; the last
 * page and the one after it; offset at the total and one before it; the order of every orderby value
 * both ways, unpaged and cut into pages of two (a page taken before the list is put in order shows).
 */
import { FIXED_DIRECTION } from './query-model.ts';
import { orderbyValues, type Combo, type ModelCtx } from './query-combos.ts';

/** Up to two items of `pool` at an edge: one that shares its time with another, one with another a second away, else the middle one. */
function edgeItems(ctx: ModelCtx, pool: number[], field: 'date' | 'modified'): number[] {
  const t = (k: number) => ctx.items[k]![field]!.lo;
  const tied = pool.find((k) => pool.some((j) => j !== k && t(j) === t(k)));
  const near = pool.find((k) => pool.some((j) => Math.abs(t(j) - t(k)) === 1000));
  const mid = [...pool].sort((a, b) => t(a) - t(b))[Math.floor(pool.length / 2)];
  return [...new Set([tied, near, mid].filter((k): k is number => k !== undefined))].slice(0, 2);
}

export function examplesFor(featured: string, ctx: ModelCtx): Combo[] {
  const all = ctx.published;
  const every = ctx.items.map((_, k) => k);
  const inc = (pick = all): Combo['scope'] => ({ by: 'include', pick });
  const slug = (pick = all): Combo['scope'] => ({ by: 'slug', pick });
  const base = (extra: Partial<Combo> = {}): Combo => ({ scope: inc(), per_page: 100, ...extra });
  const [a, b, c] = all;
  const UNUSED = (n: number) => n;
  switch (featured) {
    case 'include':
      return [base({ scope: inc([a!, c ?? a!]) }), base()];
    case 'slug':
      return [base({ scope: slug([a!, c ?? a!]) }), base({ scope: slug() })];
    case 'exclude':
      return [base({ scope: slug(), exclude: [b ?? a!] }), base({ scope: slug([a!]), exclude: [a!] })];
    case 'include-exclude':
      return [
        base({ pair: true, exclude: [b ?? a!] }),
        base({ pair: true, scope: inc([a!, b ?? a!]), exclude: [b ?? a!, c ?? a!] }),
        base({ pair: true, scope: inc([a!]), exclude: [a!] }),
      ];
    case 'search':
      return ctx.words.slice(0, 2).map((_, w) => base({ search: { word: w } }));
    case 'search_columns':
      return ['post_title', 'post_content', 'post_excerpt'].map((col) => base({ search: { word: 0, cols: [col] } }));
    case 'author':
      return [base({ author: 0 }), base({ author: UNUSED(ctx.authors.length) })];
    case 'author_exclude':
      return [base({ author_exclude: 0 })];
    case 'status':
      return [['draft'], ['draft', 'pending'], ['private'], ['future'], ['publish'], ['trash'], ['any']].map((status) => base({ scope: inc(every), status }));
    case 'after':
    case 'before':
    case 'modified_after':
    case 'modified_before': {
      const field = featured.startsWith('modified') ? 'modified' : 'date';
      const pool = field === 'date' ? ctx.dated : ctx.modifiedKnown;
      return edgeItems(ctx, pool, field).flatMap((item) => [0, -1, 1].map((delta) => base({ [featured]: { item, delta } })));
    }
    case 'sticky':
      return [base({ sticky: true }), base({ scope: slug(), sticky: false })];
    case 'categories':
    case 'tags': {
      const n = featured === 'tags' ? ctx.tags.length : ctx.categories.length;
      const out: Combo[] = [base({ [featured]: { terms: [n], object: false } }), base({ [featured]: { terms: [n], object: true, operator: 'OR' } })];
      if (n > 0) {
        out.push(base({ [featured]: { terms: [0], object: false } }), base({ [featured]: { terms: [0, n], object: true, operator: 'AND' } }), base({ [featured]: { terms: [0, n], object: true, operator: 'OR' } }));
        if (featured === 'categories') out.push(base({ categories: { terms: [0], object: true, operator: 'AND', children: true } }));
      }
      return out;
    }
    case 'categories_exclude':
    case 'tags_exclude': {
      const n = featured === 'tags_exclude' ? ctx.tags.length : ctx.categories.length;
      const out: Combo[] = [base({ [featured]: { terms: [n], object: false } })];
      if (n > 0) out.push(base({ [featured]: { terms: [0], object: false } }), base({ [featured]: { terms: [0], object: true } }));
      return out;
    }
    case 'parent':
      return [base({ parent: ctx.parents.filter((p) => p !== 0).slice(0, 1) }), base({ parent: [0] })].filter((x) => x.parent!.length);
    case 'parent_exclude':
      return [base({ parent_exclude: ctx.parents.filter((p) => p !== 0).slice(0, 1) })].filter((x) => x.parent_exclude!.length);
    case 'menu_order':
      return ctx.menuOrders.filter((m) => m !== 0).slice(0, 2).map((menu_order) => base({ menu_order }));
    case 'offset':
      return [base({ orderby: 'id', order: 'asc', offset: 1 }), base({ offset: 'total' }), base({ orderby: 'id', order: 'asc', offset: Math.max(0, all.length - 1) })];
    case 'page':
      return [
        ...([1, 2, 'last', 'past'] as const).map((page) => base({ orderby: 'id', order: 'asc', per_page: 2, page })),
        base({ per_page: 1, page: 'last' }),
        base({ per_page: 1, page: 'past' }),
        base({ per_page: 100, page: 'past' }),
      ];
    case 'order':
      return [base({ orderby: 'id', order: 'asc' }), base({ orderby: 'id', order: 'desc' }), base({ order: 'asc' }), base({ orderby: 'title', order: 'desc', per_page: 2, page: 2 })];
  }
  const m = /^orderby\.(.+)$/.exec(featured);
  if (!m || !orderbyValues(ctx).includes(m[1]!)) return [];
  const orderby = m[1]!;
  const fixed = FIXED_DIRECTION.includes(orderby);
  // A list order unrelated to the items' dates and ids: every third item, from each start in turn.
  const shuffled = [0, 1, 2].flatMap((r) => all.filter((_, k) => k % 3 === r));
  const scope = orderby === 'include_slugs' ? slug(shuffled) : orderby === 'include' ? inc(shuffled) : orderby === 'modified' ? inc(ctx.modifiedKnown.filter((k) => all.includes(k))) : inc();
  // The last word: on fixtures the one whose title match is the oldest item it is in (lib/query-fixtures.ts).
  const search = orderby === 'relevance' ? { search: { word: Math.max(0, ctx.words.length - 1) } } : {};
  const dir = (order: 'asc' | 'desc') => (fixed ? {} : { order });
  return [
    base({ scope, orderby, ...search, ...dir('asc') }),
    base({ scope, orderby, ...search, ...dir('desc'), per_page: 2, page: 1 }),
    base({ scope, orderby, ...search, ...dir('asc'), per_page: 2, page: 1 }),
    base({ scope, orderby, ...search, ...dir('asc'), per_page: 2, page: 2 }),
  ];
}
