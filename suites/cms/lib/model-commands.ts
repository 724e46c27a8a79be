/**
 * The commands of the model-based tests (fast-check `fc.commands`): every documented write
 * operation on posts or pages — create, update (POST, PUT, PATCH), trash, force delete,
 * autosave, revision delete, a write with a filter-only status, a batch of writes — and list
 * filters over the sequence's items. Their arguments come from the catalog (statuses, methods,
 * batchable endpoints, page fields). After every write the target's state is observed — one
 * listing of the sequence's items in every status (edit context, `include` of their ids) — and
 * compared with the model (./model.ts); at the end of the sequence the first item and the
 * deleted ones are read back (GET), and revisions and autosaves are listed (also whenever a
 * command needs them).
 *
 * Items are referred to by their creation number (#1, #2 ...); a command picks one with
 * `pick % count`, so a sequence stays valid when shrinking removes commands.
 */
import fc from 'fast-check';
import { gmtDateTime } from '../../../src/sdk/timezone.ts';
import { endpointById } from '../../../schemas/catalog/index.ts';
import type { Method } from '../../../src/sdk/http.ts';
import { FILTER_ONLY_STATUSES, type PostType } from './collections.ts';
import { idsOf } from './items.ts';
import {
  ALL_STATUSES,
  ANY,
  TRASH,
  WRITE_STATUSES,
  batchWorlds,
  filterExpectation,
  is2xx,
  is4xx,
  learn,
  mismatches,
  refusal,
  step,
  type Answer,
  type Fields,
  type Filter,
  type Op,
  type PItem,
  type World,
} from './model.ts';
import { autosaveToken, itemToken, revToken, type SeqReal } from './model-real.ts';
import { textObject } from '../../../src/sdk/http.ts';

/** At most this many items per sequence (lists stay on one page, sequences short). */
export const MAX_ITEMS = 5;
/** A date well in the future (status future), and one in the past (any other status of an item dated in the future). */
// Date-times with their zone (RFC 3339: every reading takes them); any future, any past.
const FUTURE_DATE = () => gmtDateTime(Date.now() + 400 * 86_400_000);
const PAST_DATE = '2020-06-01T12:00:00Z';

export class SeqModel {
  world: World = [];
}

type Cmd = fc.AsyncCommand<SeqModel, SeqReal, false>;

const live = (w: PItem) => w.exists.value;
const pickItem = (m: Readonly<SeqModel>, pick: number) => m.world[pick % m.world.length]!;

/** What the write of `status` must send besides: a date that makes it what it says (a publish dated in the future would turn into future). */
function dateFor(status: string | undefined, item?: PItem): Record<string, string> {
  if (status === 'future') return { date: FUTURE_DATE() };
  if (status !== undefined && item?.dateFuture) return { date: PAST_DATE };
  return {};
}

/** A parent for a page: none (0) or an existing page that would not make a loop. */
function parentFor(m: Readonly<SeqModel>, r: SeqReal, pick: number | null, self?: number, avoid: ReadonlySet<number> = new Set()): { token: number | string; id: number } {
  if (pick === null) return { token: 0, id: 0 };
  const descends = (ref: number): boolean => {
    const w = m.world.find((x) => x.ref === ref);
    const parentId = w?.parent?.value;
    if (!parentId) return false;
    const p = m.world.find((x) => r.ids.get(x.ref) === parentId);
    return p ? p.ref === self || descends(p.ref) : false;
  };
  const candidates = m.world.filter((w) => live(w) && w.ref !== self && !avoid.has(w.ref) && (self === undefined || !descends(w.ref)) && r.ids.has(w.ref));
  if (!candidates.length) return { token: 0, id: 0 };
  const p = candidates[pick % candidates.length]!;
  return { token: itemToken(p.ref), id: r.ids.get(p.ref)! };
}

/** Observe after a single write, compare with the outcomes, move the model on. */
async function afterWrite(m: SeqModel, r: SeqReal, op: Op, answer: Answer): Promise<void> {
  const outcomes = step(m.world, op, { step: String(r.current.n), answer });
  const obs = await r.observe(outcomes[0]?.world ?? m.world);
  m.world = r.settle(outcomes, answer, obs, r.lastRequest());
}

