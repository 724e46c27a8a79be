/**
 * What a fixture is checked against when it is made (issue 25): the behaviour that owns creating it
 * in a collection, and the one that owns storing each field it was created with. A fixture the target
 * did not make, or did not store as sent, throws a FixtureError naming that owner; the behaviours
 * that needed it skip with `depends on <owner>`.
 */
import type { Client } from '../http/client.ts';
import { rawText } from '../http/wire.ts';

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

// ---------------------------------------------------------------- what each fixture is, for messages

/** The items this suite file created, by ID: what set each apart, for a reader of a message that names its ID. */
const created = new Map<number, string>();

/** Remember what a fixture is: its kind and the fields that set it apart from the others ("a post with format aside, dated 2001-01-20"). */
export function recordCreated(id: number, collection: string, fields: Record<string, unknown>): void {
  const kind = (collection.split('/').pop() ?? 'item').replace(/s$/, '').replace(/-/g, ' ');
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (['title', 'content', 'excerpt', 'slug', 'meta'].includes(k) || v === undefined) continue;
    if (k === 'status' && v === 'publish') continue;
    if (k === 'date' || k === 'date_gmt') parts.push(`dated ${String(v).slice(0, 10)}`);
    else if (k === 'password') parts.push('with a password');
    else if (k === 'sticky') parts.push(v ? 'sticky' : 'not sticky');
    else parts.push(`${k} ${Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  }
  created.set(id, `a ${kind} this run created${parts.length ? ` (${parts.slice(0, 4).join(', ')})` : ''}`);
}

/** Remember an item the suite file tracks for deletion (created some other way), unless known already. */
export function recordTracked(route: string): void {
  const m = /^(.*)\/(\d+)$/.exec(route);
  if (m && !created.has(Number(m[2]))) recordCreated(Number(m[2]), m[1]!, {});
}

/** What a fixture of this suite file is, by its ID (undefined: not one of ours). */
export const createdItem = (id: number): string | undefined => created.get(id);

// ---------------------------------------------------------------- fixtures verify themselves

/** The writable fields of posts and pages a fixture may rely on, checked when it is made. */
const CHECKED_FIELDS = ['status', 'password', 'parent', 'menu_order', 'date', 'date_gmt', 'categories', 'tags', 'sticky', 'format', 'author', 'meta', 'comment_status', 'ping_status', 'template', 'featured_media', 'title', 'content', 'excerpt'] as const;
const RENDERED_FIELDS = new Set(['title', 'content', 'excerpt']);
/**
 * A date-time as sent by the suite: a wall clock of the site (without a zone, or with the site's
 * offset: siteDateTime), read back as written; one in GMT (`Z`) is any instant and not compared.
 */
const LOCAL_DATE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:[+-]\d{2}:\d{2})?$/;

/**
 * The behaviour that owns "create stores <field>" in a collection: it fails (once) when the target
 * does not store the field, and every behaviour whose fixture relied on it skips, naming it.
 * status: every write status is stored (write.statuses); title, content and excerpt: a
 * create with a few fields stores them (create.optional-fields); any other writable field: a create
 * with every writable field stores each one (fields.create-stored).
 */
export function storedFieldOwner(collection: string, field: string): string | undefined {
  const m = /^\/cms\/v2\/(posts|pages)$/.exec(collection);
  if (!m) return fixtureOwner(collection);
  if (field === 'status') return `cms.${m[1]}.write.statuses`;
  if (RENDERED_FIELDS.has(field)) return `cms.${m[1]}.create.optional-fields`;
  return `cms.${m[1]}.fields.create-stored`;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** The words of a text, without its markup or how its white space runs. */
const textOnly = (s: string) => s.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * How one sent field reads back in `item` (an edit-context answer): undefined when stored as sent,
 * 'absent' when the answer does not carry it (then the item is read back), else what differs.
 */
function storedAs(field: string, sent: unknown, item: any): undefined | 'absent' | string {
  if (!item || typeof item !== 'object' || !(field in item)) return 'absent';
  const got = item[field];
  const show = (v: unknown) => JSON.stringify(v)?.slice(0, 80);
  if (RENDERED_FIELDS.has(field)) {
    const want = rawText(sent);
    if (typeof want !== 'string') return undefined;
    const raw = typeof got === 'string' ? got : got?.raw;
    if (raw === undefined) return 'absent';
    // The text, not its markup: what the behaviours rely on are the words (tokens) it carries, and a
    // site may store markup otherwise (Jetpack's Markdown, which the suite's module checks toggle,
    // stores `<p>x</p>` as `x`); the markup itself is create.optional-fields' to check.
    return typeof raw === 'string' && textOnly(raw) === textOnly(want) ? undefined : `${field}: sent ${show(want)}, stored ${show(raw)}`;
  }
  if (field === 'date' || field === 'date_gmt') {
    const wall = typeof sent === 'string' ? LOCAL_DATE.exec(sent)?.[1] : undefined;
    if (wall === undefined) return undefined;
    return typeof got === 'string' && got.slice(0, 19) === wall ? undefined : `${field}: sent ${show(sent)}, stored ${show(got)}`;
  }
  if (field === 'meta') {
    if (!sent || typeof sent !== 'object') return undefined;
    const diff = Object.entries(sent as Record<string, unknown>).filter(([k, v]) => !same(v, got?.[k]));
    return diff.length ? diff.map(([k, v]) => `meta.${k}: sent ${show(v)}, stored ${show(got?.[k])}`).join('; ') : undefined;
  }
  if (Array.isArray(sent)) {
    const norm = (x: unknown) => (Array.isArray(x) ? [...x].sort() : x);
    return same(norm(sent), norm(got)) ? undefined : `${field}: sent ${show(sent)}, stored ${show(got)}`;
  }
  return same(sent, got) ? undefined : `${field}: sent ${show(sent)}, stored ${show(got)}`;
}

/**
 * A fixture verifies itself: every field it was created with that a behaviour may rely on (status,
 * password, parent, dates, terms, meta, the fields filters and searches look at ...) is checked in
 * the create answer, and, only when the answer does not carry one, in one read back (edit context).
 * When the target did not store a field, a FixtureError names the behaviour that owns storing it
 * (storedFieldOwner): that behaviour reports the deviation; the behaviours that needed the fixture
 * skip with `depends on <owner>`. Returns the item as read (the answer, or the read back).
 */
export async function verifyStored(client: Client, collection: string, sent: Record<string, unknown>, answer: any, unchecked: readonly string[] = []): Promise<any> {
  if (typeof answer?.id === 'number') recordCreated(answer.id, collection, sent);
  // Posts and pages: the collections whose fields part 2 documents.
  if (!/^\/cms\/v2\/(posts|pages)$/.test(collection)) return answer;
  const fields = CHECKED_FIELDS.filter((f) => f in sent && sent[f] !== undefined && !unchecked.includes(f));
  let item = answer;
  let found = fields.map((f) => [f, storedAs(f, sent[f], item)] as const);
  if (found.some(([, d]) => d === 'absent') && typeof answer?.id === 'number') {
    const res = await client.get(`${collection}/${answer.id}`, { query: { context: 'edit' } });
    if (res.status === 200 && res.body && typeof res.body === 'object') {
      item = res.body;
      found = fields.map((f) => [f, storedAs(f, sent[f], item)] as const);
    }
  }
  const wrong = found.filter(([, d]) => d !== undefined).map(([f, d]) => [f, d === 'absent' ? `${f}: sent ${JSON.stringify(sent[f])?.slice(0, 80)}, not in the item read back` : d] as const);
  if (!wrong.length) return answer;
  // status first: a fixture created as published but stored otherwise is read by nobody as intended.
  const [field] = wrong.find(([f]) => f === 'status') ?? wrong[0]!;
  throw new FixtureError(
    `the ${collection.split('/').pop()!.replace(/s$/, '')} created as a fixture (POST ${collection}, item ${answer?.id}) was not stored as sent: ${wrong.map(([, d]) => d).join('; ')}`,
    storedFieldOwner(collection, field),
  );
}

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
