/**
 * A model of what part 3 (and part 4) of the core document state about posts and pages, for
 * model-based testing of sequences of operations: which statuses a write accepts, trash versus
 * `force=true`, what a list filter returns for the current state; and, at SHOULD level, what
 * WordPress does where the spec is silent (partial updates, a second trash answered 410, a
 * revision per update that changes the content, one autosave per parent, a draft autosaved in
 * place, batch items applied in order).
 *
 * Pure: no requests. An operation's effect is a set of possible outcomes, each a predicted
 * state in which every value carries the level that predicts it (MUST: the spec states it;
 * SHOULD: WordPress does it). Where the spec is silent and WordPress could differ, a value is
 * left undetermined (anything observed is accepted, and then known). An outcome WordPress
 * takes is `preferred`; the others are what the spec allows besides (a refused transition,
 * batch items applied in another order). After every command the observed state must match
 * some outcome at MUST level, and a preferred outcome at every level for SHOULD.
 */
import { catalog } from '../../../schemas/catalog/index.ts';

export type Level = 'MUST' | 'SHOULD';

/** A predicted value and the level of the statement that predicts it. */
export interface Expect<T> {
  value: T;
  level: Level;
  /** The step whose request gave the item this value (for the message: the step that finds a difference is not always the one that made it). */
  since?: string;
}

const must = <T>(value: T, since?: string): Expect<T> => ({ value, level: 'MUST', ...(since ? { since } : {}) });
const should = <T>(value: T, since?: string): Expect<T> => ({ value, level: 'SHOULD', ...(since ? { since } : {}) });
/** The value kept by a rule of `level`: a value only WordPress predicts stays a SHOULD. */
const kept = <T>(e: Expect<T> | undefined, level: Level): Expect<T> | undefined =>
  e === undefined ? undefined : { value: e.value, level: e.level === 'SHOULD' || level === 'SHOULD' ? 'SHOULD' : 'MUST', ...(e.since ? { since: e.since } : {}) };

/** Part 3: statuses accepted on write. */
export const WRITE_STATUSES: readonly string[] = catalog.statuses.write;
/** The filter-only status an item reaches by DELETE without force (rule 1: the trash). */
export const TRASH = catalog.statuses.filterOnly.find((s) => s === 'trash') ?? 'trash';
/** Every status an item of a sequence can be in: a listing with all of them sees every item that exists. */
export const ALL_STATUSES: readonly string[] = [...WRITE_STATUSES, TRASH];
/** The default of the `status` list filter (part 4, post collection query). */
export const DEFAULT_STATUS = 'publish';
/** `any` (a filter-only value): MUST lists the items of these statuses (as the status filter behaviour holds); WordPress lists every status but trash. */
export const ANY = 'any';
export const ANY_MUST: readonly string[] = WRITE_STATUSES.filter((s) => s !== 'future');

/** What is observed of one item that exists: its entry in a listing (edit context). */
export interface Seen {
  status: string;
  title: string;
  slug: string;
  /** Pages only. */
  parent?: number;
}

/** Revisions of one item, accounted for at SHOULD level (when one is made is not stated). */
export interface Revisions {
  /** Revisions (not autosaves) as last listed, newest first; [] at creation (WordPress makes none). */
  listed: { id: number; title: string }[];
  /** How many revisions were made since the last listing: [at least, at most]. */
  added: [number, number];
  /** Which steps made them (for the message). */
  why: string[];
  /** What the newest revision's title may be (null: there is none); undefined: not determined. */
  latest?: (string | null)[];
  /** MUST: revisions deleted with force=true, never listed again. */
  deleted: number[];
}

export interface Autosave {
  /** SHOULD: the item's one autosave (null: none); undefined: not determined. */
  id?: number | null;
  /** MUST: an autosave with its own id that was accepted (it is listed under the item). */
  accepted?: number;
}

