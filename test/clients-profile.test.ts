/**
 * The client-readiness profile's parts without a target (issue 42): the level CLIENT and what
 * gates (`--fail-on client`, `--fail-on-client`), each client's readiness from a run's behaviours,
 * the comparison of two runs, the reports, and the route keys as wpapi itself reads them.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientReadiness, readinessChanges, withPackages, type ClientJudged, type ClientReliance } from '../results/clients.ts';
import { compareExitCode, compareResults } from '../results/compare.ts';
import { groupDeviations } from '../results/deviations.ts';
import { exitCodeFor, gatingFailures, type Status } from '../results/verdict.ts';
import type { BehaviourResult, Results } from '../results/results.ts';
import { readinessChangeLines, readinessHtml, readinessLines, readinessMarkdown } from '../reporters/clients.ts';
import { renderCompareMarkdown } from '../reporters/compare.ts';
import { renderMarkdown } from '../reporters/markdown.ts';
import { renderHtml } from '../reporters/html.ts';
import { renderJUnit } from '../reporters/junit.ts';
import { resolveConfig } from '../src/core/config.ts';
import { wpapiKeyProblem } from '../suites/clients/lib/route-keys.ts';
import type { Dialect } from '../targets/reference/dialect.ts';
import { startReferenceServer } from '../targets/reference/index.ts';

/** The index a reference server serves in a dialect. */
async function referenceIndex(dialect: Partial<Dialect> = {}): Promise<unknown> {
  const s = await startReferenceServer({ port: 0, dialect });
  try {
    return await (await fetch(`${s.url}/index.php?rest_route=/`)).json();
  } finally {
    await s.stop();
  }
}

const reliance = (spec: ClientReliance['spec'], ...clients: [ClientReliance['reliedOnBy'][number]['client'], ...ClientReliance['reliedOnBy'][number]['flows']][]): ClientReliance =>
  withPackages({ spec, reliedOnBy: clients.map(([client, ...flows]) => ({ client, file: 'f.js', function: 'fn', flows, breaks: `${client} breaks` })) });

function behaviour(id: string, status: Status, client?: ClientReliance, reason?: string): BehaviourResult {
  return {
    id,
    level: client ? 'CLIENT' : 'MUST',
    namespace: 'cms/v2',
    title: id,
    spec: 'core-routes.md § 4. Endpoints',
    specRef: { doc: 'core', section: '4. Endpoints' },
    status,
    requests: 1,
    durationMs: 1,
    file: 'suites/clients/reads.spec.ts',
    ...(client ? { client } : {}),
    ...(reason ? { reason } : {}),
  };
}

const TOTALS = reliance('silent', ['wpapi', 'list'], ['frontity', 'list']);
const KEYS = reliance('contrary', ['wpapi', 'discover']);
const WRITE = reliance('silent', ['api-fetch', 'write']);

describe('readiness from a run', () => {
  const run: ClientJudged[] = [
    behaviour('client.paging.totals', 'failed', TOTALS, 'no X-WP-Total'),
    behaviour('client.discovery.route-keys', 'passed', KEYS),
    behaviour('client.write.method-override', 'skipped', WRITE, 'writes not allowed: --read-only'),
    behaviour('cms.posts.create', 'failed', undefined, 'not a CLIENT finding'),
  ];
  const r = clientReadiness(run);

  it('a client is not ready when a CLIENT behaviour it relies on failed, with the flows, the finding and whose limitation', () => {
    const wpapi = r.find((c) => c.client === 'wpapi')!;
    expect(wpapi).toMatchObject({ package: 'wpapi', version: '1.2.2', verdict: 'not ready', failingFlows: ['list'] });
    expect(wpapi.findings).toEqual([{ behaviour: 'client.paging.totals', flows: ['list'], spec: 'silent', specSays: 'core-routes.md § 4. Endpoints', message: 'no X-WP-Total', breaks: 'wpapi breaks', where: 'f.js fn', whose: 'server' }]);
    expect(r.find((c) => c.client === 'frontity')!.verdict).toBe('not ready');
  });
  it('ready as far as checked, saying what could not be; not checked when nothing ran', () => {
    expect(r.find((c) => c.client === 'api-fetch')).toMatchObject({ verdict: 'not checked', uncheckedFlows: ['write'], unchecked: [{ behaviour: 'client.write.method-override', flows: ['write'], reason: 'writes not allowed: --read-only' }] });
    const ready = clientReadiness([behaviour('client.write.method-override', 'passed', WRITE), behaviour('client.x', 'skipped', reliance('silent', ['api-fetch', 'batch']), 'writes not allowed: --read-only')]);
    expect(ready.find((c) => c.client === 'api-fetch')).toMatchObject({ verdict: 'ready', uncheckedFlows: ['batch'] });
    expect(clientReadiness([behaviour('cms.posts.create', 'passed')])).toEqual([]);
  });
  it('a contrary finding is the client\'s limitation', () => {
    const c = clientReadiness([behaviour('client.discovery.route-keys', 'failed', KEYS, 'keys are <id>')]).find((x) => x.client === 'wpapi')!;
    expect(c.findings[0]!.whose).toBe('client');
  });
  it('a CLIENT failure is not a deviation', () => {
    expect(groupDeviations({ behaviours: run as BehaviourResult[] }).flatMap((d) => d.behaviours)).toEqual(['cms.posts.create']);
  });
  it('names unknown clients and flows when declared', () => {
    expect(() => withPackages({ spec: 'silent', reliedOnBy: [{ client: 'axios' as never, file: 'f', function: 'g', flows: ['list'], breaks: 'x' }] })).toThrow(/unknown client "axios"/);
    expect(() => reliance('silent', ['frontity', 'write'])).toThrow(/client frontity has no flow write/);
  });
});

