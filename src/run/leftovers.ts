/**
 * Deleting what runs left on a target, and naming what is still there: the items a run created, by
 * the ids in its ledger (src/core/ledger.ts), whatever the target's listings answer; and the sweep
 * by tag, the second net (items whose create answer was lost), which also removes the leftovers of
 * earlier runs before a run. Used by the run's cleanup (src/run/cleanup.ts) and by
 * `cms-conformance cleanup` (src/cli/cleanup.ts), which also reads the ledger of a run that was killed.
 */
import type { Client } from '../http/client.ts';
import { itemAt, taggedWord, type Ledger, type MadeItem } from '../core/ledger.ts';
import { Fixtures, TAG_PREFIX, forceDelete } from '../sdk/fixtures.ts';
import { shq } from '../../schemas/shell.ts';
import type { LeftBehind, LeftItem } from '../../results/results.ts';

export interface PassOutcome {
  /** Items deleted (or found gone by their delete) by this pass. */
  deleted: number;
  /** Of those, the ones a read found gone before any delete (`verifyTag`). */
  alreadyGone: number;
  /** Why each item it could not delete is still there, by route. */
  failed: Map<string, string>;
}

/**
 * Delete the items the ledger holds and does not know to be gone, newest first, by id (posts and
 * pages in batches of DELETE ?force=true where the target takes them; autosaves go with their
 * parent). With `verifyTag` (a ledger read after the run, maybe much later), an item is deleted only
 * if it still carries that tag in its title or slug (read first): ids are the site's, and a ledger
 * is not proof that the id still names the run's item.
 */
export async function deleteByLedger(client: Client, ledger: Ledger, opts: { verifyTag?: string } = {}): Promise<PassOutcome> {
  const items = ledger.outstanding().filter((i) => i.type !== 'autosave');
  const failed = new Map<string, string>();
  if (!items.length) return { deleted: 0, alreadyGone: 0, failed };
  const fx = new Fixtures(client, '');
  const tracked: MadeItem[] = [];
  let deleted = 0;
  let alreadyGone = 0;
  for (const i of items) {
    const why = opts.verifyTag ? await stillTagged(client, i, opts.verifyTag) : undefined;
    if (why === 'gone') {
      ledger.gone(i.route);
      deleted++;
      alreadyGone++;
    } else if (why) failed.set(i.route, why);
    else {
      fx.track(i.route);
      tracked.push(i);
    }
  }
  await fx.cleanup();
  for (const f of fx.notDeleted) failed.set(f.route, f.why);
  // Deleted, or found gone (404, 410): a 2xx delete is in the ledger already (the client's watch), a 404 is not.
  for (const i of tracked)
    if (!failed.has(i.route)) {
      ledger.gone(i.route);
      deleted++;
    }
  return { deleted, alreadyGone, failed };
}

/** undefined when the item still carries `tag` (delete it); 'gone' when it is not there; else why it is left alone. */
async function stillTagged(client: Client, item: MadeItem, tag: string): Promise<string | undefined> {
  try {
    const res = await client.get(item.route, { query: { context: 'edit' } });
    if (res.status === 404 || res.status === 410) return 'gone';
    if (res.status !== 200) return `GET ${item.route} answered ${res.status}: not deleted`;
    const b = res.body;
    const title = typeof b?.title === 'object' ? (b.title?.raw ?? b.title?.rendered) : b?.title;
    const tagged = [title, b?.slug].some((s) => typeof s === 'string' && s.toLowerCase().includes(tag));
    return tagged ? undefined : `it no longer carries the run tag ${tag} (title ${JSON.stringify(title)}): left alone`;
  } catch (err) {
    return (err as Error)?.message ?? String(err);
  }
}

/** The command that removes a run's leftovers from a target. */
export function cleanupCommand(target: string, tag: string): string {
  return `npx cms-conformance cleanup --target ${shq(target)} --tag ${shq(tag)}`;
}

/**
 * What is left once the passes and the sweeps are done: every item of the ledger not known to be
 * gone (with why: a pass's failure, else `notTried`), the items the sweep by tag found and could not
 * delete, and the creates whose answer was lost in a collection the sweep could not list.
 */
