/**
 * contactform/v1 (extensions part 4 › Contact forms): the documented routes and methods exist and
 * answer; a form is identified by integer id (part 2); a form id no form has is refused on every
 * item route; DELETE removes a form.
 *
 * Parameters, payloads and response bodies of these routes are not shown. What is stated (the
 * routes and methods, the integer id, POST, PUT and PATCH updating a form, DELETE removing) is
 * checked at MUST level, with the payload the reference implementation takes and the field its
 * read answers carry (a title; a server whose form has none skips, saying so); what else needs a
 * payload or reads a body is checked at SHOULD level with what the reference implementation
 * (Contact Form 7) takes: a form is created and updated with `title` and `context: "save"` (without
 * it the reference implementation answers as if saved but stores nothing), a submission is
 * multipart/form-data carrying `_wpcf7_unit_tag`. Forms the suite creates carry the run tag and are
 * deleted after the file (tracked fixtures). Submissions leave out the form's required fields,
 * so that no server sends mail or stores a message (harmless on a live site).
 *
 * Every refusal has a positive control: the same request for a form that exists is answered, so
 * that a route refusing everything, or missing, never passes.
 */
import { routeById } from '../../schemas/catalog/index.ts';
import { behaviour, fixtures, runContext, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Client, Method, Response } from '../../src/sdk/http.ts';
import { FixtureError, TAG_PREFIX } from '../../src/sdk/fixtures.ts';
import { staleNote } from '../../src/sdk/stale.ts';
import { CONTACTFORM, answered, brief, expectAnswered, expectControl, expectRefused, isNoRoute, refused, sameRefusal, show, skipIfForbidden } from './lib/support.ts';
import { extDecl } from './lib/declare.ts';

const FORMS = '/contactform/v1/contact-forms';
const item = (id: number) => `${FORMS}/${id}`;
/** An id no form has: well past any id a site hands out. */
const MISSING_ID = 2147480000;
const CREATE = 'contactform.forms.create';

const collection = routeById('contactform.forms.collection');
const itemRoute = routeById('contactform.forms.item');
const feedback = routeById('contactform.forms.feedback');
const feedbackSchema = routeById('contactform.forms.feedback-schema');
const refill = routeById('contactform.forms.refill');
const SPEC = itemRoute.spec;

/** What the reference implementation takes to store a form: its fields and `context: "save"`. */
const saved = (fields: Record<string, unknown>) => ({ ...fields, context: 'save' });

/**
 * Create a tagged form (title, context save); answers its id. Tracked: deleted after the file
 * even if a behaviour fails. A form that cannot be made is a FixtureError owned by
 * contactform.forms.create (which reports it; the others skip naming it).
 */
async function createForm(client: Client, hint: string): Promise<{ id: number; title: string }> {
  const f = fixtures();
  const title = f.label(`form-${hint}`);
  const res = await client.post(FORMS, saved({ title }));
  if (!answered(res)) throw new FixtureError(`POST ${FORMS} {title, context: "save"} answered ${brief(res)}, expected a 2xx answer creating a form`, CREATE);
  const id = res.body?.id;
  if (!Number.isInteger(id) || id <= 0)
    throw new FixtureError(`POST ${FORMS} {title, context: "save"} answered ${res.status} with ${show(res.body)}: no integer id of a stored form (part 2: a contact form is identified by integer id)`, CREATE);
  f.track(item(id));
  return { id, title };
}

/** The form shared by the behaviours that read or update one, created on first use. */
let shared: Promise<{ id: number; title: string }> | undefined;
const sharedForm = () => (shared ??= createForm(runContext().client.fork('fixtures'), 'shared'));

const requireForms = (t: BehaviourContext) => {
  t.requireNamespace(CONTACTFORM);
  t.requireCredentials();
};

