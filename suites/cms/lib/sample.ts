/**
 * The site's own content, as subjects of the read behaviours of cms/v2 when the run may not
 * write (no credentials, --read-only, a site not on loopback without --allow-writes): a production
 * site is checked on what it already serves instead of on fixtures (issue 35).
 *
 * The sample is read once per run and suite worker, with a few bounded listings, and each part
 * only when a behaviour needs it: the newest published posts and pages (one page of per_page=100),
 * with credentials the items in non-public statuses, the revisions of an edited item, an autosave.
 * Behaviours pick their subjects from it (items with distinct dates, a category some carry and
 * others not ...) and skip only when the content cannot show what they check, saying what they
 * would need ("not observable: …").
 *
 * A live site changes while a run reads it (editors publish and delete). A check on the site's
 * content runs through `onSite`: when it fails, its subjects are read again one by one (each
 * item's own route, no filter) and compared with what the check was built from (the item is gone,
 * or its date, modified date, slug, status, title, author, terms, parent or menu order moved); if
 * they changed, the failure is not a finding: the sample is read afresh and the check made again,
 * up to five times, after which it ends as an error of the target ("the site's content kept
 * changing"), never as a failure. If the subjects are as they were, the failure stands.
 */
import { runContext, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Client } from '../../../src/sdk/http.ts';
import { answerOf } from '../../../src/sdk/controls.ts';
import { TargetError } from '../../../src/sdk/http.ts';
import type { PostType } from './collections.ts';

/** An item as the site listed it (documented fields, and any other the site serves). */
export type SiteItem = Record<string, any> & { id: number };

/** A listing of the site's content, or why it could not be read. */
export interface Listing {
  items: SiteItem[];
  /** Why there is nothing (the listing was refused or is not a list). */
  why?: string;
}

/** Things a check was built from, each readable again by its own route. */
export interface Subject {
  route: string;
  label: string;
  /** What the check relied on, as read when the sample was made. */
  fingerprint: string;
  /** Fingerprint of what the route answers now (default: the item's fields). */
  read?: (body: unknown) => string;
}

/** How many times a check on changing content is made before it is given up as the target's error. */
export const SITE_ATTEMPTS = 5;
export const PUBLISHED_PAGE = 100;
/** Statuses that are not public (listed with credentials). */
const HIDDEN = ['draft', 'pending', 'private', 'future'];

// ------------------------------------------------------------------ the shared sample

interface Store {
  key: string;
  entries: Map<string, Promise<unknown>>;
}

/** The sample parts of this run, kept on the worker's global object across its suite files. */
function entries(): Map<string, Promise<unknown>> {
  const g = globalThis as { __cmscSiteSample?: Store };
  const run = runContext();
  const key = `${run.info.runId} ${run.info.targetUrl} ${run.info.profile}`;
  if (g.__cmscSiteSample?.key !== key) g.__cmscSiteSample = { key, entries: new Map() };
  return g.__cmscSiteSample.entries;
}

function shared<T>(name: string, load: (client: Client) => Promise<T>, fresh: boolean): Promise<T> {
  const map = entries();
  let p = fresh ? undefined : (map.get(name) as Promise<T> | undefined);
  if (!p) {
    const made = load(runContext().client.fork('site content'));
    map.set(name, made);
    // Trouble of the target is not kept: the next behaviour that needs the part reads it again.
    made.catch(() => {
      if (map.get(name) === made) map.delete(name);
    });
    p = made;
  }
  return p;
}

const isItem = (x: unknown): x is SiteItem => x !== null && typeof x === 'object' && Number.isInteger((x as { id?: unknown }).id);