/** One item as predicted after an operation. */
export interface PItem {
  ref: number;
  /** The target's id, once known. */
  id?: number;
  exists: Expect<boolean>;
  status?: Expect<string>;
  title?: Expect<string>;
  slug?: Expect<string>;
  parent?: Expect<number>;
  /** The item's date is in the future (a write to publish would make it future: we send a date). */
  dateFuture: boolean;
  rev: Revisions;
  autosave: Autosave;
}

export type World = PItem[];

/** A write body as the model sees it (ids of other items already resolved). */
export interface Fields {
  title?: string;
  status?: string;
  slug?: string;
  /** A slug sent that another published item of the type holds: the item gets another one, or the write is refused (part 2: unique for the type). */
  slugTaken?: string;
  parent?: number;
}

export type Op =
  | { kind: 'create'; ref: number; fields: Fields & { title: string; status: string; slug: string } }
  | { kind: 'update'; ref: number; fields: Fields }
  | { kind: 'trash'; ref: number }
  | { kind: 'delete'; ref: number }
  | { kind: 'autosave'; ref: number; title: string };

/** An answer of the target to one request (the body only for single requests). */
export interface Answer {
  status: number;
  body?: any;
}

export interface ResponseRule {
  /** What is expected, for messages: "2xx", "2xx or 4xx", "410". */
  text: string;
  must(a: Answer): boolean;
  should(a: Answer): boolean;
}

export interface Outcome {
  label: string;
  /** What WordPress does. */
  preferred: boolean;
  response: ResponseRule;
  world: World;
  /** Why, for messages (the rule of the spec or WordPress it follows). */
  because: string;
}

export const is2xx = (s: number) => s >= 200 && s <= 299;
export const is4xx = (s: number) => s >= 400 && s <= 499;

const ANSWER = {
  ok: { text: '2xx', must: (a: Answer) => is2xx(a.status), should: (a: Answer) => is2xx(a.status) },
  refused: { text: 'a refusal (4xx)', must: (a: Answer) => is4xx(a.status), should: (a: Answer) => is4xx(a.status) },
  /** Not stated (errors are not shown): anything but a server error; WordPress answers `code`. */
  any: (code: number): ResponseRule => ({ text: `anything (WordPress: ${code})`, must: (a) => a.status < 500, should: (a) => a.status === code }),
} satisfies Record<string, ResponseRule | ((n: number) => ResponseRule)>;

/** A refused write: it changes nothing (as the write behaviours hold for refused statuses). */
export const refusal = (world: World, because: string, preferred = true): Outcome => ({ label: 'refused', preferred, response: ANSWER.refused, world, because });

const SPEC_RULE1 = 'part 3, rule 1: without force the item goes to the trash; only force=true bypasses the trash and deletes permanently';

// ---------------------------------------------------------------------------------------------
// Revisions: WordPress saves one on every update that changes title, content or excerpt, and on
// the first update of an item (there is no earlier revision to compare with); never on create.
// ---------------------------------------------------------------------------------------------

/** After an accepted update whose resulting title is `title` (undefined: not determined). */
function revisedByUpdate(rev: Revisions, title: string | undefined, step: string): Revisions {
  if (title === undefined || rev.latest === undefined) return { ...rev, added: [rev.added[0], rev.added[1] + 1], latest: title === undefined ? undefined : [title] };
  const differs = rev.latest.map((l) => l !== title);
  // Why a revision is expected, in words a reader maps to the numbered requests of the report ("step 3" there; "3.1": its first operation).
  const where = step.includes('.') ? `step ${step.split('.')[0]}, its operation ${step.split('.')[1]}` : `step ${step}`;
  const why = rev.latest.every((l) => l === null) ? `the first update of the item (${where})` : `the update that changed the title to ${JSON.stringify(title)} (${where})`;
  if (differs.every(Boolean)) return { ...rev, added: [rev.added[0] + 1, rev.added[1] + 1], why: [...rev.why, why], latest: [title] };
  if (!differs.some(Boolean)) return rev;
  return { ...rev, added: [rev.added[0], rev.added[1] + 1], latest: [title] };
}

