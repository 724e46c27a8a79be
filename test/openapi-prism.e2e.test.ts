/**
 * The OpenAPI document read by real OpenAPI tools:
 * - @apidevtools/swagger-parser validates both profiles as OpenAPI 3.1: the wordpress one as
 *   `cms-conformance openapi` writes it (the command in a child process, YAML, with the
 *   behaviours `list` reads), the spec one as src/openapi/build.ts builds it;
 * - Prism (@stoplight/prism-cli) as a validating proxy in front of the reference server while
 *   the suite's post, site-index and anonymous-access behaviours run: the reference server's
 *   answers break the document nowhere, every behaviour still passes through the proxy, and
 *   Prism does report a server whose answers break it (a relay that changes them: the
 *   positive control).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildOpenApi, X } from '../src/openapi/build.ts';
import { startReferenceServer, type ReferenceServer } from '../targets/reference/index.ts';
import { runCli } from './helpers/cli.ts';
import { runSuite } from './helpers/harness.ts';
import { startPrismChain, summarize, type PrismChain } from './helpers/prism.ts';
import { notPassedButUnobservable } from './helpers/not-observable.ts';

const dir = mkdtempSync(join(tmpdir(), 'cmsc-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cms-conformance openapi writes valid OpenAPI 3.1', () => {
  let wordpressYaml: any;
  const specJson = JSON.parse(JSON.stringify(buildOpenApi({ profile: 'spec' })));
  beforeAll(async () => {
    const wp = await runCli(['openapi', '--profile', 'wordpress', '--out', join(dir, 'wordpress.yaml')]);
    expect(wp.code, wp.stderr).toBe(0);
    expect(wp.stderr).toContain(`written to ${join(dir, 'wordpress.yaml')}`);
    wordpressYaml = parse(readFileSync(join(dir, 'wordpress.yaml'), 'utf8'));
  }, 120_000);

  it('has its own help, and a bad flag is one line and exit 2 (before anything is collected)', async () => {
    const help = await runCli(['openapi', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.split('\n')[0]).toBe('Usage: cms-conformance openapi [--profile spec|wordpress] [--format yaml|json] [--out FILE]');
    expect((await runCli(['help', 'openapi'])).stdout).toBe(help.stdout);
    expect((await runCli(['--help'])).stdout).toMatch(/^ {2}openapi +Print the documented interface as an OpenAPI 3\.1 document/m);
    const bad = await runCli(['openapi', '--profile', 'wp']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('cms-conformance: --profile must be spec or wordpress, got "wp"');
    expect(bad.stdout).toBe('');
    const out = await runCli(['openapi', '--out', join(dir, 'no-such-folder', 'x.json')]);
    expect(out.code).toBe(2);
    expect(out.stderr.trim()).toMatch(/^cms-conformance: cannot write --out .*x\.json: ENOENT/);
  });

  it('both profiles pass @apidevtools/swagger-parser validate', async () => {
    await expect(SwaggerParser.validate(structuredClone(wordpressYaml))).resolves.toBeTruthy();
    await expect(SwaggerParser.validate(structuredClone(specJson))).resolves.toBeTruthy();
    expect(Object.keys(wordpressYaml.paths)).toContain('/wp/v2/posts');
    expect(Object.keys(specJson.paths)).toContain('/cms/v2/posts');
  });

  it('the validator refuses a broken document (positive control)', async () => {
    const broken = structuredClone(specJson);
    broken.paths['/cms/v2/posts'].get.responses = 'none';
    await expect(SwaggerParser.validate(broken)).rejects.toThrow();
  });

  it('links the behaviours the suites declare (the declarations list reads)', () => {
    const b = (path: string, m: string) => wordpressYaml.paths[path][m][`${X}-behaviours`] as string[];
    expect(b('/wp/v2/posts/{parent}/revisions/{id}', 'delete')).toContain('cms.posts.revisions.delete.without-force');
    expect(b('/batch/v1', 'post')).toContain('auth.anonymous.batch-write-refused');
    expect(b('/jetpack/v4/settings', 'post').length).toBeGreaterThan(100);
    const linked = new Set(Object.values(wordpressYaml.paths).flatMap((pi: any) => Object.values(pi).flatMap((op: any) => op?.[`${X}-behaviours`] ?? [])));
    // Most behaviours check an operation; the rest check fields, settings, the index or namespaces.
    expect(linked.size).toBeGreaterThan(1500);
  });
});

describe('Prism in front of the reference server while the suite runs', () => {
  let server: ReferenceServer;
  let chain: PrismChain;
  beforeAll(async () => {
    const doc = join(dir, 'spec.json');
    writeFileSync(doc, JSON.stringify(buildOpenApi({ profile: 'spec' })));
    server = await startReferenceServer({ port: 0 });
    chain = await startPrismChain(doc, server.url);
  }, 120_000);
  afterAll(async () => {
    await chain?.stop();
    await server?.stop();
  });

  it('the reference server answers the suite without breaking the document, and every behaviour still passes', async () => {
    const run = await runSuite({ url: chain.url, user: server.user, appPassword: server.appPassword, profile: 'spec' }, { only: '^(cms\\.posts\\.|index\\.root|auth\\.anonymous)', removeReport: true });
    const results = run.results();
    const notPassed = notPassedButUnobservable(results.behaviours).map((b) => `${b.id}: ${b.status} ${b.reason ?? ''}`);
    expect(notPassed).toEqual([]);
    expect(results.behaviours.length).toBeGreaterThan(100);
    // The run's requests went through Prism (the site index, the posts, their revisions...).
    expect(chain.shim.validated).toBeGreaterThan(results.requests.count * 0.9);
    expect(summarize(chain.shim.violations)).toEqual([]);
  }, 240_000);

  it('Prism reports a server whose answers break the document (positive control)', async () => {
    chain.relay.breakAnswers = (route, json: any) => {
      if (route === '/') return { ...json, name: 42 };
      if (/^\/cms\/v2\/posts\/\d+$/.test(route)) return { ...json, comment_status: 'maybe', title: 'a string, not an object' };
      return undefined;
    };
    const before = chain.shim.violations.length;
    try {
      const auth = { authorization: `Basic ${Buffer.from(`${server.user}:${server.appPassword}`).toString('base64')}` };
      const post = await fetch(`${chain.url}/index.php?rest_route=/cms/v2/posts/1`, { headers: auth });
      expect(post.status).toBe(200);
      const index = await fetch(`${chain.url}/index.php?rest_route=/`);
      expect(index.status).toBe(200);
    } finally {
      chain.relay.breakAnswers = undefined;
    }
    const found = chain.shim.violations.slice(before).map((v) => v.location.join('.'));
    expect(found).toEqual(expect.arrayContaining(['response.body.name', 'response.body.comment_status', 'response.body.title']));
  }, 60_000);
});
