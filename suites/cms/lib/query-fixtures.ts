/**
 * The fixtures of the collection filters of a post type (lib/filters.ts): the items of the query
 * model, made so that every bound has items at its edge, and read back as the target stores them.
 *
 * Published, in order of creation (ids ascending): o1 "mike" 2001-03-01 10:00:00, o2 "kilo"
 * 2001-02-01, o3 "lima" 2001-04-01 (the trio the ordering checks of old knew), then "delta" and
 * "golf" published in the same second (2001-02-15 10:00:00), "bravo" 2001-05-01,
 * "echo Z" 2001-01-20 and a second "delta" a second after o1 (2001-03-01 10:00:01). Titles, slugs
 * and menu orders (pages) run in orders unrelated to the ids and dates, with a tie each. Pages form
 * a tree (bravo parent of echo and of the second delta, echo parent of the first). Posts add a
 * sticky post, an aside and, where the site has a tag in use, a tagged one. Three words only these
 * items carry: X in the title of o1, the content of o2 and o3 and the excerpt of o3; Y in the
 * content of o2, the sticky and the aside; Z in the title of echo (the oldest of them) and the
 * content of bravo and the second delta (orderby=relevance: the title match first, though it is
 * the oldest). Then one item in each other status (draft, pending, private,
 * future, trash) and one titled with one word (search_semantics). o1 and golf are updated 3 s after
 * the others were made (modified_after, modified_before, orderby=modified).
 */
import type { Exchange } from '../../../src/sdk/http.ts';
import { textFields } from '../../../src/sdk/http.ts';
import { gmtDateTime } from '../../../src/sdk/timezone.ts';
import type { PostType } from './collections.ts';
import { UNUSED_ID } from './query-combos.ts';
import { waitSince, type SetupContext } from './setup.ts';

const DAY = 86_400_000;

/** The latest time of the target's clock its answers state (HTTP Date, whole seconds), as epoch ms. */
function serverTimeOf(log: readonly Exchange[]): number | undefined {
  const times = log.map((e) => Date.parse(e.responseHeaders?.date ?? '')).filter((ms) => Number.isFinite(ms));
  return times.length ? Math.max(...times) : undefined;
}