/**
 * After a trash: WordPress trashes by an update of the status, so the first update rule makes a
 * revision when there is none; the reference server does not. Either is accepted.
 */
function revisedByTrash(rev: Revisions, title: string | undefined): Revisions {
  if (title === undefined || rev.latest === undefined) return { ...rev, added: [rev.added[0], rev.added[1] + 1], latest: undefined };
  if (rev.latest.every((l) => l === title)) return rev;
  return { ...rev, added: [rev.added[0], rev.added[1] + 1], latest: [...new Set([...rev.latest, title])] };
}

/** Revisions of an outcome WordPress does not take: not accounted for any more. */
const unaccounted = (rev: Revisions): Revisions => ({ ...rev, added: [rev.added[0], Number.POSITIVE_INFINITY], latest: undefined });

// ---------------------------------------------------------------------------------------------
// Transitions
// ---------------------------------------------------------------------------------------------

type Cls = 'gone' | 'trash' | 'live';

/**
 * Which state an item is in: exact when its existence and status are stated (always so after an
 * observation); else the one WordPress predicts (preferred) and the others the spec allows.
 */
function classes(item: PItem): { cls: Cls; preferred: boolean; item: PItem }[] {
  const clsOf = (exists: boolean, status: string | undefined): Cls => (!exists ? 'gone' : status === TRASH ? 'trash' : 'live');
  const exact = item.exists.level === 'MUST' && (!item.exists.value || item.status?.level === 'MUST');
  const best = clsOf(item.exists.value, item.status?.value);
  if (exact) return [{ cls: best, preferred: true, item }];
  const out: { cls: Cls; preferred: boolean; item: PItem }[] = [{ cls: best, preferred: true, item }];
  for (const cls of ['gone', 'trash', 'live'] as Cls[]) {
    if (cls === best) continue;
    if (cls === 'gone' && item.exists.level === 'MUST') continue;
    if (cls !== 'gone' && item.exists.level === 'MUST' && !item.exists.value) continue;
    if (cls === 'trash' && item.status?.level === 'MUST') continue;
    if (cls === 'live' && item.status?.level === 'MUST') continue;
    const status = cls === 'trash' ? must(TRASH) : cls === 'live' ? undefined : item.status;
    out.push({ cls, preferred: false, item: { ...item, exists: must(cls !== 'gone'), status } });
  }
  return out;
}

const replace = (world: World, item: PItem): World => world.map((w) => (w.ref === item.ref ? item : w));

/** Pages whose parent was deleted for good: their parent is not stated (WordPress: the grandparent). */
function orphan(world: World, deletedId: number | undefined): World {
  if (deletedId === undefined) return world;
  return world.map((w) => (w.parent?.value === deletedId ? { ...w, parent: undefined } : w));
}

export interface StepContext {
  /** The step number, for revision accounting messages. */
  step: string;
  /** The answer to this operation, when known (single requests, or batch items in WordPress's answer shape). */
  answer?: Answer;
}

/** Every outcome the spec allows for `op` applied to `world` (WordPress's first). */
export function step(world: World, op: Op, ctx: StepContext): Outcome[] {
  if (op.kind === 'create') {
    const f = op.fields;
    const item: PItem = {
      ref: op.ref,
      exists: must(true, ctx.step),
      status: must(f.status, ctx.step),
      title: must(f.title, ctx.step),
      slug: must(f.slug, ctx.step),
      ...(f.parent !== undefined ? { parent: must(f.parent, ctx.step) } : {}),
      dateFuture: f.status === 'future',
      rev: { listed: [], added: [0, 0], why: [], latest: [null], deleted: [] },
      autosave: { id: null },
    };
    return [{ label: 'created', preferred: true, response: ANSWER.ok, world: [...world, item], because: `part 3: ${f.status} is a status accepted on write; all writable fields are optional and stored as sent` }];
  }
  const current = world.find((w) => w.ref === op.ref);
  if (!current) throw new Error(`model: no item #${op.ref}`);
  return classes(current).flatMap(({ cls, preferred, item }) =>
    transition(world, item, cls, op, ctx).map((o) => ({ ...o, preferred: o.preferred && preferred })),
  );
}

