/**
 * Full runs against the reference server (`--fresh-site`, with credentials) on one in-process suite
 * engine, as the proofs make them (src/proof/proof.ts InProcessRunner): wall and CPU-s of each.
 * N=<runs> (default 2: the first pays the module loading). For a CPU profile of where a run's time
 * goes: `node --import tsx --cpu-prof --cpu-prof-dir=DIR bench/in-process-run.ts` (BENCHMARKS.md).
 */
import { InProcessRunner } from '../src/proof/proof.ts';
import { startReferenceServer } from '../targets/reference/index.ts';
const runner = await InProcessRunner.open();
for (let i = 0; i < Number(process.env.N ?? 2); i++) {
  const server = await startReferenceServer({ port: 0, deferSiteSetup: true });
  const t0 = performance.now(); const c0 = process.cpuUsage();
  const r = (await runner.run({ url: server.url, profile: 'spec', user: server.user, appPassword: server.appPassword }, { removeReport: true, args: ['--fresh-site'] })).results();
  const c = process.cpuUsage(c0);
  console.log(`run ${i}: ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s, ${r.behaviours.filter((b) => b.status === 'passed').length} passed`);
  await server.stop();
}
await runner.close();
