/** Time zones named by a site's index (timezone_string): their offset from GMT at an instant. */

/** One formatter per zone (making one costs about 0.1 ms; a run asks for thousands of offsets). */
const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) formats.set(zone, (f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })));
  return f;
}

/** The offset of an IANA zone from GMT at `at` (default now), in hours; undefined when this runtime does not know the name. */
export function zoneOffsetHours(zone: string, at: number = Date.now()): number | undefined {
  try {
    const part = formatOf(zone).formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName')?.value;
    const m = /GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(part ?? '');
    if (!m) return undefined;
    if (!m[1]) return 0;
    return (m[1] === '-' ? -1 : 1) * (Number(m[2]) + Number(m[3] ?? 0) / 60);
  } catch {
    return undefined;
  }
}

/** An offset in hours as a date-time zone: +05:30, -03:00, +00:00. */
export function zoneText(hours: number): string {
  const sign = hours < 0 ? '-' : '+';
  const minutes = Math.round(Math.abs(hours) * 60);
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * The site's offset from GMT, in hours, at an instant: the zone its index names (timezone_string)
 * where this runtime knows it, else its gmt_offset (part 1), else 0.
 */
export function siteOffsetAt(index: { gmt_offset?: unknown; timezone_string?: unknown } | undefined, at: number): number {
  const zone = typeof index?.timezone_string === 'string' ? index.timezone_string : '';
  const named = zone ? zoneOffsetHours(zone, at) : undefined;
  if (named !== undefined) return named;
  const hours = Number(index?.gmt_offset);
  return index?.gmt_offset !== undefined && index?.gmt_offset !== '' && Number.isFinite(hours) ? hours : 0;
}

/**
 * A wall-clock time of the site's timezone (`2001-03-01T10:00:00`) as a date-time with the site's
 * offset at that time (`2001-03-01T10:00:00+05:30`): RFC 3339's form, which every reading of
 * "string (date-time) … in site timezone" (core part 2) takes, a strict one too, and which names
 * the same wall-clock time in the site's timezone whoever converts it (daylight saving time
 * included, where the index names the zone).
 */
export function siteDateTime(index: { gmt_offset?: unknown; timezone_string?: unknown } | undefined, wall: string): string {
  const asUtc = Date.parse(`${wall}Z`);
  // The offset at the instant that wall clock names: from the offset at the wall clock read as GMT, once refined.
  let hours = siteOffsetAt(index, asUtc);
  hours = siteOffsetAt(index, asUtc - hours * 3_600_000);
  return `${wall}${zoneText(hours)}`;
}

/** An instant as a date-time in GMT (`…Z`), seconds only: any date (the future, the past) whose wall clock does not matter. */
export const gmtDateTime = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * An item's own `date` and `date_gmt` (as a server may answer them, without a zone: WordPress)
 * given their zone to be written back: date in the site's offset, date_gmt in GMT. Other fields,
 * and dates that state a zone already, unchanged.
 */
export function zonedDates(index: { gmt_offset?: unknown; timezone_string?: unknown } | undefined, fields: Record<string, unknown>): Record<string, unknown> {
  const out = { ...fields };
  const wall = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(v) ? v : undefined);
  const date = wall(out.date);
  const gmt = wall(out.date_gmt);
  if (date) out.date = siteDateTime(index, date);
  if (gmt) out.date_gmt = `${gmt}Z`;
  return out;
}