function transition(world: World, item: PItem, cls: Cls, op: Exclude<Op, { kind: 'create' }>, ctx: StepContext): Outcome[] {
  const unchanged = (label: string, response: ResponseRule, because: string, preferred = true): Outcome => ({ label, preferred, response, world: replace(world, item), because });
  if (cls === 'gone') {
    // Deleted permanently: nothing brings it back. What the target answers is not stated.
    return [unchanged('still deleted', ANSWER.any(404), `${SPEC_RULE1}; the item was deleted permanently`)];
  }
  switch (op.kind) {
    case 'update': {
      const f = op.fields;
      const written: PItem = {
        ...item,
        // What was sent is stored (MUST); what was not sent stays as it was (SHOULD: partial update).
        status: f.status !== undefined ? must(f.status, ctx.step) : kept(item.status, 'SHOULD'),
        title: f.title !== undefined ? must(f.title, ctx.step) : kept(item.title, 'SHOULD'),
        // Leaving the trash (a transition, not shown): WordPress gives back the slug the item had
        // before the trash, even over one sent with the update; the reference server keeps
        // …__trashed, or the slug sent. Not determined.
        slug: (cls === 'trash' && f.status !== undefined && f.status !== TRASH) || f.slugTaken !== undefined ? undefined : f.slug !== undefined ? must(f.slug, ctx.step) : kept(item.slug, 'SHOULD'),
        parent: f.parent !== undefined ? must(f.parent, ctx.step) : kept(item.parent, 'SHOULD'),
        dateFuture: f.status !== undefined ? f.status === 'future' : item.dateFuture,
        autosave: item.autosave,
      };
      const titleAfter = written.title?.value;
      written.rev = revisedByUpdate(item.rev, titleAfter, ctx.step);
      const accepted: Outcome = { label: 'updated', preferred: true, response: ANSWER.ok, world: replace(world, written), because: 'an accepted update stores the fields sent (WordPress: and keeps the others)' };
      // A change of status of a live item, and any update of a trashed item, are transitions: not shown (part 3).
      const transition = cls === 'trash' || (f.status !== undefined && f.status !== item.status?.value);
      // A slug in use: the server may refuse it (or give the item another slug: the uniqueness check of mismatches).
      if (!transition && f.slugTaken !== undefined) return [accepted, { ...refusal(replace(world, { ...item, rev: unaccounted(item.rev) }), 'part 2: the slug is unique for the type, so the target may refuse one in use; a refused write changes nothing', false) }];
      if (!transition) return [accepted];
      const refused = unchanged('refused', ANSWER.refused, 'part 3: transitions are not shown, so the target may refuse this one; a refused write changes nothing', false);
      return [accepted, { ...refused, world: replace(world, { ...item, rev: unaccounted(item.rev) }) }];
    }
    case 'trash': {
      if (cls === 'trash')
        // Already in the trash: it stays there (only force=true deletes permanently). WordPress: 410 rest_already_trashed.
        return [
          {
            label: 'still in the trash',
            preferred: true,
            response: ANSWER.any(410),
            world: replace(world, { ...item, exists: must(true, ctx.step), status: must(TRASH, ctx.step), title: kept(item.title, 'SHOULD'), slug: kept(item.slug, 'SHOULD'), parent: kept(item.parent, 'SHOULD') }),
            because: `${SPEC_RULE1}; a DELETE without force never deletes permanently`,
          },
        ];
      const trashed: PItem = {
        ...item,
        exists: must(true, ctx.step),
        status: must(TRASH, ctx.step),
        title: kept(item.title, 'SHOULD'),
        // WordPress appends __trashed to the slug of a trashed item: not determined.
        slug: undefined,
        parent: kept(item.parent, 'SHOULD'),
        rev: revisedByTrash(item.rev, item.title?.value),
      };
      return [{ label: 'trashed', preferred: true, response: ANSWER.ok, world: replace(world, trashed), because: SPEC_RULE1 }];
    }
    case 'delete': {
      const gone: PItem = { ...item, exists: must(false, ctx.step), status: undefined, title: undefined, slug: undefined, parent: undefined };
      return [{ label: 'deleted permanently', preferred: true, response: ANSWER.ok, world: orphan(replace(world, gone), item.id), because: 'part 3, rule 1: with force=true the trash is bypassed and the item is deleted permanently' }];
    }
    case 'autosave':
      return autosaveOutcomes(world, item, cls, op, ctx);
  }
}