const answerOf = (res: { status: number; body: any }): Answer => ({ status: res.status, body: res.body });

/** A command on an item the sequence created (any of them, in any state). */
abstract class OnItem<V> implements Cmd {
  constructor(readonly v: V) {}
  check(m: Readonly<SeqModel>) {
    return m.world.length > 0;
  }
  abstract run(m: SeqModel, r: SeqReal): Promise<void>;
  toString() {
    return `${this.constructor.name}(${JSON.stringify(this.v)})`;
  }
}

// ---------------------------------------------------------------------------------------------

class Create implements Cmd {
  constructor(readonly v: { status: string; parent: number | null }) {}
  check(m: Readonly<SeqModel>) {
    return m.world.length < MAX_ITEMS;
  }
  async run(m: SeqModel, r: SeqReal) {
    const ref = m.world.length + 1;
    r.begin(`create #${ref} (${this.v.status})`);
    const title = r.title(ref);
    const slug = r.slug(ref);
    const parent = r.hasParent ? parentFor(m, r, this.v.parent) : undefined;
    const body = { title: textObject(title), slug, status: this.v.status, ...dateFor(this.v.status), ...(parent ? { parent: parent.token } : {}) };
    const res = await r.send('write', 'POST', r.type.collection, { body });
    const rec = r.lastRequest();
    if (!is2xx(res.status) || typeof res.body?.id !== 'number')
      r.fail(`creating a ${r.type.noun} with status ${this.v.status} answered ${res.status} ${res.text.slice(0, 160)} (part 3: ${this.v.status} is accepted on write; all writable fields are optional)`);
    r.created(ref, res.body.id);
    rec.defines = [{ token: itemToken(ref), nth: 1 }];
    const op: Op = { kind: 'create', ref, fields: { title, slug, status: this.v.status, ...(parent ? { parent: parent.id } : {}) } };
    await afterWrite(m, r, op, answerOf(res));
  }
  toString() {
    return `create(${this.v.status}${this.v.parent !== null ? `, parent ${this.v.parent}` : ''})`;
  }
}

interface UpdateArgs {
  pick: number;
  method: Method;
  title: boolean;
  status: string | null;
  slug: boolean;
  parent: number | null | undefined;
}

/** The body and model fields of an update of `item`. */
function updateFields(m: Readonly<SeqModel>, r: SeqReal, item: PItem, v: Omit<UpdateArgs, 'pick' | 'method'>, avoid?: ReadonlySet<number>, pick?: number): { body: Record<string, unknown>; fields: Fields } {
  const fields: Fields = {};
  const body: Record<string, unknown> = {};
  if (v.status !== null) {
    fields.status = body.status = v.status;
    Object.assign(body, dateFor(v.status, item));
  }
  // Every other slug update of a published item (single requests: `pick` given) takes the slug
  // another published item holds (chosen by the pick already drawn: the sequences stay as they were).
  const holder =
    v.slug && pick !== undefined && pick % 2 === 1 && item.status?.value === 'publish' && (v.status === null || v.status === 'publish')
      ? m.world.find((w) => w.ref !== item.ref && live(w) && w.status?.value === 'publish' && w.slug?.level === 'MUST')
      : undefined;
  if (holder) fields.slugTaken = body.slug = holder.slug!.value;
  else if (v.slug) fields.slug = body.slug = r.slug(item.ref, `-s${r.version()}`);
  if (r.hasParent && v.parent !== undefined) {
    const p = parentFor(m, r, v.parent, item.ref, avoid);
    body.parent = p.token;
    fields.parent = p.id;
  }
  if (v.title || Object.keys(body).length === 0) body.title = textObject((fields.title = r.title(item.ref)));
  return { body, fields };
}

const describeFields = (b: Record<string, unknown>) =>
  Object.keys(b)
    .filter((k) => k !== 'date' && k !== 'content')
    .map((k) => (k === 'status' ? `status ${b[k]}` : k))
    .join(', ');