async function list(client: Client, type: PostType, query: Record<string, unknown>, keep: (i: SiteItem) => boolean): Promise<Listing> {
  let res = await client.get(type.collection, { query: query as never });
  // A site that refuses per_page=100 or page=1 (the query checks report it) is read at its defaults.
  if (res.status === 400 && ('per_page' in query || 'page' in query)) {
    const { per_page: _p, page: _n, ...rest } = query;
    res = await client.get(type.collection, { query: rest as never });
  }
  const what = `GET ${type.collection}?${Object.entries(query)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join('&')}`;
  if (res.status !== 200 || !Array.isArray(res.body)) return { items: [], why: `${what} answered ${answerOf(res)}` };
  return { items: (res.body as unknown[]).filter(isItem).filter(keep) };
}

/** The newest published items of a type (one page of 100, the default order), as the run's client sees them. */
export function published(type: PostType, fresh = false): Promise<Listing> {
  // page=1 said, not left to its default: a run that checks the default page reads its sample all the same.
  return shared(`${type.name} published`, (c) => list(c, type, { per_page: PUBLISHED_PAGE, page: 1 }, (i) => i.status === undefined || i.status === 'publish'), fresh);
}

/** With credentials: items in the non-public statuses (draft, pending, private, future), as each says it is. */
export function hidden(type: PostType, fresh = false): Promise<Listing> {
  return shared(`${type.name} hidden`, (c) => list(c, type, { status: HIDDEN, per_page: PUBLISHED_PAGE }, (i) => HIDDEN.includes(i.status)), fresh);
}

/** With credentials: an item with revisions (the most of those probed, three or more preferred), and another item. */
export interface Revisioned {
  parent: SiteItem;
  revisions: number[];
  /** A published item that is not the parent. */
  other?: SiteItem;
  /** An autosave of one of the probed items, when one exists. */
  autosave?: { parent: SiteItem; id: number };
  why?: string;
}

const PROBES = 8;

export function revisioned(type: PostType, fresh = false): Promise<Revisioned> {
  return shared(
    `${type.name} revisions`,
    async (client) => {
      const { items, why } = await published(type, fresh);
      if (!items.length) return { parent: undefined as never, revisions: [], why: why ?? `the site lists no published ${type.name}` };
      // Items modified after their publication were edited: they have revisions, where a site keeps them.
      const edited = (i: SiteItem) => Date.parse(i.modified ?? '') - Date.parse(i.date ?? '');
      const candidates = [...items].sort((a, b) => (edited(b) || 0) - (edited(a) || 0) || b.id - a.id).slice(0, PROBES);
      let best: { parent: SiteItem; revisions: number[] } | undefined;
      let autosave: Revisioned['autosave'];
      const answers: string[] = [];
      for (const item of candidates) {
        const res = await client.get(type.revisions(item.id));
        const ids = res.status === 200 && Array.isArray(res.body) ? (res.body as unknown[]).filter(isItem).map((r) => r.id) : [];
        if (res.status !== 200) answers.push(`GET ${type.revisions(item.id)} answered ${answerOf(res)}`);
        if (ids.length && !autosave) {
          const auto = await client.get(type.autosaves(item.id));
          const first = auto.status === 200 && Array.isArray(auto.body) ? (auto.body as unknown[]).find(isItem) : undefined;
          if (first) autosave = { parent: item, id: first.id };
        }
        if (ids.length > (best?.revisions.length ?? 0)) best = { parent: item, revisions: ids };
        if ((best?.revisions.length ?? 0) >= 3 && autosave) break;
      }
      if (!best) return { parent: undefined as never, revisions: [], why: `none of the ${candidates.length} ${type.name} probed has a revision${answers.length ? ` (${answers.slice(0, 2).join('; ')})` : ''}` };
      return { ...best, other: items.find((i) => i.id !== best!.parent.id), ...(autosave ? { autosave } : {}) };
    },
    fresh,
  );
}

// ------------------------------------------------------------------ reading items