/**
 * Autosaves (part 2: an autosave belongs to its parent and has its own id; create accepts the
 * update fields). WordPress: one autosave per parent (and user), kept by later updates; a draft
 * of the current user is updated in place instead (no autosave); a trashed item gets one.
 */
function autosaveOutcomes(world: World, item: PItem, cls: Cls, op: Extract<Op, { kind: 'autosave' }>, ctx: StepContext): Outcome[] {
  const body = ctx.answer?.body;
  const ownId = typeof body?.id === 'number' && body.id !== item.id ? (body.id as number) : undefined;
  const sameAutosave = (id: number | undefined) => typeof item.autosave.id !== 'number' || id === item.autosave.id;
  const autosaved: PItem = {
    ...item,
    title: kept(item.title, 'SHOULD'),
    status: kept(item.status, 'SHOULD'),
    slug: kept(item.slug, 'SHOULD'),
    parent: kept(item.parent, 'SHOULD'),
    autosave: { id: ownId ?? item.autosave.id, accepted: ownId ?? item.autosave.accepted },
  };
  // Its own id, and its parent: part 2 (revision and autosave).
  const ownAutosave: ResponseRule = {
    text: '2xx with an autosave of its own id whose parent is the item',
    must: (a) => is2xx(a.status) && typeof a.body?.id === 'number' && a.body.id !== item.id && a.body?.parent === item.id,
    should: (a) => is2xx(a.status) && typeof a.body?.id === 'number' && a.body.id !== item.id && a.body?.parent === item.id && sameAutosave(a.body.id),
  };
  if (cls === 'trash')
    return [
      { label: 'autosaved', preferred: true, response: ownAutosave, world: replace(world, autosaved), because: 'WordPress autosaves a trashed item like any other that is not a draft' },
      { label: 'refused', preferred: false, response: ANSWER.refused, world: replace(world, item), because: 'what an autosave of a trashed item does is not stated; a refused write changes nothing' },
    ];
  const isDraft = item.status?.value === 'draft';
  if (!isDraft) return [{ label: 'autosaved', preferred: true, response: ownAutosave, world: replace(world, autosaved), because: 'part 2: an autosave belongs to its parent and has its own id (WordPress: one per parent, the item unchanged)' }];
  // A draft: WordPress updates the item itself (the answer is the item, no autosave is made).
  const inPlace: PItem = { ...item, title: should(op.title), autosave: item.autosave, rev: item.rev };
  const either: PItem = { ...item, title: undefined, autosave: { id: undefined, accepted: ownId ?? item.autosave.accepted }, rev: unaccounted(item.rev) };
  return [
    { label: 'draft updated in place', preferred: true, response: ANSWER.ok, world: replace(world, inPlace), because: 'WordPress updates a draft of the current user in place instead of making an autosave' },
    { label: 'autosaved', preferred: false, response: ANSWER.ok, world: replace(world, either), because: 'what an autosave of a draft does is not stated beyond part 2' },
  ];
}

