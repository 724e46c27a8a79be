/**
 * Every read path, anonymously (issue 40 item 3): no anonymous request yields a draft, pending,
 * private, scheduled or trashed post or page, nor the content or excerpt a password protects
 * (lib/read-paths.ts), whichever documented way it takes: the list with each filter that can name
 * the items, each context anyone may ask for, excerpt_length, the single read, revisions and
 * autosaves, a batch. SECURITY, like the other anonymous checks (docs/anonymous-access.md).
 *
 * On fixtures made for it (one item in each status but publish, each carrying a word of its own;
 * a protected item with a revision and an autosave; for pages a draft child of a published page),
 * or, when the run may not write, on the site's own items as the credentials list them.
 */
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { autosaveRecovering } from '../../src/sdk/fixtures.ts';
import { textFields } from '../../src/sdk/http.ts';
import { gmtDateTime } from '../../src/sdk/timezone.ts';
import { expectControlAccepted } from '../../src/sdk/controls.ts';
import { postTypes, SPEC_AUTH, type PostType } from './lib/collections.ts';
import { cmsDecl } from './lib/declare.ts';
import { idsOf } from './lib/items.ts';
import { anonymousPaths, type Hidden, type ReadPathsSubjects } from './lib/read-paths.ts';
import { describeItems, hidden, itemSubjects, onSite, publishedOrSkip, renderedOf, plainText, settledOrder, titleOf, type SiteItem } from './lib/sample.ts';
import { eachType, fileSetup } from './lib/setup.ts';

const DAY = 86_400_000;
/** Words a server may show in place of protected content (a password form): never taken for a protected word. */
const FORM_WORDS = new Set(['password', 'protected', 'please', 'submit', 'content']);

const setup = fileSetup('read-paths', (s) =>
  eachType(postTypes, async (type): Promise<ReadPathsSubjects> => {
    const c = type.collection;
    const word = s.token();
    const published = await s.create(c, { title: `read paths ${s.text().title}`, content: s.text().content });
    const make = async (status: string, extra: Record<string, unknown> = {}) => {
      const tok = s.token();
      const made = await s.create(c, { title: `${status} ${tok}`, slug: `${s.tag}-rp-${status}-${s.faker.lorem.slug(1)}`, content: `<p>${tok} ${word}</p>`, excerpt: `${tok} ${word}`, status: status === 'trash' ? 'publish' : status, ...extra }, status === 'future' ? ['status'] : []);
      return { made, tok };
    };
    const made = await Promise.all([make('draft', type.query.parent ? { parent: published.id } : {}), make('pending'), make('private'), make('future', { date: gmtDateTime(Date.now() + 365 * DAY) }), make('trash')]);
    const trashed = made[4]!.made;
    await s.client.delete(type.item(trashed.id));
    const [secretC, secretE, password] = [s.token(), s.token(), s.token()];
    const prot = await s.create(c, { title: `protected ${s.token()}`, content: `<p>${secretC} ${word}</p>`, excerpt: `${secretE} ${word}`, password });
    // A revision of the draft and of the protected item (an update each), an autosave of the protected one: records anonymous readers may not get either.
    await Promise.all([
      s.client.post(type.item(made[0]!.made.id), textFields({ content: `<p>${made[0]!.tok} revised</p>` })),
      s.client.post(type.item(prot.id), textFields({ content: `<p>${secretC} revised</p>` })),
    ]);
    await autosaveRecovering(s.client, type.autosaves(prot.id), textFields({ title: `${s.tag} protected autosave`, content: `<p>${secretC} ${secretE} autosaved</p>` }));
    const records = async (list: (id: number) => string, ids: number[]) =>
      (await Promise.all(ids.map(async (id) => ((await s.client.get(list(id))).body ?? []) as any[]))).flatMap((rs, k) => (Array.isArray(rs) ? rs.filter((r) => Number.isInteger(r?.id) && r.id !== ids[k]).map((r): [number, number] => [ids[k]!, r.id]) : []));
    const read = await s.client.get(c, { query: { include: [...made.map((m) => m.made.id), prot.id], status: ['publish', 'future', 'draft', 'pending', 'private', 'trash'], context: 'edit', per_page: 100 } });
    const stored = (id: number) => (Array.isArray(read.body) ? read.body.find((x: any) => x?.id === id) : undefined);
    const statuses = ['draft', 'pending', 'private', 'future', 'trash'];
    const hiddenItems: Hidden[] = made.map((m, k) => ({ id: m.made.id, status: stored(m.made.id)?.status ?? statuses[k]!, slug: stored(m.made.id)?.slug ?? m.made.slug ?? '', tokens: [m.tok] }));
    return {
      published: published.id,
      // A future item the target published at once is not hidden.
      hidden: hiddenItems.filter((h) => h.status !== 'publish'),
      protected: { id: prot.id, secrets: [secretC, secretE], slug: stored(prot.id)?.slug ?? prot.slug ?? '', own: true },
      word,
      author: published.author,
      revisions: await records(type.revisions, [made[0]!.made.id, prot.id]),
      autosaves: await records(type.autosaves, [prot.id]),
    };
  }),
);

