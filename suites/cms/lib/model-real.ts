/**
 * The live side of the model-based tests: one sequence's requests to the target (recorded for
 * the report, with the ids of the items the sequence created as placeholders), the observations
 * made after each command, and the comparison with the model (suites/cms/lib/model.ts).
 *
 * A MUST deviation throws a ConformanceFailure. A SHOULD deviation (WordPress does otherwise,
 * the spec is silent) is handed to `onShould`: the MUST behaviour records the first one and
 * goes on, the SHOULD behaviour throws it.
 */
import { endpointById } from '../../../schemas/catalog/index.ts';
import { fixtures, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Method, QueryValue, Response } from '../../../src/sdk/http.ts';
import { ConformanceFailure, TargetError } from '../../../src/sdk/http.ts';
import { forceDelete } from '../../../src/sdk/fixtures.ts';
import type { PostType } from './collections.ts';
import { revisionProblems } from './items.ts';
import { checkStale } from './read-back.ts';
import {
  ALL_STATUSES,
  is2xx,
  learn,
  mismatches,
  type Answer,
  type Observation,
  type Outcome,
  type PItem,
  type Seen,
  type World,
} from './model.ts';

// ---------------------------------------------------------------------------------------------
// Placeholders: the id of item #n, and the k-th entry of #n's revision listing
// ---------------------------------------------------------------------------------------------

export const itemToken = (ref: number) => `ZZI${ref}ZZ`;
export const revToken = (ref: number, pos: number) => `ZZR${ref}X${pos}ZZ`;
export const autosaveToken = (ref: number) => `ZZA${ref}ZZ`;
/** Any placeholder: kind (I item, R revision, A autosave), the item's number, the revision's position. */
export const TOKEN_SOURCE = 'ZZ(I|R|A)(\\d+)(?:X(\\d+))?ZZ';
const TOKEN = new RegExp(TOKEN_SOURCE, 'g');

/** One request of a sequence, with placeholders where ids go. */
export interface Rec {
  method: Method;
  route: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  status: number;
  /** write: changes state; check: an observation; lookup: finds an id the script needs. */
  role: 'write' | 'check' | 'lookup';
  /**
   * Placeholders this answer defines, for the script: the nth "id" of the answer (an item created,
   * a revision of a listing), or an item the batch created, looked up by its slug.
   */
  defines?: { token: string; nth: number; slug?: string }[];
  /** What this check found wrong. */
  verdict?: string;
}

export interface Step {
  /** 1-based command number. */
  n: number;
  /** What the command does, e.g. "trash #1". */
  what: string;
  requests: Rec[];
}

export interface SessionEnv {
  t: BehaviourContext;
  type: PostType;
  /** The run tag (cmsc-…): in every title and slug, so the CLI's sweep finds leftovers. */
  tag: string;
  /** Short label of this behaviour's items, e.g. "mp" (model, posts). */
  label: string;
  /** A SHOULD deviation: the MUST behaviour records it, the SHOULD behaviour throws it. */
  onShould(message: string): void;
  /** Items created so far by the session (all sequences), for cleanup. */
  created: Map<number, { route: string; deleted: boolean }>;
  /** Sequences run so far (unique labels). */
  sequences: number;
}

const UPDATE_METHODS = (type: PostType) => endpointById(`cms.${type.name}.item.update`).endpoint.methods as Method[];

/** The live side of one sequence. */
export class SeqReal {
  readonly steps: Step[] = [];
  readonly ids = new Map<number, number>();
  readonly revs = new Map<string, number>();
  /** The autosave (its own id) of each item that has one. */
  readonly autosaves = new Map<number, number>();
  readonly seq: number;
  private versions = 0;
  readonly hasParent: boolean;
  readonly updateMethods: Method[];

  constructor(readonly env: SessionEnv) {
    this.seq = ++env.sequences;
    this.hasParent = 'parent' in env.type.fields;
    this.updateMethods = UPDATE_METHODS(env.type);
  }

