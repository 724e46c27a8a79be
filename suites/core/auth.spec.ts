/**
 * Authentication (core part 5) and the security behaviours that follow from it.
 *
 * The spec states one scheme, application passwords, advertised in the site index with "an
 * `endpoints.authorization` address ... where a user grants an application access", and says
 * "Which routes and methods require authentication or a given capability: not shown". So what
 * may be done without (valid) credentials is its own class, SECURITY, never MUST; the header
 * format that presents the credential is not shown either, so that valid credentials
 * authenticate is SHOULD (WordPress: HTTP Basic with the application password).
 *
 * Every security behaviour verifies by state with the configured credentials: a refused write
 * must also have changed nothing; and every refusal has its positive control (the same request
 * with the configured credentials is accepted), so that a route refusing everything passes none.
 */
import { beforeAll } from 'vitest';
import { catalog } from '../../schemas/catalog/index.ts';
import { behaviour, fixtures, runContext, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { expectControlAccepted, whyNotAccepted } from '../../src/sdk/controls.ts';
import { posts, WRITE_STATUSES } from '../cms/lib/collections.ts';
import { textFields } from '../../src/sdk/http.ts';

const SPEC = catalog.authentication.spec;
const ok = (status: number) => status >= 200 && status <= 299;
const refused = (status: number) => status >= 400 && status <= 499;

interface AuthFixtures {
  /** Published, for anonymous update and delete attempts. */
  target: any;
  /** Published with a password. */
  protectedPost: any;
  password: string;
  secret: string;
  draft: any;
  privatePost: any;
}

let fx: AuthFixtures | undefined;
/** Why there are no fixtures: a skip reason, or the error that stopped their creation (a FixtureError names its owner). */
let noFixtures: string | Error = 'the fixtures were not set up';

beforeAll(async () => {
  const run = runContext();
  if (!run.info.writes.allowed) return void (noFixtures = `writes not allowed: ${run.info.writes.reason}`);
  if (!run.client.hasCredentials) return void (noFixtures = 'no credentials: give --user and --app-password (or --auth-header)');
  try {
    const f = fixtures();
    const nonce = Math.random().toString(36).slice(2, 10);
    const password = `pw${nonce}`;
    const secret = `protected-content-${nonce}`;
    const [target, protectedPost, draft, privatePost] = await Promise.all([
      f.create(posts.collection, { title: 'auth target' }),
      f.create(posts.collection, { title: 'auth protected', password, content: `<p>${secret}</p>`, excerpt: secret }),
      f.create(posts.collection, { title: 'auth draft', status: 'draft', content: `<p>draft ${nonce}</p>` }),
      f.create(posts.collection, { title: 'auth private', status: 'private', content: `<p>private ${nonce}</p>` }),
    ]);
    fx = { target, protectedPost, password, secret, draft, privatePost };
  } catch (err) {
    noFixtures = err as Error;
  }
});

function fixturesFor(t: BehaviourContext): AuthFixtures {
  t.requireWrites();
  t.requireCredentials();
  if (fx) return fx;
  // A FixtureError makes the behaviour skip, naming the behaviour that owns creating posts.
  if (noFixtures instanceof Error) throw noFixtures;
  t.skip(noFixtures);
}

/** Re-read a post with the configured credentials. */
async function readBack(t: BehaviourContext, id: number) {
  return t.client.get(posts.item(id), { query: { context: 'edit' } });
}

/** Posts (any status, trash included) whose raw title starts with `label`; tracked for deletion. */
async function findLabelled(t: BehaviourContext, label: string): Promise<any[]> {
  const res = await t.client.get(posts.collection, { query: { search: label, status: [...WRITE_STATUSES, 'trash'], context: 'edit', per_page: 100 } });
  if (res.status !== 200 || !Array.isArray(res.body)) t.fail(`cannot verify by reading back: ${whyNotAccepted(res, `GET ${posts.collection}?search=${label}&context=edit (authenticated)`)}`);
  const mine = res.body.filter((p: any) => typeof p?.title?.raw === 'string' && p.title.raw.startsWith(label));
  for (const p of mine) t.track(posts.item(p.id));
  return mine;
}

// ---------------------------------------------------------------------------
// The advertised authorization address
// ---------------------------------------------------------------------------

/** GET a page (not a REST route), following up to 5 redirects; same-site URLs go to the target URL used. */
async function getPage(t: BehaviourContext, href: string): Promise<{ status: number; contentType: string; hops: string[] }> {
  const site = String((t.run.info.index as any)?.url ?? '').replace(/\/+$/, '');
  const base = t.run.info.targetUrl.replace(/\/+$/, '');
  const rebase = (u: string) => (site && (u === site || u.startsWith(`${site}/`)) ? base + u.slice(site.length) : u);
  const hops: string[] = [];
  let url = rebase(href);
  for (let i = 0; ; i++) {
    hops.push(url);
    // Through the behaviour's client: counted, and transient trouble retried like any read (issue 24).
    const res = await t.client.request('GET', new URL(url).pathname, { pageUrl: url, auth: 'none', headers: { accept: 'text/html' } });
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && typeof location === 'string' && i < 5) {
      url = rebase(new URL(location, url).toString());
      continue;
    }
    return { status: res.status, contentType: String(res.headers['content-type'] ?? ''), hops };
  }
}

