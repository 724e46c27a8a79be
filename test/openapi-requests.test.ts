/**
 * The yardstick of "every request validates against the exported OpenAPI document" (issue 34, item
 * 2; test/helpers/openapi-requests.ts), shown to tell apart what the suite must never send (PHP's
 * `a[]=`, a bare-string title, repeated keys, an undocumented argument) from the documented forms
 * (comma lists, `o[k]=v`, the text object), and to hold a declared invalid request to violating the
 * document on exactly the declared argument. The full reference run is judged by
 * test/package.e2e.test.ts (its events log).
 */
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../src/openapi/build.ts';
import { checkRun, describeFailure, RequestChecker, type RequestToCheck } from './helpers/openapi-requests.ts';

const doc = buildOpenApi({ profile: 'spec' });
const checker = new RequestChecker(doc);
const base = 'http://h/index.php?rest_route=';
const get = (route: string, query = '', invalid?: string[]): RequestToCheck => ({ method: 'GET', url: `${base}${route}${query ? `&${query}` : ''}`, ...(invalid ? { invalid } : {}) });
const post = (route: string, body: unknown, invalid?: string[]): RequestToCheck => ({ method: 'POST', url: `${base}${route}`, requestBody: JSON.stringify(body), ...(invalid ? { invalid } : {}) });
const at = (r: RequestToCheck) => checker.checkRequest(r).violations.map((v) => v.at);
const ok = (r: RequestToCheck) => checker.checkRequest(r).ok;

describe('requests judged against the exported OpenAPI document', () => {
  it('takes arrays as one comma list and objects as o[k]=v; refuses a[]=, repeated keys and undocumented arguments', () => {
    expect(ok(get('/cms/v2/posts', 'status=publish,draft&include=1,2&per_page=10&context=edit'))).toBe(true);
    expect(ok(get('/cms/v2/posts', 'include='))).toBe(true);
    expect(ok(get('/cms/v2/posts', 'categories%5Bterms%5D=1,2&categories%5Boperator%5D=AND&tags=3'))).toBe(true);
    expect(at(get('/cms/v2/posts', 'status%5B%5D=publish'))).toEqual(['query.status[]']);
    expect(at(get('/cms/v2/posts', 'include=1&include=2'))).toEqual(['query.include']);
    expect(at(get('/cms/v2/posts', 'categories%5Bterms%5D%5B%5D=1'))).toEqual(['query.categories[terms][]']);
    expect(at(get('/cms/v2/posts', '_fields=id'))).toEqual(['query._fields']);
    expect(at(get('/cms/v2/posts', 'include=1,x'))).toEqual(['query.include.1']);
  });

  it('takes title, content and excerpt of posts and pages only as the documented object, in batch items too', () => {
    expect(ok(post('/cms/v2/posts', { title: { raw: 't' }, content: { raw: 'c' }, status: 'draft', date: '2001-01-01T10:00:00+02:00' }))).toBe(true);
    // A date-time states its zone (RFC 3339; the suite writes one: src/sdk/timezone.ts).
    expect(at(post('/cms/v2/posts', { title: { raw: 't' }, date: '2001-01-01T10:00:00' }))).toEqual(['body.date']);
    expect(at(post('/cms/v2/posts', { title: 't' }))).toEqual(['body.title']);
    expect(at(post('/cms/v2/pages/3/autosaves', { content: 'c' }))).toEqual(['body.content']);
    expect(at(post('/batch/v1', { requests: [{ method: 'DELETE', path: '/cms/v2/posts/4?force=true' }, { method: 'PUT', path: '/cms/v2/posts/3', body: { excerpt: 'e' } }] }))).toEqual(['requests[1].body.excerpt']);
    // The update's body documents id beside the post fields (core part 4).
    expect(ok(post('/cms/v2/posts/3', { id: 3, title: { raw: 't' } }))).toBe(true);
  });

  it('holds a declared invalid request to violating the document on exactly the declared arguments', () => {
    expect(ok(get('/cms/v2/posts', 'per_page=0', ['per_page']))).toBe(true);
    expect(checkerWhy(get('/cms/v2/posts', 'per_page=0&status%5B%5D=draft', ['per_page']))).toMatch(/but also: query\.status\[\]/);
    expect(checkerWhy(get('/cms/v2/posts', 'per_page=5', ['per_page']))).toMatch(/the document admits the request/);
    expect(ok(post('/batch/v1', { requests: [{ path: '/cms/v2/posts', body: { status: 'nope' } }] }, ['status']))).toBe(true);
    expect(ok(post('/batch/v1', { requests: [{ method: 'GET', path: '/cms/v2/posts' }] }, ['requests']))).toBe(true);
    expect(ok(get('/cms/v2/posts/abc', '', ['id']))).toBe(true);
    expect(ok(post('/spamfilter/v1/key', { key: '[redacted]' }, ['key']))).toBe(true);
  });

  it('matches routes with a slash-taking segment, empty bodies, and open arguments', () => {
    expect(ok(get('/suite/v4/plugin/akismet/akismet.php'))).toBe(true);
    expect(at(get('/suite/v4/plugins/a/b'))).toEqual(['route']);
    expect(ok(post('/suite/v4/suite-ai-jwt', {}))).toBe(true);
    expect(ok({ method: 'POST', url: `${base}/contactform/v1/contact-forms/3/feedback`, requestBody: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' })).toBe(true);
  });

  it('judges a run: failures named, and the requests outside the document for a stated reason counted apart', () => {
    const run = checkRun(doc, [
      { ...get('/cloud/v2'), behaviour: 'namespaces.cloud-v2' },
      { ...get('/cloud/v2'), behaviour: 'cms.posts.model' },
      { ...get('/cms/v2/posts', 'status%5B%5D=any'), behaviour: 'sweep' },
      { ...get('/cms/v2/posts', 'per_page=101', ['per_page']), behaviour: 'cms.posts.query.per_page.bounds' },
      { method: 'GET', url: 'http://h/cms-admin/authorize-application.php', behaviour: 'auth.authorization-page' },
    ]);
    expect(run.checked).toBe(4);
    expect(run.declaredInvalid).toBe(1);
    expect(Object.values(run.outside)).toEqual([1]);
    expect(run.failures.map(describeFailure)).toEqual([
      'cms.posts.model: GET /cloud/v2 :: no documented route matches /cloud/v2',
      'sweep: GET /cms/v2/posts?status[]=any :: query.status[]: status is declared form, explode false (one key, a comma list), not sent as status[]',
    ]);
  });
});

function checkerWhy(r: RequestToCheck): string | undefined {
  return checker.checkRequest(r).why;
}
