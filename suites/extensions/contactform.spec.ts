/**
 * contactform/v1 (extensions part 4 › Contact forms): the documented routes and methods answer;
 * a missing form id is refused on every item route; a form the suite creates can be read,
 * updated (POST, PUT, PATCH) and deleted, and is always deleted at the end (tracked fixture).
 *
 * Parameters, payloads and response fields of these routes are not shown, except that a form is
 * "identified by integer `id`" (part 2). The suite sends only a tagged `title`; what the
 * reference implementation (Contact Form 7) does with it is checked at SHOULD level.
 */
import { routeById } from '../../schemas/catalog/index.ts';
import { behaviour, fixtures, runContext, type BehaviourContext } from '../../src/behaviour.ts';
import type { Method } from '../../src/client.ts';
import { TAG_PREFIX } from '../../src/fixtures.ts';
import { CONTACTFORM, answered, brief, expectAnswered, expectRefused, show, skipIfForbidden } from './support.ts';

const FORMS = '/contactform/v1/contact-forms';
const item = (id: number) => `${FORMS}/${id}`;
/** An id no form has: well past any id a site hands out. */
const MISSING_ID = 2147480000;

const collection = routeById('contactform.forms.collection');
const itemRoute = routeById('contactform.forms.item');
const feedback = routeById('contactform.forms.feedback');
const feedbackSchema = routeById('contactform.forms.feedback-schema');
const refill = routeById('contactform.forms.refill');
const SPEC = itemRoute.spec;

const decl = (id: string, title: string, route: string, covers: string[], level: 'MUST' | 'SHOULD' = 'MUST') => ({
  id,
  level,
  namespace: CONTACTFORM,
  route,
  title,
  spec: SPEC,
  covers,
});

/** Create a tagged form; answers its id. Tracked: deleted after the file even if a behaviour fails. */
async function createForm(t: BehaviourContext | undefined, hint: string): Promise<{ id: number; title: string }> {
  const f = fixtures();
  const title = f.label(`form-${hint}`);
  const client = t?.client ?? runContext().client.fork('fixtures');
  const res = await client.post(FORMS, { title });
  if (t) skipIfForbidden(t, res, `create a contact form (POST ${FORMS})`);
  if (!answered(res)) {
    const msg = `POST ${FORMS} {title} answered ${brief(res)}, expected a 2xx answer creating a form`;
    if (t) t.fail(msg);
    throw new Error(msg);
  }
  const id = res.body?.id;
  if (!Number.isInteger(id) || id <= 0) {
    const msg = `POST ${FORMS} answered ${res.status} with ${show(res.body)}: no integer id (part 2: a contact form is identified by integer id)`;
    if (t) t.fail(msg);
    throw new Error(msg);
  }
  f.track(item(id));
  return { id, title };
}

/** The form shared by the read-only and update behaviours of this file, created on first use. */
let shared: Promise<{ id: number; title: string }> | undefined;
async function sharedForm(t: BehaviourContext): Promise<{ id: number; title: string }> {
  shared ??= createForm(undefined, 'shared');
  try {
    return await shared;
  } catch (err) {
    t.skip(`no contact form to work on: ${(err as Error).message}`);
  }
}

const requireForms = (t: BehaviourContext) => {
  t.requireNamespace(CONTACTFORM);
  t.requireCredentials();
};

behaviour(
  decl('contactform.index', 'GET /contactform/v1 (the namespace index) answers', '/contactform/v1', ['endpoint:contactform.index.read']),
  async (t) => {
    t.requireNamespace(CONTACTFORM);
    expectAnswered(t, await t.client.get('/contactform/v1'), 'GET /contactform/v1');
  },
  { concurrent: true },
);

behaviour(
  decl('contactform.forms.list', 'GET /contact-forms answers', collection.path, ['endpoint:contactform.forms.collection.list']),
  async (t) => {
    requireForms(t);
    expectAnswered(t, await t.client.get(FORMS), `GET ${FORMS}`);
  },
  { concurrent: true },
);

behaviour(
  decl('contactform.forms.create', 'POST /contact-forms creates a form with an integer id that GET /contact-forms/<id> then reads', collection.path, [
    'endpoint:contactform.forms.collection.create',
  ]),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await createForm(t, 'create');
    const res = await t.client.get(item(id));
    if (!answered(res)) t.fail(`POST ${FORMS} answered id ${id}, but GET ${item(id)} answered ${brief(res)}`);
  },
  { concurrent: true },
);

behaviour(
  decl('contactform.forms.listed', 'a created form appears in GET /contact-forms (by id)', collection.path, ['endpoint:contactform.forms.collection.list'], 'SHOULD'),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await sharedForm(t);
    const res = await t.client.get(FORMS, { query: { per_page: 100 } });
    expectAnswered(t, res, `GET ${FORMS}`);
    if (!Array.isArray(res.body)) t.fail(`GET ${FORMS} answered ${show(res.body)}, not a list of forms as the reference implementation does`);
    if (!res.body.some((f: any) => f?.id === id)) t.fail(`form ${id} is not among the ${res.body.length} forms GET ${FORMS} lists`);
  },
  { concurrent: true },
);

