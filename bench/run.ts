/**
 * Benchmark: full conformance runs against the reference server and the embedded native-PHP
 * WordPress. Prints wall time, request count, Σ request latency, concurrency, and the suite's
 * own overhead: wall ÷ (Σ latency ÷ concurrency). `--write` appends the figures to BENCHMARKS.md.
 *
 *   npm run bench [-- --write] [-- --hosts reference,wordpress] [-- --concurrency 4]
 */
import { appendFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Results } from '../schemas/results.ts';
import { bootHost, runCliFor, type Host } from '../src/selftest.ts';
import { PKG_ROOT } from '../src/runner.ts';

const { values } = parseArgs({
  options: { write: { type: 'boolean' }, hosts: { type: 'string', default: 'reference,wordpress' }, concurrency: { type: 'string', default: '4' } },
});
const concurrency = Number(values.concurrency);

interface Row {
  host: string;
  wallMs: number;
  suiteMs: number;
  requests: number;
  latencyMs: number;
  behaviours: number;
  ratio: number;
}

async function run(host: Host): Promise<{ wallMs: number; results: Results }> {
  const started = performance.now();
  const results = await runCliFor(host.url, host, undefined, 1, ['--concurrency', String(concurrency)]);
  return { wallMs: performance.now() - started, results };
}

const rows: Row[] = [];
for (const kind of values.hosts!.split(',') as ('reference' | 'wordpress')[]) {
  const host = await bootHost(kind);
  try {
    await run(host); // warm-up: vite transform cache, PHP opcode cache
    const { wallMs, results } = await run(host);
    rows.push({
      host: host.label,
      wallMs,
      suiteMs: results.durationMs,
      requests: results.requests.count,
      latencyMs: results.requests.latencyMs,
      behaviours: results.summary.total,
      ratio: wallMs / (results.requests.latencyMs / concurrency),
    });
  } finally {
    await host.stop();
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const table = [
  '| host | behaviours | wall | requests | Σ latency | concurrency | wall ÷ (Σ latency ÷ concurrency) |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.host} | ${r.behaviours} | ${s(r.wallMs)} | ${r.requests} | ${s(r.latencyMs)} | ${concurrency} | ${r.ratio.toFixed(2)} |`),
].join('\n');
console.log(table);
if (values.write) {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  appendFileSync(join(PKG_ROOT, 'BENCHMARKS.md'), `\n## ${new Date().toISOString().slice(0, 10)} — ${machine}\n\n${table}\n`);
  console.log('appended to BENCHMARKS.md');
}
