/**
 * Messages an implementer acts on (issue 41): a failure names the request whose answer it judged,
 * not the last one sent; every ID it lists is explained; a refusal names the documented constraint
 * it applied; no internal prefixes (test/helpers/message-rules.ts). The mechanism (src/sdk/
 * failure-message.ts) on exchanges as a check makes them; the rules on real runs in
 * test/failure-message.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { explainIds, judgedExchanges, judging, nameJudgedRequest, noteJudged, recordedExchanges } from '../src/sdk/failure-message.ts';
import { recordCreated } from '../src/sdk/fixture-checks.ts';
import { ConformanceFailure } from '../src/core/errors.ts';
import { brokenConstraint } from '../generators/constraint.ts';
import { getProfile } from '../schemas/profiles.ts';
import type { Exchange } from '../src/http/client.ts';
import { messageProblems } from './helpers/message-rules.ts';

const base = 'http://127.0.0.1:9840/index.php?rest_route=';
const ex = (method: string, route: string, query = '', status = 200, body?: unknown): Exchange => ({
  method,
  url: `${base}${route}${query ? `&${query}` : ''}`,
  route,
  auth: 'configured',
  ...(body !== undefined ? { requestBody: JSON.stringify(body) } : {}),
  status,
  responseHeaders: { 'content-type': 'application/json' },
  responseText: '{}',
  durationMs: 1,
});
const wp = getProfile('wordpress');
const toSpec = (r: string) => wp.toSpecRoute(r);

describe('the request a failure judged', () => {
  it('update with password=["x"] answered 500: the PATCH, not the read-back GET sent after it', () => {
    const patch = ex('PATCH', '/wp/v2/pages/216', '', 500, { password: ['x'] });
    const log = [ex('GET', '/wp/v2/pages/216', 'context=edit'), patch, ex('GET', '/wp/v2/pages', 'search=t&status=any&per_page=100'), ex('GET', '/wp/v2/pages/216', 'context=edit')];
    const message = 'update with password=["x"] answered 500 internal_server_error';
    // named by the message alone, and when the check noted it (answerOf) as well
    expect(judgedExchanges(message, log, [], toSpec)).toEqual([patch]);
    expect(judgedExchanges(message, log, [patch, log[3]!], toSpec)).toEqual([patch]);
    const e = new ConformanceFailure(message);
    nameJudgedRequest(e, [patch], log, wp);
    expect(e.message).toBe('update with password=["x"] answered 500 internal_server_error [request: PATCH /cms/v2/pages/216 (with credentials, body {"password":["x"]})]');
    expect(messageProblems(e.message)).toEqual([]);
    // results.json keeps it, marked, with the last ones sent
    const kept = recordedExchanges(log, [patch]);
    expect(kept.map((k) => [k.method, k.judged ?? false])).toEqual([['PATCH', true], ['GET', false], ['GET', false]]);
    expect(kept[0]!.curl).toContain("-X PATCH 'http://127.0.0.1:9840/index.php?rest_route=/wp/v2/pages/216'");
  });

  it('the listing whose arguments the message quotes (format=aside), not the last listing', () => {
    const lists = ['aside', 'standard', 'aside,standard'].map((f) => ex('GET', '/wp/v2/posts', `per_page=100&search=tok&format=${encodeURIComponent(f)}`));
    expect(judgedExchanges('search=tok&format=aside: got [o2(514), 524, 523], expected [524]', lists, [], toSpec)).toEqual([lists[0]]);
    // a check that says nothing of the request: the answer it noted last (t.judge, expectListOk)
    expect(judgedExchanges('the list is not in order', lists, [lists[1]!], toSpec)).toEqual([lists[1]]);
    // nothing says which: none, and the message shows the last request sent, called that
    expect(judgedExchanges('the list is not in order', lists, [], toSpec)).toEqual([]);
    const e = new ConformanceFailure('the list is not in order');
    nameJudgedRequest(e, [], lists, wp);
    expect(e.message).toMatch(/ \[last request sent: GET \/cms\/v2\/posts\?per_page=100&search=tok&format=aside,standard \(with credentials\)\]$/);
    expect(messageProblems(e.message)).toEqual(['it shows the last request sent, not the one it judged']);
  });

  it('a check notes the answers it judges while it runs, each behaviour its own (by its client\'s tag)', async () => {
    const a = { ...ex('GET', '/wp/v2/posts'), tag: 'cms.one' };
    const b = { ...ex('GET', '/wp/v2/pages'), tag: 'cms.two' };
    const c = { ...ex('GET', '/wp/v2/media'), tag: 'fixtures' };
    // Concurrent checks, each noting the other's answer too: each list holds its own client's answers only.
    const one = judging('cms.one', async () => {
      noteJudged({ exchange: a });
      await new Promise((r) => setTimeout(r, 5));
      noteJudged({ exchange: b });
      noteJudged({ exchange: a });
    });
    const two = judging('cms.two', async () => {
      noteJudged({ exchange: b });
      noteJudged({ exchange: c }); // sent by no running check's client: nothing
      await new Promise((r) => setTimeout(r, 10));
    });
    await Promise.all([one.done, two.done]);
    expect(one.list).toEqual([a]);
    expect(two.list).toEqual([b]);
    noteJudged({ exchange: a }); // its check has ended: nothing
    expect(one.list).toEqual([a]);
  });

  it('a check that sent nothing judged the site index', () => {
    const e = new ConformanceFailure('interval: enum is not advertised, documented ["60-days","6-months","all"]');
    nameJudgedRequest(e, [], [], wp);
    expect(e.message).toMatch(/\[request: GET \/ \(the site index, read once at the start of the run\)\]$/);
    expect(messageProblems(e.message)).toEqual([]);
  });
});

describe('every ID a message lists is explained', () => {
  it('the run\'s own items by what sets them apart, the others as the site\'s', () => {
    recordCreated(524, '/cms/v2/posts', { title: 'aside x', format: 'aside', date: '2001-01-20T10:00:00', status: 'publish' });
    const e = new ConformanceFailure('search=tok&format=aside: got [o2(514), 524, 523], expected [524] (oN(id): …)');
    expect(messageProblems(e.message)).toEqual(['it names no request', 'a bare id: 524', 'a bare id: 523']);
    explainIds(e);
    expect(e.message).toBe("search=tok&format=aside: got [o2(514), 524, 523], expected [524] (oN(id): …) (524 = a post this run created (format aside, dated 2001-01-20); 523 = an item this check did not create (the site's, or another check's))");
    expect(messageProblems(`${e.message} [request: GET /cms/v2/posts]`)).toEqual([]);
  });
});

describe('a refusal names the documented constraint it applied', () => {
  it('enum, bounds, list items, closed objects', () => {
    expect(brokenConstraint({ type: 'string', enum: ['exact'] }, 'xbogusq')).toBe('one of "exact"');
    expect(brokenConstraint({ type: 'integer', minimum: 1, maximum: 100 }, 0)).toBe('at least 1');
    expect(brokenConstraint({ type: 'integer', minimum: 1, maximum: 100 }, 101)).toBe('at most 100');
    expect(brokenConstraint({ type: 'integer' }, 'abc')).toBe('an integer');
    expect(brokenConstraint({ type: 'boolean' }, 'maybe')).toBe('a boolean (true or false)');
    expect(brokenConstraint({ type: 'array', items: { type: 'string', enum: ['standard', 'aside'] } }, ['xbogusq'])).toBe('a list whose every item is one of "standard", "aside" (item "xbogusq" is not)');
    const object = { type: 'object' as const, properties: { terms: { type: 'array' as const, items: { type: 'integer' as const } }, operator: { type: 'string' as const, enum: ['AND', 'OR'] } }, closedProperties: true };
    expect(brokenConstraint(object, { xab: '1' })).toBe('an object with no other keys than terms, operator (key "xab" is not one)');
    expect(brokenConstraint(object, { operator: 'XOR' })).toBe('key operator: one of "AND", "OR"');
  });
  it('the rules catch the old messages', () => {
    expect(messageProblems('search_semantics="xbogusq": accepted with 200, documented constraints reject it')).toContain('a refusal that does not name the constraint it applied');
    expect(messageProblems('1 deviation(s): interval: enum is nothing [request: GET /]')).toEqual(['an internal prefix: "N deviation(s)"']);
    expect(messageProblems('page should have 1 new revision(s) (one for each update that changed the title: steps 3.1) [request: GET /cms/v2/pages/3/revisions]')).toEqual(['a step number a reader cannot map ("step 3.1")']);
  });
});