export function leftBehind(ledger: Ledger | undefined, tag: string, target: string, failed: Map<string, string>, sweeps: (SweepOutcome | undefined)[], notTried: string): LeftBehind {
  const contents = ledger?.read() ?? { made: [], gone: new Set<string>(), maybe: [] };
  const outstanding = ledger?.outstanding(contents) ?? [];
  const items: LeftItem[] = outstanding.map((i) => ({
    type: i.type,
    id: i.id,
    route: i.route,
    ...(i.tag ? { tag: i.tag } : {}),
    ...(i.by ? { by: i.by } : {}),
    why: i.parent ? `deleted with ${i.parent}, which is left` : (failed.get(i.route) ?? notTried),
  }));
  const named = new Set(items.map((i) => i.route));
  for (const s of sweeps)
    for (const n of s?.notDeleted ?? []) {
      if (named.has(n.route)) continue;
      named.add(n.route);
      const item = itemAt(n.route);
      items.push({ type: item?.type ?? 'item', ...(item ? { id: item.id } : {}), route: n.route, ...(n.tag ? { tag: n.tag } : {}), why: n.why });
    }
  // The sweep listed a collection when any of its sweeps did.
  const listed = (collection: string) => sweeps.some((s) => s && !s.unlisted?.includes(collection));
  for (const m of contents.maybe)
    if (!listed(m.collection))
      items.push({ type: m.type, route: m.collection, ...(m.tag ? { tag: m.tag } : {}), ...(m.by ? { by: m.by } : {}), why: `its create got no usable answer (${m.why}) and ${m.collection} could not be listed to find it by its tag: it may exist` });
  return { created: contents.made.length, items, tag, ...(items.length ? { command: cleanupCommand(target, tag), ...(ledger ? { ledger: ledger.path } : {}) } : {}) };
}

// ---------------------------------------------------------------- the sweep by tag

/** Collections the suite may create items in, with how to find and delete them. */
export const SWEPT_COLLECTIONS = ['/cms/v2/posts', '/cms/v2/pages', '/contactform/v1/contact-forms'] as const;

/** Default of --sweep-after: six hours, the longest a GitHub Actions job may run, so a run older than that cannot still be going. */
export const DEFAULT_SWEEP_AFTER_MS = 6 * 3_600_000;

export interface SweepOptions {
  /** Only this run's items (its tag). */
  tag?: string;
  /**
   * Without `tag`: items of any run, but only of runs that started longer ago than this (the run
   * tag carries its start time). Runs that started later may still be going (another shard, another
   * job against the same site) and keep their items. Default 0: every tagged item.
   */
  olderThanMs?: number;
  /** The clock (tests). */
  now?: number;
}

export interface SweepOutcome {
  deleted: number;
  failed: number;
  /** Tagged items left alone because their run started less than `olderThanMs` ago. */
  spared: number;
  /** The items it could not delete: route (spec names), the tagged title or slug, and why. */
  notDeleted?: { route: string; tag?: string; why: string }[];
  /** The collections whose listings did not answer with a list (their tagged items, if any, are not known). */
  unlisted?: string[];
}

/**
 * When the run that created an item started (ms since epoch), from the run tags in its slug and
 * title (`cmsc-<start: 8 base-36 digits><4 hex digits>`); the newest when it carries several; undefined
 * when no tag says (an item of an unknown format counts as old).
 */
export function runStartOf(item: any): number | undefined {
  let newest: number | undefined;
  for (const s of taggedStrings(item)) {
    // Exactly 8 + 4 characters: the tag is often followed by more letters and digits (`cmsc-<id>x…`).
    for (const m of s.matchAll(/cmsc-([0-9a-z]{8})([0-9a-f]{4})/g)) {
      const t = parseInt(m[1]!, 36);
      // Plausible start times only (2020 .. 2100): anything else is not a run tag.
      if (!Number.isFinite(t) || t < 1_577_836_800_000 || t > 4_102_444_800_000) continue;
      newest = Math.max(newest ?? 0, t);
    }
  }
  return newest;
}

/**
 * Force-delete the posts, pages and contact forms of one run (`tag`), or the leftovers of earlier
 * runs (`olderThanMs`). Used by the CLI before a run (leftovers of interrupted runs, never the
 * items of a run that may still be going) and after it (its own items).
 */
