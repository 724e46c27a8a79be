/**
 * The collection query model (suites/cms/lib/query-model.ts, query-judge.ts, query-combos.ts)
 * without a target: what a combination of filters lists, in which order and on which page, and
 * which argument a wrong answer is put down to.
 */
import { describe, expect, it } from 'vitest';
import { posts } from '../../suites/cms/lib/collections.ts';
import { materialize, modelCtx, type Combo } from '../../suites/cms/lib/query-combos.ts';
import { examplesFor } from '../../suites/cms/lib/query-edges.ts';
import { boundText, whenOf } from '../../suites/cms/lib/query-items.ts';
import { expected, judge } from '../../suites/cms/lib/query-judge.ts';
import { member, predicate, textOrder, unorderable, type MItem } from '../../suites/cms/lib/query-model.ts';

const at = (wall: string, offset = 330) => {
  const lo = Date.parse(`${wall}Z`) - offset * 60_000;
  return { lo, hi: lo, offset };
};
function item(id: number, over: Partial<MItem> = {}): MItem {
  return {
    id,
    status: 'publish',
    slug: `s-${String.fromCharCode(96 + id)}`,
    title: `t ${String.fromCharCode(122 - id)}`,
    text: { title: `t ${String.fromCharCode(122 - id)}`, content: '', excerpt: '', sure: true },
    author: 1,
    // Dates in an order unrelated to the ids: 1 → 13th, 2 → 11th, 3 → 15th, 4 → 12th, 5 → 14th.
    date: at(`2001-01-${String(10 + ([0, 3, 1, 5, 2, 4][id] ?? id)).padStart(2, '0')}T10:00:00`),
    modified: at(`2001-02-${String(10 + id).padStart(2, '0')}T10:00:00`),
    categories: [1],
    tags: [],
    sticky: false,
    parent: 0,
    menu_order: 0,
    ...over,
  };
}
const ok = (ids: number[]) => ({ status: 200, body: ids.map((id) => ({ id })), text: JSON.stringify(ids.map((id) => ({ id }))) });

describe('query model: predicates', () => {
  it('after and before are strict: an item at the very second of the bound is not listed, one a second away is', () => {
    const i = item(1);
    const exact = boundText(i.date!.lo, i.date!.offset);
    expect(exact).toBe('2001-01-13T10:00:00+05:30');
    expect(predicate('after', i, { after: exact })).toBe(false);
    expect(predicate('before', i, { before: exact })).toBe(false);
    expect(predicate('after', i, { after: boundText(i.date!.lo - 1000, 330) })).toBe(true);
    expect(predicate('before', i, { before: boundText(i.date!.lo + 1000, 330) })).toBe(true);
    // A date known only within a window is not known against a bound inside it.
    expect(predicate('after', { ...i, date: { lo: i.date!.lo, hi: i.date!.lo + 5000, offset: 0 } }, { after: boundText(i.date!.lo + 1000, 0) })).toBeUndefined();
  });

  it('an item\'s time from its local and GMT dates, in its own offset', () => {
    expect(whenOf('2001-03-01T10:00:00', '2001-03-01T04:30:00', undefined)).toEqual({ lo: Date.parse('2001-03-01T04:30:00Z'), hi: Date.parse('2001-03-01T04:30:00Z'), offset: 330 });
    expect(whenOf('2001-03-01T10:00:00.250+01:00', null, undefined)).toMatchObject({ lo: Date.parse('2001-03-01T09:00:00.250Z'), offset: 60 });
    expect(boundText(Date.parse('2001-03-01T09:00:00.250Z'), 60)).toBe('2001-03-01T10:00:00.250+01:00');
  });

  it('an item whose local and GMT times are a second apart (WordPress reads its clock twice) is judged by neither at that second', () => {
    const w = whenOf('2026-12-07T05:18:03', '2026-12-07T05:18:04', { gmt_offset: 0 } as never)!;
    expect(w).toEqual({ lo: Date.parse('2026-12-07T05:18:03Z'), hi: Date.parse('2026-12-07T05:18:04Z'), offset: 0 });
    const i = item(5, { modified: w });
    // modified_before at the GMT second: the server may list it (by modified) or not (by modified_gmt).
    expect(predicate('modified_before', i, { modified_before: '2026-12-07T05:18:04+00:00' })).toBeUndefined();
    expect(predicate('modified_before', i, { modified_before: '2026-12-07T05:18:05+00:00' })).toBe(true);
    expect(predicate('modified_after', i, { modified_after: '2026-12-07T05:18:03+00:00' })).toBeUndefined();
    expect(predicate('modified_after', i, { modified_after: '2026-12-07T05:18:02+00:00' })).toBe(true);
    // Hours apart is another offset, not one instant taken twice: the GMT time stands.
    expect(whenOf('2001-03-01T10:00:00', '2001-03-01T04:30:00', { gmt_offset: 0 } as never)).toMatchObject({ lo: Date.parse('2001-03-01T04:30:00Z'), hi: Date.parse('2001-03-01T04:30:00Z') });
  });

  it('status: the default is publish; any lists the write statuses but leaves future and trash open', () => {
    expect(predicate('status', item(1, { status: 'draft' }), {})).toBe(false);
    expect(predicate('status', item(1, { status: 'draft' }), { status: ['any'] })).toBe(true);
    expect(predicate('status', item(1, { status: 'future' }), { status: ['any'] })).toBeUndefined();
    expect(predicate('status', item(1, { status: 'trash' }), { status: ['trash'] })).toBe(true);
  });

  it('search: a word of the stored text; of a site item only rendered, a word seen in its content alone is not known', () => {
    const fixture = item(1, { text: { title: 'a', content: '<p>word</p>', excerpt: '', sure: true } });
    expect(predicate('search', fixture, { search: 'word' })).toBe(true);
    expect(predicate('search', fixture, { search: 'word', search_columns: ['post_title'] })).toBe(false);
    const site = item(1, { text: { title: 'a', content: 'word', excerpt: '', sure: false } });
    expect(predicate('search', site, { search: 'word' })).toBeUndefined();
    expect(predicate('search', site, { search: 'other' })).toBe(false);
  });

  it('term filters: lists, objects with operator AND and OR, include_children leaves other terms open', () => {
    const i = item(1, { categories: [1, 5] });
    expect(predicate('categories', i, { categories: [5, 9] })).toBe(true);
    expect(predicate('categories', i, { categories: { terms: [5, 9], operator: 'AND' } })).toBe(false);
    expect(predicate('categories', item(2, { categories: [7] }), { categories: { terms: [5], include_children: true } })).toBeUndefined();
    expect(predicate('categories_exclude', i, { categories_exclude: { terms: [5] } })).toBe(false);
  });
});