class Update extends OnItem<UpdateArgs> {
  async run(m: SeqModel, r: SeqReal) {
    const item = pickItem(m, this.v.pick);
    const { body, fields } = updateFields(m, r, item, this.v, undefined, this.v.pick);
    r.begin(`${this.v.method} #${item.ref} (${describeFields(body)}${fields.slugTaken !== undefined ? ' in use by another published item' : ''})`);
    const res = await r.send('write', this.v.method, r.path('item', item.ref), { body });
    await afterWrite(m, r, { kind: 'update', ref: item.ref, fields }, answerOf(res));
  }
}

class Trash extends OnItem<{ pick: number; forceFalse: boolean }> {
  async run(m: SeqModel, r: SeqReal) {
    const item = pickItem(m, this.v.pick);
    r.begin(`trash #${item.ref}${item.status?.value === TRASH ? ' again' : ''} (DELETE${this.v.forceFalse ? ' force=false' : ''})`);
    const res = await r.send('write', 'DELETE', r.path('item', item.ref), this.v.forceFalse ? { query: { force: false } } : {});
    await afterWrite(m, r, { kind: 'trash', ref: item.ref }, answerOf(res));
  }
}

class Delete extends OnItem<{ pick: number }> {
  async run(m: SeqModel, r: SeqReal) {
    const item = pickItem(m, this.v.pick);
    r.begin(`delete #${item.ref} for good (DELETE force=true)`);
    const res = await r.send('write', 'DELETE', r.path('item', item.ref), { query: { force: true } });
    await afterWrite(m, r, { kind: 'delete', ref: item.ref }, answerOf(res));
  }
}

class Autosave extends OnItem<{ pick: number }> {
  async run(m: SeqModel, r: SeqReal) {
    const item = pickItem(m, this.v.pick);
    const title = `${r.title(item.ref)} autosave`;
    r.begin(`autosave #${item.ref}${item.status ? ` (${item.status.value})` : ''}`);
    const res = await r.send('write', 'POST', r.path('autosaves', item.ref), { body: { title: textObject(title) } });
    // An autosave of its own (not the item updated in place): its id, for the script and the read at the end.
    if (is2xx(res.status) && typeof res.body?.id === 'number' && res.body.id !== r.ids.get(item.ref)) {
      r.autosaves.set(item.ref, res.body.id);
      r.lastRequest().defines = [{ token: autosaveToken(item.ref), nth: 1 }];
    }
    await afterWrite(m, r, { kind: 'autosave', ref: item.ref, title }, answerOf(res));
  }
}

/** A write with a filter-only status (part 3: accepted only in the list filter): refused, and nothing changes. */
class FilterOnlyStatus extends OnItem<{ pick: number; status: string }> {
  async run(m: SeqModel, r: SeqReal) {
    const item = pickItem(m, this.v.pick);
    r.begin(`POST #${item.ref} with the filter-only status ${this.v.status}`);
    // WordPress accepts re-sending an item's current status (trash on a trashed item): left out, the spec does not say.
    if (!live(item) || item.status?.value === this.v.status) return;
    const res = await r.send('write', 'POST', r.path('item', item.ref), { body: { status: this.v.status }, invalid: ['status'] });
    if (!is4xx(res.status)) r.fail(`a write with status ${this.v.status} answered ${res.status}; part 3: ${this.v.status} is accepted only in the list filter`);
    const obs = await r.observe(m.world);
    m.world = r.settle([refusal(m.world, 'a refused write changes nothing')], answerOf(res), obs, r.lastRequest());
  }
}

/**
 * List #ref's revisions (checking what the updates so far made), then delete one: without
 * force=true it must be refused and stay (part 3, rule 2); with force=true it is gone, or the
 * target refuses the capability (401/403: not shown).
 */