export async function makeFilterFixtures(type: PostType, s: SetupContext) {
  const c = type.collection;
  const isPosts = 'sticky' in type.query;
  const X = s.token();
  const Y = s.token();
  const Z = s.token();
  const slug = (letter: string) => `${s.tag}-${letter}-${s.faker.lorem.slug(2)}`;
  const page = (menu_order: number) => (isPosts ? {} : { menu_order });
  const body = () => `<p>${s.faker.lorem.sentence()}</p>`;
  // The trio, created in order (ids ascending). Orders: id 1,2,3; date 2,1,3; title 2,3,1; slug 1,3,2; menu_order 2,3,1.
  const o1 = await s.create(c, { title: `mike ${X}`, slug: slug('b'), date: s.siteDate('2001-03-01T10:00:00'), content: body(), ...page(3) });
  const o2 = await s.create(c, { title: 'kilo', slug: slug('d'), date: s.siteDate('2001-02-01T10:00:00'), content: `<p>${s.faker.lorem.words(3)} ${X} ${s.faker.lorem.words(2)} ${Y}</p>`, ...page(1) });
  const o3 = await s.create(c, { title: 'lima', slug: slug('c'), date: s.siteDate('2001-04-01T10:00:00'), content: `<p>${s.faker.lorem.words(2)} ${X}</p>`, excerpt: `${s.faker.lorem.words(2)} ${X}`, ...page(2) });
  const trioDone = Date.now();
  // The target's clock when the trio was made (the HTTP Date of its answers, RFC 9110 §6.6.1): o1 is
  // updated 3 s later, so "modified after/before" can be asked about a time between (modifiedCut).
  const trioServerTime = serverTimeOf(s.client.log);
  // The edges: two items in one second, one a second after o1; titles and slugs in other orders.
  const more = async (title: string, letter: string, wall: string, menu: number, extra: Record<string, unknown> = {}) =>
    s.create(c, { title, slug: slug(letter), date: s.siteDate(wall), content: body(), ...page(menu), ...extra });
  const golf = await more('golf', 'a', '2001-02-15T10:00:00', 0);
  const bravo = await more('bravo', 'g', '2001-05-01T10:00:00', 1, { content: `<p>${s.faker.lorem.words(3)} ${Z}</p>` });
  const echo = await more(`echo ${Z}`, 'e', '2001-01-20T10:00:00', 4, isPosts ? {} : { parent: bravo.id });
  const delta = await more('delta', 'h', '2001-02-15T10:00:00', 2, isPosts ? {} : { parent: echo.id });
  const delta2 = await more('delta', 'f', '2001-03-01T10:00:01', 0, { content: `<p>${Z} ${s.faker.lorem.words(3)}</p>`, ...(isPosts ? {} : { parent: bravo.id }) });
  // search_semantics=exact: a one-word title (exactness of a several-word search is not stated).
  const exactWord = `${s.tag}x${s.token()}`;
  const exact = await s.createExact(c, { title: exactWord, status: 'publish', content: `<p>${s.faker.lorem.sentence()}</p>` });
  // A future item's status is what the target made of it (futureStatus): the status filter checks it only where it is future.
  const statusOf = (status: string, extra: Record<string, unknown> = {}) => s.create(c, { title: `${status} ${s.text().title}`, status, slug: slug(`s${status}`), ...extra }, status === 'future' ? ['status'] : []);
  const nextYear = gmtDateTime(Date.now() + 365 * DAY);
  const [draft, pending, priv, future, trashed] = await Promise.all([
    statusOf('draft', { date: s.siteDate('2001-02-10T10:00:00') }),
    statusOf('pending'),
    statusOf('private', { date: s.siteDate('2001-03-10T10:00:00') }),
    statusOf('future', { date: nextYear }),
    statusOf('publish', { content: `<p>${X}</p>` }),
  ]);
  const trash = await s.client.delete(type.item(trashed.id));
  const extra: Record<string, any> = {};
  if (isPosts) {
    extra.sticky = await s.create(c, { title: `sticky ${s.text().title}`, content: `<p>${Y}</p>`, sticky: true, date: s.siteDate('2001-01-15T10:00:00') });
    extra.aside = await s.create(c, { title: `aside ${s.text().title}`, content: `<p>${Y}</p>`, format: 'aside', date: s.siteDate('2001-01-20T10:00:00') });
    // A tag to filter by: terms cannot be created through documented routes; use one the target already has.
    const tagged = await s.client.get(c, { query: { per_page: 100 } });
    const tagId = Array.isArray(tagged.body) ? tagged.body.flatMap((p: any) => (Array.isArray(p?.tags) ? p.tags : []))[0] : undefined;
    if (typeof tagId === 'number') extra.tagged = { ...(await s.create(c, { title: `tagged ${s.text().title}`, tags: [tagId] })), tagId };
    else {
      // No tag in use: a target that accepts any term identifier keeps one; WordPress drops unknown ones.
      const made = await s.create(c, { title: `tagged ${s.text().title}`, tags: [UNUSED_ID + 1] }).catch(() => undefined);
      if (Array.isArray(made?.tags) && made.tags.includes(UNUSED_ID + 1)) extra.tagged = { ...made, tagId: UNUSED_ID + 1 };
    }
  }
  // modified_after, modified_before, orderby=modified: modify o1 and golf last, 3 s after the trio was
  // made. Made before trioServerTime + 1 s (the Date is whole seconds), updated after + 3 s: the cut
  // at + 2 s leaves a second of margin on either side for the target's clocks.
  await waitSince(trioDone, 3100);
  const touched = await s.client.post(type.item(o1.id), textFields({ content: `<p>${s.faker.lorem.sentence()}</p>` }));
  await s.client.post(type.item(golf.id), textFields({ content: `<p>${s.faker.lorem.sentence()}</p>` }));
  const mine = [o1, o2, o3, golf, bravo, echo, delta, delta2, exact, draft, pending, priv, future, trashed, ...Object.values(extra)].map((x: any) => x?.id).filter((id): id is number => typeof id === 'number');
  // Every item as the target stores it (edit context: raw text, date_gmt, modified where served).
  const read = await s.client.get(c, { query: { include: mine, status: ['publish', 'future', 'draft', 'pending', 'private', 'trash'], context: 'edit', per_page: 100 } });
  // Where that listing is refused (its status filter is the status check's), each item by its own route.
  // (Only these items: a listing that does not honour include lists others too, which include's check reports.)
  const stored: any[] =
    read.status === 200 && Array.isArray(read.body)
      ? read.body.filter((x: any) => mine.includes(x?.id))
      : (await Promise.all(mine.map((id) => s.client.get(type.item(id), { query: { context: 'edit' } })))).filter((r) => r.status === 200 && r.body?.id !== undefined).map((r) => r.body);
  const byId = (id: number) => stored.find((x) => x?.id === id);
  const pick = (p: any) => ({ id: p.id as number, slug: p.slug as string, author: p.author as number, categories: p.categories as number[] | undefined });
  return {
    X,
    Y,
    Z,
    exact: { id: exact.id as number, word: exactWord },
    trio: [pick(byId(o1.id) ?? o1), pick(byId(o2.id) ?? o2), pick(byId(o3.id) ?? o3)] as const,
    /** Every item made here as the target stores it: the model's items. */
    stored,
    /** Why o1 was not updated (cms.<type>.update.post owns that). */
    notTouched: touched.status >= 200 && touched.status < 300 ? undefined : `POST ${type.item(o1.id)} (an update of o1's content) answered ${touched.status} ${touched.text.slice(0, 120)}`,
    /** A time after the trio was made and before o1 was updated (undefined: the target's answers carry no Date). */
    modifiedCut: trioServerTime === undefined ? undefined : trioServerTime + 2000,
    statuses: { draft: draft.id, pending: pending.id, private: priv.id, future: future.id, trash: trash.status >= 200 && trash.status < 300 && trash.body?.status === 'trash' ? trashed.id : undefined } as Record<string, number | undefined>,
    /** Why there is no item in the trash: the DELETE without force did not answer the trashed item (cms.<type>.delete.trash owns that). */
    noTrash: trash.status >= 200 && trash.status < 300 && trash.body?.status === 'trash' ? undefined : `DELETE ${type.item(trashed.id)} without force answered ${trash.status} ${trash.text.slice(0, 120)}, not the item in the trash`,
    futureStatus: future.status as string,
    extra,
    /** Every item this file made: a search for its tokens finds none other. */
    known: mine,
  };
}

export type FilterFixtures = Awaited<ReturnType<typeof makeFilterFixtures>>;