// ---------------------------------------------------------------------------------------------
// Batches: the items are applied as single requests would be (part 1: "runs several write
// requests in one call"). In which order is not stated: WordPress applies them in order.
// ---------------------------------------------------------------------------------------------

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

export interface BatchWorld {
  world: World;
  preferred: boolean;
  /** The order the items were applied in (indexes into the batch). */
  order: number[];
  /** Per item (in request order): the outcome applied. */
  outcomes: Outcome[];
}

/**
 * Every final state the batch may leave: each order of its items, each allowed outcome of each
 * item. The preferred world (in order, WordPress's outcomes) comes first. `answers` (WordPress's
 * per-item answers, in request order, when the target gives them) select the outcomes of the
 * preferred world only: the answer shape is not stated.
 */
export function batchWorlds(world: World, ops: Op[], stepLabel: string, answers?: (Answer | undefined)[], limit = 2000): BatchWorld[] {
  const out: BatchWorld[] = [];
  const orders = permutations(ops.map((_, i) => i));
  for (const order of orders) {
    const inOrder = order.every((v, i) => v === i);
    const walk = (w: World, k: number, preferred: boolean, picked: Outcome[]) => {
      if (out.length >= limit) return;
      if (k === order.length) {
        out.push({ world: w, preferred, order, outcomes: picked });
        return;
      }
      const idx = order[k]!;
      const answer = inOrder ? answers?.[idx] : undefined;
      for (const o of step(w, ops[idx]!, { step: `${stepLabel}.${idx + 1}`, answer })) {
        const next = [...picked];
        next[idx] = o;
        const world2 = o.preferred && inOrder && preferred ? o.world : o.world.map((it) => (it.ref === opRef(ops[idx]!) ? { ...it, rev: unaccounted(it.rev) } : it));
        walk(world2, k + 1, preferred && inOrder && o.preferred, next);
      }
    };
    walk(world, 0, true, []);
  }
  return out.sort((a, b) => Number(b.preferred) - Number(a.preferred));
}

export const opRef = (op: Op): number => op.ref;

// ---------------------------------------------------------------------------------------------
// Matching an observation
// ---------------------------------------------------------------------------------------------

/** What was observed of every item of the sequence (null: not readable, not listed in any status). */
export type Observation = Map<number, Seen | null>;

/** Which step's request gave an expected value: ` (since step 1.2)` (nothing for a value the last check observed). */
const sinceText = (e: Expect<unknown>): string => (e.since ? ` (since step ${e.since})` : '');

/** Where a predicted world and the observation differ, at MUST level only or at every level. */
export function mismatches(world: World, seen: Observation, level: Level, name: (ref: number) => string): { text: string; level: Level }[] {
  const out: { text: string; level: Level }[] = [];
  const counts = (e: { level: Level } | undefined) => e !== undefined && (level === 'SHOULD' || e.level === 'MUST');
  for (const item of world) {
    const obs = seen.get(item.ref);
    if (obs === undefined) continue;
    if (counts(item.exists)) {
      if (item.exists.value && obs === null) out.push({ text: `${name(item.ref)} should exist (status ${item.status?.value ?? 'any'}${sinceText(item.status ?? item.exists)}), but it is not listed in any status`, level: item.exists.level });
      if (!item.exists.value && obs !== null) out.push({ text: `${name(item.ref)} should be deleted for good${sinceText(item.exists)}, but it is listed with status ${obs.status}`, level: item.exists.level });
    }
    if (obs === null || !item.exists.value) continue;
    for (const k of ['status', 'title', 'slug', 'parent'] as const) {
      const e = item[k] as Expect<string | number> | undefined;
      if (!counts(e)) continue;
      if (obs[k] !== e!.value) out.push({ text: `${name(item.ref)} should have ${k} ${JSON.stringify(e!.value)}${sinceText(e!)}, but has ${JSON.stringify(obs[k])}`, level: e!.level });
    }
  }
  // Part 2: the slug is an identifier unique for the type. Published items only: a draft may keep
  // a slug that is not unique until it is published (WordPress).
  const published = world.filter((w) => w.exists.value).map((w) => [w.ref, seen.get(w.ref)] as const).filter(([, o]) => o && o.status === 'publish' && o.slug);
  published.forEach(([ref, o], i) => {
    // Across parents (a child taking the slug of a page elsewhere in the tree) is the finding of
    // cms.<type>.fields.slug-unique-child alone: one broken thing, one finding, whatever the seed.
    const twin = published.slice(i + 1).find(([, p]) => p!.slug === o!.slug && (p!.parent ?? 0) === (o!.parent ?? 0));
    if (twin) out.push({ text: `${name(ref)} and ${name(twin[0])} are both published with the slug ${JSON.stringify(o!.slug)}: the slug is unique for the type`, level: 'MUST' });
  });
  return out;
}