class RevisionDelete extends OnItem<{ pick: number; pos: number; force: boolean }> {
  async run(m: SeqModel, r: SeqReal) {
    const item = pickItem(m, this.v.pick);
    r.begin(`delete a revision of #${item.ref}${this.v.force ? ' (force=true)' : ' (without force)'}`);
    if (!live(item)) return;
    const { item: next, listing } = await r.observeRevisions(item);
    m.world = m.world.map((w) => (w.ref === item.ref ? next : w));
    const revs = next.rev.listed;
    if (!revs.length) return;
    const chosen = revs[this.v.pos % revs.length]!;
    const pos = r.revisionPosition(item.ref, chosen.id)!;
    listing.defines = [...(listing.defines ?? []), { token: revToken(item.ref, pos), nth: pos }];
    const route = r.path('revision', item.ref, pos);
    const res = await r.send('write', 'DELETE', route, { ...(this.v.force ? { query: { force: true } } : {}), refusal501: true });
    const delRec = r.lastRequest();
    const after = await r.send('check', 'GET', route, { query: { context: 'edit' } });
    if (!this.v.force) {
      if (is2xx(res.status)) r.fail(`DELETE on a revision without force=true was accepted (${res.status}); part 3, rule 2: deleting a revision requires force=true (revisions have no trash)`, delRec);
      if (after.status !== 200) r.fail(`after the refused DELETE without force, GET of revision ${chosen.id} answers ${after.status}: the revision is gone`);
      return;
    }
    if (res.status === 401 || res.status === 403) {
      // Which capability deleting a revision needs is not shown (part 5): the revision stays.
      if (after.status !== 200) r.fail(`DELETE of revision ${chosen.id} was refused (${res.status}), yet GET answers ${after.status}: the revision is gone`);
      return;
    }
    if (!is2xx(res.status)) r.fail(`DELETE of revision ${chosen.id} with force=true answered ${res.status} ${res.body?.code ?? ''} (part 3, rule 2)`.trim(), delRec);
    if (is2xx(after.status)) r.fail(`revision ${chosen.id} was deleted with force=true (${res.status}), yet GET still reads it (${after.status})`);
    const left = next.rev.listed.filter((x) => x.id !== chosen.id);
    m.world = m.world.map((w) =>
      w.ref === item.ref ? { ...w, rev: { ...w.rev, listed: left, latest: left.length ? [left[0]!.title] : [null], deleted: [...w.rev.deleted, chosen.id] } } : w,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Batches
// ---------------------------------------------------------------------------------------------

type BatchItem =
  | { kind: 'create'; status: string; parent: number | null }
  | ({ kind: 'update' } & UpdateArgs)
  | { kind: 'trash'; pick: number }
  | { kind: 'delete'; pick: number };

const BATCH = endpointById('batch.v1.create');

/** Whether the answers can be matched one to one with the items (`fits(answer, item)`) in some order (a batch holds at most a few items). */
function inSomeOrder<A>(answers: readonly A[], fits: (a: A, i: number) => boolean): boolean {
  const used = new Set<number>();
  const place = (i: number): boolean => {
    if (i === answers.length) return true;
    for (let j = 0; j < answers.length; j++) {
      if (used.has(j) || !fits(answers[j]!, i)) continue;
      used.add(j);
      if (place(i + 1)) return true;
      used.delete(j);
    }
    return false;
  };
  return place(0);
}

class Batch implements Cmd {
  constructor(readonly items: BatchItem[]) {}
  check(m: Readonly<SeqModel>) {
    const creates = this.items.filter((i) => i.kind === 'create').length;
    return (m.world.length > 0 || creates === this.items.length) && m.world.length + creates <= MAX_ITEMS;
  }
  async run(m: SeqModel, r: SeqReal) {
    const ops: Op[] = [];
    const requests: Record<string, unknown>[] = [];
    const labels: string[] = [];
    let nextRef = m.world.length + 1;
    const newRefs: { ref: number; slug: string; index: number }[] = [];
    const target = (route: string) => r.t.run.profile.toTargetRoute(route);
    // A page the batch deletes is no parent for another item of it (it may be gone by then).
    const deleted = new Set(this.items.flatMap((it) => (it.kind === 'delete' ? [pickItem(m, it.pick).ref] : [])));
    // Dates follow the statuses written in request order (a publish after a future in the same batch needs a past date).
    const dated = new Map(m.world.map((w) => [w.ref, w.dateFuture]));
    this.items.forEach((it, index) => {
      if (it.kind === 'create') {
        const ref = nextRef++;
        const title = r.title(ref);
        const slug = r.slug(ref);
        const parent = r.hasParent ? parentFor(m, r, it.parent, undefined, deleted) : undefined;
        requests.push({ method: 'POST', path: target(r.type.collection), body: { title: textObject(title), slug, status: it.status, ...dateFor(it.status), ...(parent ? { parent: parent.token } : {}) } });
        ops.push({ kind: 'create', ref, fields: { title, slug, status: it.status, ...(parent ? { parent: parent.id } : {}) } });
        newRefs.push({ ref, slug, index });
        labels.push(`create #${ref} (${it.status})`);
        return;
      }
      const item = pickItem(m, it.pick);
      const path = target(r.path('item', item.ref));
      if (it.kind === 'update') {
        const { body, fields } = updateFields(m, r, { ...item, dateFuture: dated.get(item.ref)! }, it, deleted);
        if (fields.status !== undefined) dated.set(item.ref, fields.status === 'future');
        requests.push({ method: it.method, path, body });
        ops.push({ kind: 'update', ref: item.ref, fields });
        labels.push(`${it.method} #${item.ref} (${describeFields(body)})`);
      } else if (it.kind === 'trash') {
        requests.push({ method: 'DELETE', path });
        ops.push({ kind: 'trash', ref: item.ref });
        labels.push(`trash #${item.ref}`);
      } else {
        requests.push({ method: 'DELETE', path: `${path}?force=true` });
        ops.push({ kind: 'delete', ref: item.ref });
        labels.push(`delete #${item.ref} for good`);
      }
    });
    r.begin(`batch: ${labels.join('; ')}`);
    const res = await r.send('write', 'POST', BATCH.route.path, { body: { requests } });
    const batchRec = r.lastRequest();
    if (!is2xx(res.status)) r.fail(`a batch of ${requests.length} batchable writes answered ${res.status} ${res.text.slice(0, 160)} (part 1: the batch route runs several write requests in one call)`);
    // WordPress's answer shape (not stated): one answer per item, in order.
    const responses = res.body?.responses;
    const listed: (Answer | undefined)[] | undefined =
      Array.isArray(responses) && responses.length === requests.length ? responses.map((x: any) => (typeof x?.status === 'number' ? { status: x.status, body: x.body } : undefined)) : undefined;
    // Answers that are not in the items' order (an answer names another item's slug or id) are the
    // batch checks' finding (batch.response.multi-status); the model then reads the state alone
    // and finds what the batch created by slug.
    const inOrder = (a: Answer | undefined, i: number) => {
      const id = a?.body?.id;
      if (!a || !is2xx(a.status) || typeof id !== 'number') return true;
      const op = ops[i]!;
      if (op.kind === 'create') {
        const slug = newRefs.find((n) => n.index === i)?.slug;
        return !slug || typeof a.body.slug !== 'string' || a.body.slug === slug || a.body.slug.startsWith(`${slug}-`);
      }
      const known = r.ids.get(op.ref);
      return known === undefined || known === id;
    };
    const answers = listed?.every(inOrder) ? listed : undefined;
    // The ids of the items the batch created: from the answer when it has that shape, else by slug.
    const missing: typeof newRefs = [];
    for (const n of newRefs) {
      const a = answers?.[n.index];
      if (a && is2xx(a.status) && typeof a.body?.id === 'number') r.created(n.ref, a.body.id);
      else missing.push(n);
    }
    if (missing.length) {
      const found = await r.send('lookup', 'GET', r.type.collection, { query: { slug: missing.map((x) => x.slug), status: [...ALL_STATUSES], context: 'edit', per_page: 100 } });
      const list = Array.isArray(found.body) ? found.body : [];
      for (const n of missing) {
        const hit = list.find((e: any) => e?.slug === n.slug && typeof e?.id === 'number');
        if (hit) r.created(n.ref, hit.id);
      }
    }
    batchRec.defines = newRefs.map((n) => ({ token: itemToken(n.ref), nth: 1, slug: n.slug }));
    for (const n of newRefs) if (!r.ids.has(n.ref)) r.fail(`the batch's item ${n.index + 1} (create #${n.ref}, slug ${n.slug}) was not applied: no ${r.type.noun} with that slug exists in any status`);
    const worlds = batchWorlds(r.withIds(m.world), ops, String(r.current.n), answers);
    const obs = await r.observe(worlds[0]!.world);
    const listRec = r.lastRequest();
    const name = (x: number) => r.name(x);
    const mustOk = worlds.find((w) => mismatches(w.world, obs, 'MUST', name).length === 0);
    const pref = worlds[0]!;
    const fits = (a: Answer | undefined, i: number) => a === undefined || (pref.outcomes[i]!.response.must(a) && pref.outcomes[i]!.response.should(a));
    // Answers that fit the items only in another order (items that all address one item, where no
    // id tells them apart) are out of order: the batch checks' finding, not the model's.
    const answersOk = !answers || ops.every((_, i) => fits(answers[i], i)) || inSomeOrder(answers, fits);
    const prefOk = pref.preferred && answersOk && mismatches(pref.world, obs, 'SHOULD', name).length === 0;
    if (!mustOk)
      r.fail(
        `no order of the batch's items, each applied as a single request would be, leaves this state: ${mismatches(pref.world, obs, 'MUST', name)
          .map((x) => x.text)
          .join('; ')} (part 1: the batch runs the write requests)`,
        listRec,
      );
    if (!prefOk) {
      const bad = answers ? ops.findIndex((_, i) => answers[i] !== undefined && !(pref.outcomes[i]!.response.must(answers[i]!) && pref.outcomes[i]!.response.should(answers[i]!))) : -1;
      if (bad >= 0) r.should(`the batch's item ${bad + 1} (${labels[bad]}) answered ${answers![bad]!.status}; applied in order as a single request, WordPress answers ${pref.outcomes[bad]!.response.text}`, batchRec);
      else
        r.should(
          `${mismatches(pref.world, obs, 'SHOULD', name)
            .map((x) => x.text)
            .join('; ')} (WordPress applies the batch's items in order, as single requests)`,
          listRec,
        );
    }
    m.world = r.withIds(learn((prefOk ? pref : mustOk).world, obs));
  }
  toString() {
    return `batch(${JSON.stringify(this.items)})`;
  }
}

// ---------------------------------------------------------------------------------------------
// List filters
// ---------------------------------------------------------------------------------------------

type FilterArgs = { kind: Filter['kind']; bits: number };

class List extends OnItem<FilterArgs> {
  async run(m: SeqModel, r: SeqReal) {
    const known = m.world.filter((w) => r.ids.has(w.ref));
    const subset = <T>(xs: T[]): T[] => {
      const out = xs.filter((_, i) => (this.v.bits >> i) & 1);
      return out.length ? out : xs.slice(0, 1);
    };
    const scope = { include: known.map((w) => itemToken(w.ref)) };
    const withSlug = known.filter((w) => live(w) && w.slug !== undefined);
    let filter: Filter;
    let query: Record<string, any>;
    switch (this.v.kind) {
      case 'status': {
        const statuses = subset([...ALL_STATUSES]);
        filter = { kind: 'status', statuses };
        query = { ...scope, status: statuses };
        break;
      }
      case 'default':
        filter = { kind: 'default' };
        query = { ...scope };
        break;
      case 'any':
        filter = { kind: 'any' };
        query = { ...scope, status: [ANY] };
        break;
      case 'include': {
        const refs = subset(known.map((w) => w.ref));
        filter = { kind: 'include', refs };
        query = { include: refs.map(itemToken), status: [...ALL_STATUSES] };
        break;
      }
      case 'exclude': {
        // Scoped by slug, not include: WordPress ignores exclude when include is given (WP_Query
        // takes post__in over post__not_in); what the two together mean is not stated.
        if (!withSlug.length) return;
        const refs = subset(known.map((w) => w.ref));
        filter = { kind: 'exclude', refs };
        query = { slug: withSlug.map((w) => w.slug!.value), exclude: refs.map(itemToken), status: [...ALL_STATUSES] };
        break;
      }
      case 'slug': {
        if (!withSlug.length) return;
        const refs = subset(withSlug.map((w) => w.ref));
        filter = { kind: 'slug', refs };
        query = { ...scope, slug: refs.map((x) => withSlug.find((w) => w.ref === x)!.slug!.value), status: [...ALL_STATUSES] };
        break;
      }
      case 'parent': {
        if (!r.hasParent) return;
        const parents = subset([0, ...known.filter(live).map((w) => r.ids.get(w.ref)!)]);
        filter = { kind: 'parent', parents };
        query = { ...scope, parent: parents.map((p) => (p === 0 ? 0 : itemToken(m.world.find((w) => r.ids.get(w.ref) === p)!.ref))), status: [...ALL_STATUSES] };
        break;
      }
    }
    r.begin(`list ${describeFilter(filter)}`);
    const res = await r.send('check', 'GET', r.type.collection, { query: { ...query, context: 'edit', per_page: 100 } });
    if (res.status !== 200 || !Array.isArray(res.body)) r.fail(`the listing answered ${res.status} ${res.text.slice(0, 160)}`);
    const exp = filterExpectation(m.world, filter);
    const ids = new Set(idsOf(res.body));
    const mine = new Map(known.map((w) => [r.ids.get(w.ref)!, w.ref]));
    const foreign = [...ids].filter((id) => !mine.has(id));
    const listed = [...ids].filter((id) => mine.has(id)).map((id) => mine.get(id)!);
    const show = (refs: number[]) => (refs.length ? refs.map((x) => r.name(x)).join(', ') : 'nothing');
    const state = (refs: number[]) => refs.map((x) => `${r.name(x)}: ${m.world.find((w) => w.ref === x)?.status?.value ?? 'deleted'}`).join(', ');
    if (foreign.length) r.fail(`${filter.kind === 'exclude' ? 'slug limits the list to the given slugs' : 'include limits the list to the given identifiers'}, but the listing holds ${foreign.join(', ')}, none of the sequence's items`);
    const missingMust = (exp.atLeast ?? (exp.level === 'MUST' ? exp.exact : [])).filter((x) => !listed.includes(x));
    const extraMust = exp.level === 'MUST' ? listed.filter((x) => !exp.exact.includes(x)) : [];
    if (missingMust.length || extraMust.length)
      r.fail(`${exp.why}: expected ${exp.atLeast ? `at least ${show(exp.atLeast)}` : show(exp.exact)}, listed ${show(listed)} (the items now: ${state(known.map((w) => w.ref))})`);
    const missing = exp.exact.filter((x) => !listed.includes(x));
    const extra = listed.filter((x) => !exp.exact.includes(x));
    if (missing.length || extra.length) r.should(`${exp.why}: expected ${show(exp.exact)}, listed ${show(listed)} (the items now: ${state(known.map((w) => w.ref))})`);
  }
}

function describeFilter(f: Filter): string {
  switch (f.kind) {
    case 'status':
      return `status=${f.statuses.join(',')}`;
    case 'default':
      return 'without status (default publish)';
    case 'any':
      return 'status=any';
    case 'include':
    case 'exclude':
    case 'slug':
      return `${f.kind}=${f.refs.map((x) => `#${x}`).join(',')}`;
    case 'parent':
      return `parent=${f.parents.map((p) => (p === 0 ? '0' : String(p))).join(',')}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Arbitraries, from the catalog
// ---------------------------------------------------------------------------------------------

export type Sequence = [Cmd, Iterable<Cmd>];

/**
 * A sequence: a create (every sequence needs an item to work on; shrinking keeps it), then up to
 * `maxCommands` commands (fast-check `fc.commands`: shrinking drops and simplifies them).
 */
export function sequenceArb(type: PostType, maxCommands: number, opts: { batch: boolean }): fc.Arbitrary<Sequence> {
  const first = fc.record({ status: fc.constantFrom(...WRITE_STATUSES), parent: fc.constant(null) }).map((v) => new Create(v) as Cmd);
  return fc.tuple(first, fc.commands([commandArb(type, opts)], { maxCommands }));
}

export function commandArb(type: PostType, opts: { batch: boolean }): fc.Arbitrary<Cmd> {
  // Mostly the first item: defects that need several operations on one item show sooner.
  const pick = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.nat({ max: 7 }) });
  const status = fc.constantFrom(...WRITE_STATUSES);
  const hasParent = 'parent' in type.fields;
  const parentPick = hasParent ? fc.option(fc.nat({ max: 7 }), { freq: 2 }) : fc.constant(null);
  const methods = endpointById(`cms.${type.name}.item.update`).endpoint.methods as Method[];
  const update = fc.record({
    pick,
    method: fc.constantFrom(...methods),
    title: fc.nat({ max: 3 }).map((n) => n > 0),
    status: fc.option(status, { freq: 2 }),
    slug: fc.nat({ max: 3 }).map((n) => n === 0),
    parent: hasParent ? fc.option(fc.option(fc.nat({ max: 7 }), { freq: 2 }), { freq: 1, nil: undefined }) : fc.constant(undefined),
  });
  const batchMethods = (BATCH.endpoint.args as any).requests.items.properties.method.enum as string[];
  const batchable = (id: string) => endpointById(`cms.${type.name}.${id}`).endpoint.allowBatch === true;
  // Batch items: the batchable write endpoints (allow_batch), with the item methods the batch accepts.
  const batchItems: fc.WeightedArbitrary<BatchItem>[] = [];
  if (batchable('collection.create') && batchMethods.includes('POST')) batchItems.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('create' as const), status, parent: parentPick }) });
  if (batchable('item.update') && methods.some((x) => batchMethods.includes(x)))
    batchItems.push({ weight: 3, arbitrary: update.map((u) => ({ kind: 'update' as const, ...u, method: batchMethods.includes(u.method) ? u.method : methods.find((x) => batchMethods.includes(x))! })) });
  if (batchable('item.delete') && batchMethods.includes('DELETE')) {
    batchItems.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('trash' as const), pick }) });
    batchItems.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick }) });
  }
  const filterKinds: Filter['kind'][] = ['status', 'status', 'default', 'any', 'include', 'exclude', 'slug', ...(hasParent ? (['parent'] as const) : [])];
  const weighted: fc.WeightedArbitrary<Cmd>[] = [
    { weight: 3, arbitrary: fc.record({ status, parent: parentPick }).map((v) => new Create(v)) },
    { weight: 10, arbitrary: update.map((v) => new Update(v)) },
    { weight: 3, arbitrary: fc.record({ pick, forceFalse: fc.boolean() }).map((v) => new Trash(v)) },
    { weight: 1, arbitrary: fc.record({ pick }).map((v) => new Delete(v)) },
    { weight: 2, arbitrary: fc.record({ pick }).map((v) => new Autosave(v)) },
    { weight: 1, arbitrary: fc.record({ pick, pos: fc.nat({ max: 7 }), force: fc.boolean() }).map((v) => new RevisionDelete(v)) },
    { weight: 1, arbitrary: fc.record({ pick, status: fc.constantFrom(...FILTER_ONLY_STATUSES) }).map((v) => new FilterOnlyStatus(v)) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom(...filterKinds), bits: fc.nat({ max: 31 }) }).map((v) => new List(v)) },
  ];
  if (opts.batch && batchItems.length) weighted.push({ weight: 3, arbitrary: fc.array(fc.oneof(...batchItems), { minLength: 1, maxLength: 4 }).map((items) => new Batch(items)) });
  return fc.oneof(...weighted);
}

export const FINALLY = 'finally';

/**
 * Check what the model holds at the end of a sequence: the first item (the one most commands
 * work on) reads back (GET) as the last listing showed it, items deleted for good do not read
 * at all; the revisions and autosaves of every item that exists.
 */
export async function finish(m: SeqModel, r: SeqReal): Promise<void> {
  r.begin(`${FINALLY}: read back, list revisions and autosaves`);
  for (const item of m.world) {
    if (!r.ids.has(item.ref)) continue;
    if (item.ref === 1 || !live(item))
      await r.readBack(item.ref, live(item) ? { status: item.status!.value, title: item.title!.value, slug: item.slug!.value, ...(item.parent ? { parent: item.parent.value } : {}) } : null);
    if (!live(item)) continue;
    const worth = item.rev.added[1] > 0 || item.rev.deleted.length > 0 || item.autosave.id !== null || item.autosave.accepted !== undefined;
    if (!worth) continue;
    const { item: next } = await r.observeRevisions(item);
    m.world = m.world.map((w) => (w.ref === item.ref ? next : w));
  }
}
