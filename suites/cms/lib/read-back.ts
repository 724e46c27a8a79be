/**
 * Read your writes (issue 36): the read-backs of the write checks (fields stored, updates,
 * deletes, status changes, refused writes, the model's state checks) read the item through a URL
 * they read BEFORE the write, as a client of the site reads it back. A cache in front of the site
 * keyed by URL and credentials that no write purges (a page cache, a CDN rule for
 * GET /cms/v2/posts/<id>) answers that URL with the copy from before the write.
 *
 * How a stale answer is told from a write that changed nothing: when the URL read before answers
 * byte for byte as it did, the item is read once more through a URL not read before (the same read
 * with the documented `id` query argument, part 4: "GET /cms/v2/posts/<id> | query: id (integer),
 * context …"). When that one answers otherwise, the first answer was a stale copy: a MUST failure
 * owned by `cms.read-your-writes` (which probes it on both post types); the other checks skip,
 * depending on it (one cache, one finding), or fail themselves where the probe did not see it.
 * A check that expects nothing to change (a refused write) judges the fresh answer, so a cache
 * cannot hide a change either.
 */
import { ConformanceFailure } from '../../../src/sdk/http.ts';
import { fixtures, prerequisite, Unmet, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Client, QueryValue, Response } from '../../../src/sdk/http.ts';
import { answerOf, whyNotAccepted } from '../../../src/sdk/controls.ts';
import { cacheHeaders, sameAnswer } from '../../../src/sdk/stale.ts';
import { postTypes, type PostType } from './collections.ts';
import { textFields } from '../../../src/sdk/http.ts';

export const READ_YOUR_WRITES = 'cms.read-your-writes';