describe('what gates', () => {
  const results = { behaviours: [behaviour('client.paging.totals', 'failed', TOTALS), behaviour('client.write.method-override', 'failed', WRITE)], errors: [] };
  it('a CLIENT failure never gates unless asked: --fail-on client (every client) or --fail-on-client (those)', () => {
    for (const f of ['security', 'must', 'should'] as const) expect(exitCodeFor(results, f)).toBe(0);
    expect(gatingFailures(results, 'must', ['*']).map((b) => b.id)).toEqual(['client.paging.totals', 'client.write.method-override']);
    expect(gatingFailures(results, 'must', ['frontity']).map((b) => b.id)).toEqual(['client.paging.totals']);
    expect(gatingFailures(results, 'must', ['headstartwp'])).toEqual([]);
    // As the reports see it: from the run's configuration.
    expect(exitCodeFor({ ...results, config: { failOnClient: ['api-fetch'] } }, 'must')).toBe(1);
  });
  it('--fail-on takes a level and client; --fail-on-client takes client names', () => {
    const dir = '/nonexistent-cmsc';
    expect(resolveConfig({ 'fail-on': 'client' }, {}, dir)).toMatchObject({ failOn: 'must', failOnClient: ['*'] });
    expect(resolveConfig({ 'fail-on': 'should,client' }, {}, dir)).toMatchObject({ failOn: 'should', failOnClient: ['*'] });
    expect(resolveConfig({ 'fail-on': 'security' }, {}, dir).failOnClient).toBeUndefined();
    expect(resolveConfig({ 'fail-on-client': 'wpapi,api-fetch' }, {}, dir)).toMatchObject({ failOn: 'must', failOnClient: ['wpapi', 'api-fetch'] });
    expect(resolveConfig({}, { FAIL_ON_CLIENT: 'all' }, dir).failOnClient).toEqual(['wpapi', 'api-fetch', 'frontity', 'headstartwp']);
    expect(() => resolveConfig({ 'fail-on': 'must,should' }, {}, dir)).toThrow(/--fail-on must be one of security, must, should, or client \(also beside a level: must,client\), got "must,should"/);
    expect(() => resolveConfig({ 'fail-on-client': 'axios' }, {}, dir)).toThrow(/--fail-on-client takes a comma-separated list of wpapi, api-fetch, frontity, headstartwp \(or all\), got "axios"/);
  });
});

