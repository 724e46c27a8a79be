/**
 * Without credentials nothing is written, no edit context is served and no non-public status
 * is listed. Part 5 says which routes need authentication is not shown, so these are their own
 * class, SECURITY (WordPress refuses all of them). Every refused write is verified by reading
 * the state back, and every refusal has its positive control: the same request with the
 * configured credentials is accepted (a route that refuses everything proves nothing).
 */
import { behaviour, fixtures, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { autosaveRecovering } from '../../src/sdk/fixtures.ts';
import { postTypes, SPEC_AUTH, type PostType } from './lib/collections.ts';
import type { Response } from '../../src/sdk/http.ts';
import { answerOf, expectControlAccepted, noRoute, whyNotAccepted } from '../../src/sdk/controls.ts';
import { expectIncludeHonoured, idsOf, textOf, tokenMatches } from './lib/items.ts';
import { describeItems, hidden, itemSubjects, observable, onSite, publishedOrSkip, settledOrder, type SiteItem } from './lib/sample.ts';
import { eachType, fileSetup } from './lib/setup.ts';
import { cmsDecl } from './lib/declare.ts';
import { readAfter, readBefore, type Primed } from './lib/read-back.ts';
import { textFields } from '../../src/sdk/http.ts';

interface Data {
  item: number;
  /** Deleted by the positive control of the anonymous delete. */
  deletable: number;
  title: string;
  draft: number;
  /** A draft only the anonymous DELETE is tried on (a server that lets it through does not take the status checks' draft with it). */
  kept: number;
  private: number;
  revision?: number;
  /** The text of the published item's update: what its revision holds. */
  revised: string;
  /** An autosave of the published item (its id, and the text it holds), where the target made one. */
  autosave?: { id: number; text: string };
  tag: string;
  token(): string;
}

const setup = fileSetup('auth', (s) =>
  eachType(postTypes, async (type): Promise<Data> => {
    const [item, draft, priv, deletable, kept] = await Promise.all(
      [['public', 'publish'], ['draft', 'draft'], ['private', 'private'], ['deletable', 'draft'], ['kept', 'draft']].map(([hint, status]) => s.create(type.collection, { title: `${hint} ${s.text().title}`, status })),
    );
    // One update, so that the item has a revision (to try deleting and reading), then an autosave
    // (to try reading): each holds a word of its own, which no anonymous answer may carry.
    const revised = s.token();
    await s.client.post(type.item(item.id), textFields({ title: `${s.tag} public updated`, content: `<p>${revised}</p>` }));
    const revs = await s.client.get(type.revisions(item.id));
    const autosaved = s.token();
    const auto = await autosaveRecovering(s.client, type.autosaves(item.id), { title: { raw: `${s.tag} public updated` }, content: { raw: `<p>${autosaved}</p>` } });
    return {
      item: item.id,
      deletable: deletable.id,
      title: `${s.tag} public updated`,
      draft: draft.id,
      kept: kept.id,
      private: priv.id,
      revision: Array.isArray(revs.body) ? revs.body.find((r: any) => typeof r?.id === 'number')?.id : undefined,
      revised,
      // An autosave answered with the item's own id updated the item itself: no autosave of its own to read.
      autosave: auto.status >= 200 && auto.status < 300 && Number.isInteger(auto.body?.id) && auto.body.id !== item.id ? { id: auto.body.id, text: autosaved } : undefined,
      tag: s.tag,
      token: () => s.token(),
    };
  }),
);

/** What the read checks use: a published item, items in non-public statuses (one read alone). */
interface Reads {
  item: number;
  hidden: number[];
  single: number;
}

/**
 * The read checks on the fixtures, or (the run may not write) on the site's own content read with
 * the credentials: a published item and up to two in non-public statuses (sample.ts).
 */
async function withReads(t: BehaviourContext, type: PostType, needHidden: boolean, check: (f: Reads) => Promise<void>): Promise<void> {
  if (!setup.skipped()) {
    const f = setup.get(t)[type.name]!;
    return check({ item: f.item, hidden: [f.draft, f.private], single: f.draft });
  }
  await onSite(
    t,
    async (fresh) => {
      const item = settledOrder(await publishedOrSkip(t, type, fresh))[0]!;
      const { items } = await hidden(type, fresh);
      const order = ['draft', 'private', 'pending', 'future'];
      const others = [...items].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status));
      const two = [others[0], others.find((i) => i.status !== others[0]?.status) ?? others[1]].filter((i): i is SiteItem => i !== undefined);
      if (needHidden) observable(t, two.length > 0, `a ${type.noun} in a non-public status (draft, private, pending or future), listed with the credentials`);
      return { item, two };
    },
    ({ item, two }) => ({ subjects: itemSubjects(type, [item, ...two]), detail: describeItems(type, [item, ...two], 'published, and in non-public statuses as the site lists them with the credentials') }),
    ({ item, two }) => check({ item: item.id, hidden: two.map((i) => i.id), single: two[0]?.id ?? item.id }),
  );
}

