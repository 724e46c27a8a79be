/**
 * A pass means something: against a server that refuses every request but the index
 * (400 rest_invalid_param) or has no route but the index (404 rest_no_route), no behaviour of
 * the core area (site index, batch, oEmbed, authentication, cms/v2) passes, except those that
 * only read the index; failures say why, and nothing is a harness error. And a failure is
 * reported once: one post field of the wrong type fails the context behaviours that own the
 * field types, not the filter, query, lifecycle, revision or batch behaviours. And what is no
 * deviation fails nothing: a post meta key registered during the run (a plugin's module activated
 * meanwhile) is not a refused update that was stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmsFaults } from '../../faults/cms/index.ts';
import { json, type Fault } from '../../faults/proxy.ts';
import type { Results } from '../../results/results.ts';
import { inProcessRuns, type Target } from '../helpers/harness.ts';
import { notPassedButUnobservable } from '../helpers/not-observable.ts';

const AREA = '^(cms|batch|oembed|auth|index)\\.';
/** Behaviours that only read the site index (GET /, which the doubles pass through). */
const INDEX_ONLY = ['index.root.context', 'index.root.fields'];

const refuseAll: Fault = {
  id: 'double.refuse-all',
  title: 'refuses every request but the index',
  caughtBy: [],
  request: (req) => (req.route === '/' ? undefined : json(400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): x', data: { status: 400, params: { x: 'Invalid parameter.' } } })),
};
const noRoutes: Fault = {
  id: 'double.no-routes',
  title: 'answers 404 to every route but the index',
  caughtBy: [],
  request: (req) => (req.route === '/' ? undefined : json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } })),
};

/**
 * A plugin that registers a post meta key once an item has been updated (Jetpack registers its
 * SEO keys when another behaviour activates its module): reads of that item then carry one more
 * meta key. Nothing was written: no behaviour may fail on it.
 */
const updated = new Set<string>();
let metaAdded = 0;
const metaRegisteredLater: Fault = {
  id: 'double.meta-registered-later',
  title: 'registers one more post meta key once an item has been updated',
  caughtBy: [],
  request: (req) => {
    if (/^\/cms\/v2\/(posts|pages)\/\d+$/.test(req.route) && (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH')) updated.add(req.route);
  },
  response: (req, res) => {
    const meta = res.json?.meta;
    if (req.method !== 'GET' || !updated.has(req.route) || typeof meta !== 'object' || meta === null || Array.isArray(meta)) return;
    meta.registered_later = '';
    metaAdded++;
  },
};

describe('core area against doubles and one wrong field type (reference server)', () => {
  let stop: () => Promise<void>;
  let target: Target;
  // The five runs on one suite engine in this process (their verdicts, not the CLI, are what this file checks).
  const runSuite = inProcessRuns();
  const runs: Record<string, Results> = {};
  beforeAll(async () => {
    const { startReferenceServer } = await import('../../targets/reference/index.ts');
    const ref = await startReferenceServer({ port: 0 });
    stop = () => ref.stop();
    target = { url: ref.url, user: ref.user, appPassword: ref.appPassword, profile: 'spec' };
    for (const [name, faults] of [
      ['refuse', [refuseAll]],
      ['noroute', [noRoutes]],
      ['field', [cmsFaults.find((f) => f.id === 'cms.post-field-wrong-type')!]],
      ['healthy', []],
      ['meta', [metaRegisteredLater]],
    ] as const) {
      const only = name === 'meta' ? '^cms\\.(posts|pages)\\.fields\\.invalid-refused ' : AREA;
      const run = await runSuite(target, { only, faults: faults.length ? [...faults] : undefined, args: ['--runs', '2'] });
      expect(run.stderr).not.toMatch(/internal error/);
      runs[name] = run.results();
    }
  }, 600_000);
  afterAll(async () => stop?.());

  for (const name of ['refuse', 'noroute'] as const) {
    it(`${name}: no behavioural check passes, none is a harness error, and the failures say why`, () => {
      const r = runs[name]!;
      expect(r.errors).toEqual([]);
      const passed = r.behaviours.filter((b) => b.status === 'passed' && b.requests > 0).map((b) => b.id);
      expect(passed).toEqual(INDEX_ONLY);
      expect(r.behaviours.filter((b) => b.status === 'error').map((b) => `${b.id}: ${b.reason}`)).toEqual([]);
      const failed = r.behaviours.filter((b) => b.status === 'failed');
      expect(failed.length).toBeGreaterThan(20);
      if (name === 'noroute') for (const b of failed.filter((x) => x.id.startsWith('batch.'))) expect(b.reason, b.id).toMatch(/404 rest_no_route: the documented route does not exist/);
      // Skips name what they depend on (the owner that failed) or why there is nothing to check.
      for (const b of r.behaviours.filter((x) => x.status === 'skipped')) expect(b.reason, b.id).toMatch(/depends on|not observable|writes not allowed|no credentials|made no revision/);
    });
  }

  it('one post field of the wrong type fails only the context behaviours of posts', () => {
    const fault = cmsFaults.find((f) => f.id === 'cms.post-field-wrong-type')!;
    const healthy = runs.healthy!;
    expect(notPassedButUnobservable(healthy.behaviours).map((b) => `${b.id}: ${b.reason}`)).toEqual([]);
    const failed = runs.field!.behaviours.filter((b) => b.status === 'failed').map((b) => b.id);
    expect(failed.sort(), JSON.stringify(runs.field!.behaviours.filter((b) => b.status === 'failed').map((b) => [b.id, b.reason?.slice(0, 200)]))).toEqual([...fault.caughtBy].sort());
  });

  it('a meta key registered during the run is not taken for a refused update that was stored', () => {
    expect(metaAdded).toBeGreaterThan(0);
    const got = runs.meta!.behaviours.map((b) => `${b.id}: ${b.status} ${b.reason ?? ''}`.trim());
    expect(got.sort()).toEqual(['cms.pages.fields.invalid-refused: passed', 'cms.posts.fields.invalid-refused: passed']);
  });
});
