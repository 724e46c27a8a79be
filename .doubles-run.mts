import { startReferenceServer } from '/work/wt-cov-core/targets/reference/index.ts';
import { startFaultProxy, json, type Fault } from '/work/wt-cov-core/faults/proxy.ts';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
const kind = process.argv[2]!;
const srv = await startReferenceServer({ port: 0 });
const fault: Fault = kind === 'refuse'
  ? { id: 'double.refuse-all', title: 'refuses every request but the index', caughtBy: [], request: (req) => (req.route === '/' ? undefined : json(400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): x', data: { status: 400, params: { x: 'Invalid parameter.' } } })) }
  : { id: 'double.no-routes', title: 'answers 404 to every route but the index', caughtBy: [], request: (req) => (req.route === '/' ? undefined : json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } })) };
const proxy = await startFaultProxy(srv.url, [fault], { profile: 'spec' });
const out = `/tmp/covcore-doubles/${kind}`;
const { spawn } = await import('node:child_process');
await new Promise<void>((res) => {
  const c = spawn(process.execPath, ['/work/wt-cov-core/bin/cms-conformance.js', 'run', '--target', proxy.url, '--profile', 'spec', '--user', srv.user, '--app-password', srv.appPassword, '--seed', '1', '--report-dir', out], { stdio: 'ignore', env: { ...process.env, CI: '1' } });
  c.on('close', () => res());
});
await proxy.close(); await srv.stop();
const r = JSON.parse(readFileSync(`${out}/results.json`, 'utf8'));
const passed = r.behaviours.filter((b: any) => b.status === 'passed' && !b.id.startsWith('disc.') && b.requests > 0);
console.log(kind, r.summary, 'behavioural passes:', passed.length);
for (const b of passed) console.log('  ', b.id);
