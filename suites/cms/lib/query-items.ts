/**
 * The items of the collection query model (lib/query-model.ts): made for it on a site the run may
 * write (fixtures built so that every bound has items at its edge: two items published in the same
 * second, two a second apart, titles and slugs in an order unrelated to their ids and dates, ties in
 * title and menu order, a tree of pages, every status), or the site's own items on one it may not
 * (read once: lib/sample.ts).
 */
import type { SiteItem } from './sample.ts';
import { plainCase, plainText, renderedOf } from './sample.ts';
import { siteOffsetAt, zoneText } from '../../../src/sdk/timezone.ts';
import type { MItem, When } from './query-model.ts';

type Index = { gmt_offset?: unknown; timezone_string?: unknown } | undefined;

const hasZone = (s: string) => /([zZ]|[+-]\d\d:?\d\d)$/.test(s);
/** A wall clock as ms (its digits read as GMT), fractions kept. */
const wallMs = (s: string) => Date.parse(`${s.replace(/([zZ]|[+-]\d\d:?\d\d)$/, '')}Z`);

/**
 * An item's time from its local date-time (`date`, `modified`: the site's wall clock, with or
 * without a zone) and its GMT one (`date_gmt`, `modified_gmt`), exactly, with the item's own offset.
 */
export function whenOf(local: unknown, gmt: unknown, index: Index): When | undefined {
  const l = typeof local === 'string' && local ? local : undefined;
  const g = typeof gmt === 'string' && gmt ? gmt : undefined;
  if (!l && !g) return undefined;
  let at: number;
  if (g) at = hasZone(g) ? Date.parse(g) : wallMs(g);
  else if (hasZone(l!)) at = Date.parse(l!);
  else at = wallMs(l!) - siteOffsetAt(index, wallMs(l!)) * 3_600_000;
  if (!Number.isFinite(at)) return undefined;
  const wall = l ? wallMs(l) : at + siteOffsetAt(index, at) * 3_600_000;
  const offset = Number.isFinite(wall) ? Math.round((wall - at) / 60_000) || 0 : 0;
  // The local and the GMT time may name instants a second or two apart (WordPress takes the two
  // clocks one after the other: modified 05:18:03, modified_gmt 05:18:04). A server may filter by
  // either: the item's time is then known only between them (a bound there judges nothing).
  const twin = l && g && !hasZone(l) ? wallMs(l) - siteOffsetAt(index, wallMs(l)) * 3_600_000 : undefined;
  if (twin !== undefined && Number.isFinite(twin) && twin !== at && Math.abs(twin - at) <= MAX_CLOCK_GAP_MS) return { lo: Math.min(at, twin), hi: Math.max(at, twin), offset };
  return { lo: at, hi: at, offset };
}

/** The most the local and GMT times of one item may disagree by and still be one instant taken twice. */
const MAX_CLOCK_GAP_MS = 5_000;

/**
 * An instant as a date-time in the offset of the item it is the edge of (its own wall clock): the
 * same instant whichever way a server reads the date-time (by its zone, or as a wall clock of the
 * site, which is the item's own), fractions of a second kept.
 */
export function boundText(at: number, offsetMinutes: number): string {
  const wall = new Date(at + offsetMinutes * 60_000).toISOString();
  const frac = at % 1000 !== 0 ? wall.slice(19, 23) : '';
  return `${wall.slice(0, 19)}${frac}${zoneText(offsetMinutes / 60)}`;
}

const lower = (v: unknown) => plainText(renderedOf(v));
const rawOr = (v: unknown) => (v && typeof v === 'object' && typeof (v as { raw?: unknown }).raw === 'string' ? String((v as { raw: string }).raw).toLowerCase() : undefined);
const ints = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : []);

/**
 * An item as the model knows it. `sure`: its stored text is known (a fixture read in the edit
 * context, raw fields); else only what it renders.
 */
export function modelItem(i: SiteItem, index: Index, sure: boolean): MItem {
  const raw = sure ? { title: rawOr(i.title), content: rawOr(i.content), excerpt: rawOr(i.excerpt) } : undefined;
  const isSure = !!raw && raw.title !== undefined && raw.content !== undefined && raw.excerpt !== undefined;
  return {
    id: i.id,
    status: typeof i.status === 'string' ? i.status : 'publish',
    slug: typeof i.slug === 'string' ? i.slug : '',
    title: plainCase(renderedOf(i.title)),
    text: isSure ? { title: raw!.title!, content: raw!.content!, excerpt: raw!.excerpt!, sure: true } : { title: lower(i.title), content: lower(i.content), excerpt: lower(i.excerpt), sure: false },
    // Not an integer (a wrong type is the field checks' finding): the author is not known to the model.
    author: Number.isInteger(i.author) ? i.author : undefined,
    date: whenOf(i.date, i.date_gmt, index),
    modified: whenOf(i.modified, i.modified_gmt, index),
    categories: ints(i.categories),
    tags: ints(i.tags),
    sticky: i.sticky === true,
    parent: Number.isInteger(i.parent) ? i.parent : 0,
    menu_order: Number.isInteger(i.menu_order) ? i.menu_order : 0,
    protected: i.content?.protected === true || i.excerpt?.protected === true || (typeof i.password === 'string' && i.password !== ''),
  };
}

/** How a message names an item: `12 (draft "kilo", 2001-02-01T10:00:00+05:30)`, the run tag left out of the title. */
export function itemLabel(i: MItem, tag?: string): string {
  const title = (tag ? i.title.replace(tag, '') : i.title).trim().slice(0, 40);
  const date = i.date && i.date.lo === i.date.hi ? `, ${boundText(i.date.lo, i.date.offset)}` : '';
  return `${i.id} (${i.status === 'publish' ? '' : `${i.status} `}"${title}"${date})`;
}