describe('reports and comparisons', () => {
  const results = (statuses: Status[]): Results =>
    ({
      schemaVersion: 1,
      tool: { name: 'cms-conformance', version: '0.1.0' },
      startedAt: '2026-12-01T00:00:00.000Z',
      finishedAt: '2026-12-01T00:00:01.000Z',
      durationMs: 1000,
      target: { url: 'http://x.test', profile: 'spec', profileReason: 'test', embedded: null },
      seed: 1,
      config: { failOn: 'must' },
      summary: { passed: 0, failed: 0, skipped: 0, error: 0, total: 0, byLevel: {}, byNamespace: {} },
      requests: { count: 0, latencyMs: 0 },
      behaviours: [behaviour('client.paging.totals', statuses[0]!, TOTALS, 'GET /cms/v2/posts answered no X-WP-Total'), behaviour('client.write.method-override', statuses[1]!, WRITE, 'the post is still there')],
      errors: [],
      clients: clientReadiness([behaviour('client.paging.totals', statuses[0]!, TOTALS, 'GET /cms/v2/posts answered no X-WP-Total'), behaviour('client.write.method-override', statuses[1]!, WRITE, 'the post is still there')]),
    }) as unknown as Results;
  const a = results(['passed', 'passed']);
  const b = results(['passed', 'failed']);

  it('the console, report.md and report.html show each client and why it is not ready', () => {
    const lines = readinessLines(b.clients);
    expect(lines[0]).toMatch(/^client readiness \(level CLIENT/);
    expect(lines).toContain('  wpapi 1.2.2: ready');
    expect(lines).toContain('  api-fetch (@wordpress/api-fetch) 7.56.0: not ready — write');
    expect(lines).toContain('    write: the post is still there (api-fetch breaks); the spec does not state it (core-routes.md § 4. Endpoints); api-fetch relies on it');
    expect(readinessMarkdown(b.clients)).toContain('| api-fetch (@wordpress/api-fetch) 7.56.0 | not ready — write |');
    expect(renderMarkdown(b)).toContain('## Client readiness');
    expect(readinessHtml(b.clients)).toContain('<span class="n failed">not ready — write</span>');
    expect(renderHtml(b)).toContain('<section id="clients">');
    expect(renderJUnit(b)).toContain('type="CLIENT readiness finding (a real client would break; not a conformance failure)"');
    expect(renderJUnit(b)).toMatch(/<property name="relied on by" value="@wordpress\/api-fetch 7\.56\.0 f\.js fn \(write\)"\/>/);
    expect(readinessLines(undefined)).toEqual([]);
  });
  it('compare shows a readiness change first, and gates on it only for the clients asked', () => {
    const cmp = compareResults(a, b);
    expect(readinessChanges(a.clients, b.clients).map((c) => [c.client, c.a, c.b])).toEqual([['api-fetch', 'ready', 'not ready']]);
    expect(readinessChangeLines(cmp.clients)).toEqual(['api-fetch: ready → not ready — write: api-fetch breaks']);
    const md = renderCompareMarkdown(cmp);
    expect(md.indexOf('## Client readiness changed')).toBeLessThan(md.indexOf('| group | behaviours |'));
    expect(compareExitCode(cmp, 'must')).toBe(0);
    expect(compareExitCode(cmp, 'must', ['api-fetch'])).toBe(1);
    expect(compareExitCode(cmp, 'must', ['wpapi'])).toBe(0);
    expect(renderCompareMarkdown(cmp, 'must', ['*'])).toMatch(/^## ❌ cms-conformance compare: a client is not ready on B/);
    expect(compareResults(b, a).clients!.map((c) => `${c.client}: ${c.a} → ${c.b}`)).toEqual(['api-fetch: not ready → ready']);
  });
});

describe("route keys as wpapi 1.2.2 reads them (its own parser, run on the same keys)", () => {
  const require = createRequire(import.meta.url);
  const WPAPI = require('wpapi');
  const splitPath = require('wpapi/lib/util/split-path.js');
  const { namedGroupRE } = require('wpapi/lib/util/named-group-regexp.js');
  /**
   * What wpapi does with one key: its route tree throws on it, or it splits it (its own splitPath)
   * into components of which one is a parameter in <id> notation that its namedGroupRE does not
   * take for a group (a literal segment: no setter), or it builds it.
   */
  const real = (key: string, namespace: string): 'ok' | 'notation' | 'unparsable' => {
    try {
      new WPAPI({ endpoint: 'http://x.test/wp-json', routes: { [key]: { namespace, methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] } } });
    } catch {
      return 'unparsable';
    }
    const components: string[] = splitPath(key.replace(`/${namespace}/`, ''));
    return components.some((c) => !namedGroupRE.test(c) && /^(<\w+>|\{\w+\})$/.test(c)) ? 'notation' : 'ok';
  };
  const indexes = {
    'WordPress 7.1 (test/fixtures/wordpress-7.1-index.json)': JSON.parse(readFileSync(new URL('./fixtures/wordpress-7.1-index.json', import.meta.url), 'utf8')),
    'the reference server': referenceIndex(),
    'the reference server, route-keys=spec': referenceIndex({ routeKeys: 'spec' }),
  };
  for (const [name, index] of Object.entries(indexes))
    it(`${name}: the profile finds exactly the keys wpapi cannot parse`, async () => {
      const idx = await index;
      const routes = Object.entries(idx.routes as Record<string, { namespace: string }>);
      const ours = routes.map(([k, r]) => wpapiKeyProblem(k, r.namespace)?.kind ?? 'ok');
      const theirs = routes.map(([k, r]) => real(k, r.namespace));
      expect(ours).toEqual(theirs);
    });
  it('WordPress 7.1 has 13 keys wpapi cannot parse (its template routes), the reference server none', async () => {
    const count = async (i: unknown) => Object.entries(((await i) as { routes: Record<string, { namespace: string }> }).routes).filter(([k, r]) => wpapiKeyProblem(k, r.namespace)?.kind === 'unparsable').length;
    expect(await count(indexes['WordPress 7.1 (test/fixtures/wordpress-7.1-index.json)'])).toBe(13);
    expect(await count(indexes['the reference server'])).toBe(0);
  });
});
