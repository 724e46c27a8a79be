/**
 * Skips only on evidence. The reference server is made to answer as an unconnected site of the
 * reference implementation does (wordpress-behaviour.md §12): the routes that need the external
 * service refuse naming it, GET /module/all says which modules need the connection and which
 * settings each module owns, a module that needs the connection cannot be activated, and a
 * module's setting is stored only while the module is active. Then:
 * - what needs the service skips, saying why, and never passes; a documented route that answers
 *   404 rest_no_route fails even so;
 * - a setting stored only while its module is active is checked with the module activated (and
 *   set back), where the target says it can be; where it cannot, the check skips with the
 *   target's own evidence.
 */
import { expect, it } from 'vitest';
import { catalog } from '../../schemas/catalog/index.ts';
import { json, type Fault } from '../../faults/proxy.ts';
import { REMOTE_ROUTES } from '../../suites/extensions/lib/suite-service.ts';
import { startReferenceServer, type ReferenceServer } from '../../targets/reference/index.ts';
import { runSuite, type Target } from '../helpers/harness.ts';

const target = (s: ReferenceServer): Target => ({ url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec' });

/** A module the site can activate (its setting is stored only while it is active), and one that needs the connection. */
const LOCAL = { module: 'carousel', setting: 'carousel_display_exif' };
const REMOTE = { module: 'sso', setting: 'suite_sso_require_two_step' };
/** A documented route that needs the service but is missing on this site. */
const MISSING = '/suite/v4/scan';

function disconnected(): Fault {
  const suiteRoutes = catalog.routes.filter((r) => r.namespace === 'suite/v4');
  const shape = (path: string) => new RegExp(`^${path.replace(/<plugin>/g, '(.+)').replace(/<[a-z_]+>/g, '[^/]+')}$`);
  const active: Record<string, boolean> = { [LOCAL.module]: false, [REMOTE.module]: false };
  const someUpdated = () => json(400, { code: 'some_updated', message: '', data: { status: 400 } });
  return {
    id: 'test.suite.disconnected',
    title: 'is not connected to the suite external service',
    caughtBy: [],
    request(req) {
      if (req.route === MISSING) return json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
      const toggle = /^\/suite\/v4\/module\/([a-z-]+)\/active$/.exec(req.route)?.[1];
      if (toggle === REMOTE.module && req.json?.active !== false) return json(424, { code: 'activation_failed', message: 'The requested module could not be activated.', data: { status: 424 } });
      if (toggle && toggle in active && req.method === 'POST') active[toggle] = req.json?.active !== false;
      if (req.route === '/suite/v4/settings' && req.method === 'POST' && req.json) {
        for (const m of [LOCAL, REMOTE]) if (m.setting in req.json && !active[m.module]) return someUpdated();
        for (const m of [LOCAL, REMOTE]) if (m.module in req.json) active[m.module] = req.json[m.module] === true;
      }
      const route = suiteRoutes.find((r) => shape(r.path).test(req.route) && !(r.id === 'suite.module.item' && req.route === '/suite/v4/module/all'));
      if (req.method === 'GET' && route && REMOTE_ROUTES.has(route.id)) return json(400, { code: 'site_id_missing', message: 'Site ID is missing.', data: { status: 400 } });
    },
    response(req, res) {
      if (req.route !== '/suite/v4/module/all' || !res.json) return;
      res.json[REMOTE.module] = { ...res.json[REMOTE.module], requires_connection: true, options: { [REMOTE.setting]: {} } };
      res.json[LOCAL.module] = { ...res.json[LOCAL.module], options: { [LOCAL.setting]: {} } };
    },
  };
}

it('skips what needs the external service only on evidence, and activates a setting\'s module where the target says it can', async () => {
  const fresh = await startReferenceServer({ port: 0 });
  try {
    const id = (s: string) => s.replace(/_/g, '-');
    const only = `^suite\\.(read\\.|modules\\.toggle\\.${REMOTE.module} |settings\\.(roundtrip|type)\\.(${id(LOCAL.setting)}|${id(REMOTE.setting)}) )`;
    const run = await runSuite(target(fresh), { only, faults: [disconnected()] });
    const results = run.results();
    expect(results.errors).toEqual([]);
    const line = (bid: string) => {
      const b = results.behaviours.find((x) => x.id === bid);
      return `${b?.status} ${b?.reason ?? ''}`;
    };
    const reads = results.behaviours.filter((b) => b.id.startsWith('suite.read.'));
    expect(reads.length).toBeGreaterThan(40);
    for (const b of reads) {
      const routeId = `suite.${b.id.slice('suite.read.'.length)}`;
      if (b.route === MISSING) expect(`${b.id} ${b.status} ${b.reason}`).toMatch(/ failed .*404 rest_no_route.*does not exist/);
      else if (REMOTE_ROUTES.has(routeId)) expect(`${b.id} ${b.status} ${b.reason}`).toMatch(/ skipped .*site_id_missing.*(external service|not connected)/);
      else expect(`${b.id} ${b.status}`).toBe(`${b.id} passed`);
    }
    expect(line(`suite.modules.toggle.${REMOTE.module}`)).toMatch(/^skipped .*424 activation_failed.*requires a connection.*not connected/);
    expect(line(`suite.settings.roundtrip.${id(REMOTE.setting)}`)).toMatch(/^skipped .*some_updated.*module sso.*requires a connection/);
    expect(line(`suite.settings.roundtrip.${id(LOCAL.setting)}`)).toBe('passed ');
    expect(line(`suite.settings.type.${id(LOCAL.setting)}`)).toBe('passed ');
    // The module activated for the check was set back.
    const settings = await fetch(`${fresh.url}/index.php?rest_route=/suite/v4/settings`, {
      headers: { authorization: `Basic ${Buffer.from(`${fresh.user}:${fresh.appPassword}`).toString('base64')}` },
    }).then((r) => r.json());
    expect(settings[LOCAL.module]).toBe(false);
  } finally {
    await fresh.stop();
  }
});
