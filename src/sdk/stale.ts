/**
 * Read your writes (issue 36): a client of a site that writes an item and reads it back must see
 * its write. A cache in front of the site (a page cache, a CDN rule keyed by URL and credentials)
 * that a write does not reach answers a URL read before the write with the copy from before it.
 * What the response headers say about caching is named in the messages of the checks that find a
 * read-back stale, so that whoever runs the site knows where to look.
 */

/** Headers by which caches and CDNs mark an answer they served (or may serve) from a cache, in the casing they are usually written. */
const CACHE_HEADERS = [
  'Age',
  'X-Cache',
  'X-Cache-Hits',
  'X-Cache-Status',
  'CF-Cache-Status',
  'X-Proxy-Cache',
  'X-Varnish',
  'X-Drupal-Cache',
  'X-LiteSpeed-Cache',
  'X-FastCGI-Cache',
  'X-Nginx-Cache',
  'X-Sucuri-Cache',
  'Akamai-Cache-Status',
  'X-Served-By',
  'Via',
  'Cache-Control',
  'Surrogate-Control',
  'CDN-Cache-Control',
  'Expires',
];

interface Answer {
  status: number;
  text: string;
  headers?: Record<string, string | string[] | undefined>;
}

/** The caching headers of an answer, as `Age: 12, X-Cache: HIT`; empty when it carries none. */
export function cacheHeaders(res: Pick<Answer, 'headers'>): string {
  const headers = res.headers ?? {};
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v]));
  return CACHE_HEADERS.flatMap((name) => {
    const v = lower.get(name.toLowerCase());
    return v === undefined || v === '' ? [] : [`${name}: ${String(v).slice(0, 80)}`];
  }).join(', ');
}

/** A body as compared: JSON re-serialized (so that escaping does not count: `\/` and `/` are one), else the text. */
function canonical(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Whether `after` is the answer `before` got (same status, same body, byte for byte once JSON is read). */
export function sameAnswer(before: Answer, after: Answer): boolean {
  return before.status === after.status && (before.text === after.text || canonical(before.text) === canonical(after.text));
}

/**
 * For a read-back that does not show a write: when it is byte for byte what the same URL answered
 * before the write, say so, with the headers that tell of a cache (a clause to append to a
 * failure message); else ''.
 */
export function staleNote(before: Answer, after: Answer): string {
  if (!sameAnswer(before, after)) return '';
  const headers = cacheHeaders(after);
  return ` (the same as it answered before the write${headers ? `; its headers: ${headers}; if a cache sits in front of the site, the write did not reach it` : ''})`;
}
