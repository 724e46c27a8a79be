/**
 * Autosaves (2. Resources and their fields › Revision and autosave; 4. Endpoints): create,
 * list and read as documented. An autosave belongs to its parent (parent) and has its own id.
 * Published items are used: WordPress updates a draft itself when its author autosaves it.
 */
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { postTypes, SPEC_REVISIONS, type PostType } from './lib/collections.ts';
import { describeItems, itemSubject, observable, onSite, revisioned } from './lib/sample.ts';
import { revisionProblems, textOf } from './lib/items.ts';
import { eachType, fileSetup } from './lib/setup.ts';
import { requiredCovers } from './lib/write-fields.ts';
import { FixtureError, autosaveRecovering } from '../../src/sdk/fixtures.ts';
import { cmsDecl } from './lib/declare.ts';
import { textFields } from '../../src/sdk/http.ts';

const setup = fileSetup('autosaves', (s) =>
  eachType(postTypes, async (type): Promise<{ listed: number; autosave: number | string; posted: string | undefined; created: number; title: string; tag: string }> => {
    const [listed, created] = await Promise.all(['autosaved', 'autosave-create'].map((hint) => s.create(type.collection, { title: `${hint} ${s.text().title}`, content: s.text().content })));
    const res = await autosaveRecovering(s.client, type.autosaves(listed.id), textFields({ title: `${s.tag} autosaved draft`, content: s.text().content }));
    // The fixture verifies itself: an autosave answered with its parent's id has no id of its own to list or read by.
    const autosave =
      res.status >= 200 && res.status < 300 && typeof res.body?.id === 'number' && res.body.id !== listed.id
        ? res.body.id
        : `POST ${type.autosaves(listed.id)} answered ${res.status} ${res.body?.id === listed.id ? `an autosave with the id of its parent ${listed.id}` : res.text.slice(0, 160)}`;
    // Whether the autosave was posted at all (what the parent-unchanged check needs): an autosave applied to the parent itself is its finding.
    const posted = res.status >= 200 && res.status < 300 ? undefined : `POST ${type.autosaves(listed.id)} answered ${res.status} ${res.text.slice(0, 160)}`;
    return { listed: listed.id, autosave, posted, created: created.id, title: created.title?.raw ?? created.title?.rendered, tag: s.tag };
  }),
);

/**
 * The list and read checks on the fixture's autosave, or (the run has no fixtures) on an autosave
 * the site's content holds, found among the autosaves of its edited items (sample.ts).
 */
async function withAutosave(t: BehaviourContext, type: PostType, what: 'list' | 'read', check: (f: { listed: number; autosave: number }) => Promise<void>): Promise<void> {
  if (!setup.skipped()) {
    const f = setup.get(t)[type.name]!;
    if (typeof f.autosave === 'string') throw new FixtureError(`the autosave to ${what} could not be created: ${f.autosave}`, `cms.${type.name}.autosaves.create`);
    return check({ listed: f.listed, autosave: f.autosave });
  }
  await onSite(
    t,
    async (fresh) => {
      const { autosave } = await revisioned(type, fresh);
      observable(t, autosave !== undefined, `an autosave of a published ${type.noun} (none among the autosaves of the ${type.name} probed)`);
      return autosave;
    },
    (a) => ({ subjects: [itemSubject(type, a.parent)], detail: `${describeItems(type, [a.parent], 'published')}, its autosave ${a.id}` }),
    (a) => check({ listed: a.parent.id, autosave: a.id }),
  );
}

for (const type of postTypes) {
  behaviour(
    cmsDecl(type, 'autosaves.create', {
      level: 'MUST',
      title: `POST ${type.paths.autosaves} creates an autosave of the ${type.noun}: its own id, parent = the ${type.noun}`,
      route: type.paths.autosaves,
      spec: SPEC_REVISIONS,
      // Only title and content are sent: every other body field is shown not required.
      covers: [`endpoint:cms.${type.name}.autosaves.collection.create`, ...requiredCovers(`cms.${type.name}.autosaves.collection.create`, ['title', 'content']), 'field:autosave.parent', 'field:autosave.id'],
    }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t)[type.name]!;
      const res = await t.client.post(type.autosaves(f.created), textFields({ title: `${f.tag} autosave of a published ${type.noun}`, content: '<p>autosaved content</p>' }));
      if (res.status < 200 || res.status > 299) t.fail(`POST ${type.autosaves(f.created)} answered ${res.status} ${res.text.slice(0, 160)}`);
      const problems = revisionProblems(res.body, f.created);
      if (problems.length) t.fail(problems.join('; '));
      if (res.body.id === f.created) t.fail(`the autosave has the id of its parent ${f.created}: it has no id of its own`);
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'autosaves.list', { level: 'MUST', title: `GET ${type.paths.autosaves} lists the ${type.noun}'s autosave, each with parent = the ${type.noun}`, route: type.paths.autosaves, spec: SPEC_REVISIONS, covers: [`endpoint:cms.${type.name}.autosaves.collection.list`] }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      await withAutosave(t, type, 'list', async (f) => {
        const res = await t.client.get(type.autosaves(f.listed));
        if (res.status !== 200 || !Array.isArray(res.body)) t.fail(`GET ${type.autosaves(f.listed)} answered ${res.status} ${res.text.slice(0, 160)}`);
        const problems = res.body.flatMap((a: unknown) => revisionProblems(a, f.listed));
        if (problems.length) t.fail(problems.slice(0, 3).join('; '));
        if (!res.body.some((a: any) => a?.id === f.autosave)) t.fail(`autosave ${String(f.autosave)} is not listed under ${type.autosaves(f.listed)}: ${res.text.slice(0, 160)}`);
      });
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'autosaves.read', { level: 'MUST', title: `GET ${type.paths.autosave} returns the autosave with parent = the ${type.noun}`, route: type.paths.autosave, spec: SPEC_REVISIONS }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      await withAutosave(t, type, 'read', async (f) => {
        const res = await t.client.get(type.autosave(f.listed, f.autosave));
        if (res.status !== 200) t.fail(`GET ${type.autosave(f.listed, f.autosave)} answered ${res.status} ${res.text.slice(0, 160)}`);
        const problems = revisionProblems(res.body, f.listed);
        if (problems.length) t.fail(problems.join('; '));
        if (res.body.id !== f.autosave) t.fail(`GET ${type.autosave(f.listed, f.autosave)} returned ${res.body.id}`);
      });
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'autosaves.parent-unchanged', { level: 'SHOULD', title: `an autosave of a published ${type.noun} leaves the ${type.noun} itself unchanged`, route: type.paths.autosaves, spec: type.spec.routes }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t)[type.name]!;
      if (f.posted) throw new FixtureError(`the autosave could not be created: ${f.posted}`, `cms.${type.name}.autosaves.create`);
      const res = await t.client.get(type.item(f.listed), { query: { context: 'edit' } });
      if (res.status !== 200) t.fail(`GET ${type.item(f.listed)} answered ${res.status}`);
      if (textOf(res.body?.title).includes('autosaved draft')) t.fail(`the autosave's title replaced the published ${type.noun}'s title: ${JSON.stringify(res.body?.title)}`);
    },
    { concurrent: true },
  );
}