export async function sweep(client: Client, opts: string | SweepOptions = {}): Promise<SweepOutcome> {
  const { tag, olderThanMs = 0, now = Date.now() } = typeof opts === 'string' ? { tag: opts } : opts;
  const wanted = tag ?? TAG_PREFIX;
  const spare = (item: any): boolean => {
    if (tag || olderThanMs <= 0) return false;
    const started = runStartOf(item);
    return started !== undefined && started > now - olderThanMs;
  };
  let deleted = 0;
  let failed = 0;
  const spared = new Set<string>();
  const notDeleted: NonNullable<SweepOutcome['notDeleted']> = [];
  const unlisted: string[] = [];
  // The collections at once (within the client's --concurrency): a sweep is a few listings, and
  // before a run they are all the target has to do.
  await Promise.all(SWEPT_COLLECTIONS.map(async (collection) => {
    let ok = 0;
    let bad = 0;
    for (let guard = 0; guard < 20; guard++) {
      const res = await listTagged(client, collection, wanted);
      if (!res) {
        unlisted.push(collection);
        break;
      }
      const mine = res.filter((p: any) => {
        if (!isTagged(p, wanted)) return false;
        if (!spare(p)) return true;
        spared.add(`${collection}/${p.id}`);
        return false;
      });
      if (!mine.length) break;
      const before = ok + bad;
      await Promise.all(
        mine.map((p: any) =>
          forceDelete(client, `${collection}/${p.id}`).then(
            () => ok++,
            (err: unknown) => {
              bad++;
              const tag = taggedWord(...taggedStrings(p));
              notDeleted.push({ route: `${collection}/${p.id}`, ...(tag ? { tag } : {}), why: (err as Error)?.message ?? String(err) });
            },
          ),
        ),
      );
      if (ok + bad === before) break;
      if (bad) break;
    }
    deleted += ok;
    failed += bad;
  }));
  return { deleted, failed, spared: spared.size, ...(notDeleted.length ? { notDeleted } : {}), ...(unlisted.length ? { unlisted } : {}) };
}

/**
 * How tagged items are found: by searching the tag (titles carry it), and among the newest
 * items (an item tagged only in its slug is not found by a search). `any` leaves trashed items
 * out (WordPress), so the trash is asked for too; and on its own for posts and pages, as a reading
 * of the spec may take `any,trash` for `any` (the reference server does: issue 43).
 */
const TAGGED_LISTINGS: Record<string, string | string[]>[] = [
  { search: TAG_PREFIX, status: ['any', 'trash'] },
  { orderby: 'id', order: 'desc', status: ['any', 'trash'] },
];
const TRASH_LISTING = { orderby: 'id', order: 'desc', status: ['trash'] };

/** Tagged items of a collection (any status, trash included), or undefined when the target does not answer with a list. */
export async function listTagged(client: Client, collection: string, tag = TAG_PREFIX): Promise<any[] | undefined> {
  const listings = /^\/cms\/v2\/(posts|pages)$/.test(collection) ? [...TAGGED_LISTINGS, TRASH_LISTING] : TAGGED_LISTINGS;
  const lists: any[][] = listings.map(() => []);
  let answered = false;
  await Promise.all(listings.map(async (listing, n) => {
    const query = { ...listing, ...('search' in listing ? { search: tag } : {}), per_page: 100, context: 'edit' };
    for (let i = 1; i <= 4; i++) {
      try {
        const res = await client.get(collection, { query });
        if (res.status === 200 && Array.isArray(res.body)) {
          answered = true;
          lists[n] = res.body.filter((p: any) => isTagged(p, tag) && typeof p?.id === 'number');
          break;
        }
        // No such collection on the target (a namespace it does not serve): nothing of a run's can be there.
        if (res.status === 404) {
          answered = true;
          break;
        }
        if (res.status !== 429 && res.status < 500) break;
      } catch (err) {
        /* no answer: try again, unless the target has stopped answering (or answered a body over --max-body: it would again) */
        if (client.unanswering || (err as { code?: string })?.code === 'BODY_TOO_LARGE') break;
      }
      await new Promise((r) => setTimeout(r, 200 * i));
    }
  }));
  // Merged in the order of the listings (search first), as when they were read one after the other.
  const found = new Map<number, any>();
  for (const list of lists) for (const p of list) found.set(p.id, p);
  return answered ? [...found.values()] : undefined;
}

function taggedStrings(item: any): string[] {
  const title = typeof item?.title === 'object' ? (item.title.raw ?? item.title.rendered) : item?.title;
  return [item?.slug, title].filter((s): s is string => typeof s === 'string').map((s) => s.toLowerCase());
}

function isTagged(item: any, tag: string): boolean {
  return taggedStrings(item).some((s) => s.includes(tag));
}