/** The world as observed: every value observed is stated (MUST); the model's own accounting is carried from `from`. */
export function learn(from: World, seen: Observation): World {
  return from.map((item) => {
    const obs = seen.get(item.ref);
    if (obs === undefined) return item;
    if (obs === null) return { ...item, exists: must(false), status: undefined, title: undefined, slug: undefined, parent: undefined };
    return {
      ...item,
      exists: must(true),
      status: must(obs.status),
      title: must(obs.title),
      slug: must(obs.slug),
      ...(obs.parent !== undefined ? { parent: must(obs.parent) } : {}),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// List filters over the current (observed) state
// ---------------------------------------------------------------------------------------------

export type Filter =
  | { kind: 'status'; statuses: string[] }
  | { kind: 'default' }
  | { kind: 'any' }
  | { kind: 'include'; refs: number[] }
  | { kind: 'exclude'; refs: number[] }
  | { kind: 'slug'; refs: number[] }
  | { kind: 'parent'; parents: number[] };

/** The items a filter must (and, for SHOULD, should) list, of the sequence's items that exist. */
export function filterExpectation(world: World, f: Filter): { level: Level; exact: number[]; atLeast?: number[]; why: string } {
  const live = world.filter((w) => w.exists.value && w.status !== undefined);
  const refs = (p: (w: PItem) => boolean) => live.filter(p).map((w) => w.ref);
  switch (f.kind) {
    case 'status':
      return { level: 'MUST', exact: refs((w) => f.statuses.includes(w.status!.value)), why: `status limits the list to items in the given statuses (part 4, post collection query; part 3)` };
    case 'default':
      return { level: 'MUST', exact: refs((w) => w.status!.value === DEFAULT_STATUS), why: `status defaults to ${DEFAULT_STATUS} (part 4, post collection query)` };
    case 'any':
      return {
        level: 'SHOULD',
        exact: refs((w) => w.status!.value !== TRASH),
        atLeast: refs((w) => ANY_MUST.includes(w.status!.value)),
        why: `status=any lists the items in every write status (WordPress: every status but trash)`,
      };
    case 'include':
      return { level: 'MUST', exact: refs((w) => f.refs.includes(w.ref)), why: 'include limits the list to the given identifiers' };
    case 'exclude':
      return { level: 'MUST', exact: refs((w) => !f.refs.includes(w.ref)), why: 'exclude omits the given identifiers' };
    case 'slug':
      return { level: 'MUST', exact: refs((w) => f.refs.includes(w.ref)), why: 'slug limits the list to the given slugs' };
    case 'parent':
      return { level: 'SHOULD', exact: refs((w) => w.parent !== undefined && f.parents.includes(w.parent.value)), why: 'parent limits the list to children of the given pages (WordPress)' };
  }
}
