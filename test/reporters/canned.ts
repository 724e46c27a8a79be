/**
 * Canned results for reporter tests: a small but complete run (failures with requests, a shrunk
 * input and an assertion diff, a discovery failure without requests, a target error, skips,
 * SHOULD behaviours, several namespaces), built with the real summary, coverage and digest code.
 */
import { digestIndex } from '../../results/advertised.ts';
import { computeCoverage } from '../../results/coverage.ts';
import { summarize, type BehaviourResult, type Results } from '../../results/results.ts';
import { curlFor, type Exchange } from '../../src/http/client.ts';

const URL = 'http://127.0.0.1:8089';

function exchange(method: string, route: string, status: number, response: unknown, requestBody?: unknown, query = ''): BehaviourResult['exchanges'] extends (infer E)[] | undefined ? E : never {
  const e: Exchange = {
    method,
    url: `${URL}/index.php?rest_route=${route}${query}`,
    route,
    auth: 'configured',
    ...(requestBody !== undefined ? { requestBody: JSON.stringify(requestBody) } : {}),
    status,
    responseHeaders: { 'content-type': 'application/json; charset=UTF-8' },
    responseText: typeof response === 'string' ? response : JSON.stringify(response),
    durationMs: 12.4,
  };
  return { ...e, responseText: e.responseText, curl: curlFor(e) };
}

type B = Partial<BehaviourResult> & Pick<BehaviourResult, 'id' | 'status'>;

function behaviour(b: B): BehaviourResult {
  const ns = b.namespace ?? 'cms/v2';
  return {
    level: 'MUST',
    namespace: ns,
    title: `${b.id} title`,
    spec: 'core-routes.md § 4. Endpoints › Posts',
    specRef: { doc: 'core', section: '4. Endpoints › Posts' },
    requests: 0,
    durationMs: 3,
    file: 'suites/cms/posts.spec.ts',
    covers: [],
    ...b,
  } as BehaviourResult;
}


