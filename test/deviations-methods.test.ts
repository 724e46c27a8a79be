/**
 * Deviations of one method of an endpoint, and of the page routes the spec states as the post ones
 * (results/deviation-items.ts). Measured with bench/fault-deviations.ts against the 7.1 site:
 * before, a PUT that stores nothing (cms.update-stores-nothing.put) was three deviations, the post
 * and page reads its model checks read back (endpoint:cms.posts.item.read, endpoint:cms.pages.item.read)
 * and the batch; a server serving content in embed was three (the context arg and each type's
 * password check).
 */
import { describe, expect, it } from 'vitest';
import type { BehaviourResult, RecordedExchange } from '../results/results.ts';
import { groupDeviations } from '../results/deviations.ts';

const exchange = (method: string, route: string, body?: unknown, auth: RecordedExchange['auth'] = 'configured', status = 200): RecordedExchange => ({
  method,
  url: `http://127.0.0.1:1/index.php?rest_route=${route}`,
  route,
  auth,
  ...(body === undefined ? {} : { requestBody: JSON.stringify(body) }),
  status,
  responseHeaders: {},
  responseText: '{}',
  durationMs: 1,
  curl: '',
});

function b(id: string, status: 'passed' | 'failed', covers: string[], over: Partial<BehaviourResult> = {}): BehaviourResult {
  return { id, status, covers, namespace: 'cms/v2', title: id, level: 'MUST', spec: 'core-routes.md § 4', specRef: { doc: 'core', section: '4' }, requests: 1, durationMs: 1, file: 'x', ...over } as BehaviourResult;
}

const passingUpdates = ['posts', 'pages'].flatMap((t) => [
  b(`cms.${t}.fields.update-stored`, 'passed', [`endpoint:cms.${t}.item.update`]),
  b(`cms.${t}.update.post`, 'passed', [`endpoint:cms.${t}.item.update:POST`]),
  b(`cms.${t}.update.patch`, 'passed', [`endpoint:cms.${t}.item.update:PATCH`]),
  b(`cms.${t}.model.should`, 'passed', [`endpoint:cms.${t}.item.read`, `endpoint:cms.${t}.item.update`]),
]);

describe('deviations of one method, on posts and pages', () => {
  it('a PUT that stores nothing is one deviation (its own checks, and the model checks whose failing requests used PUT), on posts and pages alike', () => {
    const run = {
      target: { profile: 'wordpress' },
      behaviours: [
        ...passingUpdates,
        ...['posts', 'pages'].flatMap((t) => [
          b(`cms.${t}.update.put`, 'failed', [`endpoint:cms.${t}.item.update:PUT`], { reason: `after PUT with title "x": read back "y"`, exchanges: [exchange('PUT', `/wp/v2/${t}/7`, { title: 'x' })] }),
          b(`cms.${t}.model`, 'failed', [`endpoint:cms.${t}.item.read`, `endpoint:cms.${t}.item.update`], { reason: 'the model and the target disagree after update', exchanges: [exchange('PUT', `/wp/v2/${t}/8`, { title: 'z' }), exchange('GET', `/wp/v2/${t}/8`)] }),
        ]),
      ],
    };
    const ds = groupDeviations(run);
    expect(ds.map((d) => d.key)).toEqual(['endpoint:cms.posts.item.update:PUT']);
    expect(ds[0]!.behaviours).toEqual(['cms.pages.model', 'cms.pages.update.put', 'cms.posts.model', 'cms.posts.update.put']);
    expect(ds[0]!.item).toBe('PUT /cms/v2/posts/<id> (and the same on /cms/v2/pages/<id>)');
  });

  it('a PUT failing on posts only is the post method, not the whole update endpoint nor the page one', () => {
    const run = {
      target: { profile: 'wordpress' },
      behaviours: [...passingUpdates, b('cms.posts.update.put', 'failed', ['endpoint:cms.posts.item.update:PUT'], { reason: 'PUT refused', exchanges: [exchange('PUT', '/wp/v2/posts/7', { title: 'x' })] }), b('cms.pages.update.put', 'passed', ['endpoint:cms.pages.item.update:PUT'])],
    };
    const ds = groupDeviations(run);
    expect(ds.map((d) => d.key)).toEqual(['endpoint:cms.posts.item.update:PUT']);
  });

  it('anonymous reads served by three endpoints of one namespace are one deviation (its anonymous reads); a refused positive control is not', () => {
    const sec = (id: string, endpoint: string, route: string) =>
      b(`spamfilter.security.${id}`, 'failed', [`endpoint:${endpoint}`], { level: 'SECURITY', reason: `GET ${route} without credentials was answered (200)`, exchanges: [exchange('GET', route.replace('/spamfilter/v1', '/akismet/v1'), undefined, 'none', 200)] });
    const run = {
      target: { profile: 'wordpress' },
      behaviours: [
        sec('key.read', 'spamfilter.key.read', '/spamfilter/v1/key'),
        sec('settings.read', 'spamfilter.settings.read', '/spamfilter/v1/settings'),
        sec('stats.read', 'spamfilter.stats.read', '/spamfilter/v1/stats'),
        b('spamfilter.key.accept', 'passed', ['endpoint:spamfilter.key.read']),
        b('spamfilter.settings.roundtrip.x', 'passed', ['endpoint:spamfilter.settings.read']),
        b('spamfilter.stats.query', 'passed', ['endpoint:spamfilter.stats.read']),
      ],
    };
    const ds = groupDeviations(run);
    expect(ds.map((d) => [d.key, d.behaviours.length])).toEqual([['access.spamfilter/v1', 3]]);
    expect(ds[0]!.item).toBe('anonymous access to spamfilter/v1 (what the reference implementation refuses without credentials)');
    // The same checks failing on their positive control (the credentialed read refused) are not about anonymous access.
    const control = { ...run, behaviours: run.behaviours.map((x) => (x.status === 'failed' ? { ...x, reason: 'positive control: refused', exchanges: [exchange('GET', '/akismet/v1/key', undefined, 'none', 401), exchange('GET', '/akismet/v1/key', undefined, 'configured', 401)] } : x)) };
    expect(groupDeviations(control).some((d) => d.key.startsWith('access.'))).toBe(false);
  });
});

