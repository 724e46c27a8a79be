/** Time zones named by a site's index (timezone_string): their offset from GMT at an instant. */

/** The offset of an IANA zone from GMT at `at` (default now), in hours; undefined when this runtime does not know the name. */
export function zoneOffsetHours(zone: string, at: number = Date.now()): number | undefined {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName')?.value;
    const m = /GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(part ?? '');
    if (!m) return undefined;
    if (!m[1]) return 0;
    return (m[1] === '-' ? -1 : 1) * (Number(m[2]) + Number(m[3] ?? 0) / 60);
  } catch {
    return undefined;
  }
}
