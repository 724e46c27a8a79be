/**
 * Revisions of a post type: the revision collection query, revisions belong to their parent,
 * an update creates one (WordPress), deletion needs force=true (part 3).
 */
import { behaviour, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { SPEC_REVISIONS, SPEC_STATES, type PostType } from './collections.ts';
import { idsOf, revisionProblems } from './items.ts';
import { defineQueryBehaviours, expectListOk, type QueryData, type QueryTarget } from './query.ts';
import { describeItems, itemSubject, onSite, revisioned, revisionsSubject, type Revisioned } from './sample.ts';
import { fileSetup, type SetupContext } from './setup.ts';
import { answerOf, expectControlAccepted, whyNotAccepted } from '../../../src/sdk/controls.ts';
import { FixtureError } from '../../../src/sdk/fixtures.ts';
import { cmsDecl } from './declare.ts';
import { textFields } from '../../../src/sdk/http.ts';

async function update(s: SetupContext, type: PostType, id: number, fields: Record<string, unknown>): Promise<void> {
  const res = await s.client.post(type.item(id), textFields(fields));
  if (res.status < 200 || res.status > 299) throw new FixtureError(`could not update ${type.item(id)}: ${res.status} ${res.text.slice(0, 160)}`, `cms.${type.name}.update.post`);
}

async function revisionIds(client: BehaviourContext['client'] | SetupContext['client'], type: PostType, parent: number): Promise<number[] | string> {
  // No per_page: a handful of revisions, and no argument the query checks are about.
  const res = await client.get(type.revisions(parent));
  if (res.status !== 200 || !Array.isArray(res.body)) return `GET ${type.revisions(parent)} answered ${res.status} ${res.text.slice(0, 120)}`;
  return idsOf(res.body);
}

export function defineRevisions(type: PostType): void {
  const setup = fileSetup(`${type.name}.revisions`, async (s) => {
    const make = (title: string) => s.create(type.collection, { title, content: s.text().content });
    const [a, b, c, other] = await Promise.all(['listed', 'deleted', 'fresh', 'other'].map((w) => make(`${w} ${s.text().title}`)));
    // Sequential updates: each changes title and content, so each makes a revision.
    for (let i = 1; i <= 3; i++) await update(s, type, a.id, { title: `${s.tag} listed v${i}`, content: s.text().content });
    for (let i = 1; i <= 2; i++) await update(s, type, b.id, { title: `${s.tag} deleted v${i}`, content: s.text().content });
    const listed = await revisionIds(s.client, type, a.id);
    const deletable = await revisionIds(s.client, type, b.id);
    // A refused list of the documented revisions route is the parent behaviour's failure; the others skip, naming it.
    if (typeof listed === 'string') throw new FixtureError(listed, `cms.${type.name}.revisions.parent`);
    return { a: a.id as number, b: b.id as number, c: c.id as number, other: other.id as number, listed, deletable: typeof deletable === 'string' ? [] : deletable, tag: s.tag };
  });

  /** The parent whose revisions are read, another item, and the parent's revisions. */
  interface Listed {
    a: number;
    other?: number;
    listed: number[];
  }
  /** The site's own content (the run may not write): an item with revisions (sample.ts). */
  const siteListed = async (t: BehaviourContext, fresh: boolean): Promise<Listed & { r: Revisioned }> => {
    const r = await revisioned(type, fresh);
    if (!r.revisions.length) t.skip(`not observable on the site's content: a published ${type.noun} with revisions (${r.why})`);
    return { r, a: r.parent.id, ...(r.other ? { other: r.other.id } : {}), listed: r.revisions };
  };
  const siteSubjects = ({ r }: Listed & { r: Revisioned }) => ({ subjects: [itemSubject(type, r.parent), revisionsSubject(type, r)], detail: `${describeItems(type, [r.parent], 'published')}, its revisions ${r.revisions.join(', ')}${r.other ? `; ${type.noun} ${r.other.id}` : ''}` });
  /** Check on the fixtures, or without them on the site's own revisions (made again when they changed meanwhile). */
  const withListed = async (t: BehaviourContext, check: (f: Listed) => Promise<void>): Promise<void> => {
    if (!setup.skipped()) return check(setup.get(t));
    await onSite(t, (fresh) => siteListed(t, fresh), siteSubjects, check);
  };
  const queryData = (f: Listed, search: string): QueryData => ({ route: type.revisions(f.a), scope: {}, count: f.listed.length, companions: { search, include: f.listed } });

  const target: QueryTarget = {
    id: `cms.${type.name}.revisions`,
    endpoint: type.revisionList.id,
    path: type.paths.revisions,
    spec: type.spec.revisionQuery,
    args: type.revisionQuery,
    pathArgs: ['parent'],
    items: { kind: 'revisions' },
    needsCredentials: true,
    data: async (t) => {
      if (setup.skipped()) return queryData(await siteListed(t, false), 'a');
      const f = setup.get(t);
      if (f.listed.length === 0) t.skip(`the target made no revision of ${type.item(f.a)} after three updates: nothing to list`);
      return queryData(f, f.tag);
    },
    withData: async (t, check) => {
      if (!setup.skipped()) return check(await target.data(t));
      await onSite(t, (fresh) => siteListed(t, fresh), siteSubjects, (f) => check(queryData(f, 'a')));
    },
  };
  defineQueryBehaviours(target);

  behaviour(
    cmsDecl(type, 'revisions.created-on-update', { level: 'SHOULD', title: `an update of title and content creates a revision listed under the ${type.noun}`, route: type.paths.revisions, spec: type.spec.routes }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t);
      const before = await revisionIds(t.client, type, f.c);
      if (typeof before === 'string') t.fail(before);
      const res = await t.client.post(type.item(f.c), textFields({ title: `${f.tag} fresh updated`, content: '<p>updated content</p>' }));
      if (res.status < 200 || res.status > 299) t.fail(`the update was refused: ${res.status} ${res.text.slice(0, 160)}`);
      const after = await revisionIds(t.client, type, f.c);
      if (typeof after === 'string') t.fail(after);
      const added = after.filter((id) => !before.includes(id));
      if (added.length === 0) t.fail(`no revision appeared under ${type.revisions(f.c)} after updating title and content (before: [${before.join(',')}], after: [${after.join(',')}])`);
    },
  );

  behaviour(
    cmsDecl(type, 'revisions.parent', { level: 'MUST', title: `revisions listed under a ${type.noun} belong to it (parent), and read back by id with that parent`, route: type.paths.revision, spec: SPEC_REVISIONS , covers: ['field:revision.parent', 'field:revision.id'] }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      await withListed(t, async (f) => {
        if (f.listed.length === 0) t.skip(`the target made no revision of ${type.item(f.a)}: nothing to check`);
        const list = await t.client.get(type.revisions(f.a), { query: { per_page: 100 } });
        expectListOk(t, target.items, list, `GET ${type.revisions(f.a)}`);
        for (const id of f.listed.slice(0, 2)) {
          const res = await t.client.get(type.revision(f.a, id));
          if (res.status !== 200) t.fail(`GET ${type.revision(f.a, id)} answered ${res.status} ${res.text.slice(0, 120)}`);
          const problems = revisionProblems(res.body, f.a);
          if (problems.length) t.fail(problems.join('; '));
          if (res.body.id !== id) t.fail(`GET ${type.revision(f.a, id)} returned revision ${res.body.id}`);
        }
      });
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'revisions.wrong-parent', { level: 'MUST', title: `a revision read through another ${type.noun} is refused`, route: type.paths.revision, spec: SPEC_REVISIONS, covers: [`param:cms.${type.name}.revisions.item.parent`] }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      await withListed(t, async (f) => {
        if (f.listed.length === 0) t.skip(`the target made no revision of ${type.item(f.a)}: nothing to check`);
        if (f.other === undefined) t.skip(`not observable on the site's content: a second published ${type.noun}`);
        const rev = f.listed[0]!;
        expectControlAccepted(t, await t.client.get(type.revision(f.a, rev)), `GET ${type.revision(f.a, rev)} (through its own parent)`, 'the read through another parent');
        const res = await t.client.get(type.revision(f.other, rev));
        if (res.status >= 200 && res.status < 300) t.fail(`revision ${rev} of ${type.item(f.a)} was served under ${type.item(f.other)} (${res.status})`);
        if (res.status >= 500) t.fail(`server error ${res.status} instead of a refusal`);
      });
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'revisions.delete.without-force', { level: 'MUST', title: 'DELETE on a revision without force=true is refused, and the revision still exists', route: type.paths.revision, spec: SPEC_STATES , covers: [`arg:cms.${type.name}.revisions.item.delete.force`] }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t);
      const rev = f.deletable[0];
      if (rev === undefined) t.skip(`the target made no revision of ${type.item(f.b)}: nothing to delete`);
      for (const query of [{}, { force: false }]) {
        const res = await t.client.delete(type.revision(f.b, rev), { query });
        if (res.status >= 200 && res.status < 300) t.fail(`DELETE ${type.revision(f.b, rev)}${query.force === false ? '?force=false' : ''} was accepted (${res.status}); revisions have no trash, force must be true`);
        // 501 (not implemented: revisions have no trash) is a refusal; other 5xx are server errors.
        if (res.status >= 500 && res.status !== 501) t.fail(`DELETE without force answered a server error ${res.status}`);
      }
      const after = await t.client.get(type.revision(f.b, rev));
      if (after.status !== 200) t.fail(`after the refused DELETE, ${whyNotAccepted(after, `GET ${type.revision(f.b, rev)}`)}: the revision is gone or unreadable`);
      // Positive control: the nearest valid request, DELETE with force=true, is accepted and deletes it.
      const forced = await t.client.delete(type.revision(f.b, rev), { query: { force: true } });
      if (forced.status === 401 || forced.status === 403)
        t.skip(
          `not observable: the target refuses revision deletion to this user even with force=true (${answerOf(forced)}); which capability it needs is not shown (5. Authentication), so its refusal without force says nothing about force`,
        );
      expectControlAccepted(t, forced, `DELETE ${type.revision(f.b, rev)}?force=true`, 'DELETE without force');
      const gone = await t.client.get(type.revision(f.b, rev));
      if (gone.status >= 200 && gone.status < 300) t.fail(`positive control: DELETE ?force=true answered ${forced.status} but GET ${type.revision(f.b, rev)} still answers ${gone.status}`);
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'revisions.delete.force', { level: 'MUST', title: 'DELETE on a revision with force=true deletes it for good', route: type.paths.revision, spec: SPEC_STATES , covers: [`arg:cms.${type.name}.revisions.item.delete.force`] }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t);
      const rev = f.deletable[1];
      if (rev === undefined) t.skip(`the target made fewer than two revisions of ${type.item(f.b)}: nothing to delete`);
      const res = await t.client.delete(type.revision(f.b, rev), { query: { force: true } });
      if (res.status === 401 || res.status === 403)
        t.skip(`the target refuses revision deletion to this user (${res.status} ${res.body?.code ?? ''}); which capability it needs is not shown (5. Authentication)`);
      if (res.status < 200 || res.status > 299) t.fail(`DELETE ${type.revision(f.b, rev)}?force=true answered ${res.status} ${res.text.slice(0, 160)}`);
      const after = await t.client.get(type.revision(f.b, rev));
      if (after.status >= 200 && after.status < 300) t.fail(`after DELETE ?force=true, GET ${type.revision(f.b, rev)} still answers ${after.status}`);
      const listed = await revisionIds(t.client, type, f.b);
      if (typeof listed !== 'string' && listed.includes(rev)) t.fail(`after DELETE ?force=true, revision ${rev} is still listed under ${type.revisions(f.b)}`);
    },
    { concurrent: true },
  );
}
