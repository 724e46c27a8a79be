/**
 * One check of the collection query against the model: fast-check draws combinations that hold
 * the argument the check is about (lib/query-combos.ts), after the edges (lib/query-edges.ts),
 * sends each and judges the answer (lib/query-judge.ts). The check fails only on a discrepancy its
 * own argument explains; a combination another argument spoils (a scope not honoured, a value
 * refused, an item another filter leaves out) is not judged by it: that argument's check reports it.
 * Where an item is missing, the check asks once more without its argument: only when that brings
 * the item back is the missing item its own.
 *
 * A failing combination is made as small as it can be while it still fails (each other filter, the
 * order, the page and every item of the scope left out in turn, one request each), and the message
 * names that request (method and URL with its query), what is wrong, and every item it shows.
 */
import { objectEncodingOf } from './object-form.ts';
import { ContentChanged } from './sample.ts';
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { checkProperty } from '../../../generators/property.ts';
import { encodeObjects, serializeQuery, type Response } from '../../../src/sdk/http.ts';
import type { PostType } from './collections.ts';
import { comboArb, materialize, type Combo, type ModelCtx } from './query-combos.ts';
import { examplesFor } from './query-edges.ts';
import { itemLabel } from './query-items.ts';
import { defaultOrder, expected, judge, type Discrepancy } from './query-judge.ts';
import { FIXED_DIRECTION, compareKey, filtersOf, keyText, type MItem, type Query } from './query-model.ts';


/**
 * A query of the model sent, its objects (the taxonomy filters' object form) in the encoding the
 * target reads, found on the model's published items (object-form.ts; a skip naming its owner where
 * none is read).
 */
