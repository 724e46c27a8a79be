/**
 * The floor of any client built on undici (the project's HTTP library): the GET requests of a run
 * (its events.ndjson), sent again as they were, 4 at a time through an Agent like the suite's
 * client (src/http/client.ts), each body read as text and nothing else done: no check, no JSON, no
 * vitest, no log. Reads only, so the site is not changed. Prints, as one JSON line, how many were
 * sent and the CPU this process spent sending them (its start-up excluded); bench/run.ts reads the
 * PHP server's CPU for the same requests, so the ratio of the two is the least cms-conformance CPU
 * ÷ PHP CPU that a run of these requests can have on this target (issue 28).
 *
 *   TARGET_USER=… TARGET_APP_PASSWORD=… tsx bench/client-floor.ts <events.ndjson> <base URL>
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from '../src/http/undici.ts';

const [eventsFile, base] = process.argv.slice(2);
if (!eventsFile || !base) {
  console.error('usage: tsx bench/client-floor.ts <events.ndjson> <base URL>');
  process.exit(2);
}
const user = process.env.TARGET_USER;
const password = process.env.TARGET_APP_PASSWORD;
const authorization = user && password ? `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` : undefined;

// The same request lines, sent to the base URL given (the run's host is the same site).
const paths: string[] = [];
for (const line of readFileSync(eventsFile, 'utf8').split('\n')) {
  if (!line) continue;
  const e = JSON.parse(line) as { method: string; url: string };
  if (e.method !== 'GET') continue;
  const u = new URL(e.url);
  paths.push(`${u.pathname}${u.search}`);
}

const agent = new Agent({ connections: 4, keepAliveTimeout: 10_000, pipelining: 1 });
const origin = base.replace(/\/+$/, '');
let next = 0;
let failed = 0;
const cpu0 = process.cpuUsage();
const started = performance.now();
async function lane(): Promise<void> {
  while (next < paths.length) {
    const path = paths[next++]!;
    try {
      const res = await request(`${origin}${path}`, { dispatcher: agent, headers: authorization ? { authorization } : {} });
      await res.body.text();
    } catch {
      failed++;
    }
  }
}
await Promise.all([lane(), lane(), lane(), lane()]);
const cpu = process.cpuUsage(cpu0);
await agent.close();
console.log(JSON.stringify({ requests: paths.length, failed, cpuS: (cpu.user + cpu.system) / 1e6, wallS: (performance.now() - started) / 1000 }));
