/**
 * The model of part 3 (suites/cms/lib/model.ts) and the failure report (model-report.ts), without
 * a target: what each operation may leave, at which level, and how a sequence is written out.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { batchWorlds, filterExpectation, learn, mismatches, step, type Observation, type Op, type PItem, type World } from '../../suites/cms/lib/model.ts';
import { curlScript, numberedRequests } from '../../suites/cms/lib/model-report.ts';
import { autosaveToken, itemToken, revToken, type Step } from '../../suites/cms/lib/model-real.ts';

const name = (ref: number) => `#${ref}`;
const ctx = { step: '1' };

function created(status = 'publish', title = 't1', slug = 's1'): World {
  const [o] = step([], { kind: 'create', ref: 1, fields: { title, slug, status } }, ctx);
  // As observed (every value stated), with its id known.
  const world = learn(o!.world, new Map([[1, { status, title, slug }]]));
  return world.map((w) => ({ ...w, id: 101 }));
}

const only = (world: World): PItem => world[0]!;
const seen = (status: string, title = 't1', slug = 's1'): Observation => new Map([[1, { status, title, slug }]]);

describe('model of part 3', () => {
  it('the slug is unique for the type (issue 26): an update to a slug in use leaves the slug open, may be refused, and two published items never share one', () => {
    const [second] = step(created(), { kind: 'create', ref: 2, fields: { title: 't2', slug: 's2', status: 'publish' } }, ctx);
    const both = learn(second!.world, new Map([[1, { status: 'publish', title: 't1', slug: 's1' }], [2, { status: 'publish', title: 't2', slug: 's2' }]]));
    const outcomes = step(both, { kind: 'update', ref: 2, fields: { slugTaken: 's1' } }, ctx);
    expect(outcomes.map((o) => [o.label, o.preferred])).toEqual([
      ['updated', true],
      ['refused', false],
    ]);
    expect(outcomes[0]!.world.find((w) => w.ref === 2)!.slug).toBeUndefined();
    const twins = new Map([[1, { status: 'publish', title: 't1', slug: 's1' }], [2, { status: 'publish', title: 't2', slug: 's1' }]]);
    expect(mismatches(outcomes[0]!.world, twins, 'MUST', name).map((m) => m.text)).toEqual(['#1 and #2 are both published with the slug "s1": the slug is unique for the type']);
    const unique = new Map([[1, { status: 'publish', title: 't1', slug: 's1' }], [2, { status: 'publish', title: 't2', slug: 's1-2' }]]);
    expect(mismatches(outcomes[0]!.world, unique, 'MUST', name)).toEqual([]);
    // Drafts may share a slug until published (WordPress).
    const drafts = new Map([[1, { status: 'draft', title: 't1', slug: 's1' }], [2, { status: 'publish', title: 't2', slug: 's1' }]]);
    expect(mismatches(both.map((w) => ({ ...w, status: undefined, slug: undefined, title: undefined })), drafts, 'MUST', name)).toEqual([]);
  });

  it('a trash keeps the item (MUST) with status trash; a second trash too, answered 410 by WordPress', () => {
    const [trashed] = step(created(), { kind: 'trash', ref: 1 }, ctx);
    expect(only(trashed!.world).exists).toMatchObject({ value: true, level: 'MUST' });
    expect(only(trashed!.world).status).toMatchObject({ value: 'trash', level: 'MUST' });
    const again = step(learn(trashed!.world, seen('trash', 't1', 's1__trashed')), { kind: 'trash', ref: 1 }, ctx);
    expect(again).toHaveLength(1);
    expect(only(again[0]!.world).exists).toMatchObject({ value: true, level: 'MUST' });
    expect(again[0]!.response.must({ status: 200 })).toBe(true);
    expect(again[0]!.response.should({ status: 200 })).toBe(false);
    expect(again[0]!.response.should({ status: 410 })).toBe(true);
    // Gone from every listing: a MUST mismatch.
    expect(mismatches(again[0]!.world, new Map([[1, null]]), 'MUST', name).map((m) => m.level)).toEqual(['MUST']);
  });

  it('force=true deletes for good; later operations leave it deleted (WordPress: 404)', () => {
    const [gone] = step(created(), { kind: 'delete', ref: 1 }, ctx);
    expect(only(gone!.world).exists).toMatchObject({ value: false, level: 'MUST' });
    const after = step(learn(gone!.world, new Map([[1, null]])), { kind: 'update', ref: 1, fields: { title: 'x' } }, ctx);
    expect(after.map((o) => o.label)).toEqual(['still deleted']);
    expect(after[0]!.response.should({ status: 404 })).toBe(true);
  });

  it('an update of a trashed item: accepted (WordPress) or refused (transitions are not shown); unsent fields kept at SHOULD only', () => {
    const [trashed] = step(created(), { kind: 'trash', ref: 1 }, ctx);
    const world = learn(trashed!.world, seen('trash', 't1', 's1__trashed'));
    const outcomes = step(world, { kind: 'update', ref: 1, fields: { title: 't2' } }, ctx);
    expect(outcomes.map((o) => [o.label, o.preferred])).toEqual([
      ['updated', true],
      ['refused', false],
    ]);
    const item = only(outcomes[0]!.world);
    expect(item.title).toEqual({ value: 't2', level: 'MUST', since: ctx.step });
    // A difference names the step whose request gave the value, not only the step that finds it.
    expect(mismatches(outcomes[0]!.world, seen('trash', 't3', 's1__trashed'), 'MUST', name).map((m) => m.text)).toEqual([`#1 should have title "t2" (since step ${ctx.step}), but has "t3"`]);
    expect(item.status).toMatchObject({ value: 'trash', level: 'SHOULD' });
    // Restored by the update: no MUST mismatch, a SHOULD one.
    const restored = seen('publish', 't2', 's1__trashed');
    expect(mismatches(outcomes[0]!.world, restored, 'MUST', name)).toEqual([]);
    expect(mismatches(outcomes[0]!.world, restored, 'SHOULD', name).map((m) => m.text)).toEqual(['#1 should have status "trash", but has "publish"']);
    // Leaving the trash: the slug is not determined (WordPress gives back the one before the trash).
    const out = step(world, { kind: 'update', ref: 1, fields: { status: 'draft', slug: 'new' } }, ctx);
    expect(only(out[0]!.world).slug).toBeUndefined();
  });

  it('a change of status of a live item may be refused (not shown); an update of the title may not', () => {
    expect(step(created(), { kind: 'update', ref: 1, fields: { status: 'draft' } }, ctx).map((o) => o.label)).toEqual(['updated', 'refused']);
    expect(step(created(), { kind: 'update', ref: 1, fields: { title: 't2' } }, ctx).map((o) => o.label)).toEqual(['updated']);
  });

  it('revisions (SHOULD): one per update that changes the title, and on the first update; none on create; maybe one on a trash', () => {
    let world = created();
    expect(only(world).rev.added).toEqual([0, 0]);
    const up = (fields: { title?: string; status?: string }) => {
      world = step(world, { kind: 'update', ref: 1, fields }, ctx)[0]!.world;
    };
    up({ status: 'draft' });
    expect(only(world).rev.added).toEqual([1, 1]);
    up({ status: 'pending' });
    expect(only(world).rev.added).toEqual([1, 1]);
    up({ title: 't2' });
    expect(only(world).rev.added).toEqual([2, 2]);
    const trashed = step(created(), { kind: 'trash', ref: 1 }, ctx)[0]!.world;
    expect(only(trashed).rev.added).toEqual([0, 1]);
  });

  it('an autosave of a published item has its own id and the item as parent (MUST); a draft is updated in place (WordPress) or autosaved', () => {
    const answer = { status: 200, body: { id: 555, parent: 101 } };
    const [o] = step(created(), { kind: 'autosave', ref: 1, title: 'a' }, { ...ctx, answer });
    expect(o!.response.must(answer)).toBe(true);
    expect(o!.response.must({ status: 200, body: { id: 101, parent: 0 } })).toBe(false);
    expect(only(o!.world).autosave).toEqual({ id: 555, accepted: 555 });
    const draft = step(created('draft'), { kind: 'autosave', ref: 1, title: 'a' }, { ...ctx, answer: { status: 200, body: { id: 101, parent: 0 } } });
    expect(draft.map((x) => [x.label, x.preferred])).toEqual([
      ['draft updated in place', true],
      ['autosaved', false],
    ]);
    expect(only(draft[0]!.world).title).toMatchObject({ value: 'a', level: 'SHOULD' });
  });

  it('a batch may be applied in any order at MUST; WordPress applies it in order', () => {
    const ops: Op[] = [
      { kind: 'update', ref: 1, fields: { title: 'first' } },
      { kind: 'update', ref: 1, fields: { title: 'second' } },
    ];
    const worlds = batchWorlds(created(), ops, '2');
    expect(worlds[0]!.preferred).toBe(true);
    expect(only(worlds[0]!.world).title?.value).toBe('second');
    const reversed = seen('publish', 'first');
    expect(worlds.some((w) => mismatches(w.world, reversed, 'MUST', name).length === 0)).toBe(true);
    expect(mismatches(worlds[0]!.world, reversed, 'SHOULD', name)).not.toEqual([]);
  });

  it('list filters over the current state: status, default publish, any (write statuses at MUST, all but trash at SHOULD)', () => {
    const world: World = [
      ...created('publish'),
      ...learn(step([], { kind: 'create', ref: 2, fields: { title: 'b', slug: 'b', status: 'draft' } }, ctx)[0]!.world, new Map([[2, { status: 'trash', title: 'b', slug: 'b' }]])),
      ...learn(step([], { kind: 'create', ref: 3, fields: { title: 'c', slug: 'c', status: 'future' } }, ctx)[0]!.world, new Map([[3, { status: 'future', title: 'c', slug: 'c' }]])),
    ];
    expect(filterExpectation(world, { kind: 'status', statuses: ['trash', 'future'] }).exact).toEqual([2, 3]);
    expect(filterExpectation(world, { kind: 'default' }).exact).toEqual([1]);
    expect(filterExpectation(world, { kind: 'any' })).toMatchObject({ level: 'SHOULD', exact: [1, 3], atLeast: [1] });
    expect(filterExpectation(world, { kind: 'exclude', refs: [1] }).exact).toEqual([2, 3]);
  });
});

describe('report of a failing sequence', () => {
  const steps: Step[] = [
    { n: 1, what: 'create #1 (publish)', requests: [{ method: 'POST', route: '/cms/v2/posts', body: { title: "it's", slug: 's1', status: 'publish' }, status: 201, role: 'write', defines: [{ token: itemToken(1), nth: 1 }] }] },
    {
      n: 2,
      what: 'batch: create #2 (draft); POST #1 (title)',
      requests: [
        { method: 'POST', route: '/batch/v1', body: { requests: [{ method: 'POST', path: '/wp/v2/posts', body: { slug: 's2' } }, { method: 'POST', path: `/wp/v2/posts/${itemToken(1)}`, body: { parent: itemToken(1) } }] }, status: 207, role: 'write', defines: [{ token: itemToken(2), nth: 1, slug: 's2' }] },
        { method: 'GET', route: '/cms/v2/posts', query: { include: [itemToken(1), itemToken(2)], context: 'edit' }, status: 200, role: 'check' },
      ],
    },
    {
      n: 3,
      what: 'delete a revision of #1',
      requests: [
        { method: 'GET', route: `/cms/v2/posts/${itemToken(1)}/revisions`, status: 200, role: 'check', defines: [{ token: revToken(1, 2), nth: 2 }] },
        { method: 'DELETE', route: `/cms/v2/posts/${itemToken(1)}/revisions/${revToken(1, 2)}`, status: 200, role: 'write' },
        { method: 'GET', route: `/cms/v2/posts/${itemToken(1)}/revisions/${revToken(1, 2)}`, status: 200, role: 'check', verdict: 'revision still readable' },
      ],
    },
    {
      n: 4,
      what: 'autosave #1 (publish)',
      requests: [
        { method: 'POST', route: `/cms/v2/posts/${itemToken(1)}/autosaves`, body: { title: 'a' }, status: 200, role: 'write', defines: [{ token: autosaveToken(1), nth: 1 }] },
        { method: 'GET', route: `/cms/v2/posts/${itemToken(1)}/autosaves/${autosaveToken(1)}`, status: 404, role: 'check', verdict: 'autosave not readable' },
      ],
    },
  ];

  it('numbers the writes, the lookups the script needs and the failed check, with #n for the items', () => {
    const lines = numberedRequests(steps, (ref) => `#${ref} = post ${100 + ref}`);
    expect(lines).toEqual([
      'step 1: create #1 (publish)',
      `  1. POST /cms/v2/posts {"title":"it's","slug":"s1","status":"publish"} → 201  (#1 = post 101)`,
      'step 2: batch: create #2 (draft); POST #1 (title)',
      '  2. POST /batch/v1 {"requests":[{"method":"POST","path":"/wp/v2/posts","body":{"slug":"s2"}},{"method":"POST","path":"/wp/v2/posts/#1","body":{"parent":"#1"}}]} → 207  (#2 = post 102)',
      'step 3: delete a revision of #1',
      '  3. GET /cms/v2/posts/#1/revisions → 200',
      '  4. DELETE /cms/v2/posts/#1/revisions/rev2(#1) → 200',
      '  5. GET /cms/v2/posts/#1/revisions/rev2(#1) → 200',
      '     ✗ revision still readable',
      'step 4: autosave #1 (publish)',
      '  6. POST /cms/v2/posts/#1/autosaves {"title":"a"} → 200',
      '  7. GET /cms/v2/posts/#1/autosaves/autosave(#1) → 404',
      '     ✗ autosave not readable',
    ]);
  });

  it('writes a shell script with the ids as variables, credentials as placeholders, and a clean-up', () => {
    const script = curlScript(steps, {
      behaviourId: 'cms.posts.model',
      seed: 7,
      baseUrl: 'http://127.0.0.1:1',
      toTargetRoute: (r) => r.replace('/cms/v2/', '/wp/v2/'),
      collection: '/cms/v2/posts',
      statuses: ['publish', 'trash'],
      cleanup: [`/cms/v2/posts/${itemToken(1)}`, `/cms/v2/posts/${itemToken(2)}`],
    });
    expect(script).toContain('-u "$TARGET_USER:$TARGET_APP_PASSWORD"');
    expect(script).toContain(`ID1=$(r POST "/wp/v2/posts" -H 'Content-Type: application/json' --data '{"title":"it'\\''s","slug":"s1","status":"publish"}' | id)`);
    expect(script).toContain(`"path":"/wp/v2/posts/'"$ID1"'","body":{"parent":'"$ID1"'}`);
    // Arrays as comma lists (src/http/wire.ts), as the exported OpenAPI document declares them.
    expect(script).toContain("S='status=publish,trash'");
    expect(script).toContain('ID2=$(r GET "/wp/v2/posts&slug=s2&${S}&context=edit" | id)');
    expect(script).toContain('REV1_2=$(echo "$L" | id 2)');
    expect(script).toContain('r DELETE "/wp/v2/posts/${ID1}/revisions/${REV1_2}"');
    expect(script).toContain('# 5. check ✗ revision still readable');
    expect(script).toContain('r DELETE "/wp/v2/posts/${ID2}&force=true" >/dev/null');
    expect(script).toContain(`AS1=$(r POST "/wp/v2/posts/\${ID1}/autosaves" -H 'Content-Type: application/json' --data '{"title":"a"}' | id); echo "autosave(#1) = $AS1"`);
    expect(script).toContain('r GET "/wp/v2/posts/${ID1}/autosaves/${AS1}"');
    // Valid sh.
    execFileSync('sh', ['-n', '-c', script]);
  });
});