/** A multipart/form-data body (the reference implementation takes submissions only so). */
function multipart(fields: Record<string, string>): { body: string; contentType: string } {
  const boundary = '----cmscFormBoundary7MA4YWxkTrZu0gW';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A submission without the form's fields: refused by the form's validation, so nothing is sent or stored. */
const submit = (client: Client, id: number) => {
  const { body, contentType } = multipart({ _wpcf7_unit_tag: `wpcf7-f${id}-o1`, _wpcf7: String(id) });
  return client.request('POST', `${item(id)}/feedback`, { body, contentType });
};

behaviour(
  extDecl('contactform.index', { namespace: CONTACTFORM, route: '/contactform/v1', title: 'GET /contactform/v1 (the namespace index) answers', spec: SPEC, covers: ['endpoint:contactform.index.read', 'namespace.contactform/v1'] }),
  async (t) => {
    t.requireNamespace(CONTACTFORM);
    expectAnswered(t, await t.client.get('/contactform/v1'), 'GET /contactform/v1');
  },
  { concurrent: true },
);

behaviour(
  extDecl('contactform.forms.list', { namespace: CONTACTFORM, route: collection.path, title: 'GET /contact-forms answers', spec: SPEC, covers: ['endpoint:contactform.forms.collection.list'] }),
  async (t) => {
    requireForms(t);
    expectAnswered(t, await t.client.get(FORMS), `GET ${FORMS}`);
  },
  { concurrent: true },
);

behaviour(
  extDecl(CREATE, { level: 'SHOULD', namespace: CONTACTFORM, route: collection.path, title: 'POST /contact-forms with a title and context "save" (as the reference implementation takes it) creates a form identified by an integer id', spec: SPEC, covers: ['endpoint:contactform.forms.collection.create'] }),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const res = await t.client.post(FORMS, saved({ title: fixtures().label('form-create') }));
    skipIfForbidden(t, res, `create a contact form (POST ${FORMS})`);
    expectAnswered(t, res, `POST ${FORMS}`);
    const id = res.body?.id;
    if (Number.isInteger(id) && id > 0) t.track(item(id));
    else t.fail(`POST ${FORMS} {title, context: "save"} answered ${res.status} with ${show(res.body)}: no integer id of a stored form`);
  },
  { concurrent: true },
);

behaviour(
  extDecl('contactform.forms.listed', { level: 'SHOULD', namespace: CONTACTFORM, route: collection.path, title: 'a created form appears in GET /contact-forms (by id)', spec: SPEC, covers: ['endpoint:contactform.forms.collection.list'] }),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await sharedForm();
    const res = await t.client.get(FORMS, { query: { per_page: 100 } });
    expectAnswered(t, res, `GET ${FORMS}`);
    if (!Array.isArray(res.body)) t.fail(`GET ${FORMS} answered ${show(res.body)}, not a list of forms as the reference implementation does`);
    if (!res.body.some((f: any) => f?.id === id)) t.fail(`form ${id} is not among the ${res.body.length} forms GET ${FORMS} lists`);
  },
  { concurrent: true },
);

behaviour(
  extDecl('contactform.forms.read', { namespace: CONTACTFORM, route: itemRoute.path, title: 'GET /contact-forms/<id> answers for the integer id of a form that exists', spec: SPEC, covers: ['endpoint:contactform.forms.item.read', `param:${itemRoute.id}.id`] }),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await sharedForm();
    expectAnswered(t, await t.client.get(item(id)), `GET ${item(id)}`);
  },
  { concurrent: true },
);

for (const [route, what, get] of [
  [feedbackSchema, 'feedback/schema', (id: number) => `${item(id)}/feedback/schema`],
  [refill, 'refill', (id: number) => `${item(id)}/refill`],
] as const) {
  behaviour(
    extDecl(`contactform.forms.${route.id.split('.').pop()}`, { namespace: CONTACTFORM, route: route.path, title: `GET /contact-forms/<id>/${what} answers for a form that exists`, spec: SPEC, covers: [`endpoint:${route.endpoints[0]!.id}`] }),
    async (t) => {
      requireForms(t);
      t.requireWrites();
      const { id } = await sharedForm();
      expectAnswered(t, await t.client.get(get(id)), `GET ${get(id)}`);
    },
    { concurrent: true },
  );
}

