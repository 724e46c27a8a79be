/**
 * Faults in what posts and pages show of their state, and to whom (issue 36): private reads served
 * without credentials (revisions, autosaves, password-protected content), reads a write does not
 * reach (a cache in front of single items), dates and slugs stored otherwise than part 2 states.
 * Routes in spec names (the proxy translates through the target's profile).
 */
import { learnedCredentials } from '../kit.ts';
import type { Fault, FaultRequest, FaultResponse } from '../proxy.ts';
import { COLLECTION, ITEM, isItemWrite, perType } from './common.ts';

const PRIVATE_SUBROUTE = /^\/cms\/v2\/(posts|pages)\/\d+\/(revisions|autosaves)(\/\d+)?$/;

/** The items of a post/page answer: a list's entries, a single item, a force delete's `previous`. */
const itemsOf = (body: unknown): any[] => {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') return 'id' in body ? [body] : 'previous' in body ? [(body as { previous: unknown }).previous] : [];
  return [];
};

// ---------------------------------------------------------------------------
// Private reads served
// ---------------------------------------------------------------------------

/** Authorization headers the target accepted on cms routes (to answer anonymous requests as if they were made with them). */
const credentials = learnedCredentials('/cms/v2');

/** Rendered content and excerpt of password-protected items, as their editors were answered them, by item id. */
const protectedText = new Map<number, { content?: string; excerpt?: string }>();
/** Passwords of protected items, as their editors were answered them (edit context), by item id. */
const passwords = new Map<number, string>();

const privateReads: Fault[] = [
  {
    id: 'cms.revisions-served-anonymously',
    title: 'serves the revisions and autosaves of posts and pages (lists and single reads) to anonymous readers',
    caughtBy: [...perType('auth.revisions-read'), ...perType('auth.autosaves-read')],
    request(req) {
      if (!req.authenticated && req.method === 'GET' && PRIVATE_SUBROUTE.test(req.route)) credentials.authenticate(req);
    },
    response: credentials.learn,
  },
  {
    id: 'cms.protected-content-served',
    title: 'answers anonymous reads of a password-protected post or page with its content and excerpt (still flagged protected)',
    caughtBy: perType('password.protects'),
    response(req, res) {
      const items = itemsOf(res.json).filter((i) => i && typeof i === 'object' && Number.isInteger(i.id));
      if (req.authenticated) {
        for (const i of items) {
          const isProtected = (typeof i.password === 'string' && i.password !== '') || i.content?.protected === true;
          const content = i.content?.rendered;
          if (isProtected && typeof content === 'string' && content.trim()) protectedText.set(i.id, { content, excerpt: typeof i.excerpt?.rendered === 'string' ? i.excerpt.rendered : undefined });
        }
        return;
      }
      if (req.method !== 'GET' || !(ITEM.test(req.route) || COLLECTION.test(req.route))) return;
      for (const i of items) {
        const text = protectedText.get(i.id);
        if (!text) continue;
        if (i.content && typeof i.content === 'object' && text.content) i.content.rendered = text.content;
        if (i.excerpt && typeof i.excerpt === 'object' && text.excerpt) i.excerpt.rendered = text.excerpt;
      }
    },
  },
  {
    // The password itself is what protects the content: a server that serves it anonymously gives everything away.
    id: 'cms.password-served',
    title: 'answers anonymous reads of a password-protected post or page with its password field',
    caughtBy: perType('password.protects'),
    response(req, res) {
      if (req.authenticated) {
        for (const i of itemsOf(res.json)) if (i && Number.isInteger(i.id) && typeof i.password === 'string' && i.password) passwords.set(i.id, i.password);
        return;
      }
      if (req.method !== 'GET' || !(ITEM.test(req.route) || COLLECTION.test(req.route))) return;
      for (const i of itemsOf(res.json)) if (i && typeof i === 'object' && passwords.has(i.id)) i.password = passwords.get(i.id);
    },
  },
  {
    id: 'cms.wrong-password-unlocks',
    title: 'unlocks a password-protected post or page for any password given to its single GET',
    caughtBy: perType('password.protects'),
    request(req) {
      const m = ITEM.exec(req.route);
      const known = m ? passwords.get(Number(m[2])) : undefined;
      if (req.method === 'GET' && !req.authenticated && known !== undefined && req.query.has('password')) req.query.set('password', known);
    },
    response(req, res) {
      if (!req.authenticated) return;
      for (const i of itemsOf(res.json)) if (i && Number.isInteger(i.id) && typeof i.password === 'string' && i.password) passwords.set(i.id, i.password);
    },
  },
];

// ---------------------------------------------------------------------------
// Reads a write does not reach
// ---------------------------------------------------------------------------

/** What a cache in front of the site holds: answers by URL and credentials, with the time they were stored. */
const cached = new Map<string, { at: number; res: FaultResponse }>();
const CACHE_MS = 30_000;
const cacheKey = (req: FaultRequest) => `${req.headers.authorization ?? ''}\u0000${req.route}?${req.query.toString()}`;