describe('anonymous access through a batch', () => {
  it('an anonymous batch of cms/v2 writes answered 207 is anonymous access to cms/v2, one item with the anonymous single writes', () => {
    const batch = exchange('POST', '/batch/v1', { requests: [{ method: 'POST', path: '/wp/v2/posts/5', body: { title: 'x' } }] }, 'none', 207);
    const single = exchange('POST', '/wp/v2/posts/5', { title: 'x' }, 'none', 200);
    const run = {
      target: { profile: 'wordpress' },
      behaviours: [
        b('auth.anonymous.batch-write-refused', 'failed', ['endpoint:batch.v1.create'], { level: 'SECURITY', exchanges: [batch] }),
        b('cms.posts.auth.update', 'failed', ['endpoint:cms.posts.item.update'], { level: 'SECURITY', exchanges: [single] }),
        b('cms.pages.auth.update', 'failed', ['endpoint:cms.pages.item.update'], { level: 'SECURITY', exchanges: [{ ...single, url: single.url.replace('posts', 'pages'), route: '/wp/v2/pages/5' }] }),
      ],
    };
    expect(groupDeviations(run).map((d) => [d.key, d.behaviours.length])).toEqual([['access.cms/v2', 3]]);
  });
});

describe('anonymous reads of revisions and autosaves (issue 36)', () => {
  it('served to anonymous readers, the lists and single reads of both post types are one item: anonymous access to cms/v2', () => {
    const read = (t: string, route: string) => exchange('GET', `/wp/v2/${t}/5${route}`, undefined, 'none', 200);
    const run = {
      target: { profile: 'wordpress' },
      behaviours: ['posts', 'pages'].flatMap((t) => [
        b(`cms.${t}.auth.revisions-read`, 'failed', [], { level: 'SECURITY', reason: `GET /cms/v2/${t}/5/revisions without credentials was answered (200)`, exchanges: [read(t, '/revisions'), read(t, '/revisions/9')] }),
        b(`cms.${t}.auth.autosaves-read`, 'failed', [], { level: 'SECURITY', reason: `GET /cms/v2/${t}/5/autosaves without credentials was answered (200)`, exchanges: [read(t, '/autosaves'), read(t, '/autosaves/10')] }),
      ]),
    };
    expect(groupDeviations(run).map((d) => [d.key, d.level, d.behaviours.length])).toEqual([['access.cms/v2', 'SECURITY', 4]]);
    // A published item read anonymously is no private read.
    const published = { ...run, behaviours: run.behaviours.map((x) => ({ ...x, exchanges: [exchange('GET', '/wp/v2/posts/5', undefined, 'none', 200)] })) };
    expect(groupDeviations(published).some((d) => d.key === 'access.cms/v2')).toBe(false);
  });
});

describe('a check with no item of its own, on posts and pages', () => {
  it('cms.posts.model.should and cms.pages.model.should failing alike are one deviation', () => {
    const run = {
      behaviours: [
        b('cms.posts.model.should', 'failed', [], { level: 'SHOULD', reason: 'step 2 (batch …): applied in reverse' }),
        b('cms.pages.model.should', 'failed', [], { level: 'SHOULD', reason: 'step 3 (batch …): applied in reverse' }),
        b('cms.posts.model', 'passed', []),
        b('cms.pages.model', 'passed', []),
      ],
    };
    const ds = groupDeviations(run);
    expect(ds.map((d) => [d.key, d.kind, d.behaviours])).toEqual([['rule:cms.*.model.should', 'rule', ['cms.pages.model.should', 'cms.posts.model.should']]]);
    // One of them alone stays its own.
    expect(groupDeviations({ behaviours: run.behaviours.slice(1) }).map((d) => d.key)).toEqual(['behaviour:cms.pages.model.should']);
  });
});

