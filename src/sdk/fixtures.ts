/**
 * Items the suite creates on a target: tagged with the run ID, tracked, and force-deleted
 * afterwards — after each suite file (afterAll), and again by the CLI after the run (by the ids of
 * the run's ledger, then a sweep by the run's own tag: src/run/leftovers.ts) and at the start of a
 * later one (a sweep of the tags of runs that started long enough ago to be over), so that an
 * interrupted or crashed run leaves nothing behind while runs that share a site (shards) never
 * delete each other's items.
 */
import type { Client, Response } from '../http/client.ts';
import { TargetError } from '../core/errors.ts';
import { NOT_SENT } from '../http/transient.ts';
import { failureKindOf } from '../http/failure-kind.ts';
import type { FailureKind } from '../../results/verdict.ts';
import { FixtureError, fixtureOwner, recordTracked, verifyStored } from './fixture-checks.ts';
import { rawText, textFields } from '../http/wire.ts';
import { itemAt, runLedger, taggedWord } from '../core/ledger.ts';

export { FIXTURE_OWNERS, FixtureError, fixtureOwner, storedFieldOwner, verifyStored } from './fixture-checks.ts';

/** A request that got no connection at all (the client's TargetError names the code): the target has gone away. */
const TARGET_GONE = /\b(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND)\b/;

/** Every item the suite creates carries this prefix in its title and slug. */
export const TAG_PREFIX = 'cmsc-';

/** A short key for a suite file (FNV-1a of its path, base 36): labels of files run side by side never collide. */
export function scopeFor(file: string): string {
  let h = 0x811c9dc5;
  const name = file.split(/[\\/]/).slice(-2).join('/');
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return `${h.toString(36).slice(0, 5)}x`;
}

export function tagFor(runId: string): string {
  return `${TAG_PREFIX}${runId.replace(/^cmsc-?/, '')}`;
}

interface Tracked {
  /** Item route, e.g. /cms/v2/posts/12 */
  route: string;
  /** How to remove it. */
  remove: (client: Client) => Promise<void>;
  /** Removed by the default force delete: may go in a batch (core part 4 › Batch). */
  batchable?: boolean;
}

/** The collections of posts and pages. */
const POSTS_OR_PAGES = /^\/cms\/v2\/(posts|pages)$/;
/** A post or page item route: its DELETE is batchable (core part 9: allow_batch of the post routes). */
const BATCHABLE = /^\/cms\/v2\/(posts|pages)\/\d+$/;
/** Items per POST /batch/v1 (core part 8: at most 25). */
const BATCH_MAX = 25;
/** Whether the target took a batch of deletes (unknown until one is sent; a refusal is kept for the run's other files). */
let batchDeletes: 'unknown' | 'yes' | 'no' = 'unknown';

export class Fixtures {
  private readonly tracked: Tracked[] = [];
  private counter = 0;
  /** Why the last cleanup left items behind: the target's trouble (a delete got no usable answer), or a bug of ours. */
  cleanupTrouble: FailureKind = 'harness';
  /** What the last cleanup could not delete, and why (the route, and the delete's answer or why it was not tried). */
  notDeleted: { route: string; why: string }[] = [];

  constructor(
    private readonly client: Client,
    readonly tag: string,
    /** What tells this file's labels from another's (suite files run side by side, each with its own counter). */
    private readonly scope = '',
  ) {}

