/**
 * Deletion of posts and pages (3. States and transitions, rule 1): DELETE without force moves
 * the item to the trash (still readable by its author with status trash, gone from the
 * default listing, listed under status=trash); with force=true it is gone for good. Verified
 * by reading the state back (through the URL read before the delete, lib/read-back.ts), not by
 * the status code alone.
 */
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { postTypes, SPEC_STATES, type PostType } from './lib/collections.ts';
import { expectIncludeHonoured, idsOf } from './lib/items.ts';
import { eachType, fileSetup } from './lib/setup.ts';
import { cmsDecl } from './lib/declare.ts';
import { readAfter, readBefore } from './lib/read-back.ts';

const setup = fileSetup('delete', (s) =>
  eachType(postTypes, async (type) => {
    const [trash, trashExplicit, force] = await Promise.all(['trash', 'trash-explicit', 'force'].map((hint) => s.create(type.collection, { title: `${hint} ${s.text().title}` })));
    return { trash: trash.id, trashExplicit: trashExplicit.id, force: force.id };
  }),
);

async function listed(t: BehaviourContext, type: PostType, id: number, status?: string[]): Promise<boolean> {
  const res = await t.client.get(type.collection, { query: { include: [id], ...(status ? { status } : {}) } });
  const what = `GET ${type.collection}?include=${id}${status ? `&status=${status.join(',')}` : ''}`;
  if (res.status !== 200 || !Array.isArray(res.body)) t.fail(`${what} answered ${res.status} ${res.text.slice(0, 120)}`);
  expectIncludeHonoured(t, type, [id], idsOf(res.body), what);
  return idsOf(res.body).includes(id);
}

for (const type of postTypes) {
  behaviour(
    cmsDecl(type, 'delete.trash', { level: 'MUST', title: 'DELETE without force (and with force=false) moves the item to the trash: readable by its author with status trash, gone from the default listing, listed under status=trash', route: type.paths.item, spec: SPEC_STATES, covers: [`arg:cms.${type.name}.item.delete.force`] }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const f = setup.get(t)[type.name]!;
      for (const [id, query] of [
        [f.trash, {}],
        [f.trashExplicit, { force: false }],
      ] as const) {
        const how = `DELETE ${type.item(id)}${'force' in query ? '?force=false' : ''}`;
        // Read before the write through the URL of the read-back (lib/read-back.ts).
        const primed = await readBefore(t, type.item(id));
        const res = await t.client.delete(type.item(id), { query });
        if (res.status < 200 || res.status > 299) t.fail(`${how} answered ${res.status} ${res.text.slice(0, 160)}`);
        const read = await readAfter(t, primed, 'change', how);
        if (read.status !== 200) t.fail(`after ${how}, the author's GET ${type.item(id)}?context=edit answers ${read.status}: the item was not kept in the trash`);
        if (read.body?.status !== 'trash') t.fail(`after ${how}, the item reads back with status ${JSON.stringify(read.body?.status)}, expected trash`);
        if (await listed(t, type, id)) t.fail(`after ${how}, the item is still in the default listing`);
        if (!(await listed(t, type, id, ['trash']))) t.fail(`after ${how}, the item is not listed under status=trash`);
      }
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'delete.force', { level: 'MUST', title: 'DELETE with force=true deletes the item for good: not readable, not listed in any status', route: type.paths.item, spec: SPEC_STATES, covers: [`arg:cms.${type.name}.item.delete.force`] }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      const id = setup.get(t)[type.name]!.force;
      const primed = await readBefore(t, type.item(id));
      const res = await t.client.delete(type.item(id), { query: { force: true } });
      if (res.status < 200 || res.status > 299) t.fail(`DELETE ${type.item(id)}?force=true answered ${res.status} ${res.text.slice(0, 160)}`);
      const read = await readAfter(t, primed, 'change', `DELETE ${type.item(id)}?force=true`);
      if (read.status >= 200 && read.status < 300) t.fail(`after DELETE ?force=true, GET ${type.item(id)} still answers ${read.status} (status ${JSON.stringify(read.body?.status)})`);
      if (read.status >= 500) t.fail(`after DELETE ?force=true, GET ${type.item(id)} answers a server error ${read.status}`);
      if (await listed(t, type, id, ['any', 'trash'])) t.fail(`after DELETE ?force=true, the item is still listed under status=any,trash`);
    },
    { concurrent: true },
  );
}