behaviour(
  decl('contactform.forms.read', 'GET /contact-forms/<id> answers for a form that exists', itemRoute.path, ['endpoint:contactform.forms.item.read']),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await sharedForm(t);
    expectAnswered(t, await t.client.get(item(id)), `GET ${item(id)}`);
  },
  { concurrent: true },
);

for (const [route, what, get] of [
  [feedbackSchema, 'feedback/schema', (id: number) => `${item(id)}/feedback/schema`],
  [refill, 'refill', (id: number) => `${item(id)}/refill`],
] as const) {
  behaviour(
    decl(`contactform.forms.${route.id.split('.').pop()}`, `GET /contact-forms/<id>/${what} answers for a form that exists`, route.path, [`endpoint:${route.endpoints[0]!.id}`]),
    async (t) => {
      requireForms(t);
      t.requireWrites();
      const { id } = await sharedForm(t);
      expectAnswered(t, await t.client.get(get(id)), `GET ${get(id)}`);
    },
    { concurrent: true },
  );
}

behaviour(
  decl(
    'contactform.forms.feedback',
    'POST /contact-forms/<id>/feedback exists for a form that exists (not "no route", not a server failure)',
    feedback.path,
    [`endpoint:${feedback.endpoints[0]!.id}`],
  ),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await sharedForm(t);
    // The payload is not shown: an empty submission, which the reference refuses by its media type (415).
    const res = await t.client.post(`${item(id)}/feedback`, {});
    skipIfForbidden(t, res, `POST ${item(id)}/feedback`);
    if (res.status === 404 || res.status === 405 || res.status >= 500)
      t.fail(`POST ${item(id)}/feedback answered ${brief(res)}: the route does not take POST for an existing form`);
  },
  { concurrent: true },
);

behaviour(
  decl('contactform.forms.update', 'POST, PUT and PATCH /contact-forms/<id> each answer for a form that exists', itemRoute.path, ['endpoint:contactform.forms.item.update']),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id, title } = await sharedForm(t);
    for (const method of ['POST', 'PUT', 'PATCH'] as Method[]) {
      const res = await t.client.request(method, item(id), { body: { title: `${title} ${method.toLowerCase()}` } });
      expectAnswered(t, res, `${method} ${item(id)}`);
    }
  },
);

behaviour(
  decl('contactform.forms.update-readback', 'a title written with POST /contact-forms/<id> reads back on GET', itemRoute.path, ['endpoint:contactform.forms.item.update'], 'SHOULD'),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id, title } = await sharedForm(t);
    const next = `${title} renamed`;
    const res = await t.client.post(item(id), { title: next });
    expectAnswered(t, res, `POST ${item(id)}`);
    const after = await t.client.get(item(id));
    expectAnswered(t, after, `GET ${item(id)}`);
    if (after.body?.title !== next) t.fail(`POST ${item(id)} {title: ${show(next)}} answered ${res.status}; GET reads title ${show(after.body?.title)}`);
  },
);

behaviour(
  decl('contactform.forms.delete', 'DELETE /contact-forms/<id> removes the form: GET then refuses it', itemRoute.path, ['endpoint:contactform.forms.item.delete']),
  async (t) => {
    requireForms(t);
    t.requireWrites();
    const { id } = await createForm(t, 'delete');
    const res = await t.client.delete(item(id));
    expectAnswered(t, res, `DELETE ${item(id)}`);
    const after = await t.client.get(item(id));
    if (!(after.status >= 400 && after.status < 500)) t.fail(`DELETE ${item(id)} answered ${res.status}, but GET ${item(id)} then answered ${brief(after)}`);
  },
  { concurrent: true },
);

// --- a missing form id is refused on every item route ------------------------------------------

const missing: { key: string; route: typeof itemRoute; method: Method; path: (id: number) => string; write: boolean }[] = [
  { key: 'read', route: itemRoute, method: 'GET', path: item, write: false },
  { key: 'update', route: itemRoute, method: 'POST', path: item, write: true },
  { key: 'put', route: itemRoute, method: 'PUT', path: item, write: true },
  { key: 'patch', route: itemRoute, method: 'PATCH', path: item, write: true },
  { key: 'delete', route: itemRoute, method: 'DELETE', path: item, write: true },
  { key: 'feedback', route: feedback, method: 'POST', path: (id) => `${item(id)}/feedback`, write: true },
  { key: 'feedback-schema', route: feedbackSchema, method: 'GET', path: (id) => `${item(id)}/feedback/schema`, write: false },
  { key: 'refill', route: refill, method: 'GET', path: (id) => `${item(id)}/refill`, write: false },
];

for (const m of missing) {
  behaviour(
    decl(`contactform.forms.missing-id.${m.key}`, `${m.method} ${m.route.path} with an id no form has is refused`, m.route.path, [`param:${m.route.id}.id`]),
    async (t) => {
      requireForms(t);
      if (m.write) {
        t.requireWrites();
        // Should a server create something under this id instead of refusing, it is deleted after the file.
        t.track(item(MISSING_ID));
      }
      const route = m.path(MISSING_ID);
      const res = await t.client.request(m.method, route, m.method === 'GET' || m.method === 'DELETE' ? {} : { body: { title: `${TAG_PREFIX}missing` } });
      expectRefused(t, res, `${m.method} ${route}`);
    },
    { concurrent: true },
  );
}