behaviour(
  {
    id: 'auth.authorization-url.answers',
    level: 'MUST',
    namespace: '',
    route: '/',
    title: 'the advertised application-passwords authorization address answers with a page (after redirects, e.g. to a login), not an error',
    spec: SPEC,
    covers: ['authentication.application-passwords'],
  },
  // Part 5: "an `endpoints.authorization` address ... where a user grants an application
  // access": the address is a page a user opens. Without a logged-in user WordPress redirects
  // it to its login page, which is a page too; what the page shows is not checked.
  async (t) => {
    const href = (t.run.info.index as any)?.authentication?.[catalog.authentication.scheme]?.endpoints?.authorization;
    if (typeof href !== 'string') t.skip('the index advertises no application-passwords authorization address (reported by disc.index.authentication)');
    const page = await getPage(t, href);
    if (!ok(page.status)) t.fail(`GET ${href} ended with ${page.status} after ${page.hops.length - 1} redirects (${page.hops.join(' → ')})`);
    if (!/text\/html/i.test(page.contentType)) t.fail(`GET ${href} answered ${page.contentType || 'no content type'}, not an HTML page`);
  },
  { concurrent: true },
);

// ---------------------------------------------------------------------------
// Credentials
// ---------------------------------------------------------------------------

behaviour(
  {
    id: 'auth.credentials.write-accepted',
    level: 'SHOULD',
    namespace: 'cms/v2',
    route: posts.collection,
    title: 'valid application-password credentials authenticate: a create and an update with them are applied',
    spec: SPEC,
    covers: ['authentication.application-passwords', 'endpoint:cms.posts.collection.create', 'endpoint:cms.posts.item.update'],
  },
  // Part 5: the application password is what "a user grants an application" for access; the
  // interface exists to create and update posts (part 1), so granted credentials can do so. SHOULD:
  // the "header format used to present the resulting credential: not shown" (HTTP Basic in WordPress).
  async (t) => {
    t.requireWrites();
    t.requireCredentials();
    const label = fixtures().label('auth-valid');
    const created = await t.client.post(posts.collection, textFields({ title: label, content: label, status: 'draft' }));
    const found = await findLabelled(t, label);
    if (!ok(created.status) || found.length !== 1) t.fail(`a create with valid credentials answered ${created.status} and made ${found.length} posts: ${created.text.slice(0, 200)}`);
    const id = found[0].id;
    const updated = await t.client.request('PUT', posts.item(id), { body: textFields({ title: `${label} updated` }) });
    const after = await readBack(t, id);
    if (!ok(updated.status) || after.body?.title?.raw !== `${label} updated`)
      t.fail(`an update with valid credentials answered ${updated.status}; the title is now ${JSON.stringify(after.body?.title?.raw)}`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'auth.wrong-password.refused',
    level: 'SECURITY',
    namespace: 'cms/v2',
    route: posts.collection,
    title: 'security: a wrong application password is refused: a create with it is not applied',
    spec: SPEC,
    covers: ['authentication.application-passwords'],
  },
  // Part 5: access is what a user grants; a password that was never granted grants nothing.
  async (t) => {
    t.requireWrites();
    t.requireCredentials();
    const user = t.run.info.config.user;
    if (!user) t.skip('credentials were given as a complete header (--auth-header): no user name to pair a wrong password with');
    const wrong = `cmscWrong${Math.random().toString(36).slice(2, 17)}`.slice(0, 24);
    const label = fixtures().label('auth-wrong');
    const res = await t.client.post(posts.collection, textFields({ title: label, content: label, status: 'draft' }), { auth: { user, appPassword: wrong } });
    const found = await findLabelled(t, label);
    if (found.length) t.fail(`a create with a wrong password was applied (post ${found[0].id}, answer ${res.status})`);
    if (!refused(res.status)) t.fail(`a create with a wrong password answered ${res.status}, not refused (4xx)`);
    // Positive control: the same create with the right password is accepted and stored.
    const right = fixtures().label('auth-right');
    const control = await t.client.post(posts.collection, textFields({ title: right, content: right, status: 'draft' }));
    expectControlAccepted(t, control, 'the same create with the configured credentials', 'the wrong password');
    if ((await findLabelled(t, right)).length !== 1) t.fail(`positive control: the create with the configured credentials answered ${control.status} but was not stored`);
  },
  { concurrent: true },
);

// ---------------------------------------------------------------------------
// No credentials
// ---------------------------------------------------------------------------

behaviour(
  {
    id: 'auth.anonymous.write-refused',
    level: 'SECURITY',
    namespace: 'cms/v2',
    route: posts.collection,
    title: 'security: without credentials a create, an update and a delete of a post are refused and change nothing',
    spec: SPEC,
    covers: ['endpoint:cms.posts.collection.create', 'endpoint:cms.posts.item.update', 'endpoint:cms.posts.item.delete'],
  },
  // Part 5: applications get access when "a user grants an application access"; a request
  // that presents no credential has been granted nothing, so it cannot change content.
  async (t) => {
    const f = fixturesFor(t);
    const label = fixtures().label('auth-anon');
    const target = posts.item(f.target.id);
    const [create, update] = await Promise.all([
      t.client.post(posts.collection, textFields({ title: label, content: label, status: 'publish' }), { auth: 'none' }),
      t.client.post(target, textFields({ title: `${label} anonymous edit` }), { auth: 'none' }),
    ]);
    const del = await t.client.delete(target, { query: { force: true }, auth: 'none' });
    const [found, after] = await Promise.all([findLabelled(t, label), readBack(t, f.target.id)]);
    const problems: string[] = [];
    if (found.length) problems.push(`the anonymous create was applied (post ${found[0].id}, answer ${create.status})`);
    if (after.status !== 200) problems.push(`the post is gone after an anonymous delete (answer ${del.status}, GET ${after.status})`);
    else if (after.body?.status !== f.target.status) problems.push(`the post's status is ${after.body?.status} after an anonymous delete (answer ${del.status})`);
    if (after.status === 200 && after.body?.title?.raw !== f.target.title.raw) problems.push(`the anonymous update was applied: title ${JSON.stringify(after.body?.title?.raw)} (answer ${update.status})`);
    for (const [what, res] of [['create', create], ['update', update], ['delete', del]] as const) if (!refused(res.status)) problems.push(`anonymous ${what} answered ${res.status}, not refused (4xx)`);
    if (problems.length) t.fail(problems.join('; '));
    // Positive control: the same update with the configured credentials (the title it has) is accepted.
    expectControlAccepted(t, await t.client.post(target, textFields({ title: f.target.title.raw })), `POST ${target} with the configured credentials`, 'the anonymous writes');
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'auth.anonymous.batch-write-refused',
    level: 'SECURITY',
    namespace: '',
    route: '/batch/v1',
    title: 'security: without credentials a batch of write items changes nothing',
    spec: SPEC,
    covers: ['endpoint:batch.v1.create'],
  },
  // Part 5 as above; a batch "runs several write requests in one call" (part 1), each under
  // the same (absent) credentials.
  async (t) => {
    const f = fixturesFor(t);
    const label = fixtures().label('auth-anon-batch');
    const res = await t.client.post(
      '/batch/v1',
      {
        requests: [
          { method: 'POST', path: t.run.profile.toTargetRoute(posts.collection), body: textFields({ title: label, content: label, status: 'publish' }) },
          { method: 'POST', path: t.run.profile.toTargetRoute(posts.item(f.target.id)), body: textFields({ title: `${label} anonymous edit` }) },
        ],
      },
      { auth: 'none' },
    );
    const [found, after] = await Promise.all([findLabelled(t, label), readBack(t, f.target.id)]);
    if (found.length) t.fail(`an anonymous batch created post ${found[0].id} (answer ${res.status})`);
    if (after.body?.title?.raw !== f.target.title.raw) t.fail(`an anonymous batch changed post ${f.target.id}'s title to ${JSON.stringify(after.body?.title?.raw)}`);
    // Positive control: the same kind of batch with the configured credentials is applied.
    const own = fixtures().label('auth-batch-control');
    const control = await t.client.post('/batch/v1', { requests: [{ method: 'POST', path: t.run.profile.toTargetRoute(posts.collection), body: textFields({ title: own, content: own, status: 'draft' }) }] });
    expectControlAccepted(t, control, 'the same batch with the configured credentials', 'the anonymous batch');
    if ((await findLabelled(t, own)).length !== 1) t.fail(`positive control: the batch with the configured credentials answered ${control.status} but its create was not applied`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'auth.anonymous.protected-content',
    level: 'SECURITY',
    namespace: 'cms/v2',
    route: posts.paths.item,
    title: "security: without credentials, context=edit never reveals a password-protected post's password or content",
    spec: { doc: 'core', section: '2. Resources and their fields › Post' },
    covers: ['arg:cms.posts.item.read.context', 'arg:cms.posts.collection.list.context'],
  },
  // Part 2 › Post: "password: protects content and excerpt". An anonymous reader who could read
  // the password or the raw content through the edit context would defeat that protection.
  async (t) => {
    const f = fixturesFor(t);
    const id = f.protectedPost.id;
    const answers = await Promise.all([
      t.client.get(posts.item(id), { query: { context: 'edit' }, auth: 'none' }),
      t.client.get(posts.collection, { query: { context: 'edit', include: [id] }, auth: 'none' }),
    ]);
    for (const res of answers) {
      if (res.text.includes(f.secret)) t.fail(`an anonymous ${res.exchange.url.includes('include') ? 'list' : 'GET'} with context=edit revealed the protected content (answer ${res.status})`);
      if (res.text.includes(`"${f.password}"`)) t.fail(`an anonymous request with context=edit revealed the post password (answer ${res.status})`);
    }
    // Positive control: the author (configured credentials) reads the content in context=edit.
    const own = await t.client.get(posts.item(id), { query: { context: 'edit' } });
    expectControlAccepted(t, own, `GET ${posts.item(id)}?context=edit with the configured credentials`, 'the anonymous reads');
    if (!own.text.includes(f.secret)) t.fail(`positive control: the author's context=edit read does not carry the content either (answer ${own.status}): nothing to protect was observed`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'auth.anonymous.edit-context-refused',
    level: 'SECURITY',
    namespace: 'cms/v2',
    route: posts.paths.item,
    title: 'security: without credentials, context=edit on a post and on the post list is refused (401 in the reference)',
    spec: SPEC,
    covers: ['arg:cms.posts.item.read.context', 'arg:cms.posts.collection.list.context'],
  },
  // Part 5: "Which routes and methods require authentication ... not shown"; WordPress needs
  // edit_posts for the edit context.
  async (t) => {
    const f = fixturesFor(t);
    const answers = await Promise.all([
      t.client.get(posts.item(f.target.id), { query: { context: 'edit' }, auth: 'none' }),
      t.client.get(posts.collection, { query: { context: 'edit' }, auth: 'none' }),
    ]);
    const wrong = answers.filter((r) => !refused(r.status)).map((r) => `${r.exchange.url.replace(/^.*rest_route=/, '')}: ${r.status}`);
    if (wrong.length) t.fail(`anonymous context=edit not refused: ${wrong.join('; ')}`);
    expectControlAccepted(t, await t.client.get(posts.item(f.target.id), { query: { context: 'edit' } }), `GET ${posts.item(f.target.id)}?context=edit with the configured credentials`, 'the anonymous context=edit');
  },
  { concurrent: true },
);

/** Positive control of the hidden-post checks: the author (configured credentials) reads the post and lists it by status. */
async function expectVisibleToAuthor(t: BehaviourContext, post: any): Promise<void> {
  const [item, list] = await Promise.all([
    t.client.get(posts.item(post.id)),
    t.client.get(posts.collection, { query: { status: post.status, include: [post.id] } }),
  ]);
  expectControlAccepted(t, item, `GET ${posts.item(post.id)} with the configured credentials`, 'the anonymous reads');
  expectControlAccepted(t, list, `GET ${posts.collection}?status=${post.status}&include=${post.id} with the configured credentials`, 'the anonymous lists');
  if (!Array.isArray(list.body) || !list.body.some((p: any) => p?.id === post.id)) t.fail(`positive control: with the configured credentials status=${post.status} does not list post ${post.id} either`);
}

/** Anonymous ways to reach a post of some status: the item, and the list filtered by status/any/include. */
async function anonymousSightings(t: BehaviourContext, post: any, status: string): Promise<string[]> {
  const id = post.id;
  const [item, byStatus, byAny, byInclude] = await Promise.all([
    t.client.get(posts.item(id), { auth: 'none' }),
    t.client.get(posts.collection, { query: { status, per_page: 100 }, auth: 'none' }),
    t.client.get(posts.collection, { query: { status: 'any', include: [id] }, auth: 'none' }),
    t.client.get(posts.collection, { query: { include: [id] }, auth: 'none' }),
  ]);
  const seen: string[] = [];
  if (ok(item.status) && item.body?.id === id) seen.push(`GET ${posts.item(id)} answered it (${item.status})`);
  for (const [what, res] of [[`status=${status}`, byStatus], ['status=any', byAny], [`include=${id}`, byInclude]] as const)
    if (ok(res.status) && Array.isArray(res.body) && res.body.some((p: any) => p?.id === id)) seen.push(`the list with ${what} contains it`);
  return seen;
}

behaviour(
  {
    id: 'auth.anonymous.private-hidden',
    level: 'SECURITY',
    namespace: 'cms/v2',
    route: posts.collection,
    title: 'security: without credentials a private post is neither listed (status=private, any, include) nor readable',
    spec: { doc: 'core', section: '3. States and transitions' },
    covers: ['arg:cms.posts.collection.list.status'],
  },
  // Part 3 (and part 2 › Post `status`): `private` is a status of its own, distinct from
  // `publish`; a private post that anyone can read would not be private.
  async (t) => {
    const f = fixturesFor(t);
    const seen = await anonymousSightings(t, f.privatePost, 'private');
    if (seen.length) t.fail(`private post ${f.privatePost.id} is visible without credentials: ${seen.join('; ')}`);
    await expectVisibleToAuthor(t, f.privatePost);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'auth.anonymous.drafts-hidden',
    level: 'SECURITY',
    namespace: 'cms/v2',
    route: posts.collection,
    title: 'security: without credentials a draft is neither listed (status=draft, any, include) nor readable',
    spec: { doc: 'core', section: '3. States and transitions' },
    covers: ['arg:cms.posts.collection.list.status'],
  },
  // SHOULD: who may see drafts is not stated (part 5: requirements not shown); WordPress
  // refuses a draft filter without edit_posts (400 rest_invalid_param) and the item with 401.
  async (t) => {
    const f = fixturesFor(t);
    const seen = await anonymousSightings(t, f.draft, 'draft');
    if (seen.length) t.fail(`draft ${f.draft.id} is visible without credentials: ${seen.join('; ')}`);
    await expectVisibleToAuthor(t, f.draft);
  },
  { concurrent: true },
);