async function send(t: BehaviourContext, ctx: ModelCtx, query: Query): Promise<Response> {
  const scope = ctx.published.map((k) => ctx.items[k]!.id);
  const hasObject = Object.values(query).some((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
  return t.client.get(ctx.type.collection, { query: hasObject ? encodeObjects(query, await t.need(objectEncodingOf(ctx.type, scope))) : query });
}

/** The argument a check is about: a filter, `orderby.<value>`, `order`, `page`, `offset`, `search_columns`, or the pair `include-exclude`. */
export type Featured = string;

/** Requests spent on making a failing combination smaller. */
const MINIMISE_BUDGET = 40;

/** The query as sent, readable: `GET /cms/v2/posts?include=12,15&exclude=15&per_page=100`. */
export const requestLine = (type: PostType, q: Query): string => `GET ${type.collection}?${decodeURIComponent(serializeQuery(q))}`;

/** The owners a discrepancy names, as the checks read them: a search with search_columns is that argument's. */
function ownersOf(d: Discrepancy, q: Query): string[] {
  return d.owners.flatMap((o) => (o === 'search' && q.search_columns !== undefined ? ['search_columns'] : [o]));
}

/** Is the discrepancy the featured argument's own? */
export function owns(featured: Featured, d: Discrepancy, q: Query): boolean {
  const owners = ownersOf(d, q);
  if (featured === 'include-exclude') return q.include !== undefined && q.exclude !== undefined && owners.includes('exclude');
  if (featured.startsWith('orderby.')) return q.orderby === featured.slice(8) && owners.includes('orderby');
  return owners.includes(featured);
}

/** The check that owns a discrepancy that is not the featured argument's, for a skip. */
function ownerCheck(type: PostType, d: Discrepancy, q: Query): string {
  // A refusal that names nothing and stands without the argument: the page asked for, or the page the target takes by default.
  if (d.unnamed) return q.page !== undefined ? `cms.${type.name}.filter.page` : `cms.${type.name}.query.page.default`;
  const o = ownersOf({ ...d, owners: d.owners.length ? d.owners : (d.spoiledBy ?? []) }, q)[0] ?? 'include';
  if (o === 'orderby') return `cms.${type.name}.filter.orderby.${String(q.orderby)}`;
  if (o.includes(':')) return `cms.${type.name}.query.${o.split(':')[0]}.default`;
  if (o === 'per_page') return `cms.${type.name}.query.per_page.bounds`;
  return `cms.${type.name}.filter.${o}`;
}

/** Every item a message shows, named: `12 (draft "kilo", 2001-02-01T10:00:00+05:30)`. */
function legend(ctx: ModelCtx, q: Query, shown: number[], tag?: string): string {
  const inQuery = ['include', 'exclude'].flatMap((k) => (Array.isArray(q[k]) ? (q[k] as number[]) : []));
  const bySlug = Array.isArray(q.slug) ? ctx.items.filter((i) => (q.slug as string[]).includes(i.slug)).map((i) => i.id) : [];
  const ids = [...new Set([...shown, ...inQuery, ...bySlug])];
  const known = ids.map((id) => ctx.items.find((i) => i.id === id)).filter((i): i is MItem => !!i);
  const unknown = ids.filter((id) => !known.some((i) => i.id === id));
  const slugs = bySlug.length ? `; slugs: ${known.filter((i) => bySlug.includes(i.id)).map((i) => `${i.slug} = ${i.id}`).join(', ')}` : '';
  return `the ${ctx.type.name}: ${known.map((i) => itemLabel(i, tag)).join(', ')}${unknown.length ? `; ${unknown.join(', ')}: not among the ${ctx.type.name} the check knows` : ''}${slugs}`;
}

export interface RunOptions {
  /** Random combinations after the edges. */
  randomRuns: number;
  /** The run tag, left out of titles in messages. */
  tag?: string;
  /** Called with each combination's query before it is sent (the items a site check relies on). */
  onQuery?: (q: Query) => void;
  /**
   * On the site's own content: the items a query relies on that are gone or changed since the model
   * was read (an editor at work). A finding or a "depends on" made on them is not judged: the check
   * is made again on a fresh model (sample.ts onSite).
   */
  changed?: (q: Query) => Promise<string[]>;
}

type Verdict =
  | { kind: 'none' }
  | { kind: 'pass'; telling: boolean }
  | { kind: 'spoiled'; owner: string; why: string; query: Query }
  | { kind: 'fail'; query: Query; text: string };

/** The parts of a combination a smaller one may leave out (all but the featured argument's). */
const OPTIONAL = ['exclude', 'status', 'search', 'author', 'author_exclude', 'after', 'before', 'modified_after', 'modified_before', 'sticky', 'categories', 'categories_exclude', 'tags', 'tags_exclude', 'parent', 'parent_exclude', 'menu_order', 'orderby', 'order', 'page', 'offset'] as const;

function fieldsOf(featured: Featured): string[] {
  if (featured === 'include-exclude') return ['exclude', 'pair'];
  if (featured === 'search_columns') return ['search'];
  if (featured.startsWith('orderby.')) return ['orderby'];
  return [featured];
}

/** Combinations one step smaller than `c` that still hold the featured argument. */
function* simpler(c: Combo, featured: Featured): Generator<Combo> {
  const keep = new Set(fieldsOf(featured));
  const paged = keep.has('page') || keep.has('offset');
  for (const k of OPTIONAL) if ((c as unknown as Record<string, unknown>)[k] !== undefined && !keep.has(k)) yield { ...c, [k]: undefined };
  if (!paged && c.per_page !== 100) yield { ...c, per_page: 100, page: undefined, offset: undefined };
  const pick = c.scope.pick;
  // Half the scope first (either half), then one item at a time.
  if (pick.length > 3) for (const half of [pick.slice(0, Math.ceil(pick.length / 2)), pick.slice(Math.ceil(pick.length / 2))]) yield { ...c, scope: { ...c.scope, pick: half } };
  if (pick.length > 1) for (let k = 0; k < pick.length; k++) yield { ...c, scope: { ...c.scope, pick: pick.filter((_, j) => j !== k) } };
  if (c.exclude && c.exclude.length > 1) for (const x of c.exclude) yield { ...c, exclude: [x] };
}

/**
 * Run the check of `featured` on the model: passes, fails with the smallest failing combination, or
 * skips when no combination told the argument honoured from ignored: "depends on" the check whose
 * finding spoiled one that could have, else not observable.
 */
export async function checkModel(t: BehaviourContext, featured: Featured, given: ModelCtx, opts: RunOptions): Promise<void> {
  const type = given.type;
  // A bound needs items whose time the model knows exactly: modified and modified_gmt are not
  // documented fields, so a server written from the documents may serve neither.
  const bound = featured === 'after' || featured === 'before' ? { pool: given.dated, field: 'date' } : featured === 'modified_after' || featured === 'modified_before' ? { pool: given.modifiedKnown, field: 'modified' } : undefined;
  if (bound && bound.pool.length === 0)
    t.skip(
      `not observable: no published ${type.noun} the check knows has a ${bound.field} time to bound${bound.field === 'modified' && given.items.every((i) => i.modified === undefined) ? ` (the target serves no modified or modified_gmt field: neither is a documented field of a ${type.noun})` : ''}`,
    );
  // The relevance order judges the order of what is listed, never which items are (the search's):
  // the site's items count as carrying a word their rendered text shows, so that some besides the
  // title matches are in its scopes (an item the target does not list is then the search's finding).
  const ctx = featured === 'orderby.relevance' ? { ...given, items: given.items.map((i) => (i.text.sure || i.protected ? i : { ...i, text: { ...i.text, sure: true } })) } : given;
  let telling = false;
  let spoiled: { owner: string; why: string; query: Query } | undefined;
  let smallest: { combo: Combo; verdict: Extract<Verdict, { kind: 'fail' }>; from: Query; sent: number } | undefined;

  /** Send a combination and judge the answer. */
  const verdictOf = async (combo: Combo): Promise<Verdict> => {
    const m = materialize(combo, ctx);
    // A combination whose argument the model could not send (orderby=relevance without a search) judges nothing of it.
    if (!m || !carries(featured, m.query)) return { kind: 'none' };
    opts.onQuery?.(m.query);
    const res = await send(t, ctx, m.query);
    const found = await settled(t, ctx, m.query, judge(ctx.items, m.query, m.exp, res));
    const mine: Discrepancy[] = [];
    for (const d of found) if (owns(featured, d, m.query) && (d.kind !== 'refused' || (await refusalOwned(t, featured, ctx, m.query, d)))) mine.push(d);
    const others = found.filter((d) => !mine.includes(d));
    if (others.length && !mine.length) return { kind: 'spoiled', owner: ownerCheck(type, others[0]!, m.query), why: `${requestLine(type, m.query)}: ${others[0]!.text}`, query: m.query };
    const real = await confirmed(t, featured, ctx, m.query, mine);
    if (!real.length) return { kind: 'pass', telling: tells(featured, ctx, m.query, m.exp.window) };
    return { kind: 'fail', query: m.query, text: `${requestLine(type, m.query)} ${real.map((d) => d.text).join('; ')} (${legend(ctx, m.query, real.flatMap((d) => d.ids), opts.tag)})` };
  };

  /** Leave out what the failure does not need, one part at a time, while it still fails. */
  const minimise = async (combo: Combo, verdict: Extract<Verdict, { kind: 'fail' }>) => {
    let current = { combo, verdict };
    let sent = 0;
    for (let again = true; again && sent < MINIMISE_BUDGET; ) {
      again = false;
      for (const c of simpler(current.combo, featured)) {
        if (sent >= MINIMISE_BUDGET) break;
        sent++;
        const v = await verdictOf(c);
        if (v.kind === 'fail') {
          current = { combo: c, verdict: v };
          again = true;
          break;
        }
      }
    }
    return { ...current, from: verdict.query, sent };
  };

  /** A verdict on the site's items stands only while they are as the model read them. */
  const unchanged = async (q: Query) => {
    const moved = opts.changed ? await opts.changed(q) : [];
    if (moved.length) throw new ContentChanged(moved);
  };

  const shownOf = () => (smallest ? requestLine(type, smallest.verdict.query) : 'nothing sent');
  await checkProperty(
    t,
    comboArb(featured, ctx),
    async (combo, { replay }) => {
      // Once a failure is made smallest, fast-check's own shrinking is not needed: only its replay.
      if (smallest && !replay) return;
      const v = await verdictOf(replay && smallest ? smallest.combo : combo);
      if (v.kind === 'none') return;
      if (v.kind === 'spoiled') {
        spoiled ??= v;
        return;
      }
      if (v.kind === 'pass') {
        telling ||= v.telling;
        return;
      }
      smallest ??= await minimise(combo, v);
      const s = smallest;
      await unchanged(s.verdict.query);
      const how = JSON.stringify(s.from) === JSON.stringify(s.verdict.query) ? '' : ` — the smallest combination that still fails (made from ${requestLine(type, s.from)} in ${s.sent} request${s.sent === 1 ? '' : 's'})`;
      t.fail(`${(replay ? v : s.verdict).text}${how}`);
    },
    { examples: examplesFor(featured, ctx), describe: () => shownOf(), randomRuns: opts.randomRuns, shrinkBudget: 1 },
  );
  // Nothing told the argument honoured from ignored: where another argument's finding spoiled a
  // combination, that finding is why (the combination could have told); else nothing could.
  if (!telling && spoiled) {
    await unchanged(spoiled.query);
    t.dependsOn(spoiled.owner, spoiled.why);
  }
  if (!telling) t.skip(`not observable on these ${type.name}: no combination the check could send lists other items${featured.startsWith('orderby') || featured === 'order' ? ' or another order' : ''} when ${featured.replace(/^orderby\./, 'orderby=')} is not honoured${oneKey(featured, ctx)}`);
}

/**
 * A wrong page is the ordering's or the paging's: the whole list asked for (no page) tells the
 * first (in the wrong order: the order's or orderby's; right: not); then the same page in the
 * default order tells the paging (right there: the page was cut from the list before it was put in
 * order, the ordering's; wrong there too: the paging's). One or two requests, only for a wrong page.
 */
async function settled(t: BehaviourContext, ctx: ModelCtx, q: Query, found: Discrepancy[]): Promise<Discrepancy[]> {
  const out: Discrepancy[] = [];
  const ask = async (query: Query) => {
    const res = await send(t, ctx, query);
    return judge(ctx.items, query, expected(ctx.items, query), res);
  };
  for (const d of found) {
    if (!d.unsettled) {
      out.push(d);
      continue;
    }
    const whole: Query = { ...q, per_page: 100 };
    delete whole.page;
    delete whole.offset;
    const inWhole = await ask(whole);
    if (inWhole.length) {
      // The list itself is wrong: its own discrepancy says whose (an ordering's, or a filter's: then not this page's).
      const order = inWhole.find((x) => x.kind === 'order');
      out.push({ ...d, owners: order ? order.owners : [], ...(order ? {} : { spoiledBy: inWhole[0]!.owners }), text: `${d.text}; the whole list (${requestLine(ctx.type, whole)}) ${order ? order.text : `is wrong too: it ${inWhole[0]!.text}`}` });
      continue;
    }
    if (q.orderby === undefined && q.order === undefined) {
      out.push({ ...d, owners: d.unsettled.paging, text: `${d.text}; the whole list (${requestLine(ctx.type, whole)}) is right: the paging is not` });
      continue;
    }
    const dq = defaultOrder(q);
    const cut = !(await ask(dq)).length;
    out.push({
      ...d,
      owners: cut ? d.unsettled.ordering : d.unsettled.paging,
      text: `${d.text}; the whole list (${requestLine(ctx.type, whole)}) is right, and that page in the default order (${requestLine(ctx.type, dq)}) ${cut ? 'is right: the page was cut from the list before it was put in order' : 'is wrong too: the paging is'}`,
    });
  }
  return out;
}

/** A refusal that names no argument is the featured argument's only when the query without it is accepted (one request). */
async function refusalOwned(t: BehaviourContext, featured: Featured, ctx: ModelCtx, q: Query, d: Discrepancy): Promise<boolean> {
  const arg = featured === 'include-exclude' ? 'exclude' : featured.startsWith('orderby.') ? 'orderby' : featured;
  if (!d.unnamed || q[arg] === undefined || arg === 'include' || arg === 'slug') return true;
  const without: Query = { ...q };
  delete without[arg];
  const res = await send(t, ctx, without);
  return res.status >= 200 && res.status < 300;
}

/** Why an order is not seen: every item has the same key (posts carry no parent: each one's is 0). */
function oneKey(featured: Featured, ctx: ModelCtx): string {
  const by = featured.startsWith('orderby.') ? featured.slice(8) : undefined;
  if (!by || FIXED_DIRECTION.includes(by)) return '';
  const items = ctx.published.map((k) => ctx.items[k]!);
  return items.length > 1 && items.every((i) => compareKey(i, items[0]!, { orderby: by }) === 0) ? ` (every one of them has ${keyText(items[0]!, { orderby: by })})` : '';
}

/** Does the query hold the featured argument (as the combination asked for it)? */
function carries(featured: Featured, q: Query): boolean {
  if (featured === 'include-exclude') return q.include !== undefined && q.exclude !== undefined;
  if (featured.startsWith('orderby.')) return q.orderby === featured.slice(8);
  return q[featured] !== undefined;
}

/**
 * Does the query tell the featured argument honoured from ignored: would the page the model expects
 * differ without it (another set of items, or, for the order, another sequence)?
 */
function tells(featured: Featured, ctx: ModelCtx, q: Query, page: MItem[]): boolean {
  const without: Query = { ...q };
  const drop = featured === 'include-exclude' ? 'exclude' : featured.startsWith('orderby.') ? 'orderby' : featured;
  // Without its scope a query lists every item of the site: any other item tells.
  if (drop === 'include' || drop === 'slug') return true;
  delete without[drop];
  // orderby=date ignored is the default order: told apart from another order (by id) instead.
  if (featured === 'orderby.date') without.orderby = 'id';
  if (drop === 'order') without.order = q.order === 'asc' ? 'desc' : 'asc';
  const other = expected(ctx.items, without).window;
  const ordered = featured.startsWith('orderby') || featured === 'order' || featured === 'page' || featured === 'offset';
  // A page is judged by the keys of the order asked for (ties are free): it tells only where the
  // page without the argument holds other keys (orderby=relevance ignored keeps the date order,
  // whose page of items without the word in their title is one of relevance too).
  if (ordered) return other.length !== page.length || other.some((x, k) => compareKey(x, page[k]!, q) !== 0);
  return JSON.stringify(other.map((i) => i.id).sort()) !== JSON.stringify(page.map((i) => i.id).sort());
}

/**
 * The discrepancies that stand: an item missing is the featured filter's only when asking without
 * it lists the item (else another filter, or the paging, left it out).
 */
async function confirmed(t: BehaviourContext, featured: Featured, ctx: ModelCtx, q: Query, mine: Discrepancy[]): Promise<Discrepancy[]> {
  const out: Discrepancy[] = [];
  for (const d of mine) {
    if (d.kind !== 'missing') {
      out.push(d);
      continue;
    }
    const scoped = featured === 'include' || featured === 'slug';
    // The scope's own: asked with the scope alone, the items are still missing. Another's: asked without it, they are listed.
    const without: Query = scoped ? { [featured]: q[featured], per_page: 100 } : { ...q, per_page: 100 };
    delete without.page;
    delete without.offset;
    const arg = featured === 'search_columns' ? 'search_columns' : featured;
    const isFilter = !scoped && (filtersOf(q) as string[]).includes(featured === 'search_columns' ? 'search' : featured);
    if (isFilter) delete without[arg];
    const res: Response = await send(t, ctx, without);
    const listed = Array.isArray(res.body) ? (res.body as { id?: unknown }[]).map((x) => x?.id) : [];
    const gone = d.missing ?? [];
    const still = gone.filter((id) => !listed.includes(id));
    if (scoped) {
      if (res.status === 200 && still.length) out.push({ ...d, text: `${d.text}; asked with ${featured} alone (${requestLine(ctx.type, without)}) they are still not listed` });
      continue;
    }
    // Listed without the argument: it left them out (filters), or the pages did (paging).
    if (res.status === 200 && still.length < gone.length) out.push({ ...d, text: `${d.text}; without ${isFilter ? arg : 'page and offset'} (${requestLine(ctx.type, without)}) they are listed` });
  }
  return out;
}
