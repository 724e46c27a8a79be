/**
 * Items the suite creates on a target: tagged with the run ID, tracked, and force-deleted
 * afterwards — after each suite file (afterAll), and again by the CLI after the run and at
 * the start of the next one (a sweep by tag), so that an interrupted or crashed run leaves
 * nothing behind.
 */
import type { Client } from './client.ts';

/** Every item the suite creates carries this prefix in its title and slug. */
export const TAG_PREFIX = 'cmsc-';

/** Collections the suite may create items in, with how to find and delete them. */
export const SWEPT_COLLECTIONS = ['/cms/v2/posts', '/cms/v2/pages', '/contactform/v1/contact-forms'] as const;

export function tagFor(runId: string): string {
  return `${TAG_PREFIX}${runId.replace(/^cmsc-?/, '')}`;
}

interface Tracked {
  /** Item route, e.g. /cms/v2/posts/12 */
  route: string;
  /** How to remove it. */
  remove: (client: Client) => Promise<void>;
}

export class Fixtures {
  private readonly tracked: Tracked[] = [];
  private counter = 0;

  constructor(
    private readonly client: Client,
    readonly tag: string,
  ) {}

  /** A unique, tagged slug / title fragment for a new item. */
  label(hint = 'item'): string {
    return `${this.tag}-${hint}-${++this.counter}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  }

  /** Track an item so it is force-deleted at cleanup. */
  track(route: string, remove: Tracked['remove'] = (c) => forceDelete(c, route)): void {
    this.tracked.push({ route, remove });
  }

  /**
   * Create a post or page (collection route `/cms/v2/posts` or `/cms/v2/pages`) with the
   * run tag in title and slug, and track it. Throws when creation does not answer 2xx with an id.
   */
  async create(collection: string, fields: Record<string, unknown> = {}, client: Client = this.client): Promise<any> {
    const label = this.label(collection.split('/').pop());
    const title = typeof fields.title === 'string' ? `${label} ${fields.title}` : label;
    const body = { status: 'publish', content: `<p>${label}</p>`, ...fields, title, slug: fields.slug ?? label };
    const res = await client.post(collection, body);
    if (res.status < 200 || res.status > 299 || typeof res.body?.id !== 'number')
      throw new FixtureError(`could not create a fixture in ${collection}: ${res.status} ${res.text.slice(0, 200)}`, fixtureOwner(collection));
    this.track(`${collection}/${res.body.id}`);
    return res.body;
  }

  /** Delete everything tracked, newest first. Returns the routes that could not be deleted. */
  async cleanup(): Promise<string[]> {
    const failed: string[] = [];
    while (this.tracked.length) {
      const item = this.tracked.pop()!;
      try {
        await item.remove(this.client);
      } catch (err) {
        // The reason says whether the target was the trouble (timed out, reset ...): reports tell target from harness by it.
        failed.push(`${item.route} (${(err as Error)?.message ?? String(err)})`);
      }
    }
    return failed;
  }
}

/**
 * The behaviour that owns "an item can be created in this collection": when a fixture cannot be
 * made, behaviours that needed it skip with `depends on <owner>` (the owner reports the deviation).
 */
export const FIXTURE_OWNERS: Record<string, string> = {
  '/cms/v2/posts': 'cms.posts.create.optional-fields',
  '/cms/v2/pages': 'cms.pages.create.optional-fields',
  '/contactform/v1/contact-forms': 'contactform.forms.create',
};

export const fixtureOwner = (route: string): string | undefined =>
  Object.entries(FIXTURE_OWNERS).find(([collection]) => route === collection || route.startsWith(`${collection}/`))?.[1];

/**
 * A fixture could not be set up: a precondition, not a conformance failure of the behaviour under
 * test. The behaviour skips with `depends on <owner>` (the behaviour that checks what failed).
 */
export class FixtureError extends Error {
  override name = 'FixtureError';
  readonly owner?: string;
  constructor(message: string, owner?: string) {
    super(message);
    this.owner = owner;
  }
}

/**
 * DELETE ?force=true; a 404/410 counts as already gone. Cleanup is not a behaviour under test,
 * so it tries again (a few times, briefly) when the target stumbles (5xx, 429, no answer).
 */
export async function forceDelete(client: Client, route: string, attempts = 4): Promise<void> {
  for (let i = 1; ; i++) {
    let status: number;
    try {
      status = (await client.delete(route, { query: { force: true } })).status;
    } catch (err) {
      if (i >= attempts) throw err;
      status = 0;
    }
    if (status >= 200 && status < 300) return;
    if (status === 404 || status === 410) return;
    if (i >= attempts || (status !== 0 && status !== 429 && status < 500)) throw new Error(`DELETE ${route}: ${status}`);
    await new Promise((r) => setTimeout(r, 200 * i));
  }
}

/**
 * Force-delete every post, page and contact form tagged with `tag` (default: any run's tag). Used by the CLI
 * before a run (leftovers of earlier interrupted runs) and after it.
 */
export async function sweep(client: Client, tag = TAG_PREFIX): Promise<{ deleted: number; failed: number }> {
  let deleted = 0;
  let failed = 0;
  for (const collection of SWEPT_COLLECTIONS) {
    for (let guard = 0; guard < 20; guard++) {
      const res = await listTagged(client, collection, tag);
      if (!res) break;
      const mine = res.filter((p: any) => isTagged(p, tag));
      if (!mine.length) break;
      const before = deleted + failed;
      await Promise.all(
        mine.map((p: any) =>
          forceDelete(client, `${collection}/${p.id}`).then(
            () => deleted++,
            () => failed++,
          ),
        ),
      );
      if (deleted + failed === before) break;
      if (failed) break;
    }
  }
  return { deleted, failed };
}

/**
 * How tagged items are found: by searching the tag (titles carry it), and among the newest
 * items (an item tagged only in its slug is not found by a search). `any` leaves trashed items
 * out (WordPress), so the trash is asked for too.
 */
const TAGGED_LISTINGS: Record<string, string | string[]>[] = [
  { search: TAG_PREFIX, status: ['any', 'trash'] },
  { orderby: 'id', order: 'desc', status: ['any', 'trash'] },
];

/** Tagged items of a collection (any status, trash included), or undefined when the target does not answer with a list. */
export async function listTagged(client: Client, collection: string, tag = TAG_PREFIX): Promise<any[] | undefined> {
  const found = new Map<number, any>();
  let answered = false;
  for (const listing of TAGGED_LISTINGS) {
    const query = { ...listing, ...('search' in listing ? { search: tag } : {}), per_page: 100, context: 'edit', _fields: 'id,slug,title' };
    for (let i = 1; i <= 4; i++) {
      try {
        const res = await client.get(collection, { query });
        if (res.status === 200 && Array.isArray(res.body)) {
          answered = true;
          for (const p of res.body) if (isTagged(p, tag) && typeof p?.id === 'number') found.set(p.id, p);
          break;
        }
        if (res.status !== 429 && res.status < 500) break;
      } catch {
        /* no answer: try again */
      }
      await new Promise((r) => setTimeout(r, 200 * i));
    }
  }
  return answered ? [...found.values()] : undefined;
}

function isTagged(item: any, tag: string): boolean {
  const title = typeof item?.title === 'object' ? (item.title.raw ?? item.title.rendered) : item?.title;
  return [item?.slug, title].some((s) => typeof s === 'string' && s.toLowerCase().includes(tag));
}