describe('one answer the server gives everywhere', () => {
  it('a read refused with the answer every failure of a rule quotes is part of that rule; another answer stays apart', () => {
    const refused = '400 rest_invalid_param (Invalid parameter(s): cmsc)';
    const required = [
      ['backup-helper-script.create.helper', 'arg:suite.backup-helper-script.create.helper'],
      ['licensing.error.update.error', 'arg:suite.licensing.error.update.error'],
      ['recommendations.step.update.step', 'arg:suite.recommendations.step.update.step'],
    ].map(([id, arg]) => b(`suite.params.required.${id}`, 'failed', [arg!], { namespace: 'suite/v4', reason: `the request without it was refused (${refused}), naming nothing` }));
    const read = (reason: string) => b('suite.read.connection.url', 'failed', ['endpoint:suite.connection.url.read'], { namespace: 'suite/v4', reason });
    // Other write routes work: not every write route is broken.
    required.push(...['settings.update', 'plugins.collection.create'].map((e) => b(`suite.methods.${e}`, 'passed', [`endpoint:suite.${e}`], { namespace: 'suite/v4' })));
    const same = groupDeviations({ behaviours: [...required, read(`GET /suite/v4/connection/url answered ${refused}, expected a 2xx answer`)] });
    expect(same.map((d) => [d.key, d.behaviours.length])).toEqual([['rule:suite.params.required.*', 4]]);
    const other = groupDeviations({ behaviours: [...required, read('GET /suite/v4/connection/url answered 500 internal_server_error (critical error), expected a 2xx answer')] });
    expect(other.map((d) => [d.key, d.behaviours.length])).toEqual([
      ['rule:suite.params.required.*', 3],
      ['endpoint:suite.connection.url.read', 1],
    ]);
  });
});

describe('one specific answer to the checks of several items', () => {
  const page = '400 rest_post_invalid_page_number (The page number requested is larger than the number of pages available.)';
  const noRoute = '404 rest_no_route (No route was found matching the URL and request method.)';
  const run = (answer: string) => ({
    behaviours: [
      b('cms.posts.filter.include', 'failed', ['arg:cms.posts.collection.list.include'], { reason: `GET /cms/v2/posts?include=1 answered ${answer}` }),
      b('cms.posts.filter.search', 'failed', ['arg:cms.posts.collection.list.search'], { reason: `GET /cms/v2/posts?search=x answered ${answer}` }),
      b('cms.posts.filter.slug', 'failed', ['arg:cms.posts.collection.list.slug'], { reason: `GET /cms/v2/posts?slug=x answered ${answer}` }),
      ...['author', 'offset', 'before', 'after'].map((a) => b(`cms.posts.filter.${a}`, 'passed', [`arg:cms.posts.collection.list.${a}`])),
    ],
  });
  it('is one deviation, that answer', () => {
    expect(groupDeviations(run(page)).map((d) => [d.key, d.kind, d.behaviours.length])).toEqual([['answer:400 rest_post_invalid_page_number', 'answer', 3]]);
  });
  it('a generic answer (a missing route) joins nothing: each item stays its own', () => {
    expect(groupDeviations(run(noRoute)).map((d) => d.key).sort()).toEqual(['arg:cms.posts.collection.list.include', 'arg:cms.posts.collection.list.search', 'field:post.slug']);
  });
});

describe('a path segment that takes a slash', () => {
  it('an anonymous read of /plugin/<plugin> with a plugin file (akismet/akismet.php) answered is anonymous access to suite/v4', () => {
    const read = exchange('GET', '/jetpack/v4/plugin/akismet/akismet.php', undefined, 'none', 200);
    const ds = groupDeviations({
      target: { profile: 'wordpress' },
      behaviours: [
        b('suite.security.plugin.item.read', 'failed', ['endpoint:suite.plugin.item.read'], { namespace: 'suite/v4', level: 'SECURITY', exchanges: [read] }),
        b('suite.security.intro-offers.read', 'failed', ['endpoint:suite.intro-offers.read'], { namespace: 'suite/v4', level: 'SECURITY', exchanges: [exchange('GET', '/jetpack/v4/intro-offers', undefined, 'none', 200)] }),
      ],
    });
    expect(ds.map((d) => [d.key, d.behaviours.length])).toEqual([['access.suite/v4', 2]]);
  });
});
