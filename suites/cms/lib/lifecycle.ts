/**
 * The write lifecycle of a post type: create with the writable fields optional, every write
 * status accepted and read back, filter-only and unknown statuses rejected (and nothing
 * written), update through POST, PUT and PATCH, a password protecting content and excerpt.
 * Every check re-reads the item (state), not only the status code.
 */
import fc from 'fast-check';
import { endpointById } from '../../../schemas/catalog/index.ts';
import { invalidArb, mixSeed } from '../../../generators/index.ts';
import { behaviour, fixtures, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Method, RequestOptions } from '../../../src/sdk/http.ts';
import { FILTER_ONLY_STATUSES, SPEC_STATES, WRITE_STATUSES, type PostType } from './collections.ts';
import { expectIncludeHonoured, idsOf, textOf, tokenMatches } from './items.ts';
import { expectControlAccepted, whyNotAccepted } from '../../../src/sdk/controls.ts';
import { servedProtected, withProtected } from './reads-site.ts';
import { fileSetup } from './setup.ts';
import { cmsDecl } from './declare.ts';
import { requiredCovers } from './write-fields.ts';
import { readAfter, readBackEdit, readBefore } from './read-back.ts';
import { textFields, textObject } from '../../../src/sdk/http.ts';
import { gmtDateTime } from '../../../src/sdk/timezone.ts';

const DAY = 86_400_000;