/** Text of a rendered (or raw) field or a plain string. */
export const renderedOf = (v: unknown): string => (typeof v === 'string' ? v : v && typeof v === 'object' ? String((v as { rendered?: unknown; raw?: unknown }).rendered ?? (v as { raw?: unknown }).raw ?? '') : '');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', '#8217': '’', '#8216': '‘', '#8220': '“', '#8221': '”', '#8211': '–', '#8212': '—', '#038': '&', '#039': "'" };
/** The words a reader sees: tags removed, common entities decoded. */
export function plainCase(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#?\w+);/g, (m, e: string) => ENTITIES[e] ?? m)
    .replace(/\s+/g, ' ')
    .trim();
}
/** The same, lower case. */
export const plainText = (html: string): string => plainCase(html).toLowerCase();
export const titleOf = (i: SiteItem): string => plainText(renderedOf(i.title));
/** Everything of an item a search could match, markup included, lower case. */
export const searchableOf = (i: SiteItem): string => [renderedOf(i.title), renderedOf(i.content), renderedOf(i.excerpt), String(i.slug ?? '')].join(' ').toLowerCase();
export const timeOf = (v: unknown): number => (typeof v === 'string' ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`) : NaN);

const FINGERPRINT = ['date', 'modified', 'slug', 'status', 'title', 'author', 'categories', 'tags', 'sticky', 'format', 'parent', 'menu_order', 'excerpt'] as const;
/** What a check may rely on of an item: read again, an item that differs in one of these changed. */
export const fingerprintOf = (i: unknown): string => JSON.stringify(FINGERPRINT.map((k) => (i as Record<string, unknown> | null)?.[k] ?? null));

export const itemSubject = (type: PostType, i: SiteItem): Subject => ({ route: type.item(i.id), label: `${type.noun} ${i.id}`, fingerprint: fingerprintOf(i) });
export const itemSubjects = (type: PostType, items: readonly SiteItem[]): Subject[] => items.map((i) => itemSubject(type, i));
export const revisionsSubject = (type: PostType, r: Revisioned): Subject => ({
  route: type.revisions(r.parent.id),
  label: `the revisions of ${type.noun} ${r.parent.id}`,
  fingerprint: JSON.stringify(r.revisions),
  read: (body) => JSON.stringify(Array.isArray(body) ? body.filter(isItem).map((x) => x.id) : null),
});

/** "posts 120, 118, 97" */
export const describeItems = (type: PostType, items: readonly SiteItem[], note = ''): string =>
  items.length ? `${items.length === 1 ? type.noun : type.name} ${items.map((i) => i.id).join(', ')}${note ? ` (${note})` : ''}` : `no ${type.name} of the site fit`;

/** The subjects that are not as they were: gone, or changed in what the check relied on. */
export async function changedSubjects(client: Client, subjects: readonly Subject[]): Promise<string[]> {
  const out: string[] = [];
  await Promise.all(
    subjects.map(async (s) => {
      const res = await client.get(s.route);
      if (res.status !== 200) out.push(`${s.label} is gone (GET ${s.route} answers ${res.status})`);
      else if ((s.read ?? fingerprintOf)(res.body) !== s.fingerprint) out.push(`${s.label} changed`);
    }),
  );
  return out.sort();
}

/**
 * Thrown by a check that saw, before judging, that the items it relied on changed meanwhile (an
 * editor at work): the check is made again on a fresh sample, as for a finding on changed subjects.
 */
export class ContentChanged extends Error {
  override name = 'ContentChanged';
  constructor(readonly changed: string[]) {
    super(`the items this check relied on changed meanwhile: ${changed.join(', ')}`);
  }
}

const isFinding = (e: unknown) => ['ConformanceFailure', 'AssertionError'].includes((e as Error)?.name);

/**
 * Make a check on the site's content: `load` picks its subjects from the sample (read afresh when
 * `fresh`; it skips when the content cannot show the behaviour), `check` judges them. A failure
 * is the behaviour's only when its subjects are as they were; else the check is made again on a
 * fresh sample, up to SITE_ATTEMPTS times, then given up as the target's error.
 */
export async function onSite<S>(t: BehaviourContext, load: (fresh: boolean) => Promise<S>, subjectsOf: (s: S) => { subjects: Subject[]; detail: string }, check: (s: S) => Promise<void>): Promise<void> {
  const seen: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const s = await load(attempt > 1);
    const { subjects, detail } = subjectsOf(s);
    t.subjects('site', attempt > 1 ? `${detail}; read again after the content changed: ${seen.join('; ')}` : detail);
    try {
      await check(s);
      return;
    } catch (err) {
      if (!isFinding(err) && !(err instanceof ContentChanged)) throw err;
      const changed = err instanceof ContentChanged ? err.changed : await changedSubjects(t.client, subjects);
      if (!changed.length) throw err;
      seen.push(changed.slice(0, 4).join(', ') + (changed.length > 4 ? ` and ${changed.length - 4} more` : ''));
      if (attempt >= SITE_ATTEMPTS)
        throw new TargetError(
          `the site's content kept changing while this check read it (${attempt} times: ${seen.join('; ')}): a comparison of reads is not judged on content that changed between them (last: ${(err as Error).message.split('\n')[0]!.slice(0, 200)})`,
        );
    }
  }
}