export function cannedBehaviours(): BehaviourResult[] {
  return [
    behaviour({
      id: 'cms.posts.per-page.bounds',
      status: 'failed',
      title: 'per_page above 100 is rejected with 400 rest_invalid_param',
      route: '/cms/v2/posts',
      failureKind: 'conformance',
      reason: 'GET /cms/v2/posts?per_page=101 answered 200, documented 400 rest_invalid_param',
      message: 'GET /cms/v2/posts?per_page=101 answered 200, documented 400 rest_invalid_param\nper_page: maximum 100 (core-routes.md § 8. Limits)',
      diff: '- Expected\n+ Received\n\n- 400\n+ 200',
      counterexample: { per_page: 101 },
      requests: 21,
      latencyMs: 260,
      covers: ['arg:cms.posts.collection.list.per_page', 'endpoint:cms.posts.collection.list'],
      exchanges: [exchange('GET', '/wp/v2/posts', 200, [{ id: 1, title: { rendered: '<script>alert(1)</script>' } }], undefined, '&per_page=101')],
    }),
    behaviour({
      id: 'cms.posts.create.title-stored',
      status: 'failed',
      level: 'SHOULD',
      title: 'a created post keeps its title on re-read',
      route: '/cms/v2/posts',
      failureKind: 'conformance',
      reason: 'expected "cmsc-t1 hello" to be "cmsc-t1 hello world"',
      details: { created: 17, reread: { title: 'cmsc-t1 hello' } },
      requests: 2,
      covers: ['endpoint:cms.posts.collection.create', 'field:post.title'],
      exchanges: [
        exchange('POST', '/wp/v2/posts', 201, { id: 17, title: { raw: 'cmsc-t1 hello' } }, { title: 'cmsc-t1 hello world', status: 'draft' }),
        exchange('GET', '/wp/v2/posts/17', 200, { id: 17, title: { raw: 'cmsc-t1 hello' } }, undefined, '&context=edit'),
      ],
    }),
    behaviour({
      id: 'disc.args.cms.pages.collection.list',
      status: 'failed',
      title: 'GET /cms/v2/pages advertises its documented args (22) with documented attributes',
      route: '/cms/v2/pages',
      failureKind: 'conformance',
      reason: 'in the index\'s entry for GET /cms/v2/pages, search_semantics: documented but not advertised [request: GET / (the site index, read once at the start of the run)]',
      file: 'suites/discovery/routes.spec.ts',
      covers: ['arg:cms.pages.collection.list.search_semantics', 'arg:cms.pages.collection.list.per_page'],
      exchanges: [],
    }),
    behaviour({
      id: 'spamfilter.key.verify',
      status: 'failed',
      namespace: 'spamfilter/v1',
      title: 'POST /spamfilter/v1/key verifies a key',
      route: '/spamfilter/v1/key',
      failureKind: 'conformance',
      reason: 'POST /akismet/v1/key {key: "abc"} (3 characters) answered 200, expected a refusal',
      requests: 1,
      covers: ['endpoint:spamfilter.key.verify'],
      exchanges: [exchange('POST', '/akismet/v1/key', 200, 'abc', { key: 'abc' })],
    }),
    behaviour({
      id: 'spamfilter.key.read',
      status: 'error',
      namespace: 'spamfilter/v1',
      title: 'GET /spamfilter/v1/key answers',
      route: '/spamfilter/v1/key',
      failureKind: 'target',
      reason: 'target error: no response within 10000 ms: GET http://127.0.0.1:8089/index.php?rest_route=/akismet/v1/key',
      requests: 1,
      covers: ['endpoint:spamfilter.key.read'],
      exchanges: [{ ...exchange('GET', '/akismet/v1/key', 0, ''), error: 'no response within 10000 ms' }],
    }),
    behaviour({
      id: 'auth.posts.create-anonymous',
      status: 'passed',
      level: 'SECURITY',
      namespace: 'cms/v2',
      title: 'an anonymous POST /cms/v2/posts is refused',
      route: '/cms/v2/posts',
      requests: 1,
    }),
    behaviour({ id: 'cms.posts.list.default', status: 'passed', title: 'GET /cms/v2/posts lists posts', route: '/cms/v2/posts', requests: 1, covers: ['route:cms.posts.collection'] }),
    behaviour({ id: 'cms.posts.list.should-order', status: 'passed', level: 'SHOULD', title: 'posts are ordered by date, newest first', route: '/cms/v2/posts', requests: 2 }),
    behaviour({ id: 'disc.index.field.name', status: 'passed', namespace: '', route: '/', title: 'site index field name is string', covers: ['index.field.name'] }),
    behaviour({
      id: 'suite.settings.read',
      status: 'skipped',
      namespace: 'suite/v4',
      route: '/suite/v4/settings',
      title: 'GET /suite/v4/settings answers the documented settings',
      reason: 'namespace suite/v4 is not advertised by the target',
      covers: ['endpoint:suite.settings.read', 'suite.setting.carousel_background_color'],
    }),
    behaviour({
      id: 'cms.posts.delete.force',
      status: 'skipped',
      route: '/cms/v2/posts/<id>',
      title: 'DELETE with force=true removes the post',
      reason: 'writes not allowed: the target is not on loopback; pass --allow-writes to allow writes',
    }),
    behaviour({ id: 'x.typo', status: 'passed', namespace: '', title: 'a behaviour with a covers typo', covers: ['arg:no.such.endpoint.arg'] }),
  ];
}

export function cannedResults(over: Partial<Results> = {}): Results {
  const behaviours = over.behaviours ?? cannedBehaviours();
  const index = {
    namespaces: ['cms/v2', 'spamfilter/v1'],
    routes: {
      '/cms/v2/posts': { namespace: 'cms/v2', methods: ['GET', 'POST'], endpoints: [{ methods: ['GET'], args: { per_page: { type: 'integer', default: 10, minimum: 1, maximum: 100, description: 'x' } } }] },
    },
  };
  return {
    schemaVersion: 1,
    tool: { name: 'cms-conformance', version: '0.1.0' },
    startedAt: '2026-01-02T03:04:05.000Z',
    finishedAt: '2026-01-02T03:04:35.000Z',
    durationMs: 30_000,
    target: { url: URL, profile: 'wordpress', profileReason: 'auto: the index advertises WordPress namespace names (wp/v2)', embedded: null },
    seed: 42,
    config: { target: URL, user: 'admin', appPassword: '[redacted]', profile: 'auto', seed: 42, runs: 20, concurrency: 4, timeoutMs: 10000, failOn: 'must', report: ['html', 'md', 'json'] },
    summary: summarize(behaviours),
    requests: { count: 30, latencyMs: 400 },
    behaviours,
    errors: [],
    coverage: computeCoverage(behaviours),
    advertised: digestIndex(index),
    ...over,
  };
}