type Query = Record<string, QueryValue>;
const ok = (status: number) => status >= 200 && status <= 299;
const idIn = (path: string) => Number(/\/(\d+)$/.exec(path)?.[1]);
const shown = (path: string, query: Query) => `GET ${path}${Object.keys(query).length ? `?${Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&')}` : ''}`;

/** How many fresh reads of each item URL were made: each takes another URL. */
const freshCount = new Map<string, number>();
const serial = (q: Query) => Object.entries(q).map(([k, v]) => `${k}=${String(v)}`).join('&');

/**
 * The same read through a URL not read before: the documented `id` query argument added (its value
 * is the item's own), in an order of the arguments not used yet (and `context=view`, the default,
 * where none was given), so that each fresh read of a URL is a URL of its own.
 */
function freshQuery(path: string, query: Query): Query {
  const id = idIn(path);
  const variants = [{ ...query, id }, { id, ...query }, { ...query, context: query.context ?? 'view', id }, { id, context: query.context ?? 'view', ...query }];
  const seen = new Set<string>([serial(query)]);
  const distinct = variants.filter((v) => !seen.has(serial(v)) && (seen.add(serial(v)), true));
  const key = `${path}?${serial(query)}`;
  const n = freshCount.get(key) ?? 0;
  freshCount.set(key, n + 1);
  return distinct[n % distinct.length]!;
}
const freshRead = (client: Client, path: string, query: Query) => {
  const q = freshQuery(path, query);
  return client.get(path, { query: q }).then((res) => Object.assign(res, { freshQuery: q }));
};

/** Why `stale` (the URL read before) is a stale copy, when `fresh` (a URL not read before) answers otherwise. */
function staleMessage(path: string, query: Query, stale: Response, fresh: Response, write: string, shows = 'with the write'): string {
  const headers = cacheHeaders(stale);
  return (
    `after ${write}, ${shown(path, query)} answered what it answered before it (${answerOf(stale)}${headers ? `; ${headers}` : ''}), ` +
    `while the same read through a URL not read before (${shown(path, (fresh as Response & { freshQuery?: Query }).freshQuery ?? query)}) answers ${answerOf(fresh)} ${shows}: ` +
    `it looks like a cache in front of the site that writes do not reach, and a client that writes an item and reads it back sees the old copy`
  );
}

// ---------------------------------------------------------------------------------------------
// The probe, owned by cms.read-your-writes
// ---------------------------------------------------------------------------------------------

/** The reads a client makes of an item: the plain GET, and the edit context the suite's read-backs use. */
const PROBED: Query[] = [{}, { context: 'edit' }];

async function probe(client: Client, type: PostType): Promise<{ what: string; message: string }[]> {
  const fx = fixtures();
  const label = fx.label(`read-your-writes-${type.noun}`);
  const made = await client.post(type.collection, { title: { raw: label }, slug: label, status: 'publish', content: { raw: `<p>${label}</p>` } });
  if (!ok(made.status) || !Number.isInteger(made.body?.id)) throw new Unmet(`depends on cms.${type.name}.create.optional-fields: POST ${type.collection} answered ${answerOf(made)}, no ${type.noun} to write and read back`, 'skipped');
  const path = type.item(made.body.id);
  fx.track(path);
  const problems: { what: string; message: string }[] = [];
  const before = await Promise.all(PROBED.map((query) => client.get(path, { query })));
  before.forEach((res, i) => {
    if (res.status !== 200) throw new Unmet(`depends on cms.${type.name}.context.${i ? 'edit' : 'default'}: ${shown(path, PROBED[i]!)} answered ${answerOf(res)} for a ${type.noun} just created, nothing to read back`, 'skipped');
  });
  // An update (a new title), then the same reads.
  const word = fx.label('updated').replace(/-/g, '');
  const update = await client.request('PATCH', path, { body: { title: { raw: `${label} ${word}` } } });
  if (!ok(update.status)) throw new Unmet(`depends on cms.${type.name}.update.patch: PATCH ${path} answered ${answerOf(update)}, nothing written to read back`, 'skipped');
  for (const [i, query] of PROBED.entries()) {
    const after = await client.get(path, { query });
    if (after.text.includes(word)) continue;
    const fresh = await freshRead(client, path, query);
    if (!fresh.text.includes(word)) throw new Unmet(`depends on cms.${type.name}.update.patch: PATCH ${path} {title} was answered ${answerOf(update)}, but no read shows the new title`, 'skipped');
    const what = `${shown(path, query)} after PATCH`;
    if (sameAnswer(before[i]!, after)) problems.push({ what, message: staleMessage(path, query, after, fresh, `PATCH ${path} (a new title)`) });
    else problems.push({ what, message: `after PATCH ${path}, ${shown(path, query)} answers without the new title (${answerOf(after)}) while ${shown(path, fresh.freshQuery)} shows it` });
  }
  // A delete for good, then the same reads: the item is gone.
  const del = await client.delete(path, { query: { force: true } });
  if (!ok(del.status)) throw new Unmet(`depends on cms.${type.name}.delete.force: DELETE ${path}?force=true answered ${answerOf(del)}, nothing deleted to read back`, 'skipped');
  for (const query of PROBED) {
    const gone = await client.get(path, { query });
    if (!ok(gone.status)) continue;
    const fresh = await freshRead(client, path, query);
    if (ok(fresh.status)) throw new Unmet(`depends on cms.${type.name}.delete.force: DELETE ${path}?force=true was answered ${answerOf(del)}, but the ${type.noun} is still read`, 'skipped');
    problems.push({ what: `${shown(path, query)} after DELETE`, message: staleMessage(path, query, gone, fresh, `DELETE ${path}?force=true`, '(the item is gone)') });
  }
  return problems;
}

/**
 * After an update and after a delete for good, posts and pages read through the URLs read before
 * the write show the write. Computed once (per suite worker), by the owner or by a check that met a
 * stale answer first.
 */
export const readYourWrites = prerequisite(READ_YOUR_WRITES, async (client) => {
  const problems = (await Promise.all(postTypes.map((type) => probe(client, type)))).flat();
  if (problems.length) throw new ConformanceFailure(`${problems[0]!.message}${problems.length > 1 ? `; likewise ${problems.slice(1).map((p) => p.what).join(', ')}` : ''}`);
  return true;
});

// ---------------------------------------------------------------------------------------------
// The read-backs of the write checks
// ---------------------------------------------------------------------------------------------

export interface Primed {
  path: string;
  query: Query;
  /** The answer before the write. */
  before: Response;
}

/** Before a write: read the item through the URL its read-back uses (edit context by default). */
export async function readBefore(t: BehaviourContext, path: string, query: Query = { context: 'edit' }): Promise<Primed> {
  return { path, query, before: await t.client.get(path, { query }) };
}

/** An answer read before the write (the check's own earlier read of the URL), as a primed read. */
export const primedBy = (path: string, query: Query, before: Response): Primed => ({ path, query, before });

/**
 * After the write: the URL read before, again. `expect`: `change` when the write changes the
 * item (an accepted update or delete), `none` when it must not (a refused write). Returns the
 * answer to judge: when the URL answers byte for byte as before the write, the fresh read's.
 */
export async function readAfter(t: BehaviourContext, p: Primed, expect: 'change' | 'none', write = 'the write'): Promise<Response> {
  const after = t.judge(await t.client.get(p.path, { query: p.query }));
  if (!sameAnswer(p.before, after)) return after;
  const fresh = t.judge(await freshRead(t.client, p.path, p.query));
  if (sameAnswer(after, fresh) || expect === 'none') return fresh;
  await staleFound(t, staleMessage(p.path, p.query, after, fresh, write));
  return fresh;
}

/**
 * A read-back found a stale copy: when cms.read-your-writes found the cache too, this check skips
 * depending on it; else the check fails itself (a cache the probe did not meet).
 */
export async function staleFound(t: BehaviourContext, message: string): Promise<never> {
  if (t.decl.id !== READ_YOUR_WRITES) await t.need(readYourWrites);
  t.fail(message);
}

/** Whether a read-back answer (`after`) is a stale copy of `before` where `fresh` (a URL not read before) differs. */
export async function checkStale(t: BehaviourContext, path: string, query: Query, before: Response | undefined, after: Response, write: string): Promise<void> {
  if (!before || !sameAnswer(before, after)) return;
  const fresh = await freshRead(t.client, path, query);
  if (!sameAnswer(after, fresh)) await staleFound(t, staleMessage(path, query, after, fresh, write));
}

/** readAfter of an accepted write in edit context: the item as read back (a refusal of the read fails the check). */
export async function readBackEdit(t: BehaviourContext, p: Primed, write: string): Promise<any> {
  if (p.before.status !== 200) t.fail(`${shown(p.path, p.query)} answered ${answerOf(p.before)} before ${write}: the item cannot be read back`);
  const res = await readAfter(t, p, 'change', write);
  if (res.status !== 200) t.fail(`after ${write}, ${shown(p.path, p.query)} answered ${answerOf(res)} ${res.text.slice(0, 120)}`);
  return res.body;
}

/** The item in edit context, read once (a refusal fails the check). */
export async function readItemEdit(t: BehaviourContext, type: PostType, id: number): Promise<any> {
  const res = t.judge(await t.client.get(type.item(id), { query: { context: 'edit' } }));
  if (res.status !== 200) t.fail(whyNotAccepted(res, `GET ${type.item(id)}?context=edit`));
  return res.body;
}

/** A create that may succeed or not; whatever it creates is tracked for deletion after the file. */
export async function tryCreateItem(t: BehaviourContext, type: PostType, body: Record<string, unknown>, opts: { invalid?: string[] } = {}): Promise<Response> {
  // Text fields as the documented objects ({raw}), the form every reading takes (src/http/wire.ts).
  const res = await t.client.post(type.collection, textFields(body), opts);
  if (typeof res.body?.id === 'number' && ok(res.status)) fixtures().track(type.item(res.body.id));
  return res;
}