  /** A unique, tagged slug / title fragment for a new item: unique in the run, across suite files. */
  label(hint = 'item'): string {
    return `${this.tag}-${hint}-${this.scope}${++this.counter}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  }

  /** Track an item so it is force-deleted at cleanup (and recorded in the run's ledger, if its create was not seen already). */
  track(route: string, remove?: Tracked['remove']): void {
    runLedger()?.made(itemAt(route, { by: 'fixtures' }));
    this.tracked.push({ route, remove: remove ?? ((c) => forceDelete(c, route)), batchable: !remove && BATCHABLE.test(route) });
    trackedRoutes.add(route);
    recordTracked(route);
  }

  /**
   * Create a post or page (collection route `/cms/v2/posts` or `/cms/v2/pages`) with the
   * run tag in title and slug, and track it. Throws when creation does not answer 2xx with an id.
   * `title`, `content` and `excerpt` may be given as text: they are sent as the documented object
   * (`{raw: …}`, src/http/wire.ts textFields).
   */
  async create(collection: string, fields: Record<string, unknown> = {}, client: Client = this.client): Promise<any> {
    const label = this.label(collection.split('/').pop());
    const given = rawText(fields.title);
    const title = given !== undefined ? `${label} ${given}` : label;
    const fieldsOf = { status: 'publish', content: `<p>${label}</p>`, ...fields, title, slug: fields.slug ?? label };
    // Posts and pages take title, content and excerpt as the documented object (core part 2).
    const body = POSTS_OR_PAGES.test(collection) ? textFields(fieldsOf) : fieldsOf;
    const res = await createRecovering(client, collection, body);
    if (res.status < 200 || res.status > 299 || typeof res.body?.id !== 'number')
      throw new FixtureError(`could not create a fixture in ${collection}: ${res.status} ${res.text.slice(0, 200)}`, fixtureOwner(collection));
    this.track(`${collection}/${res.body.id}`);
    return verifyStored(client, collection, body, res.body);
  }

  /**
   * Delete everything tracked, newest first. Returns the routes that could not be deleted. When a
   * delete got no answer at all through all its attempts (the target refuses connections: it has
   * gone away), the others are not tried: each would wait through the same attempts, and the CLI's
   * sweep by tag after the run (and the next run's sweep of old leftovers) deletes what remains.
   */
  async cleanup(): Promise<string[]> {
    const failed: string[] = [];
    this.notDeleted = [];
    const fail = (route: string, why: string) => {
      failed.push(`${route} (${why})`);
      this.notDeleted.push({ route, why });
    };
    let gone: string | undefined;
    // Posts and pages first, up to 25 in one POST /batch/v1 of DELETE ?force=true (cleanup is not a
    // behaviour under test: a site pays one request, not 25). An item the batch did not delete, or
    // every item when the target does not take the batch, is deleted on its own below.
    if (batchDeletes !== 'no') {
      const batchable = this.tracked.filter((x) => x.batchable).reverse();
      for (let i = 0; i < batchable.length; i += BATCH_MAX) {
        const done = await batchDelete(this.client, batchable.slice(i, i + BATCH_MAX).map((x) => x.route)).catch(() => undefined);
        if (!done) break;
        for (let k = this.tracked.length - 1; k >= 0; k--) if (done.has(this.tracked[k]!.route)) this.tracked.splice(k, 1);
      }
    }
    while (this.tracked.length) {
      const item = this.tracked.pop()!;
      if (gone) {
        fail(item.route, `not tried: ${gone}`);
        continue;
      }
      try {
        await item.remove(this.client);
      } catch (err) {
        const message = (err as Error)?.message ?? String(err);
        fail(item.route, message);
        if (failureKindOf(err) === 'target') this.cleanupTrouble = 'target';
        if (TARGET_GONE.test(message)) gone = `the target did not answer the delete of ${item.route}`;
      }
    }
    return failed;
  }
}

/** Times a create is sent again after transient trouble (its first attempt's item found and removed). */
const CREATE_ATTEMPTS = 3;

/** Items tracked for deletion by any Fixtures of this process: never taken for what a failed create made. */
const trackedRoutes = new Set<string>();

/**
 * POST a create (`body` carries the run tag in its title or slug); when the target has transient
 * trouble (a gateway's answer, a reset, a timeout) the create may or may not have reached the
 * application, so the client does not send it again. Here it can be: whatever the first attempt
 * made is found among the newest items (trash included) by its exact title (or its slug), not an
 * item tracked already, force-deleted, and the create is sent again. When the items cannot be
 * listed, the trouble is thrown as it is.
 */
export async function createRecovering(client: Client, collection: string, body: Record<string, unknown>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.post(collection, body);
    } catch (err) {
      // A connection refused never reached the target (the client already sent it again): nothing was made.
      if (!(err instanceof TargetError) || err.code === 'BODY_TOO_LARGE' || NOT_SENT.has(err.code ?? '') || attempt >= CREATE_ATTEMPTS || client.unanswering) throw err;
      const made = await madeBy(client, collection, body);
      if (made === undefined) throw err;
      // In the run's ledger first: if the delete fails too, the run deletes it at the end.
      const tag = taggedWord(rawText(body.title), body.slug);
      for (const id of made) runLedger()?.made(itemAt(`${collection}/${id}`, { by: 'fixtures', ...(tag ? { tag } : {}) }));
      for (const id of made) await forceDelete(client, `${collection}/${id}`);
      client.noteRetry();
    }
  }
}

/**
 * POST an autosave of a fixture (`body.content` holds words of its own). After transient trouble
 * that may have come after the application acted, it is not sent again blindly: the item's
 * autosaves are read, and the one holding those words is the first attempt's (answered as that
 * read, with the autosave as its body); when none does, the autosave is sent again. When the
 * autosaves cannot be read, the trouble is thrown as it is.
 */
export async function autosaveRecovering(client: Client, path: string, body: Record<string, unknown>): Promise<Response> {
  const words = String(rawText(body.content) ?? '').replace(/<[^>]+>/g, ' ').trim();
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.post(path, body);
    } catch (err) {
      if (!(err instanceof TargetError) || err.code === 'BODY_TOO_LARGE' || NOT_SENT.has(err.code ?? '') || attempt >= CREATE_ATTEMPTS || client.unanswering || !words) throw err;
      const list = await client.get(path, { query: { context: 'edit' } }).catch(() => undefined);
      if (!list || list.status !== 200 || !Array.isArray(list.body)) throw err;
      const made = list.body.find((a: any) => JSON.stringify(a?.content ?? '').includes(words));
      if (made) return { ...list, body: made };
      client.noteRetry();
    }
  }
}

/** IDs of the untracked items among the newest that `body` would have made, or undefined when they cannot be listed. */
async function madeBy(client: Client, collection: string, body: Record<string, unknown>): Promise<number[] | undefined> {
  const title = rawText(body.title);
  const slug = typeof body.slug === 'string' && body.slug ? body.slug.toLowerCase() : undefined;
  if (title === undefined && slug === undefined) return undefined;
  for (let i = 1; i <= 4; i++) {
    try {
      const res = await client.get(collection, { query: { orderby: 'id', order: 'desc', status: ['any', 'trash'], per_page: 100, context: 'edit' } });
      if (res.status !== 200 || !Array.isArray(res.body)) return undefined;
      return res.body
        .filter((p: any) => typeof p?.id === 'number' && !trackedRoutes.has(`${collection}/${p.id}`))
        .filter((p: any) => {
          const raw = typeof p.title === 'object' ? (p.title?.raw ?? p.title?.rendered) : p.title;
          // By its title when one was sent (every tagged fixture has its own); else by its slug, which
          // WordPress makes unique with `-2`, `-3` ... (a slug-only match could take another item's
          // `<slug>-4`, so it is the fallback only).
          if (title !== undefined) return raw === title;
          return slug !== undefined && typeof p.slug === 'string' && (p.slug === slug || new RegExp(`^${slug.replace(/[^a-z0-9-]/g, '')}-\\d+$`).test(p.slug));
        })
        .map((p: any) => p.id as number);
    } catch (err) {
      // The target is down, does not answer, or answers the listing with a body over --max-body (it would again).
      if ((err instanceof TargetError && (NOT_SENT.has(err.code ?? '') || err.code === 'BODY_TOO_LARGE')) || client.unanswering) return undefined;
      await new Promise((r) => setTimeout(r, 300 * i));
    }
  }
  return undefined;
}

/**
 * DELETE ?force=true of several items in one POST /batch/v1 (validation "normal": each item on its
 * own). Returns the routes deleted (2xx, or 404/410: already gone); undefined when the target does
 * not take the batch (it is then not tried again in this run).
 */
async function batchDelete(client: Client, routes: string[]): Promise<Set<string> | undefined> {
  if (routes.length < 2) return new Set();
  const res = await client.post('/batch/v1', { validation: 'normal', requests: routes.map((r) => ({ method: 'DELETE', path: `${client.mapRoute(r)}?force=true` })) });
  const answers = (res.body as { responses?: { status?: number }[] } | undefined)?.responses;
  if (res.status < 200 || res.status > 299 || !Array.isArray(answers) || answers.length !== routes.length) {
    batchDeletes = 'no';
    return undefined;
  }
  batchDeletes = 'yes';
  const ok = (s: unknown) => typeof s === 'number' && ((s >= 200 && s < 300) || s === 404 || s === 410);
  return new Set(routes.filter((_, i) => ok(answers[i]?.status)));
}

/**
 * DELETE ?force=true (posts and pages, which document force; a contact form's DELETE documents no
 * argument, so none is sent: a server may refuse one it does not know); a 404/410 counts as already
 * gone. Cleanup is not a behaviour under test, so it tries again (a few times, briefly) when the
 * target stumbles (5xx, 429, no answer).
 */
export async function forceDelete(client: Client, route: string, attempts = 4): Promise<void> {
  const query = /^\/cms\/v2\//.test(route) ? { force: true } : {};
  for (let i = 1; ; i++) {
    let status: number;
    try {
      status = (await client.delete(route, { query })).status;
    } catch (err) {
      if (i >= attempts || client.unanswering) throw err;
      status = 0;
    }
    if (status >= 200 && status < 300) return;
    if (status === 404 || status === 410) return;
    if (i >= attempts || (status !== 0 && status !== 429 && status < 500)) throw new Error(`DELETE ${route}: ${status}`);
    await new Promise((r) => setTimeout(r, 200 * i));
  }
}