/** The subjects on the site's own content, as the credentials list them: items in every status but publish, a protected published item. */
async function siteSubjects(t: BehaviourContext, type: PostType, fresh: boolean): Promise<{ s: ReadPathsSubjects; items: SiteItem[] }> {
  const pub = settledOrder(await publishedOrSkip(t, type, fresh));
  const hid = (await hidden(type, fresh)).items;
  const trash = await t.client.get(type.collection, { query: { status: ['trash'], per_page: 10 } });
  const all = [...hid, ...(Array.isArray(trash.body) ? (trash.body as SiteItem[]).filter((i) => i?.status === 'trash') : [])];
  const byStatus = ['draft', 'pending', 'private', 'future', 'trash'].flatMap((st) => all.filter((i) => i.status === st).slice(0, 2));
  const prot = pub.find((i) => i.content?.protected === true);
  let secrets: string[] = [];
  if (prot) {
    const edit = await t.client.get(type.item(prot.id), { query: { context: 'edit' } });
    const words = (v: unknown) => plainText(renderedOf(v)).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 6 && !FORM_WORDS.has(w) && !titleOf(prot).includes(w));
    // The first words of the protected content and excerpt (an excerpt made from them starts so) and the longest, its title's left out.
    const all = [...new Set([...words(edit.body?.excerpt?.raw ? { rendered: edit.body.excerpt.raw } : ''), ...words(edit.body?.content)])];
    secrets = [...new Set([...all.slice(0, 3), ...[...all].sort((a, b) => b.length - a.length).slice(0, 3)])];
  }
  const word = byStatus.map((i) => titleOf(i).split(/[^a-z]+/).find((w) => w.length >= 6)).find((w) => w);
  const s: ReadPathsSubjects = {
    published: pub[0]!.id,
    hidden: byStatus.map((i) => ({ id: i.id, status: i.status, slug: typeof i.slug === 'string' ? i.slug : '', tokens: [] })),
    ...(prot && secrets.length ? { protected: { id: prot.id, secrets, slug: String(prot.slug ?? '') } } : {}),
    ...(word ? { word } : {}),
    revisions: [],
    autosaves: [],
  };
  return { s, items: [pub[0]!, ...byStatus, ...(prot ? [prot] : [])] };
}

for (const type of postTypes) {
  behaviour(
    cmsDecl(type, 'auth.read-paths', {
      level: 'SECURITY',
      title: `no anonymous read path (list with include, slug, search, author, exclude or dates; view and embed; excerpt_length; single reads; revisions and autosaves; a batch) yields a ${type.noun} that is not published, nor the content or excerpt of a password-protected one`,
      route: type.paths.collection,
      spec: SPEC_AUTH,
      covers: [`field:${type.resource.id}.content`, `field:${type.resource.id}.excerpt`, `arg:cms.${type.name}.collection.list.slug`, `arg:cms.${type.name}.item.read.excerpt_length`],
    }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const check = async (s: ReadPathsSubjects) => {
        // The positive control: the anonymous list answers a published item (a route that refuses everything shows nothing).
        const control = await t.client.get(type.collection, { query: { include: [s.published] }, auth: 'none' });
        expectControlAccepted(t, control, `GET ${type.collection}?include=${s.published} without credentials (a published ${type.noun})`, 'the anonymous read paths');
        if (!idsOf(control.body).includes(s.published)) t.dependsOn(`cms.${type.name}.auth.status`, `GET ${type.collection}?include=${s.published} without credentials does not list that published ${type.noun}`);
        const found = await anonymousPaths(t, type, s);
        const legend = `(${s.hidden.map((h) => `${h.id}: ${h.status}`).join(', ')}${s.protected ? `; ${s.protected.id}: published, protected by a password` : ''})`;
        if (found.length) t.fail(`without credentials ${found.slice(0, 4).join('; ')}${found.length > 4 ? `; and ${found.length - 4} more paths` : ''} ${legend}`);
      };
      if (!setup.skipped()) return check(setup.get(t)[type.name]!);
      await onSite(
        t,
        (fresh) => siteSubjects(t, type, fresh),
        ({ items }) => ({ subjects: itemSubjects(type, items), detail: describeItems(type, items, 'published, protected, and in other statuses as the site lists them with the credentials') }),
        async ({ s }) => {
          if (!s.hidden.length && !s.protected) t.skip(`not observable on the site's content: no ${type.noun} in a status other than publish, nor a protected one, listed with the credentials`);
          await check(s);
        },
      );
    },
    { concurrent: true },
  );
}
