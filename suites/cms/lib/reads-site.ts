/**
 * Read behaviours of a post type beyond the filters, checked on the site's own content when the
 * run has no fixtures of its own (issue 35): the same behaviours (one ID, one meaning) as with
 * fixtures, on subjects picked from what the site serves (sample.ts).
 */
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { whyNotAccepted } from '../../../src/sdk/controls.ts';
import type { PostType } from './collections.ts';
import type { FileSetup } from './setup.ts';
import { onSiteItem, plainText, renderedOf, unprotected, type SiteItem } from './sample.ts';

const words = (html: string): string[] => plainText(html).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
/** How many words `a` and `b` share from their start. */
function commonStart(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
/** An excerpt generated from the content: its first words are the content's (ten of them at least). */
const generated = (i: SiteItem) => unprotected(i) && commonStart(words(renderedOf(i.excerpt)), words(renderedOf(i.content))) >= 10;

/**
 * excerpt_length=3 on the single GET of a published item whose excerpt is generated from its
 * content: the excerpt starts with at most three of the content's words (whatever a theme adds
 * after them), where without it it starts with more.
 */
export function excerptLengthOnSite(t: BehaviourContext, type: PostType): Promise<void> {
  return onSiteItem(t, type, (items) => items.find(generated), `a published ${type.noun} whose excerpt is generated from its content (ten words or more)`, async (item) => {
    const route = type.item(item.id);
    const [full, short] = await Promise.all([t.client.get(route), t.client.get(route, { query: { excerpt_length: 3 } })]);
    if (full.status !== 200) t.fail(whyNotAccepted(full, `GET ${route}`));
    if (short.status !== 200) t.fail(whyNotAccepted(short, `GET ${route}?excerpt_length=3`));
    const content = words(renderedOf(full.body?.content));
    const before = commonStart(words(renderedOf(full.body?.excerpt)), content);
    if (before <= 3) t.skip(`the excerpt generated without excerpt_length starts with ${before} of the content's words: nothing to shorten`);
    const n = commonStart(words(renderedOf(short.body?.excerpt)), content);
    if (n === 0 || n > 3) t.fail(`with excerpt_length=3 the excerpt starts with ${n} words of the content (without it, ${before}): ${JSON.stringify(short.body?.excerpt?.rendered).slice(0, 160)}`);
  });
}

/** A password-protected item and what it protects: the fixture's tokens, or the words of a protected item of the site's. */
export interface Protected {
  protectedItem: number;
  secret: { content: string; excerpt: string; password: string };
}
type Carries = (text: string, secret: string) => boolean;

/** Every string an object holds, at any depth, one per line. */
const strings = (v: unknown): string => (typeof v === 'string' ? v : v && typeof v === 'object' ? Object.values(v).map(strings).filter(Boolean).join('\n') : '');

/**
 * What an answer serves of the item `id` (a single item, or the one with that id in a list) in the
 * fields a password protects (core part 2: "password | protects content and excerpt"; every
 * property of `content` and `excerpt`), and in its `password` field. Only these are judged: the
 * title and the other fields are not protected, and a site's own title may well name the password
 * ("the password is 'enter'", as the WordPress theme test content has it).
 */
export function servedProtected(body: unknown, id: number): { fields: string; password: string } {
  const item = Array.isArray(body) ? body.find((x) => (x as { id?: unknown })?.id === id) : body;
  const o = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
  return { fields: [strings(o.content), strings(o.excerpt)].filter(Boolean).join('\n'), password: strings(o.password) };
}

/**
 * Check on the protected fixture, or (the run has no fixtures) on a published item of the site
 * that says it is protected, whose content, excerpt and password the credentials read (edit
 * context): only with credentials can a run know what is protected.
 */
export async function withProtected(t: BehaviourContext, type: PostType, setup: FileSetup<Protected>, check: (f: Protected, carries: Carries) => Promise<void>): Promise<void> {
  if (!setup.skipped()) return check(setup.get(t), (text, secret) => text.includes(secret));
  if (!t.client.hasCredentials) t.skip(`not observable on the site's content without credentials: what a protected ${type.noun} protects is read in the edit context`);
  await onSiteItem(t, type, (items) => items.find((i) => i.content?.protected === true), `a published ${type.noun} protected by a password`, async (item) => {
    const edit = await t.client.get(type.item(item.id), { query: { context: 'edit' } });
    if (edit.status !== 200) t.fail(whyNotAccepted(edit, `GET ${type.item(item.id)}?context=edit`));
    const phrase = (html: unknown) => words(renderedOf(html)).slice(0, 5).join(' ');
    const password = typeof edit.body?.password === 'string' ? edit.body.password : '';
    const secret = { content: phrase(edit.body?.content), excerpt: edit.body?.excerpt?.raw ? phrase({ rendered: edit.body.excerpt.raw }) : '', password };
    if (!password || !secret.content) t.skip(`not observable: ${type.noun} ${item.id} says it is protected, but its password or content is not served in the edit context`);
    // The words of the protected text as a reader sees them, wherever they stand in an answer.
    await check({ protectedItem: item.id, secret }, (text, s) => (s === password ? text.includes(s) : words(text).join(' ').includes(s)));
  });
}
