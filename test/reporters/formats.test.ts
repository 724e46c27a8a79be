/** Markdown, HTML (as text), the event log, the advertised digest and the comparison, from canned results. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffAdvertised, digestIndex } from '../../results/advertised.ts';
import { compareExitCode, compareResults } from '../../results/compare.ts';
import { diffLines, renderCompareHtml, renderCompareMarkdown } from '../../reporters/compare.ts';
import { renderHtml } from '../../reporters/html.ts';
import { REPORT_FILES, latestNameFor, timestampedDir, updateLatest, writeReports } from '../../reporters/index.ts';
import { eventWriter, requestEvent, safeBody } from '../../src/http/events.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { Client } from '../../src/http/client.ts';
import { cannedBehaviours, cannedResults } from './canned.ts';

describe('Markdown summary', () => {
  const md = renderMarkdown(cannedResults());
  it('states the verdict, the counts by level and every failure with its reason', () => {
    expect(md.split('\n')[0]).toMatch(/^## ❌ cms-conformance: FAIL — 4 deviations \(1 of them not gating: SHOULD\)$/);
    expect(md).toContain('12 behaviours: 5 passed, 4 failed (3 MUST, 1 SHOULD), 1 could not be checked, 2 skipped.');
    expect(md).toContain('| SECURITY | 1 | 0 | 0 | 0 | 1 |');
    expect(md).toContain('| MUST | 3 | 3 | 1 | 2 | 9 |');
    expect(md).toContain('| SHOULD | 1 | 1 | 0 | 0 | 2 |');
    for (const id of ['cms.posts.per-page.bounds', 'cms.posts.create.title-stored', 'disc.args.cms.pages.collection.list', 'spamfilter.key.verify']) expect(md).toContain(`\`${id}\``);
    // A check that could not be made is listed apart, never as a failure.
    expect(md).toMatch(/### Could not be checked \(1\)[\s\S]*`spamfilter.key.read` \| MUST \| target error: no response/);
  });
  it('groups skips by reason, shows coverage and the command to reproduce', () => {
    expect(md).toMatch(/\| namespace suite\/v4 is not advertised by the target \| 1 \|/);
    expect(md).toMatch(/### Behavioural coverage: [\d.]+ % \(\d+ of \d+ items exercised by a request\)/);
    expect(md).toMatch(/### Catalog coverage with discovery: [\d.]+ % \(\d+ of \d+ items\)/);
    expect(md).toContain('cms-conformance run --target http://127.0.0.1:8089 --profile wordpress --seed 42');
    expect(md).toContain('set `TARGET_USER` and `TARGET_APP_PASSWORD` first');
  });
  it('says passed when only baselined or SHOULD failures remain', () => {
    const r = cannedResults({ behaviours: cannedBehaviours().filter((b) => b.level === 'SHOULD' || (b.status !== 'failed' && b.status !== 'error')) });
    expect(renderMarkdown(r).split('\n')[0]).toMatch(/^## ✅/);
  });
  it('keeps table cells on one line and escapes pipes', () => {
    const b = cannedBehaviours();
    b[0]!.reason = 'a | b\nc';
    expect(renderMarkdown(cannedResults({ behaviours: b }))).toContain('a \\| b c');
  });
});

describe('HTML report (as text)', () => {
  const html = renderHtml(cannedResults());
  it('is one self-contained file: inline style and script, nothing loaded, a CSP forbidding loads', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    expect(html).toContain("default-src 'none'");
  });
  it('escapes what the target sent', () => {
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
  it('has the header facts and the reproduction material of each failure', () => {
    for (const s of ['http://127.0.0.1:8089', 'wordpress', '42', 'cms-conformance 0.1.0', '[redacted]', 'shrunk input', '&quot;per_page&quot;: 101', 'curl -sS -X GET', '$TARGET_USER:$TARGET_APP_PASSWORD', "--only &#39;^cms\\.posts\\.per-page\\.bounds &#39;"])
      expect(html.toLowerCase(), s).toContain(s.toLowerCase());
    // every skip's reason is in the page (the rows of All behaviours are rendered from the embedded data)
    expect(html).toContain('"namespace suite/v4 is not advertised by the target"');
    expect(html).toContain('jq &#39;.routes[&quot;/wp/v2/pages&quot;]&#39;'); // discovery failure: the index part, in target names
  });
  it('the header links to coverage with the behavioural figure (items exercised by a request), not the discovery one', () => {
    const c = cannedResults().coverage!;
    expect(c.behavioural.percent).not.toBe(c.percent); // the canned run tells the two apart
    const link = /<a href="#coverage">([^<]*)<\/a>/.exec(html)?.[1];
    expect(link).toBe(`Coverage (${c.behavioural.percent} % behavioural)`);
    // results.json of a version before behavioural coverage: the one figure it has
    const { behavioural: _, ...old } = c;
    expect(/<a href="#coverage">([^<]*)<\/a>/.exec(renderHtml(cannedResults({ coverage: old as typeof c })))?.[1]).toBe(`Coverage (${c.percent} %)`);
  });
});

describe('a run that stopped before its end (results.incomplete)', () => {
  const passing = cannedBehaviours().filter((b) => b.status === 'passed');
  const stopped = (reason: 'signal' | 'target-unreachable', behaviours = passing) =>
    cannedResults({ behaviours, incomplete: { reason, ...(reason === 'signal' ? { signal: 'SIGTERM' as const } : {}), message: 'the parent npm (pid 7) went away (taken as SIGTERM)', at: '2026-01-02T03:04:05.000Z', notRun: 42 } });
  it('the Markdown summary says so first, never "passed", with the exit code of the stop', () => {
    const md = renderMarkdown(stopped('signal'));
    expect(md.split('\n')[0]).toMatch(/^## ⏹ cms-conformance: INCOMPLETE — no deviation$/);
    expect(md).toContain('**Incomplete run**: the parent npm (pid 7) went away (taken as SIGTERM); 42 selected behaviour(s) did not run (exit code 143).');
    expect(renderMarkdown(stopped('target-unreachable'))).toContain('(exit code 3)');
    // with a gating failure found before the stop, the failure leads and the stop is still said
    const failing = renderMarkdown(stopped('target-unreachable', cannedBehaviours()));
    expect(failing.split('\n')[0]).toMatch(/^## ❌/);
    expect(failing).toContain('**Incomplete run**');
  });
  it('the HTML verdict says so, with the exit code of the stop', () => {
    const html = renderHtml(stopped('signal'));
    expect(/<div class="verdict incomplete" id="verdict">([^<]*)<\/div>/.exec(html)?.[1]).toMatch(/^INCOMPLETE — no deviation; the run stopped before its end: the parent npm \(pid 7\) went away \(taken as SIGTERM\); 42 selected behaviours did not run · exit code 143$/);
    expect(renderHtml(stopped('target-unreachable', cannedBehaviours()))).toMatch(/id="incomplete">INCOMPLETE — the run stopped before its end/);
  });
});

describe('report files', () => {
  it('writes the chosen formats, and reports/latest follows the newest timestamped directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'cmsc-reports-'));
    const d1 = timestampedDir(root, new Date('2026-01-02T03:04:05Z'));
    const d2 = timestampedDir(root, new Date('2026-01-02T03:04:05Z'));
    expect(d1).toMatch(/2026-01-02T03-04-05Z$/);
    expect(d2).toMatch(/2026-01-02T03-04-05Z-1$/);
    expect(writeReports(d1, cannedResults(), ['md', 'json']).map((p) => p.slice(d1.length + 1))).toEqual([REPORT_FILES.md, REPORT_FILES.json]);
    writeReports(d2, cannedResults(), ['html']);
    updateLatest(root, d1);
    expect(readFileSync(join(root, 'latest', 'results.json'), 'utf8')).toContain('"schemaVersion": 1');
    updateLatest(root, d2);
    expect(readFileSync(join(root, 'latest', 'report.html'), 'utf8')).toContain('<!doctype html>');
  });
  it('reports/latest-<target> keeps the newest run of each target beside reports/latest', () => {
    expect(latestNameFor({ url: 'http://127.0.0.1:41234', embedded: { kind: 'wordpress', version: '6.5.5' } })).toBe('latest-wordpress-6.5.5');
    expect(latestNameFor({ url: 'http://127.0.0.1:41234', embedded: { kind: 'reference' } })).toBe('latest-reference');
    expect(latestNameFor({ url: 'https://staging.example/blog/', embedded: null })).toBe('latest-staging.example-blog');
    expect(latestNameFor({ url: 'http://127.0.0.1:9840', embedded: null })).toBe('latest-127.0.0.1-9840');
    const root = mkdtempSync(join(tmpdir(), 'cmsc-reports-'));
    const a = timestampedDir(root, new Date('2026-01-02T03:04:05Z'));
    const b = timestampedDir(root, new Date('2026-01-02T03:05:05Z'));
    writeReports(a, cannedResults(), ['json']);
    writeReports(b, cannedResults({ target: { url: 'http://127.0.0.1:9840', profile: 'wordpress', profileReason: 'auto', embedded: null } }), ['json']);
    updateLatest(root, a, 'latest-wordpress-6.5.5');
    updateLatest(root, b, 'latest-127.0.0.1-9840');
    updateLatest(root, b);
    expect(readFileSync(join(root, 'latest-wordpress-6.5.5', 'results.json'), 'utf8')).toContain('"url": "http://127.0.0.1:8089"');
    expect(readFileSync(join(root, 'latest', 'results.json'), 'utf8')).toContain('"url": "http://127.0.0.1:9840"');
  });
});

describe('event log', () => {
  it('redacts secret-looking JSON values and truncates bodies', () => {
    expect(safeBody(JSON.stringify({ password: 'hunter2', nested: { api_key: 'k', title: 't' } }))).toBe('{"password":"[redacted]","nested":{"api_key":"[redacted]","title":"t"}}');
    expect(safeBody('x'.repeat(1500))!.length).toBeLessThan(1100);
  });
  it('a client fork appends one line per request, attributed to its behaviour, without the Authorization value', async () => {
    const server = createServer((q, s) => s.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, url: q.url })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const path = join(mkdtempSync(join(tmpdir(), 'cmsc-ev-')), 'events.ndjson');
    const client = new Client({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, credentials: { user: 'admin', appPassword: 'Zq9-s3cret' }, onExchange: eventWriter(path, 'suite') });
    try {
      await client.fork('cms.posts.list.default').get('/wp/v2/posts', { query: { per_page: 1 } });
      await client.fork('cms.posts.create').post('/wp/v2/posts', { title: 'x', password: 'p4ss' });
      await client.get('/');
    } finally {
      await client.close();
      server.close();
    }
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.behaviour)).toEqual(['cms.posts.list.default', 'cms.posts.create', 'suite']);
    expect(lines[0]).toMatchObject({ method: 'GET', status: 200, auth: 'configured' });
    expect(typeof lines[0].durationMs).toBe('number');
    expect(lines[1].requestBody).toBe('{"title":"x","password":"[redacted]"}');
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('Zq9-s3cret');
    expect(text).not.toContain(Buffer.from('admin:Zq9-s3cret').toString('base64'));
    expect(Object.keys(requestEvent({ method: 'GET', url: 'u', route: '/', auth: 'none', status: 200, responseHeaders: {}, responseText: '', durationMs: 1 }))).not.toContain('responseBody');
  });
});

describe('advertised digest and comparison', () => {
  const a = digestIndex({
    namespaces: ['cms/v2'],
    routes: {
      '/cms/v2/posts': { endpoints: [{ methods: ['GET'], args: { per_page: { type: 'integer', default: 10, maximum: 100, description: 'd' }, page: { type: 'integer' } } }] },
      '/cms/v2/old': { endpoints: [{ methods: ['GET'], args: {} }] },
    },
  });
  const b = digestIndex({
    namespaces: ['cms/v2', 'cms-abilities/v1'],
    routes: {
      '/cms/v2/posts': { endpoints: [{ methods: ['GET'], args: { per_page: { type: 'integer', default: 20, maximum: 100 }, search: { type: 'string' } }, allow_batch: { v1: true } }] },
      '/cms/v2/new': { endpoints: [{ methods: ['GET', 'POST'], args: { x: {} } }] },
    },
  });
  it('signs args by their attributes only (descriptions do not matter) and diffs them', () => {
    expect(a.routes['/cms/v2/posts']!.GET!.args.per_page).toBe('type=integer; default=10; maximum=100');
    const d = diffAdvertised(a, b);
    expect(d.namespaces).toEqual({ onlyA: [], onlyB: ['cms-abilities/v1'] });
    expect(d.argChanges).toBe(3);
    expect(diffLines(d)).toEqual([
      '+ namespace cms-abilities/v1',
      '+ /cms/v2/new  (GET,POST: 1 args)',
      '- /cms/v2/old  (GET: 0 args)',
      '  /cms/v2/posts',
      '    GET',
      '-     allow_batch: absent',
      '+     allow_batch: v1',
      '-     page: type=integer',
      '-     per_page: type=integer; default=10; maximum=100',
      '+     per_page: type=integer; default=20; maximum=100',
      '+     search: type=string',
    ]);
  });
  it("pairs a route keyed in the spec's notation with its regex key, not two regexes of one shape", () => {
    const route = { endpoints: [{ methods: ['GET'], args: { id: { type: 'integer' } } }] };
    const regex = digestIndex({ namespaces: [], routes: { '/cms/v2/posts/(?P<id>[\\d]+)': route, '/x/(?P<a>[a-z]+)': route } });
    const spec = digestIndex({ namespaces: [], routes: { '/cms/v2/posts/<id>': route, '/x/(?P<a>[a-z0-9]+)': route } });
    expect(diffLines(diffAdvertised(regex, spec))).toEqual(['+ /x/(?P<a>[a-z0-9]+)  (GET: 1 args)', '- /x/(?P<a>[a-z]+)  (GET: 1 args)']);
    const changed = digestIndex({ namespaces: [], routes: { '/cms/v2/posts/<id>': { endpoints: [{ methods: ['GET'], args: {} }] } } });
    expect(diffAdvertised(regex, changed).routes[0]).toMatchObject({ route: '/cms/v2/posts/(?P<id>[\\d]+)', change: 'changed' });
  });
  it('groups behaviours by where they fail and gates on failures only B has', () => {
    const A = cannedResults({ advertised: a });
    const bBeh = cannedBehaviours().map((x) =>
      x.id === 'cms.posts.per-page.bounds' ? { ...x, status: 'passed' as const, reason: undefined } : x.id === 'cms.posts.list.default' ? { ...x, status: 'failed' as const, reason: 'broken on B' } : x,
    );
    const B = cannedResults({ behaviours: bBeh, advertised: b });
    const c = compareResults(A, B, { a: 'a.json', b: 'b.json' });
    const group = (id: string) => c.behaviours.find((x) => x.id === id)!.group;
    expect(group('cms.posts.per-page.bounds')).toBe('only-a-fails');
    expect(group('cms.posts.list.default')).toBe('only-b-fails');
    expect(group('spamfilter.key.verify')).toBe('both-fail');
    expect(group('disc.index.field.name')).toBe('both-pass');
    expect(group('suite.settings.read')).toBe('not-compared');
    expect(c.counts).toEqual({ 'only-a-fails': 1, 'only-b-fails': 1, 'both-fail': 3, 'both-pass': 4, 'not-compared': 3 });
    expect(compareExitCode(c, 'must')).toBe(1);
    const fixedOnly = cannedResults({ behaviours: bBeh.map((x) => (x.id === 'cms.posts.list.default' ? cannedBehaviours().find((y) => y.id === x.id)! : x)) });
    expect(compareExitCode(compareResults(A, fixedOnly), 'must')).toBe(0);
    expect(compareExitCode(compareResults(B, A), 'must')).toBe(1); // per_page fails only on the new B
    const md = renderCompareMarkdown(c);
    expect(md).toContain('### Only B fails (1)');
    expect(md).toContain('+ namespace cms-abilities/v1');
    const html = renderCompareHtml(c);
    expect(html).toContain('B REGRESSES');
    expect(html).toContain('id="advertised-diff"');
    expect(compareResults(A, cannedResults({ seed: 7, advertised: undefined })).warnings.join(' ')).toMatch(/different seeds.*\n?.*|advertised args not compared/);
  });
});