/** Skip unless the content can show the behaviour: `need` says what it would take. */
export function observable(t: BehaviourContext, ok: boolean, need: string): asserts ok {
  if (!ok) t.skip(`not observable on the site's content: ${need}`);
}

/** The published items of a type, or a skip saying why there are none to use. */
export async function publishedOrSkip(t: BehaviourContext, type: PostType, fresh: boolean, atLeast = 1): Promise<SiteItem[]> {
  const { items, why } = await published(type, fresh);
  if (why) t.skip(`not observable: the site's content could not be read (${why})`);
  observable(t, items.length >= atLeast, `${atLeast} published ${atLeast === 1 ? type.noun : type.name} needed, the site lists ${items.length}`);
  return items;
}

/**
 * Fresh items, which an editor most likely changes while a check reads them: published or
 * modified within a day of the newest time the listing shows, or among its newest third (a
 * listing is newest first).
 */
function isFresh(items: readonly unknown[]): (item: unknown, index: number) => boolean {
  const time = (i: unknown) => Math.max(timeOf((i as SiteItem)?.date), timeOf((i as SiteItem)?.modified) || -Infinity);
  const newest = Math.max(...items.map(time).filter((x) => Number.isFinite(x)));
  const third = items.length >= 3 ? Math.ceil(items.length / 3) : 0;
  return (item, index) => index < third || (Number.isFinite(newest) && newest - time(item) < 86_400_000);
}

/** The items in the order a check should take its subjects: the settled ones first, the fresh ones last. */
export function settledOrder<T>(items: readonly T[]): T[] {
  const fresh = isFresh(items);
  return [...items.filter((x, i) => !fresh(x, i)), ...items.filter((x, i) => fresh(x, i))];
}

/**
 * Up to `n` subjects spread over the listing, from its settled items (not fresh) where those are
 * `enough` (default: all `n`, or three of them).
 */
export function settled<T>(items: readonly T[], n: number, enough = Math.min(n, 3)): T[] {
  const fresh = isFresh(items);
  const calm = items.filter((x, i) => !fresh(x, i));
  return spread(calm.length >= enough ? calm : items, n);
}

/** Up to `n` items, spread over the listing (oldest and newest both in). */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))]!);
}

/**
 * A check on one published item of the site (`pick` chooses among them, in settledOrder; undefined:
 * none fits, and `need` says what would), made again when the item changed meanwhile.
 */
export async function onSiteItem(t: BehaviourContext, type: PostType, pick: (items: SiteItem[]) => SiteItem | undefined, need: string, check: (item: SiteItem) => Promise<void>): Promise<void> {
  await onSite(
    t,
    async (fresh) => {
      const item = pick(settledOrder(await publishedOrSkip(t, type, fresh)));
      observable(t, item !== undefined, need);
      return item;
    },
    (item) => ({ subjects: [itemSubject(type, item)], detail: describeItems(type, [item], 'published') }),
    check,
  );
}

/** Content a reader may see: not protected by a password. */
export const unprotected = (i: SiteItem): boolean => i.content?.protected !== true && i.excerpt?.protected !== true;
