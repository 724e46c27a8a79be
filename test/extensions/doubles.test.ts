/**
 * A pass means something: against a target whose extension routes refuse every request (400
 * rest_invalid_param) or do not exist (404 rest_no_route), while the site index is still the
 * reference server's, no extension behaviour passes, and the refusal checks say why they fail
 * (the route refuses every request, or does not exist).
 */
import { describe, expect, it } from 'vitest';
import { json, type Fault } from '../../faults/proxy.ts';
import { startReferenceServer } from '../../targets/reference/index.ts';
import { inProcessRuns } from '../helpers/harness.ts';
import { EXTENSION_BEHAVIOURS } from './rounds.ts';

const doubles: Record<string, { fault: Fault; says: RegExp }> = {
  'refuses every request': {
    fault: {
      id: 'double.refuse-all',
      title: 'refuses every request but the index',
      caughtBy: [],
      request: (req) => (req.route === '/' ? undefined : json(400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): x', data: { status: 400, params: { x: 'Invalid parameter.' } } })),
    },
    says: /refuses every request/,
  },
  'has no routes': {
    fault: {
      id: 'double.no-routes',
      title: 'answers 404 to every route but the index',
      caughtBy: [],
      request: (req) => (req.route === '/' ? undefined : json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } })),
    },
    says: /does not exist|404 rest_no_route/,
  },
};

describe('doubles that refuse everything or have no routes', () => {
  const runSuite = inProcessRuns();
  for (const [name, { fault, says }] of Object.entries(doubles)) {
    it(`a target that ${name}: no extension behaviour passes`, async () => {
      const server = await startReferenceServer({ port: 0 });
      try {
        const run = await runSuite({ url: server.url, user: server.user, appPassword: server.appPassword, profile: 'spec' }, { only: EXTENSION_BEHAVIOURS, faults: [fault] });
        const results = run.results();
        expect(results.errors).toEqual([]);
        expect(results.behaviours.length).toBeGreaterThan(500);
        expect(results.behaviours.filter((b) => b.status === 'passed').map((b) => b.id)).toEqual([]);
        // The refusal checks that get as far as their positive control say what is wrong.
        const controls = results.behaviours.filter((b) => /^(suite\.params\.(required|type|enum|pattern)|suite\.pattern|spamfilter\.stats\.(query|path)-enum)\./.test(`${b.id}.`) && b.status === 'failed');
        expect(controls.length).toBeGreaterThan(20);
        for (const b of controls) expect(`${b.id}: ${b.reason}`).toMatch(says);
      } finally {
        await server.stop();
      }
    });
  }
});
