/**
 * A failure message as a baseline's recorded reason: the same on the next run. What differs from
 * run to run is taken out: the target's origin (its port), the request appended to the message,
 * the run's tokens and tags, and the IDs of items the run created (in routes, in id lists, beside
 * their legend names `o2(514)`); the first line only, at most 300 characters.
 */
const MAX = 300;

export function stableReason(message: string): string {
  let s = (message.split('\n')[0] ?? '').trim();
  s = s
    // the request the failure judged, appended in brackets: in the report, not in the reason
    .replace(/\s*\[(?:last )?requests?(?: judged)?: [^\]]*\]/g, '')
    .replace(/https?:\/\/[^/\s"'()]+/g, '')
    // run tags and tokens (cmsc<run id>…)
    .replace(/\bcmsc[a-z0-9]{6,}(?:-[a-z0-9]+)*/gi, '<token>')
    // item IDs beside their names (o2(514)), in routes (/posts/216), in lists ([73, 2, o3])
    .replace(/\b(o\d+)\(\d+\)/g, '$1')
    .replace(/(\/[a-z][\w-]*\/)\d+(?=[/?\s"'),;\]]|$)/gi, '$1<id>')
    .replace(/\[(?:\s*(?:\d+|o\d+|<id>)\s*,?)+\]/g, (list) => list.replace(/\b\d+\b/g, '<id>'))
    .replace(/\b(items?|ids?|posts?|pages?|revisions?|autosaves?|comments?|users?|media|terms?|forms?)((?:\s*\(s\))? (?:#)?)(\d+(?:, \d+)*)\b/gi, (_, w: string, sep: string, ids: string) => `${w}${sep}${ids.replace(/\d+/g, '<id>')}`);
  return s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s;
}
