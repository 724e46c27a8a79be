/**
 * Where a suite route's answer comes from the external service and the target is not connected to
 * it, the behaviour says so and skips; it never passes. The reference server is made to answer as
 * an unconnected site of the reference implementation does (wordpress-behaviour.md §12): the routes
 * that need the service refuse, and a module that needs it cannot be activated.
 */
import { expect, it } from 'vitest';
import { catalog } from '../../schemas/catalog/index.ts';
import type { Fault, FaultResponse } from '../../faults/proxy.ts';
import { REMOTE_ROUTES } from '../../suites/extensions/support.ts';
import { startReferenceServer, type ReferenceServer } from '../../targets/reference/index.ts';
import { runSuite, type Target } from '../helpers/harness.ts';

const target = (s: ReferenceServer): Target => ({ url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' });

it('skips, never passes, what needs the external service when the target is not connected to it', async () => {
  const suiteRoutes = catalog.routes.filter((r) => r.namespace === 'suite/v4');
  const shape = (path: string) => new RegExp(`^${path.replace(/<plugin>/g, '(.+)').replace(/<[a-z_]+>/g, '[^/]+')}$`);
  const refuse = (status: number, code: string): FaultResponse => ({
    status,
    headers: { 'content-type': 'application/json' },
    json: { code, message: code, data: { status } },
    text: JSON.stringify({ code, message: code, data: { status } }),
  });
  // As an unconnected site of the reference implementation answers (wordpress-behaviour.md §12).
  const disconnected: Fault = {
    id: 'test.suite.disconnected',
    title: 'is not connected to the suite external service',
    caughtBy: [],
    request(req) {
      if (req.route === '/suite/v4/module/sso/active' && req.json?.active === true) return refuse(424, 'activation_failed');
      const route = suiteRoutes.find((r) => shape(r.path).test(req.route) && !(r.id === 'suite.module.item' && req.route === '/suite/v4/module/all'));
      if (req.method === 'GET' && route && REMOTE_ROUTES.has(route.id)) return refuse(400, 'site_id_missing');
    },
  };
  const fresh = await startReferenceServer({ port: 0 });
  try {
    const run = await runSuite(target(fresh), { only: '^suite\\.(read\\.|modules\\.toggle\\.sso )', faults: [disconnected] });
    const results = run.results();
    expect(results.errors).toEqual([]);
    const reads = results.behaviours.filter((b) => b.id.startsWith('suite.read.'));
    expect(reads.length).toBeGreaterThan(40);
    for (const b of reads) {
      const routeId = `suite.${b.id.slice('suite.read.'.length)}`;
      if (REMOTE_ROUTES.has(routeId)) expect(`${b.id} ${b.status} ${b.reason}`).toMatch(/ skipped .*not connected to/);
      else expect(`${b.id} ${b.status}`).toBe(`${b.id} passed`);
    }
    const sso = results.behaviours.find((b) => b.id === 'suite.modules.toggle.sso');
    expect(`${sso?.status} ${sso?.reason}`).toMatch(/^skipped .*424 activation_failed.*not connected/);
  } finally {
    await fresh.stop();
  }
});
