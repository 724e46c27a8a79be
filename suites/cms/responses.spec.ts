/**
 * What the reference implementation answers where part 7 (Errors) and the response shapes are
 * silent (SHOULD):
 * - a refusal carries a JSON error body `{code, message, data: {status}}` whose data.status is
 *   the HTTP status (a refused argument, an item that does not exist, a route that does not);
 * - collection reads carry X-WP-Total and X-WP-TotalPages consistent with what the collection
 *   returns page by page.
 */
import { behaviour, type BehaviourContext } from '../../src/behaviour.ts';
import type { Response } from '../../src/client.ts';
import { answerOf, expectControlAccepted, whyNotAccepted } from '../../src/controls.ts';
import { postTypes, SPEC_LIMITS } from './lib/collections.ts';

const SPEC_ERRORS = { doc: 'core' as const, section: '7. Errors' };

function errorShapeProblem(res: Response, what: string): string | undefined {
  const b = res.body;
  if (res.status < 400) return `${what} answered ${res.status}, not a refusal`;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return `${what} (${res.status}) has no JSON object body: ${res.text.slice(0, 120)}`;
  const wrong: string[] = [];
  if (typeof b.code !== 'string' || b.code === '') wrong.push(`code ${JSON.stringify(b.code)}`);
  if (typeof b.message !== 'string') wrong.push(`message ${JSON.stringify(b.message)}`);
  if (b.data?.status !== res.status) wrong.push(`data.status ${JSON.stringify(b.data?.status)} (HTTP ${res.status})`);
  return wrong.length ? `${what} (${answerOf(res)}): ${wrong.join(', ')}` : undefined;
}

behaviour(
  {
    id: 'cms.errors.body-shape',
    level: 'SHOULD',
    namespace: 'cms/v2',
    route: '/cms/v2/posts',
    title: 'a refusal answers the error body {code, message, data.status = the HTTP status}: a refused argument, an item that does not exist, a route that does not exist',
    spec: SPEC_ERRORS,
  },
  async (t: BehaviourContext) => {
    const [control, badArg, noItem, noRoute] = await Promise.all([
      t.client.get('/cms/v2/posts', { query: { per_page: 1 } }),
      t.client.get('/cms/v2/posts', { query: { per_page: 0 } }),
      t.client.get('/cms/v2/posts/987654321'),
      t.client.get('/cms/v2/no-such-collection'),
    ]);
    expectControlAccepted(t, control, 'GET /cms/v2/posts?per_page=1', 'the refused requests');
    const problems = [
      errorShapeProblem(badArg, 'GET /cms/v2/posts?per_page=0'),
      errorShapeProblem(noItem, 'GET /cms/v2/posts/987654321'),
      errorShapeProblem(noRoute, 'GET /cms/v2/no-such-collection'),
    ].filter((p): p is string => p !== undefined);
    if (problems.length) t.fail(problems.join('; '));
  },
  { concurrent: true },
);

for (const type of postTypes) {
  behaviour(
    {
      id: `cms.${type.name}.pagination.headers`,
      level: 'SHOULD',
      namespace: 'cms/v2',
      route: type.paths.collection,
      title: 'X-WP-Total and X-WP-TotalPages match what the collection returns: 3 items at per_page=2 are 2 pages, 2 items then 1',
      spec: SPEC_LIMITS,
    },
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const made = await Promise.all([1, 2, 3].map((n) => t.create(type.collection, { title: `pagination ${n}` })));
      const include = made.map((m) => m.id as number);
      const [p1, p2] = await Promise.all([1, 2].map((page) => t.client.get(type.collection, { query: { include, per_page: 2, page } })));
      const problems: string[] = [];
      for (const [page, res, n] of [[1, p1!, 2], [2, p2!, 1]] as const) {
        if (res.status !== 200 || !Array.isArray(res.body)) t.fail(whyNotAccepted(res, `GET ${type.collection}?include=…&per_page=2&page=${page}`));
        if (res.body.length !== n) problems.push(`page ${page} lists ${res.body.length} items, expected ${n} of the 3 included`);
        const total = res.headers['x-wp-total'];
        const pages = res.headers['x-wp-totalpages'];
        if (total !== '3') problems.push(`page ${page}: X-WP-Total is ${JSON.stringify(total)}, the collection holds 3`);
        if (pages !== '2') problems.push(`page ${page}: X-WP-TotalPages is ${JSON.stringify(pages)}, 3 items at per_page=2 are 2 pages`);
      }
      if (problems.length) t.fail(problems.join('; '));
    },
    { concurrent: true },
  );
}