  get t() {
    return this.env.t;
  }
  get type() {
    return this.env.type;
  }

  /** Start a command. */
  begin(what: string): Step {
    const s: Step = { n: this.steps.length + 1, what, requests: [] };
    this.steps.push(s);
    return s;
  }
  get current(): Step {
    return this.steps[this.steps.length - 1]!;
  }

  /** A route of item #ref, with its id as a placeholder (and revision `pos` of its listing). */
  path(kind: 'item' | 'revisions' | 'autosaves' | 'revision' | 'autosave', ref: number, pos?: number): string {
    const shape = this.type.paths[kind];
    return shape.replace(/<(id|parent)>/g, (_, k: string) => (kind === 'revision' && k === 'id' ? revToken(ref, pos!) : kind === 'autosave' && k === 'id' ? autosaveToken(ref) : itemToken(ref)));
  }

  name(ref: number): string {
    const id = this.ids.get(ref);
    return `#${ref}${id === undefined ? '' : ` (${this.type.noun} ${id})`}`;
  }

  /** A fresh slug and title for item #ref of this sequence (tagged). */
  slug(ref: number, extra = ''): string {
    return `${this.env.tag}-${this.env.label}${this.seq}-${ref}${extra}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  }
  title(ref: number): string {
    return `${this.env.tag} ${this.env.label}${this.seq} #${ref} v${++this.versions}`;
  }
  version(): number {
    return ++this.versions;
  }

  resolve<T>(v: T): T {
    const one = (s: string): string | number => {
      const whole = new RegExp(`^${TOKEN_SOURCE}$`).exec(s);
      if (whole) return this.lookup(whole[1]!, Number(whole[2]), whole[3]);
      return s.replace(TOKEN, (_, k: string, r: string, p?: string) => String(this.lookup(k, Number(r), p)));
    };
    const walk = (x: unknown): unknown => {
      if (typeof x === 'string') return one(x);
      if (Array.isArray(x)) return x.map(walk);
      if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
      return x;
    };
    return walk(v) as T;
  }