export function defineLifecycle(type: PostType): void {
  const create = endpointById(`cms.${type.name}.collection.create`).endpoint;
  const statusArg = create.args === 'not-shown' ? undefined : create.args.status;

  const setup = fileSetup(`${type.name}.lifecycle`, async (s) => {
    const make = (hint: string, extra: Record<string, unknown> = {}) => {
      const text = s.text();
      return s.create(type.collection, { title: `${hint} ${text.title}`, content: text.content, excerpt: text.excerpt, ...extra });
    };
    const secret = { content: s.token(), excerpt: s.token(), password: s.token() };
    const [post, put, patch, partial, statusTarget, protectedItem] = await Promise.all([
      make('update-post'),
      make('update-put'),
      make('update-patch'),
      make('update-partial'),
      make('status-target'),
      make('protected', { content: `<p>${secret.content}</p>`, excerpt: `${secret.excerpt}`, password: secret.password }),
    ]);
    return { tag: s.tag, token: () => s.token(), updates: { POST: post.id, PUT: put.id, PATCH: patch.id } as Record<string, number>, partial: partial.id, statusTarget: statusTarget.id, protectedItem: protectedItem.id, secret };
  });

  const createId = `cms.${type.name}.collection.create`;
  const updateId = `cms.${type.name}.item.update`;
  /** Every body arg is left out by one of the accepted creates: none is required. */
  const optionalOnCreate = requiredCovers(createId);
  const statusCovers = [`arg:${createId}.status#type`, `arg:${createId}.status#enum`, `arg:${updateId}.status#type`, `arg:${updateId}.status#enum`];

  /** POST a create that may succeed or not; whatever is created is tracked for deletion. */
  /** POST a create (title, content and excerpt given as text are sent as the documented objects), tracked for deletion. */
  async function tryCreate(t: BehaviourContext, body: Record<string, unknown>, opts: RequestOptions = {}) {
    const res = await t.client.post(type.collection, textFields(body), opts);
    if (typeof res.body?.id === 'number' && res.status < 300) fixtures().track(type.item(res.body.id));
    return res;
  }

  async function readEdit(t: BehaviourContext, id: number): Promise<any> {
    const res = await t.client.get(type.item(id), { query: { context: 'edit' } });
    if (res.status !== 200) t.fail(`GET ${type.item(id)}?context=edit answered ${res.status} ${res.text.slice(0, 160)}`);
    return res.body;
  }

  /** Items whose title, content or excerpt carry `token`, in any status (authenticated). */
  async function findByToken(t: BehaviourContext, token: string): Promise<number[]> {
    const res = await t.client.get(type.collection, { query: { search: token, status: ['any', 'trash'], per_page: 100 } });
    if (res.status !== 200) t.fail(`could not verify by listing: ${whyNotAccepted(res, `GET ${type.collection}?search=${token}&status=any,trash`)}`);
    return tokenMatches(t, type, token, res.body, `GET ${type.collection}?search=${token}&status=any,trash`);
  }

  behaviour(
    cmsDecl(type, 'create.optional-fields', { level: 'MUST', title: 'create succeeds with most writable fields left out (only a title; only content and slug; only an excerpt and slug), and stores what was sent', route: type.paths.collection, spec: type.spec.fields , covers: [...optionalOnCreate, `endpoint:${createId}`] }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const bodies: Record<string, string>[] = [
        { title: `${f.tag} title only` },
        { content: `<p>${f.tag} content only</p>`, slug: `${f.tag}-content-only` },
        { excerpt: `${f.tag} excerpt only`, slug: `${f.tag}-excerpt-only` },
      ];
      for (const body of bodies) {
        const res = await tryCreate(t, body);
        if (res.status < 200 || res.status > 299) t.fail(`create with only ${Object.keys(body).join(' and ')} was refused: ${res.status} ${res.text.slice(0, 200)}`);
        if (typeof res.body?.id !== 'number') t.fail(`create answered ${res.status} without an integer id`);
        const item = await readEdit(t, res.body.id);
        for (const [k, v] of Object.entries(body)) {
          const stored = k === 'slug' ? item.slug : textOf(item[k]);
          if (typeof stored !== 'string' || !stored.includes(k === 'content' ? v.replace(/<\/?p>/g, '') : v))
            t.fail(`created with ${k}=${JSON.stringify(v)}: read back ${k} is ${JSON.stringify(item[k])}`);
        }
      }
    },
  );

  behaviour(
    cmsDecl(type, 'create.slug-only', { level: 'MUST', title: 'create succeeds with every writable field left out but slug (no title, content or excerpt)', route: type.paths.collection, spec: type.spec.fields , covers: optionalOnCreate }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const slug = `${f.tag}-slug-only`;
      const res = await tryCreate(t, { slug });
      if (res.status < 200 || res.status > 299) t.fail(`create with only slug was refused: ${res.status} ${res.text.slice(0, 200)}; all writable fields are optional on create`);
      const item = await readEdit(t, res.body.id);
      if (item.slug !== slug) t.fail(`created with slug ${slug}: read back ${JSON.stringify(item.slug)}`);
    },
  );

  behaviour(
    cmsDecl(type, 'write.statuses', { level: 'MUST', title: `every write status (${WRITE_STATUSES.join(', ')}) is accepted on create and read back`, route: type.paths.collection, spec: SPEC_STATES , covers: statusCovers.slice(0, 2) }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const future = gmtDateTime(Date.now() + 400 * DAY);
      await Promise.all(
        WRITE_STATUSES.map(async (status) => {
          // A future item needs a date in the future (what happens otherwise is a transition: not shown).
          const res = await tryCreate(t, { title: `${f.tag} status ${status}`, content: '<p>status</p>', status, ...(status === 'future' ? { date: future } : {}) });
          if (res.status < 200 || res.status > 299) t.fail(`create with status=${status} was refused: ${res.status} ${res.text.slice(0, 160)}`);
          const item = await readEdit(t, res.body.id);
          if (item.status !== status) t.fail(`created with status=${status}: read back status ${JSON.stringify(item.status)}`);
        }),
      );
    },
    { concurrent: true },
  );

  // Every documented value of the other enum fields on create too (issue 40; fields.enum-values
  // writes each on update): as few creates as the longest list needs, each carrying a value of
  // every field (the shorter lists cycled), each item read back.
  const createArgs = create.args === 'not-shown' ? {} : create.args;
  const enumFields = Object.entries(createArgs).filter(([n, a]) => n !== 'status' && a.enum).map(([n, a]) => [n, a.enum!.map(String)] as const);
  if (enumFields.length) {
    const creates = Math.max(...enumFields.map(([, values]) => values.length));
    behaviour(
      cmsDecl(type, 'fields.enum-values-on-create', {
        level: 'MUST',
        title: `every documented value of ${enumFields.map(([n]) => n).join(', ')} is accepted on create and read back (${creates} creates)`,
        route: type.paths.collection,
        spec: type.spec.fields,
        covers: enumFields.flatMap(([n]) => [`arg:${createId}.${n}#enum`, `arg:${createId}.${n}#type`]),
      }),
      async (t: BehaviourContext) => {
        t.requireWrites();
        t.requireCredentials();
        const f = setup.get(t);
        const problems: string[] = [];
        await Promise.all(
          Array.from({ length: creates }, async (_, i) => {
            const values = Object.fromEntries(enumFields.map(([n, list]) => [n, list[i % list.length]!]));
            const what = `POST ${type.collection} {${Object.entries(values).map(([n, v]) => `${n}: ${JSON.stringify(v)}`).join(', ')}}`;
            const res = await tryCreate(t, { title: `${f.tag} enum values ${i}`, ...values });
            if (res.status < 200 || res.status > 299 || typeof res.body?.id !== 'number') return void problems.push(whyNotAccepted(res, what));
            const item = await readEdit(t, res.body.id);
            const wrong = Object.entries(values).filter(([n, v]) => item[n] !== v);
            if (wrong.length) problems.push(`${what} answered ${res.status}; GET ${type.item(res.body.id)}?context=edit reads ${wrong.map(([n]) => `${n} ${JSON.stringify(item[n])}`).join(', ')}`);
          }),
        );
        if (problems.length) t.fail(`documented values not accepted on create or not stored (${enumFields.map(([n, list]) => `${n}: one of ${list.join(', ')}`).join('; ')}): ${problems.join('; ')}`);
      },
      { concurrent: true },
    );
  }

  /**
   * Every status in `statuses` is refused on create (and nothing created: one listing by a
   * shared token checks them all) and on update (the item keeps its status).
   */
  async function expectRefusedWrites(t: BehaviourContext, statuses: string[], f: ReturnType<typeof setup.get>): Promise<void> {
    // Positive controls: the nearest valid writes (a create with status draft; an update to the
    // status the item has) are accepted, and the create is stored.
    const refusal = `status ${statuses.map((x) => JSON.stringify(x)).join(', ')}`;
    const controlToken = f.token();
    const made = await tryCreate(t, { title: `${f.tag} ${controlToken} draft`, content: '<p>valid status</p>', status: 'draft' });
    expectControlAccepted(t, made, `create with status=draft`, refusal);
    if (!(await findByToken(t, controlToken)).length) t.fail(`positive control: the create with status=draft answered ${made.status} but nothing was stored`);
    const current = (await readEdit(t, f.statusTarget)).status;
    expectControlAccepted(t, await t.client.post(type.item(f.statusTarget), { status: current }), `update to status=${current} (the item's own)`, refusal);
    const token = f.token();
    const creates = await Promise.all(statuses.map((status) => tryCreate(t, { title: `${f.tag} ${token} ${status}`, content: '<p>refused status</p>', status }, { invalid: ['status'] })));
    creates.forEach((res, i) => {
      const status = JSON.stringify(statuses[i]);
      if (res.status >= 200 && res.status < 300) t.fail(`create with status=${status} was accepted (${res.status}, status ${JSON.stringify(res.body?.status)}); only ${WRITE_STATUSES.join(', ')} are accepted on write`);
      if (res.status >= 500) t.fail(`create with status=${status} answered a server error ${res.status}`);
    });
    const found = await findByToken(t, token);
    if (found.length) t.fail(`refused creates (statuses ${statuses.join(', ')}) created item(s) ${found.join(', ')}`);
    const primed = await readBefore(t, type.item(f.statusTarget));
    const before = primed.before.body?.status;
    for (const status of statuses) {
      const upd = await t.client.post(type.item(f.statusTarget), { status }, { invalid: ['status'] });
      if (upd.status >= 200 && upd.status < 300) t.fail(`update to status=${JSON.stringify(status)} was accepted (${upd.status})`);
      if (upd.status >= 500) t.fail(`update to status=${JSON.stringify(status)} answered a server error ${upd.status}`);
    }
    const after = (await readAfter(t, primed, 'none')).body?.status;
    if (after !== before) t.fail(`refused updates (statuses ${statuses.join(', ')}) changed the status from ${before} to ${after}`);
  }

  behaviour(
    cmsDecl(type, 'write.status.filter-only', { level: 'MUST', title: `the filter-only statuses (${FILTER_ONLY_STATUSES.join(', ')}) are rejected on create and update, and nothing is written`, route: type.paths.collection, spec: SPEC_STATES , covers: statusCovers }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      await expectRefusedWrites(t, [...FILTER_ONLY_STATUSES], f);
    },
  );

  behaviour(
    cmsDecl(type, 'write.status.unknown', { level: 'MUST', title: 'an unknown status is rejected on create and update, and nothing is written', route: type.paths.collection, spec: SPEC_STATES , covers: statusCovers }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const arb = statusArg ? invalidArb(statusArg) : null;
      if (!arb) t.skip('the catalog states no status values for writes');
      const samples = fc.sample(arb, { seed: mixSeed(t.run.info.config.seed, t.decl.id), numRuns: 2 }).map(String);
      await expectRefusedWrites(t, samples, f);
    },
  );

  for (const method of ['POST', 'PUT', 'PATCH'] as Method[]) {
    behaviour(
      cmsDecl(type, `update.${method.toLowerCase()}`, { level: 'MUST', title: `${method} on an item updates it (title read back)`, route: type.paths.item, spec: type.spec.routes, covers: [`endpoint:${updateId}:${method}`] }),
      async (t: BehaviourContext) => {
        t.requireWrites();
        t.requireCredentials();
        const f = setup.get(t);
        const id = f.updates[method]!;
        const title = `${f.tag} updated by ${method} ${f.token()}`;
        // Read before the write through the URL of the read-back (lib/read-back.ts).
        const primed = await readBefore(t, type.item(id));
        const res = await t.client.request(method, type.item(id), { body: { title: textObject(title) } });
        if (res.status < 200 || res.status > 299) t.fail(`${method} ${type.item(id)} was refused: ${res.status} ${res.text.slice(0, 160)}`);
        const item = await readBackEdit(t, primed, `${method} ${type.item(id)}`);
        if (textOf(item.title) !== title && item.title?.raw !== title) t.fail(`after ${method} with title ${JSON.stringify(title)}: read back ${JSON.stringify(item.title)}`);
      },
      { concurrent: true },
    );
  }

  behaviour(
    cmsDecl(type, 'update.partial', { level: 'SHOULD', title: 'an update that sends only the title leaves content and excerpt as they were', route: type.paths.item, spec: type.spec.routes , covers: requiredCovers(updateId, ['title']) }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const primed = await readBefore(t, type.item(f.partial));
      const before = primed.before.body;
      const title = `${f.tag} partial ${f.token()}`;
      const res = await t.client.request('PATCH', type.item(f.partial), { body: textFields({ title }) });
      if (res.status < 200 || res.status > 299) t.fail(`PATCH was refused: ${res.status} ${res.text.slice(0, 160)}`);
      const after = await readBackEdit(t, primed, `PATCH ${type.item(f.partial)}`);
      // A pass needs the update seen: a PATCH that changed nothing left everything as it was.
      if (after.title?.raw !== title && textOf(after.title) !== title) t.dependsOn(`cms.${type.name}.update.patch`, `PATCH ${type.item(f.partial)} {title} answered ${res.status}, but the item reads back title ${JSON.stringify(after.title)}: the update changed nothing`);
      for (const k of ['content', 'excerpt'] as const) {
        if (before[k]?.raw !== after[k]?.raw) t.fail(`${k} changed from ${JSON.stringify(before[k]?.raw)} to ${JSON.stringify(after[k]?.raw)} by an update that did not send it`);
      }
    },
    { concurrent: true },
  );

  /** The anonymous reads of the protected item: single and list (found through include), in view and embed context. */
  async function protectedReads(t: BehaviourContext, id: number) {
    const reads = await Promise.all([
      t.client.get(type.item(id), { auth: 'none' }),
      t.client.get(type.collection, { query: { include: [id] }, auth: 'none' }),
      t.client.get(type.item(id), { query: { context: 'embed' }, auth: 'none' }),
      t.client.get(type.collection, { query: { include: [id], context: 'embed' }, auth: 'none' }),
    ]);
    const labels = ['single', 'list', 'single embed', 'list embed'];
    // The single reads by the item's own route first; the list reads find it through include (cms.<type>.filter.include).
    return [0, 2, 1, 3].map((i) => ({ res: reads[i]!, label: labels[i]!, list: i % 2 === 1, embed: i >= 2 }));
  }
  const passwordCovers = [`field:${type.resource.id}.content`, `field:${type.resource.id}.excerpt`, `field:${type.resource.id}.password`];
  const flagId = `cms.${type.name}.password.protected-flag`;

  behaviour(
    cmsDecl(type, 'password.protects', { level: 'SECURITY', title: 'a password protects content and excerpt: anonymous list and single reads (view, embed; a single read with a wrong password) carry neither the content nor the excerpt in those fields, nor the password', route: type.paths.collection, spec: type.spec.fields, covers: passwordCovers }),
    async (t: BehaviourContext) => {
      await withProtected(t, type, setup, async (f, carries) => {
        const reads = await protectedReads(t, f.protectedItem);
        // A wrong password is no password: it unlocks nothing either (refused or not, whatever the code).
        const wrong = await t.client.get(type.item(f.protectedItem), { query: { password: `${f.secret.password}x` }, auth: 'none' });
        // Judged in the protected fields (content, excerpt) and the password field only (reads-site.ts servedProtected).
        for (const { res, label } of [...reads, { res: wrong, label: 'single with a wrong password' }]) {
          const served = servedProtected(res.body, f.protectedItem);
          for (const [name, secret] of Object.entries(f.secret)) {
            const where = name === 'password' ? { text: served.password, field: 'its password field' } : { text: served.fields, field: 'content or excerpt' };
            if (secret && carries(where.text, secret)) t.fail(`${label}: the anonymous response (${res.status}) carries the protected ${name} (${secret}) in ${where.field}`);
          }
        }
        // A pass means the protected item was served and held nothing: reads that were refused, or that
        // did not carry the item, are the finding of the behaviour that checks they are answered.
        for (const { res, label, list } of reads) {
          const item = Array.isArray(res.body) ? res.body.find((x: any) => x?.id === f.protectedItem) : res.body;
          if (res.status !== 200 || (list && !item)) t.dependsOn(flagId, `${label}: the anonymous read answered ${res.status}${list && res.status === 200 ? ' without the protected item' : ''}, so it shows nothing about what a protected item serves`);
        }
      });
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'password.protected-flag', { level: 'MUST', title: 'a password-protected item is served to anonymous readers (list and single, view and embed) with content.protected and excerpt.protected true', route: type.paths.collection, spec: type.spec.fields, covers: passwordCovers }),
    async (t: BehaviourContext) => {
      await withProtected(t, type, setup, async (f) => {
        const id = f.protectedItem;
        for (const { res: r, label, embed } of await protectedReads(t, id)) {
          if (r.status !== 200) t.fail(`${label}: anonymous read answered ${r.status} ${r.text.slice(0, 120)}`);
          if (Array.isArray(r.body)) expectIncludeHonoured(t, type, [id], idsOf(r.body), `GET ${type.collection}?include=${id}${embed ? '&context=embed' : ''} (anonymous)`);
          const item = Array.isArray(r.body) ? r.body.find((x: any) => x?.id === id) : r.body;
          if (!item) t.fail(`${label}: the protected item is not listed`);
          if (item.excerpt && item.excerpt.protected !== true) t.fail(`${label}: excerpt.protected is ${JSON.stringify(item.excerpt.protected)}, expected true`);
          if (item.content && item.content.protected !== true) t.fail(`${label}: content.protected is ${JSON.stringify(item.content.protected)}, expected true`);
          if (!embed && !item.content) t.fail(`${label}: no content field in view context`);
        }
      });
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'password.query', { level: 'MUST', title: 'the password query argument of a single GET unlocks the content; a wrong one is answered without a server error (what it serves: password.protects)', route: type.paths.item, spec: type.spec.routes , covers: [`arg:cms.${type.name}.item.read.password`] }),
    async (t: BehaviourContext) => {
      await withProtected(t, type, setup, async (f, carries) => {
        const id = f.protectedItem;
        const right = await t.client.get(type.item(id), { query: { password: f.secret.password }, auth: 'none' });
        if (right.status !== 200) t.fail(`GET ${type.item(id)}?password=<the password> answered ${right.status} ${right.text.slice(0, 120)}`);
        if (!carries(textOf(right.body?.content), f.secret.content)) t.fail(`with the right password, content.rendered does not carry the content: ${JSON.stringify(right.body?.content).slice(0, 160)}`);
        const wrong = await t.client.get(type.item(id), { query: { password: `${f.secret.password}x` }, auth: 'none' });
        if (wrong.status >= 500) t.fail(`a wrong password answered a server error ${wrong.status}`);
      });
    },
    { concurrent: true },
  );
}