behaviour(
  extDecl('contactform.forms.feedback', { namespace: CONTACTFORM, route: feedback.path, title: 'POST /contact-forms/<id>/feedback exists for a form that exists: not "no route", not a server failure, and answered otherwise than for an id no form has', spec: SPEC, covers: [`endpoint:${feedback.endpoints[0]!.id}`] }),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await sharedForm();
    // The payload is not shown: a submission as the reference implementation takes it, without the
    // form's fields (nothing is sent or stored).
    const res = await submit(t.client, id);
    skipIfForbidden(t, res, `POST ${item(id)}/feedback`);
    if (isNoRoute(res) || res.status === 405 || res.status >= 500) t.fail(`POST ${item(id)}/feedback answered ${brief(res)}: the route does not take POST for an existing form`);
    if (answered(res)) return;
    const missing = await submit(t.client, MISSING_ID);
    if (sameRefusal(res, missing))
      t.fail(`POST ${item(id)}/feedback was refused (${brief(res)}) the same way as for an id no form has: the route refuses every submission`);
  },
  { concurrent: true },
);

behaviour(
  extDecl('contactform.forms.feedback-submit', { level: 'SHOULD', namespace: CONTACTFORM, route: feedback.path, title: 'a submission without the required fields (multipart/form-data with _wpcf7_unit_tag, as the reference implementation takes it) is answered 200 with status validation_failed and the invalid fields', spec: SPEC, covers: [`endpoint:${feedback.endpoints[0]!.id}`] }),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await sharedForm();
    const res = await submit(t.client, id);
    expectAnswered(t, res, `POST ${item(id)}/feedback`);
    const body = res.body;
    if (body?.status !== 'validation_failed' || !Array.isArray(body?.invalid_fields) || body.invalid_fields.length === 0)
      t.fail(`POST ${item(id)}/feedback without the form's required fields answered ${res.status} ${show(body)}, expected status validation_failed with the invalid fields`);
  },
  { concurrent: true },
);

/** The title a form reads back with (GET /contact-forms/<id>), or a skip: the fields of a form are not shown. */
async function readTitle(t: BehaviourContext, id: number): Promise<{ res: Response; title: string }> {
  const res = await t.client.get(item(id));
  if (!answered(res)) t.dependsOn('contactform.forms.read', `GET ${item(id)} answered ${brief(res)}: the form cannot be read back`);
  const title = res.body?.title;
  if (typeof title !== 'string')
    t.skip(`GET ${item(id)} answers ${show(res.body)}, with no title: the fields of a form are not shown, and an update of the title (as the reference implementation takes it) cannot be read back`);
  return { res, title };
}

behaviour(
  extDecl('contactform.forms.update', { namespace: CONTACTFORM, route: itemRoute.path, title: 'POST, PUT and PATCH /contact-forms/<id> each answer for a form that exists, and change it', spec: SPEC, covers: ['endpoint:contactform.forms.item.update'] }),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id, title } = await sharedForm();
    let last = '';
    for (const method of ['POST', 'PUT', 'PATCH'] as Method[]) {
      last = `${title} ${method.toLowerCase()}`;
      const res = await t.client.request(method, item(id), { body: saved({ title: last }) });
      expectAnswered(t, res, `${method} ${item(id)}`);
    }
    // A pass needs an observed effect: the last title written reads back (each method's own is
    // contactform.forms.update-readback's finding).
    const after = await readTitle(t, id);
    if (after.title !== last) t.dependsOn('contactform.forms.update-readback', `POST, PUT and PATCH ${item(id)} were answered, but GET reads title ${show(after.title)}, not ${show(last)}: the updates changed nothing`);
  },
);

behaviour(
  extDecl('contactform.forms.update-readback', {
    level: 'MUST',
    namespace: CONTACTFORM,
    route: itemRoute.path,
    title: 'POST, PUT and PATCH /contact-forms/<id> each update the form: a title written (with context "save", as the reference implementation takes it) reads back on GET',
    spec: SPEC,
    covers: ['endpoint:contactform.forms.item.update'],
  }),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id, title } = await sharedForm();
    // The form is read before the writes through the URL it is read back by (a client of the site
    // reads it so, and would see a cache that a write does not reach).
    const before = await readTitle(t, id);
    for (const method of ['POST', 'PUT', 'PATCH'] as Method[]) {
      const next = `${title} renamed by ${method}`;
      const res = await t.client.request(method, item(id), { body: saved({ title: next }) });
      if (!answered(res)) t.dependsOn('contactform.forms.update', `${method} ${item(id)} answered ${brief(res)}`);
      const after = await readTitle(t, id);
      if (after.title !== next)
        t.fail(`${method} ${item(id)} {title: ${show(next)}, context: "save"} answered ${res.status}, but GET ${item(id)} reads title ${show(after.title)}${staleNote(before.res, after.res)}: the update did not change the form`);
    }
  },
);