function refused(t: BehaviourContext, res: { status: number; text: string }, what: string): void {
  if (res.status >= 200 && res.status < 300) t.fail(`${what} without credentials was accepted (${res.status})`);
  if (res.status >= 500) t.fail(`${what} without credentials answered a server error ${res.status}`);
}

/** The positive control: the same request with the configured credentials is accepted. */
async function control(t: BehaviourContext, res: Promise<Response> | Response, what: string, refusal: string): Promise<Response> {
  const r = await res;
  expectControlAccepted(t, r, `${what} with the configured credentials`, refusal);
  return r;
}

/**
 * What a refused anonymous write left of an item: read through the URL read before it, and through a
 * URL not read before when that answers as before (lib/read-back.ts: a cache must not hide a change).
 */
async function titleAfter(t: BehaviourContext, primed: Primed): Promise<{ status: number; title: string; itemStatus?: string }> {
  const res = await readAfter(t, primed, 'none');
  return { status: res.status, title: textOf(res.body?.title?.raw ?? res.body?.title), itemStatus: res.body?.status };
}

for (const type of postTypes) {
  behaviour(
    cmsDecl(type, 'auth.create', { level: 'SECURITY', title: `an anonymous create is refused and creates nothing`, route: type.paths.collection, spec: SPEC_AUTH }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t)[type.name]!;
      const token = f.token();
      const res = await t.client.post(type.collection, textFields({ title: `${f.tag} ${token}`, content: '<p>anonymous</p>', status: 'publish' }), { auth: 'none' });
      if (typeof res.body?.id === 'number' && res.status < 300) fixtures().track(type.item(res.body.id));
      refused(t, res, `POST ${type.collection}`);
      const found = await t.client.get(type.collection, { query: { search: token, status: ['any', 'trash'] } });
      const created = tokenMatches(t, type, token, found.body, `GET ${type.collection}?search=<token>&status=any,trash`);
      if (created.length) t.fail(`the refused anonymous create (${res.status}) created item ${created.join(', ')}`);
      const own = f.token();
      const made = await control(t, t.client.post(type.collection, textFields({ title: `${f.tag} ${own}`, content: '<p>control</p>', status: 'draft' })), `POST ${type.collection}`, 'the anonymous create');
      if (typeof made.body?.id === 'number') fixtures().track(type.item(made.body.id));
      const stored = await t.client.get(type.collection, { query: { search: own, status: ['any'] } });
      if (!tokenMatches(t, type, own, stored.body, `GET ${type.collection}?search=<token>&status=any`).length) t.fail(`positive control: the authenticated create answered ${made.status} but nothing was stored (GET ${type.collection}?search=${own} answered ${answerOf(stored)})`);
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'auth.update', { level: 'SECURITY', title: `anonymous updates (POST, PATCH) are refused and change nothing`, route: type.paths.item, spec: SPEC_AUTH }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t)[type.name]!;
      const primed = await readBefore(t, type.item(f.item));
      for (const method of ['POST', 'PATCH'] as const) {
        const res = await t.client.request(method, type.item(f.item), { body: textFields({ title: `${f.tag} anonymous ${method}` }), auth: 'none' });
        refused(t, res, `${method} ${type.item(f.item)}`);
      }
      const after = await titleAfter(t, primed);
      if (after.title !== f.title) t.fail(`after refused anonymous updates the title is ${JSON.stringify(after.title)}, was ${JSON.stringify(f.title)}`);
      // The control writes the title the item already has: accepted, and nothing changes.
      await control(t, t.client.request('PATCH', type.item(f.item), { body: textFields({ title: f.title }) }), `PATCH ${type.item(f.item)}`, 'the anonymous updates');
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'auth.delete', { level: 'SECURITY', title: `an anonymous DELETE (force=true) is refused and the item still exists`, route: type.paths.item, spec: SPEC_AUTH }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t)[type.name]!;
      const primed = await readBefore(t, type.item(f.kept));
      refused(t, await t.client.delete(type.item(f.kept), { query: { force: true }, auth: 'none' }), `DELETE ${type.item(f.kept)}?force=true`);
      const after = await titleAfter(t, primed);
      if (after.status !== 200 || after.itemStatus !== 'draft') t.fail(`after the refused anonymous DELETE, GET ${type.item(f.kept)} answers ${after.status} with status ${JSON.stringify(after.itemStatus)}`);
      await control(t, t.client.delete(type.item(f.deletable), { query: { force: true } }), `DELETE ${type.item(f.deletable)}?force=true`, 'the anonymous DELETE');
      const gone = await t.client.get(type.item(f.deletable), { query: { context: 'edit' } });
      if (gone.status >= 200 && gone.status < 300) t.fail(`positive control: the authenticated DELETE ?force=true was accepted but ${type.item(f.deletable)} still answers ${gone.status}`);
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'auth.autosave', { level: 'SECURITY', title: `an anonymous autosave is refused and the ${type.noun} keeps its title`, route: type.paths.autosaves, spec: SPEC_AUTH }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t)[type.name]!;
      refused(t, await t.client.post(type.autosaves(f.item), textFields({ title: `${f.tag} anonymous autosave` }), { auth: 'none' }), `POST ${type.autosaves(f.item)}`);
      const list = await t.client.get(type.autosaves(f.item));
      if (Array.isArray(list.body) && list.body.some((a: any) => textOf(a?.title).includes('anonymous autosave'))) t.fail('the refused anonymous autosave was stored');
      await control(t, t.client.post(type.autosaves(f.item), textFields({ title: f.title, content: '<p>control autosave</p>' })), `POST ${type.autosaves(f.item)}`, 'the anonymous autosave');
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'auth.revision-delete', { level: 'SECURITY', title: `an anonymous revision DELETE (force=true) is refused and the revision still exists`, route: type.paths.revision, spec: SPEC_AUTH }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t)[type.name]!;
      if (f.revision === undefined) t.skip(`the target made no revision of ${type.item(f.item)}: nothing to try deleting`);
      // The control reads the revision with the configured credentials (which capability deleting
      // a revision needs is not shown: WordPress refuses it to every user).
      await control(t, t.client.get(type.revision(f.item, f.revision)), `GET ${type.revision(f.item, f.revision)}`, 'the anonymous revision DELETE');
      const res = await t.client.delete(type.revision(f.item, f.revision), { query: { force: true }, auth: 'none' });
      if (noRoute(res)) t.fail(`the anonymous DELETE ${type.revision(f.item, f.revision)}?force=true answered ${answerOf(res)}: the documented route does not take DELETE`);
      refused(t, res, `DELETE ${type.revision(f.item, f.revision)}?force=true`);
      const after = await t.client.get(type.revision(f.item, f.revision));
      if (after.status !== 200) t.fail(`after the refused anonymous DELETE, GET ${type.revision(f.item, f.revision)} answers ${after.status}`);
    },
    { concurrent: true },
  );

  for (const kind of ['revisions', 'autosaves'] as const) {
    const noun = kind === 'revisions' ? 'revision' : 'autosave';
    behaviour(
      cmsDecl(type, `auth.${kind}-read`, {
        level: 'SECURITY',
        title: `the ${kind} of a published ${type.noun} are not served without credentials (list and single read), nor a word of them; with credentials both are answered`,
        route: kind === 'revisions' ? type.paths.revisions : type.paths.autosaves,
        spec: SPEC_AUTH,
      }),
      async (t: BehaviourContext) => {
        t.requireCredentials();
        const f = setup.get(t)[type.name]!;
        // Revisions and autosaves hold every earlier state of an item, drafts included: the reference
        // implementation serves them only to who may edit the item (401 rest_cannot_read otherwise).
        const subject = kind === 'revisions' ? (f.revision === undefined ? undefined : { id: f.revision, text: f.revised }) : f.autosave;
        if (!subject)
          t.skip(kind === 'revisions' ? `the target made no revision of ${type.item(f.item)} when it was updated: no revision to read` : `the target made no autosave of its own of ${type.item(f.item)} (a published ${type.noun}): no autosave to read`);
        const reads = [
          { path: kind === 'revisions' ? type.revisions(f.item) : type.autosaves(f.item), owner: `cms.${type.name}.${kind === 'revisions' ? 'revisions.parent' : 'autosaves.list'}` },
          { path: kind === 'revisions' ? type.revision(f.item, subject.id) : type.autosave(f.item, subject.id), owner: `cms.${type.name}.${kind === 'revisions' ? 'revisions.parent' : 'autosaves.read'}` },
        ];
        for (const { path } of reads) {
          const res = await t.client.get(path, { auth: 'none' });
          if (res.status >= 200 && res.status < 300)
            t.fail(`GET ${path} without credentials was answered (${res.status})${res.text.includes(subject.text) ? `, carrying the ${noun}'s text (${subject.text})` : ''}: the ${kind} of an item are served to anyone (the reference implementation serves them only to who may edit it)`);
          if (res.text.includes(subject.text)) t.fail(`GET ${path} without credentials answered ${answerOf(res)} carrying the ${noun}'s text (${subject.text})`);
          if (res.status >= 500) t.fail(`GET ${path} without credentials answered a server error ${answerOf(res)}, not a refusal`);
        }
        // The positive control: with the configured credentials both reads are answered. A route the
        // target lacks, or that refuses the credentials too, is its own behaviour's finding.
        for (const { path, owner } of reads) {
          const res = await t.client.get(path);
          if (res.status < 200 || res.status > 299) t.dependsOn(owner, `positive control: ${whyNotAccepted(res, `GET ${path} with the configured credentials`)}; so the refusal of anonymous reads shows nothing`);
        }
      },
      { concurrent: true },
    );
  }

  behaviour(
    cmsDecl(type, 'auth.edit-context', { level: 'SECURITY', title: `context=edit is refused without credentials (list and single), and no raw field is served`, route: type.paths.item, spec: SPEC_AUTH, covers: [`arg:cms.${type.name}.item.read.context`, `arg:cms.${type.name}.collection.list.context`] }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      await withReads(t, type, false, async (f) => {
        await control(t, t.client.get(type.collection, { query: { context: 'edit', include: [f.item] } }), `GET ${type.collection}?context=edit`, 'the anonymous context=edit');
        await control(t, t.client.get(type.item(f.item), { query: { context: 'edit' } }), `GET ${type.item(f.item)}?context=edit`, 'the anonymous context=edit');
        const reads = await Promise.all([
          t.client.get(type.collection, { query: { context: 'edit', include: [f.item] }, auth: 'none' }),
          t.client.get(type.item(f.item), { query: { context: 'edit' }, auth: 'none' }),
        ]);
        reads.forEach((r, i) => {
          const what = i === 0 ? `GET ${type.collection}?context=edit` : `GET ${type.item(f.item)}?context=edit`;
          if (/"raw"\s*:/.test(r.text)) t.fail(`${what} without credentials serves raw fields (${r.status})`);
          refused(t, r, what);
      });
      });
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'auth.status', { level: 'SECURITY', title: `without credentials no non-public status is listed (draft, pending, private, trash, any)`, route: type.paths.collection, spec: SPEC_AUTH }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      await withReads(t, type, true, async (f) => {
        const hidden = f.hidden;
        const statuses = setup.skipped() ? ['draft', 'private', 'pending', 'future'] : ['draft', 'private'];
        const shown = await control(t, t.client.get(type.collection, { query: { status: statuses, include: hidden } }), `GET ${type.collection}?status=${statuses.join(',')}`, 'the anonymous status filters');
        const listed = idsOf(shown.body);
        expectIncludeHonoured(t, type, hidden, listed, `GET ${type.collection}?status=${statuses.join(',')}&include=${hidden.join(',')}`);
        if (!hidden.every((id) => listed.includes(id))) t.fail(`positive control: with the configured credentials status=${statuses.join(',')} lists [${listed.join(', ')}], not the items ${hidden.join(', ')} in those statuses`);
        // The anonymous list of the published item is accepted: the route serves anonymous readers at all.
        expectControlAccepted(t, await t.client.get(type.collection, { query: { include: [f.item] }, auth: 'none' }), `GET ${type.collection}?include=${f.item} without credentials (a published item)`, 'the non-public statuses');
        for (const status of ['draft', 'pending', 'private', 'trash', 'any']) {
          const res = await t.client.get(type.collection, { query: { status: [status], include: [f.item, ...hidden] }, auth: 'none' });
          if (res.status >= 500) t.fail(`status=${status} without credentials answered a server error ${res.status}`);
          if (res.status >= 200 && res.status < 300) {
            const leaked = idsOf(res.body).filter((id) => hidden.includes(id));
            const nonPublic = (Array.isArray(res.body) ? res.body : []).filter((i: any) => i?.status && i.status !== 'publish');
            if (leaked.length || nonPublic.length) t.fail(`status=${status} without credentials lists non-public items: ${[...new Set([...leaked, ...nonPublic.map((i: any) => i.id)])].join(', ')}`);
          }
        }
        const single = await t.client.get(type.item(f.single), { auth: 'none' });
        if (single.status >= 200 && single.status < 300) t.fail(`GET ${type.item(f.single)} (${setup.skipped() ? 'an item that is not public' : 'a draft'}) without credentials answers ${single.status}`);
      });
    },
    { concurrent: true },
  );
}