const staleReads: Fault[] = [
  {
    // A page cache or CDN rule in front of single items (keyed by URL and credentials, 30 s) that
    // no write purges: a client that writes an item and reads it back sees the old copy.
    id: 'cms.item-cache-stale',
    title: 'answers GET /cms/v2/posts/<id> and /pages/<id> from a 30-second cache keyed by URL and credentials, which writes do not purge',
    caughtBy: ['cms.read-your-writes'],
    request(req) {
      if (req.method !== 'GET' || !ITEM.test(req.route)) return;
      const hit = cached.get(cacheKey(req));
      if (!hit || Date.now() - hit.at > CACHE_MS) return;
      return { status: hit.res.status, headers: { ...hit.res.headers, age: String(Math.floor((Date.now() - hit.at) / 1000)), 'x-cache': 'HIT' }, json: structuredClone(hit.res.json), text: hit.res.text };
    },
    response(req, res) {
      if (req.method !== 'GET' || !ITEM.test(req.route) || res.headers['x-cache'] === 'HIT' || res.status >= 500) return;
      res.headers['x-cache'] = 'MISS';
      // The copy as it was served (the same bytes: a cache does not re-encode).
      cached.set(cacheKey(req), { at: Date.now(), res: { status: res.status, headers: { ...res.headers }, json: structuredClone(res.json), text: res.text } });
    },
  },
];

// ---------------------------------------------------------------------------
// Dates and slugs
// ---------------------------------------------------------------------------

const bodyOf = (req: FaultRequest): Record<string, unknown> | undefined => (req.json && typeof req.json === 'object' && !Array.isArray(req.json) ? req.json : undefined);

/** Slugs asked for and kept as asked, by `<type>/<id>`: answered so in every later answer for the item. */
function slugKeeper(id: string, title: string, caughtBy: string[], keep: (asked: string, item: any) => string | undefined): Fault {
  /** The slug kept, and the one the target gave instead (a later answer with another is a later write: the slug is let go). */
  const kept = new Map<string, { slug: string; given: string }>();
  return {
    id,
    title,
    caughtBy,
    response(req, res) {
      const asked = bodyOf(req)?.slug;
      for (const item of itemsOf(res.json)) {
        if (!item || typeof item !== 'object' || !Number.isInteger(item.id) || typeof item.slug !== 'string') continue;
        const key = `${req.route.split('/')[3]}/${item.id}`;
        if (isItemWrite(req) && typeof asked === 'string' && res.status < 300) {
          const slug = keep(asked, item);
          if (slug !== undefined && slug !== item.slug) kept.set(key, { slug, given: item.slug });
          else kept.delete(key);
        }
        const k = kept.get(key);
        if (k && k.given !== item.slug) kept.delete(key);
        else if (k) item.slug = k.slug;
      }
    },
  };
}

const datesAndSlugs: Fault[] = [
  {
    // A server that reads date_gmt as a date in the site timezone (visible where gmt_offset is not 0).
    id: 'cms.date-gmt-as-local',
    title: 'takes a date_gmt written without a date as the date in the site timezone',
    caughtBy: [...perType('fields.dates'), ...perType('fields.update-stored')],
    request(req) {
      const body = bodyOf(req);
      if (!isItemWrite(req) || !body || typeof body.date_gmt !== 'string' || body.date !== undefined) return;
      // Its wall clock, without the zone it carries, taken as the site's.
      body.date = body.date_gmt.replace(/(Z|[+-]\d{2}:?\d{2})$/i, '');
      delete body.date_gmt;
    },
  },
  {
    // A server that parses a date-time without its zone: the wall clock is taken as site time.
    id: 'cms.date-offset-dropped',
    title: 'drops the offset a written date carries, taking its wall clock as the site timezone',
    caughtBy: perType('fields.dates'),
    request(req) {
      const body = bodyOf(req);
      if (isItemWrite(req) && body && typeof body.date === 'string') body.date = body.date.replace(/(Z|[+-]\d{2}:?\d{2})$/i, '');
    },
  },
  slugKeeper('cms.draft-slug-not-unique', 'gives a draft the slug it asks for (on create and update) even when another item of the type holds it (answered and read back)', perType('fields.slug-unique-draft'), (asked, item) =>
    // Only slugs that need nothing else made of them (uniqueness alone is this fault's).
    (item.status === 'draft' || item.status === 'pending') && /^[a-z0-9_-]+$/.test(asked) ? asked : undefined,
  ),
  slugKeeper('cms.slug-unique-among-siblings', 'gives a published child the slug it asks for when an item with another parent holds it (slugs unique among siblings only, as WordPress makes them; answered and read back)', ['cms.pages.fields.slug-unique-child'], (asked, item) =>
    item.status === 'publish' && Number(item.parent) > 0 && /^[a-z0-9_-]+$/.test(asked) ? asked : undefined,
  ),
  slugKeeper('cms.slug-accents-kept', 'keeps the accented letters of a slug it is given (lowercased; answered and read back)', perType('fields.slug-alphanumeric'), (asked, item) =>
    // Kept unique as the target made it (its -2 suffix).
    /[^\x00-\x7f]/.test(asked) ? `${asked.toLowerCase()}${/-\d+$/.exec(item.slug)?.[0] ?? ''}` : undefined,
  ),
];

export const cmsStateFaults: Fault[] = [...privateReads, ...staleReads, ...datesAndSlugs];