  private lookup(kind: string, ref: number, pos?: string): number {
    const v = kind === 'I' ? this.ids.get(ref) : kind === 'A' ? this.autosaves.get(ref) : this.revs.get(`${ref}.${pos}`);
    if (v === undefined) throw new Error(`model: no id for ${kind === 'I' ? `#${ref}` : kind === 'A' ? `the autosave of #${ref}` : `revision ${pos} of #${ref}`}`);
    return v;
  }

  /** Send one request (routes and values may hold placeholders) and record it in the current step. */
  async send(role: Rec['role'], method: Method, route: string, opts: { query?: Record<string, QueryValue>; body?: unknown; refusal501?: boolean; invalid?: string[] } = {}): Promise<Response> {
    const res = await this.t.client.request(method, this.resolve(route), {
      query: opts.query ? this.resolve(opts.query) : undefined,
      body: opts.body === undefined ? undefined : this.resolve(opts.body),
      ...(opts.invalid ? { invalid: opts.invalid } : {}),
    });
    const rec: Rec = { method, route, ...(opts.query ? { query: opts.query } : {}), ...(opts.body !== undefined ? { body: opts.body } : {}), status: res.status, role };
    this.current.requests.push(rec);
    if (res.status === 429 || (res.status >= 500 && !(opts.refusal501 && res.status === 501)))
      throw new TargetError(`${method} ${this.resolve(route)} answered ${res.status}${res.body?.code ? ` ${res.body.code}` : ''}: the sequence could not go on`);
    return res;
  }

  lastRequest(): Rec {
    return this.current.requests[this.current.requests.length - 1]!;
  }

  /** A MUST deviation, found by the last request of the step (or `rec`). */
  fail(message: string, rec: Rec = this.lastRequest()): never {
    rec.verdict = message;
    throw new ConformanceFailure(`step ${this.current.n} (${this.current.what}): ${message}`);
  }

  should(message: string, rec: Rec = this.lastRequest()): void {
    rec.verdict ??= `(SHOULD) ${message}`;
    this.env.onShould(`step ${this.current.n} (${this.current.what}): ${message}`);
  }

  /** Remember an item the sequence created, for cleanup (also after a failure or an interrupt). */
  created(ref: number, id: number): void {
    this.ids.set(ref, id);
    const route = this.type.item(id);
    if (this.env.created.has(id)) return;
    const entry = { route, deleted: false };
    this.env.created.set(id, entry);
    fixtures().track(route, async (c) => {
      if (!entry.deleted) await forceDelete(c, route);
      entry.deleted = true;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Observations
  // -------------------------------------------------------------------------------------------

  seenOf(entry: any): Seen {
    const title = entry?.title;
    return {
      status: entry?.status,
      title: typeof title === 'object' && title !== null ? (title.raw ?? title.rendered) : title,
      slug: entry?.slug,
      ...(this.hasParent ? { parent: entry?.parent } : {}),
    };
  }

  /** Every item of the sequence, in every status (one listing): present with its fields, or null. */
  async observe(world: World): Promise<Observation> {
    const obs: Observation = new Map();
    const known = world.filter((w) => this.ids.has(w.ref));
    if (!known.length) return obs;
    const res = await this.send('check', 'GET', this.type.collection, {
      query: { include: known.map((w) => itemToken(w.ref)), status: [...ALL_STATUSES], context: 'edit', per_page: 100 },
    });
    if (res.status !== 200 || !Array.isArray(res.body))
      this.fail(`listing the sequence's items in every status (include, status=${ALL_STATUSES.join(',')}) answered ${res.status} ${res.text.slice(0, 160)}`);
    const byId = new Map<number, any>();
    for (const e of res.body) {
      if (typeof e?.id !== 'number') this.fail(`the listing holds an item without an integer id: ${JSON.stringify(e).slice(0, 120)}`);
      if (byId.has(e.id)) this.fail(`the listing holds ${this.type.noun} ${e.id} twice`);
      byId.set(e.id, e);
    }
    const ids = new Set(known.map((w) => this.ids.get(w.ref)!));
    const foreign = [...byId.keys()].filter((id) => !ids.has(id));
    if (foreign.length) this.fail(`include limits the list to the given identifiers, but the listing holds ${foreign.join(', ')} too`);
    for (const w of known) {
      const e = byId.get(this.ids.get(w.ref)!);
      obs.set(w.ref, e ? this.seenOf(e) : null);
    }
    return obs;
  }

  /** The last answer to each item read of the session (by resolved route): what a later read of the same URL is compared with. */
  private readonly lastReads = new Map<string, Response>();

  /** GET one item (edit context): it reads back as the last listing showed it, or not at all when not listed. */
  async readBack(ref: number, listed: Seen | null): Promise<void> {
    const route = this.resolve(this.path('item', ref));
    const res = await this.send('check', 'GET', this.path('item', ref), { query: { context: 'edit' } });
    const before = this.lastReads.get(route);
    this.lastReads.set(route, res);
    const got = this.seenOf(res.body);
    const agrees = listed === null ? !is2xx(res.status) : res.status === 200 && (['status', 'title', 'slug', 'parent'] as const).every((k) => got[k] === listed[k]);
    // An item read that answers as it did before the commands since may be a stale copy (read-back.ts).
    if (!agrees) await checkStale(this.t, route, { context: 'edit' }, before, res, `the commands since ${this.name(ref)} was last read`);
    if (listed === null) {
      if (is2xx(res.status))
        this.fail(`GET reads ${this.name(ref)} (${res.status}, status ${JSON.stringify(res.body?.status)}), but the listing in every status does not hold it`);
      return;
    }
    if (res.status !== 200) this.fail(`${this.name(ref)} is listed with status ${listed.status}, but GET answers ${res.status} ${res.body?.code ?? ''}`.trim());
    for (const k of ['status', 'title', 'slug', 'parent'] as const)
      if (got[k] !== listed[k]) this.fail(`GET reads ${this.name(ref)} with ${k} ${JSON.stringify(got[k])}, the listing with ${JSON.stringify(listed[k])}`);
  }

  /**
   * Compare the observation with the outcomes of a single command: some outcome must match at
   * MUST level (answer and state), a preferred one at every level. Returns the next world.
   */
  settle(outcomes: Outcome[], answer: Answer, obs: Observation, checkRec?: Rec): World {
    const name = (r: number) => this.name(r);
    const byAnswer = outcomes.filter((o) => o.response.must(answer));
    const mustOk = byAnswer.find((o) => mismatches(o.world, obs, 'MUST', name).length === 0);
    const shouldOk = outcomes.find((o) => o.preferred && o.response.must(answer) && o.response.should(answer) && mismatches(o.world, obs, 'SHOULD', name).length === 0);
    const code = answer.body?.code ? ` ${answer.body.code}` : '';
    if (!mustOk) {
      const writeRec = this.current.requests.find((r) => r.role === 'write');
      if (!byAnswer.length) this.fail(`answered ${answer.status}${code}; expected ${outcomes.map((o) => `${o.response.text} (${o.label}: ${o.because})`).join(', or ')}`, writeRec);
      const o = byAnswer[0]!;
      this.fail(`${mismatches(o.world, obs, 'MUST', name).map((m) => m.text).join('; ')} (answered ${answer.status}${code}; ${o.because})`, checkRec);
    }
    if (!shouldOk) {
      const p = outcomes.find((o) => o.preferred);
      if (p && !p.response.should(answer)) this.should(`answered ${answer.status}${code}; WordPress answers ${p.response.text}`, this.current.requests.find((r) => r.role === 'write'));
      else if (p) this.should(`${mismatches(p.world, obs, 'SHOULD', name).map((m) => m.text).join('; ')} (${p.because})`, checkRec);
    }
    return this.withIds(learn((shouldOk ?? mustOk).world, obs));
  }

  withIds(world: World): World {
    const out = world.map((w) => (this.ids.has(w.ref) ? { ...w, id: this.ids.get(w.ref) } : w));
    this.markGone(out);
    return out;
  }

  /**
   * List #ref's revisions (and autosaves when one may exist) and compare with the model: MUST —
   * every one belongs to the item, none deleted with force=true is listed, an accepted autosave
   * is listed; SHOULD — the revisions listed before are still there, as many were added as
   * WordPress makes, one autosave per parent. Returns the item with its accounting reset.
   */
  async observeRevisions(item: PItem): Promise<{ item: PItem; listing: Rec }> {
    const ref = item.ref;
    const id = this.ids.get(ref)!;
    const res = await this.send('check', 'GET', this.path('revisions', ref), { query: { context: 'edit', per_page: 100 } });
    if (res.status !== 200 || !Array.isArray(res.body)) this.fail(`GET revisions of ${this.name(ref)} answered ${res.status} ${res.text.slice(0, 160)}`);
    const listRec = this.lastRequest();
    const problems = res.body.flatMap((r: unknown) => revisionProblems(r, id));
    if (problems.length) this.fail(problems.slice(0, 3).join('; '));
    const listed: { id: number; title: string }[] = res.body.map((r: any) => ({ id: r.id, title: typeof r.title === 'object' ? (r.title?.raw ?? r.title?.rendered) : r.title }));
    // Positions in the listing, for the script (revision placeholders).
    listed.forEach((r, i) => this.revs.set(`${ref}.${i + 1}`, r.id));
    let autosaves: number[] = [];
    if (item.autosave.id !== null || item.autosave.accepted !== undefined) {
      const a = await this.send('check', 'GET', this.path('autosaves', ref), { query: { context: 'edit' } });
      if (a.status !== 200 || !Array.isArray(a.body)) this.fail(`GET autosaves of ${this.name(ref)} answered ${a.status} ${a.text.slice(0, 160)}`);
      const aProblems = a.body.flatMap((r: unknown) => revisionProblems(r, id));
      if (aProblems.length) this.fail(aProblems.slice(0, 3).join('; '));
      autosaves = a.body.map((r: any) => r.id);
      if (item.autosave.accepted !== undefined && !autosaves.includes(item.autosave.accepted))
        this.fail(`the autosave ${item.autosave.accepted} of ${this.name(ref)} was accepted, but it is not listed under the ${this.type.noun} (part 2: an autosave belongs to its parent)`);
      if (typeof item.autosave.id === 'number' && (autosaves.length !== 1 || autosaves[0] !== item.autosave.id))
        this.should(`${this.name(ref)} should have one autosave (${item.autosave.id}), it lists [${autosaves.join(', ')}] (WordPress keeps one autosave per parent)`);
      const accepted = item.autosave.accepted;
      if (accepted !== undefined && this.autosaves.get(ref) === accepted) {
        const one = await this.send('check', 'GET', this.path('autosave', ref), { query: { context: 'edit' } });
        if (one.status !== 200) this.fail(`GET of the autosave ${accepted} of ${this.name(ref)} answered ${one.status} ${one.body?.code ?? ''}`.trim());
        const p = revisionProblems(one.body, id);
        if (p.length) this.fail(p.join('; '));
        if (one.body?.id !== accepted) this.fail(`GET of the autosave ${accepted} of ${this.name(ref)} returned ${JSON.stringify(one.body?.id)}`);
      }
    }
    const revisions = listed.filter((r) => !autosaves.includes(r.id)).sort((a, b) => b.id - a.id);
    const back = revisions.filter((r) => item.rev.deleted.includes(r.id));
    if (back.length) this.fail(`revision ${back[0]!.id} of ${this.name(ref)} was deleted with force=true, but it is listed again (part 3, rule 2: revisions have no trash)`, listRec);
    const before = item.rev.listed.filter((r) => !item.rev.deleted.includes(r.id));
    const lost = before.filter((r) => !revisions.some((x) => x.id === r.id));
    const added = revisions.filter((r) => !item.rev.listed.some((x) => x.id === r.id));
    const [lo, hi] = item.rev.added;
    if (lost.length) this.should(`revision ${lost.map((r) => r.id).join(', ')} of ${this.name(ref)} is no longer listed, though nothing deleted it`, listRec);
    else if (added.length < lo || added.length > hi) {
      const expected = lo === hi ? `${lo}` : hi === Number.POSITIVE_INFINITY ? `at least ${lo}` : `${lo} to ${hi}`;
      const why = item.rev.why.length ? ` (one for each of: ${item.rev.why.join('; ')})` : '';
      this.should(`${this.name(ref)} should have ${expected} new revision(s)${why}, it has ${added.length} (WordPress saves a revision on every update that changes the content, and on the first update)`, listRec);
    }
    const next: PItem = {
      ...item,
      rev: { listed: revisions, added: [0, 0], why: [], latest: revisions.length ? [revisions[0]!.title] : [null], deleted: item.rev.deleted },
      autosave: item.autosave.id === null && item.autosave.accepted === undefined ? item.autosave : { id: autosaves[0] ?? null, accepted: item.autosave.accepted },
    };
    return { item: next, listing: listRec };
  }

  /** Position (1-based) of a revision in the last listing of #ref's revisions. */
  revisionPosition(ref: number, id: number): number | undefined {
    for (const [k, v] of this.revs) if (v === id && k.startsWith(`${ref}.`)) return Number(k.split('.')[1]);
    return undefined;
  }

  /** Items the world holds as deleted for good need no cleanup. */
  markGone(world: World): void {
    for (const w of world) {
      const id = this.ids.get(w.ref);
      const entry = id === undefined ? undefined : this.env.created.get(id);
      if (entry && w.exists.level === 'MUST' && !w.exists.value) entry.deleted = true;
    }
  }
}