describe('query model: order', () => {
  it('texts in an order every collation agrees on, or not known', () => {
    expect(textOrder('tag bravo', 'tag delta')).toBe(-1);
    expect(textOrder('Apple', 'apple pie')).toBeUndefined();
    expect(textOrder('Apple', 'Banana')).toBe(-1);
    expect(textOrder('abc', 'abc-d')).toBe(-1);
    expect(textOrder('tag x', 'tagx')).toBeUndefined();
  });

  it('the item in most unknown pairs is left out first', () => {
    const items = [item(1, { title: 'tagx' }), item(2, { title: 'tag b' }), item(3, { title: 'tag c' })];
    expect([...unorderable(items, { orderby: 'title' })]).toEqual([1]);
  });
});

describe('query model: judging an answer', () => {
  const items = [1, 2, 3, 4, 5].map((id) => item(id));
  const q = (extra: Record<string, unknown>) => ({ include: [1, 2, 3, 4, 5], per_page: 100, ...extra }) as Record<string, any>;

  it('an item a filter leaves out is that filter\'s', () => {
    const query = q({ exclude: [2] });
    const [d] = judge(items, query, expected(items, query), ok([1, 2, 3, 4, 5]));
    expect(d).toMatchObject({ kind: 'extra', owners: ['exclude'] });
    expect(d!.text).toMatch(/lists 2, though exclude=2 names it/);
  });

  it('an item the scope does not name is the scope\'s; a non-published item listed without status is the default\'s', () => {
    expect(judge(items, q({}), expected(items, q({})), ok([1, 99]))[0]).toMatchObject({ kind: 'foreign', owners: ['include'] });
    const withDraft = [...items, item(6, { status: 'draft' })];
    const query = q({ include: [1, 6] });
    expect(judge(withDraft, query, expected(withDraft, query), ok([6, 1]))[0]).toMatchObject({ kind: 'extra', owners: ['status:default'] });
  });

  it('ties are free: items of one key in any order', () => {
    const tied = items.map((i) => ({ ...i, author: 7 }));
    const query = q({ orderby: 'author', order: 'asc' });
    expect(judge(tied, query, expected(tied, query), ok([5, 3, 1, 2, 4]))).toEqual([]);
  });

  it('the opposite direction is order\'s; another sequence is orderby\'s', () => {
    const query = q({ orderby: 'id', order: 'asc' });
    expect(judge(items, query, expected(items, query), ok([5, 4, 3, 2, 1]))[0]).toMatchObject({ kind: 'order', owners: ['order'] });
    expect(judge(items, query, expected(items, query), ok([2, 1, 3, 5, 4]))[0]).toMatchObject({ kind: 'order', owners: ['orderby'] });
  });

  it('the wrong items on a page: the ordering\'s or the paging\'s, said with what they are', () => {
    const query = q({ orderby: 'id', order: 'asc', per_page: 2, page: 1 });
    const exp = expected(items, query);
    expect(exp.window.map((i) => i.id)).toEqual([1, 2]);
    const unsettled = { ordering: ['orderby'], paging: ['page'] };
    // The two newest (3, 5), put in order of id: a page cut before the list was sorted.
    const [cut] = judge(items, query, exp, ok([3, 5]));
    expect(cut).toMatchObject({ kind: 'window', unsettled });
    expect(cut!.text).toMatch(/the items of that page in the default order \(by date, newest first\), put in order of id afterwards/);
    // Title ascending 5, 4 | 3, 2 | 1: page 2 answered with page 1's items.
    const page2 = q({ orderby: 'title', order: 'asc', per_page: 2, page: 2 });
    const [moved] = judge(items, page2, expected(items, page2), ok([5, 4]));
    expect(moved).toMatchObject({ kind: 'window', unsettled });
    expect(moved!.text).toMatch(/the items from place 1 of the list/);
    // One a page: the newest (3) is both the third by id and the first in the default order.
    const one = { ...query, per_page: 1 };
    expect(judge(items, one, expected(items, one), ok([3]))[0]!.text).toMatch(/from place 3 of the list, or the items of that page in the default order/);
  });

  it('a page after the last: an empty list or a refusal both do, items do not', () => {
    const query = q({ per_page: 2, page: 4 });
    const exp = expected(items, query);
    expect(exp.pastLast).toBe(true);
    expect(judge(items, query, exp, ok([]))).toEqual([]);
    expect(judge(items, query, exp, { status: 400, body: { code: 'rest_post_invalid_page_number' }, text: '{}' })).toEqual([]);
    expect(judge(items, query, exp, ok([1]))[0]).toMatchObject({ kind: 'past-last', owners: ['page'] });
  });

  it('offset at the total lists nothing', () => {
    const query = q({ offset: 5 });
    expect(expected(items, query).window).toEqual([]);
    expect(judge(items, query, expected(items, query), ok([1]))[0]).toMatchObject({ kind: 'window', unsettled: { paging: ['offset'] } });
  });
});