behaviour(
  extDecl('contactform.forms.delete', { namespace: CONTACTFORM, route: itemRoute.path, title: 'DELETE /contact-forms/<id> removes the form: GET then refuses it', spec: SPEC, covers: ['endpoint:contactform.forms.item.delete'] }),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await createForm(t.client, 'delete');
    // Positive control of the refusal below: the form is read before it is deleted.
    const before = await t.client.get(item(id));
    if (!answered(before)) t.dependsOn('contactform.forms.read', `GET ${item(id)} answered ${brief(before)} before the form was deleted: a refusal after DELETE would show nothing`);
    const res = await t.client.delete(item(id));
    expectAnswered(t, res, `DELETE ${item(id)}`);
    const after = await t.client.get(item(id));
    if (!refused(after)) t.fail(`DELETE ${item(id)} answered ${res.status}, but GET ${item(id)} then answered ${brief(after)}`);
  },
  { concurrent: true },
);

// --- a missing form id is refused on every item route ------------------------------------------

interface MissingCase {
  key: string;
  route: typeof itemRoute;
  method: Method;
  path: (id: number) => string;
  write: boolean;
  send: (client: Client, id: number, title: string) => Promise<Response>;
}

const json = (method: Method) => (client: Client, id: number, title: string) => client.request(method, item(id), { body: saved({ title }) });
const bare = (method: Method, path: (id: number) => string) => (client: Client, id: number) => client.request(method, path(id));

const missing: MissingCase[] = [
  { key: 'read', route: itemRoute, method: 'GET', path: item, write: false, send: bare('GET', item) },
  { key: 'update', route: itemRoute, method: 'POST', path: item, write: true, send: json('POST') },
  { key: 'put', route: itemRoute, method: 'PUT', path: item, write: true, send: json('PUT') },
  { key: 'patch', route: itemRoute, method: 'PATCH', path: item, write: true, send: json('PATCH') },
  { key: 'delete', route: itemRoute, method: 'DELETE', path: item, write: true, send: bare('DELETE', item) },
  { key: 'feedback', route: feedback, method: 'POST', path: (id) => `${item(id)}/feedback`, write: true, send: (client, id) => submit(client, id) },
  { key: 'feedback-schema', route: feedbackSchema, method: 'GET', path: (id) => `${item(id)}/feedback/schema`, write: false, send: bare('GET', (id) => `${item(id)}/feedback/schema`) },
  { key: 'refill', route: refill, method: 'GET', path: (id) => `${item(id)}/refill`, write: false, send: bare('GET', (id) => `${item(id)}/refill`) },
];

for (const m of missing) {
  behaviour(
    extDecl(`contactform.forms.missing-id.${m.key}`, { namespace: CONTACTFORM, route: m.route.path, title: `${m.method} ${m.route.path} with an id no form has is refused`, spec: SPEC, covers: [`param:${m.route.id}.id`] }),
    async (t) => {
      requireForms(t);
      // The positive control needs a form of our own, so writes are needed even to read.
      t.requireWrites();
      const res = await m.send(t.client, MISSING_ID, `${TAG_PREFIX}missing`);
      // Should a server create something under this id instead of refusing, it is deleted after the file.
      if (m.write && answered(res)) t.track(item(MISSING_ID));
      expectRefused(t, res, `${m.method} ${m.path(MISSING_ID)}`);
      // Positive control: the same request for a form that exists (its own, for DELETE) is answered.
      const form = m.key === 'delete' ? await createForm(t.client, 'missing-id-control') : await sharedForm();
      const control = await m.send(t.client, form.id, form.title);
      expectControl(t, { what: `${m.method} ${m.path(form.id)} (a form that exists)`, res: control, refusals: [res] });
    },
    { concurrent: true },
  );
}
