/**
 * Messages name the routes a target was actually sent. Behaviours compose their messages from
 * documented (spec) routes, while the client sends each request to the profile's target route
 * (`wordpress`: `/spamfilter/v1/stats` goes to `/akismet/v1/stats`). One rewrite at the point
 * where a behaviour's message leaves it (src/sdk/behaviour.ts) puts the route sent first and the
 * spec name beside it, so every report (console, HTML, Markdown, JUnit) quotes what went over
 * the wire: `GET /akismet/v1/stats/60-days (spec /spamfilter/v1/stats/60-days) answered 404`.
 */
import type { Profile } from '../../schemas/profiles.ts';

/**
 * A route in running text: a `/` that does not continue a word, path or URL host, followed by
 * a route character; up to whitespace, a quote, a semicolon or a comma that ends a clause (one
 * followed by white space: a comma list in a query, `include=1,2`, stays in it). Already annotated routes (`(spec /…`) are left
 * alone, so the rewrite can be applied twice without change.
 */
const CANDIDATE = /(?<![\w/.\-])(?<!\(spec )\/[A-Za-z](?:[^\s"'`,;]|,(?=[^\s,;]))*/g;

/** Punctuation that ends a sentence rather than the route; a closing bracket only when unbalanced. */
function trimTrailing(token: string): string {
  let t = token;
  for (;;) {
    const last = t.charAt(t.length - 1);
    const count = (c: string) => t.split(c).length - 1;
    if ('.:!?'.includes(last) && t.length > 1) t = t.slice(0, -1);
    else if (last === ')' && count('(') < count(')')) t = t.slice(0, -1);
    else if (last === ']' && count('[') < count(']')) t = t.slice(0, -1);
    else if (last === '}' && count('{') < count('}')) t = t.slice(0, -1);
    else return t;
  }
}

/**
 * Rewrite every documented route in `text` that the profile sends elsewhere as
 * `<target route> (spec <documented route>)`. Routes the profile does not rename, and the
 * target's own route names, are unchanged; with the `spec` profile the text is returned as is.
 */
export function withTargetRoutes(text: string, profile: Pick<Profile, 'toTargetRoute'>): string {
  if (!text.includes('/')) return text;
  return text.replace(CANDIDATE, (token) => {
    const route = trimTrailing(token);
    const rest = token.slice(route.length);
    const sent = profile.toTargetRoute(route);
    if (sent === route) return token;
    // The documented path, without a query string (a `(?P<name>…)` of a route pattern is not one).
    const documented = route.replace(/(?<!\()\?.*$/, '');
    return `${sent} (spec ${documented})${rest}`;
  });
}