describe('query model: combinations', () => {
  const items = [1, 2, 3, 4].map((id) => item(id));
  const ctx = modelCtx(posts, items, true, ['word']);

  it('include and exclude go together only in the check of the pair; sticky=false never with include', () => {
    const c: Combo = { scope: { by: 'include', pick: [0, 1, 2] }, exclude: [1], sticky: false, per_page: 100 };
    expect(materialize(c, ctx)!.query).toEqual({ include: [1, 2, 3], per_page: 100 });
    expect(materialize({ ...c, pair: true }, ctx)!.query).toMatchObject({ include: [1, 2, 3], exclude: [2] });
    expect(materialize({ ...c, scope: { by: 'slug', pick: [0, 1] } }, ctx)!.query).toMatchObject({ slug: ['s-a', 's-b'], exclude: [2], sticky: false });
  });

  it('the edges of a date bound: the item\'s own second and one either side; the last page and the one after', () => {
    const after = examplesFor('after', ctx).map((c) => materialize(c, ctx)!.query.after);
    // No two items share a second here: the middle one by date.
    expect(after).toEqual(['2001-01-13T10:00:00+05:30', '2001-01-13T09:59:59+05:30', '2001-01-13T10:00:01+05:30']);
    const pages = examplesFor('page', ctx).map((c) => materialize(c, ctx)!.query);
    expect(pages.map((p) => `${p.per_page}/${p.page}`)).toEqual(['2/1', '2/2', '2/2', '2/3', '1/4', '1/5', '100/2']);
  });

  it('a scope keeps only items whose membership is known', () => {
    const open = [...items, item(5, { status: 'future' })];
    const c = modelCtx(posts, open, true, []);
    const m = materialize({ scope: { by: 'include', pick: [0, 1, 2, 3, 4] }, status: ['any'], per_page: 100 }, c)!;
    expect(m.query.include).toEqual([1, 2, 3, 4]);
    expect(member(open[4]!, { status: ['any'] })).toBeUndefined();
  });
});
