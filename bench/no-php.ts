/**
 * Issue 27: the README's first command on a machine without PHP. Runs `npm run conformance -- --seed 1`
 * twice and compares them:
 *
 * - `no php`: php hidden from the CLI, with an empty cache (CMS_CONFORMANCE_CACHE in a temp dir: the first
 *   run on that machine, downloads and template install included; npm's own cache ~/.npm is left as it is).
 *   php is hidden by a PATH whose /usr/bin stand-in has every program but php*. As root (unshare available),
 *   the run is also put in a private mount namespace that looks like a slim Debian (debian:bookworm-slim
 *   plus Node): the php packages and the libraries of their closure such a machine lacks (SLIM_LACKS) are
 *   hidden (their files bind-mounted over by /dev/null, their entries removed from a copy of dpkg's status
 *   file mounted over the real one), and so are apt's package lists (an empty directory over
 *   /var/lib/apt/lists, as Docker images have none), so the run must fetch them all. Nothing outside that
 *   namespace changes.
 * - `native`: the same command with the machine's php (the default cache, warm).
 *
 * Prints both walls, the boot (downloads included), requests and verdicts, and every behaviour whose
 * status differs. Goal (issue 27): the no-php run within 10 minutes on 2 cores, the same verdicts.
 *
 *   npx tsx bench/no-php.ts [--no-slim] [--skip-native]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Results } from '../results/results.ts';
import { PKG_ROOT } from '../src/core/paths.ts';

const { values } = parseArgs({ options: { 'no-slim': { type: 'boolean' }, 'skip-native': { type: 'boolean' } } });

/** What a debian:bookworm-slim machine with Node lacks of what Debian's php8.2 packages need. */
const SLIM_LACKS = [
  'php-common', 'php8.2-cli', 'php8.2-common', 'php8.2-opcache', 'php8.2-readline', 'php8.2-sqlite3', 'php8.2-mbstring', 'php8.2-xml', 'php8.2-intl',
  'php8.2-curl', 'php8.2-gd', 'php8.2-zip', 'php8.2-bcmath', 'unzip',
  'libargon2-1', 'libedit2', 'libicu72', 'libmagic-mgc', 'libmagic1', 'libonig5', 'libsodium23', 'libsqlite3-0', 'libssl3', 'libxml2', 'libxslt1.1',
];

const work = mkdtempSync(join(tmpdir(), 'cmsc-nophp-'));
const load = () => loadavg()[0]!.toFixed(1);

/** A directory standing in for /usr/bin (and /bin): every program but php*, phar* (and unzip, not on a slim Debian). */
function pathWithoutPhp(hide: RegExp): string {
  const bin = join(work, 'bin');
  mkdirSync(bin);
  for (const dir of ['/usr/bin', '/bin']) {
    for (const name of readdirSync(dir)) {
      if (hide.test(name) || existsSync(join(bin, name))) continue;
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  const keep = (process.env.PATH ?? '').split(':').filter((d) => d && !['/usr/bin', '/bin'].includes(d) && !existsSync(join(d, 'php')));
  return [...keep, bin].join(':');
}

/** sh commands that, inside `unshare -m`, make the machine look as if SLIM_LACKS were not installed. */
function slimMounts(): string[] {
  const cmds: string[] = [];
  const status = readFileSync('/var/lib/dpkg/status', 'utf8')
    .split('\n\n')
    .filter((stanza) => !SLIM_LACKS.includes(/^Package: (\S+)/m.exec(stanza)?.[1] ?? ''))
    .join('\n\n');
  writeFileSync(join(work, 'status'), status);
  cmds.push(`mount --bind ${join(work, 'status')} /var/lib/dpkg/status`);
  // Docker's Debian images delete the package lists: the run must fetch its own.
  mkdirSync(join(work, 'no-lists'));
  cmds.push(`mount --bind ${join(work, 'no-lists')} /var/lib/apt/lists`);
  for (const pkg of SLIM_LACKS) {
    const list = ['', ':amd64', ':arm64'].map((a) => `/var/lib/dpkg/info/${pkg}${a}.list`).find(existsSync);
    if (!list) continue;
    for (const file of readFileSync(list, 'utf8').split('\n')) {
      if (!/^\/(usr\/)?(lib|bin)\//.test(file)) continue;
      let st;
      try {
        st = statSync(file);
      } catch {
        continue;
      }
      if (st.isFile()) cmds.push(`mount --bind /dev/null '${file}'`);
    }
  }
  return cmds;
}

interface Outcome {
  wallS: number;
  bootS?: number;
  results: Results;
  log: string;
  exit: number | null;
}

function runFirstCommand(name: string, env: NodeJS.ProcessEnv, wrap: string[] = []): Promise<Outcome> {
  const reports = join(work, `reports-${name}`);
  const cmd = [...wrap, 'npm', 'run', 'conformance', '--', '--seed', '1', '--report-dir', reports];
  const t0 = Date.now();
  console.error(`[${name}] ${cmd.slice(wrap.length).join(' ')} (load ${load()})`);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0]!, cmd.slice(1), { cwd: PKG_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stderr.on('data', (d) => {
      log += d;
      for (const line of String(d).split('\n')) if (line && !/^\d+\/[≥\d]+ behaviours/.test(line)) console.error(`[${name}] ${line}`);
    });
    child.stdout.on('data', (d) => (log += d));
    child.on('error', reject);
    child.on('close', (exit) => {
      const wallS = (Date.now() - t0) / 1000;
      const boot = /WordPress [\d.]+ ready at \S+ (?:on PHP-in-WebAssembly )?\(([\d.]+) s\)/.exec(log);
      try {
        const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as Results;
        resolve({ wallS, ...(boot ? { bootS: Number(boot[1]) } : {}), results, log, exit });
      } catch (e) {
        reject(new Error(`[${name}] no results.json (exit ${exit}): ${log.slice(-2000)}`, { cause: e }));
      }
    });
  });
}

const seconds = (clock: string) => clock.split(':').reduce((n, part) => n * 60 + Number(part), 0);

/**
 * How honest the progress line's estimate was: at each printed line (every 5 s, not a terminal) the estimated
 * end (elapsed + "about N left") against the real end (the elapsed time of the last line).
 */
function estimates(log: string): string {
  const re = /^(\d+)\/≥?(\d+) behaviours.*?(\d+(?::\d+)+) elapsed(?:, about (\d+(?::\d+)+) left)?/gm;
  const lines = [...log.matchAll(re)].map((m) => ({ done: Number(m[1]), total: Number(m[2]), at: seconds(m[3]!), left: m[4] ? seconds(m[4]) : undefined }));
  if (!lines.length) return 'no progress lines';
  const end = lines[lines.length - 1]!.at;
  const shown = lines.filter((l) => l.left !== undefined);
  const samples = shown.filter((_, i) => i % Math.max(1, Math.floor(shown.length / 8)) === 0);
  // What the estimate was before issue 27: every behaviour alike.
  const alike = (l: (typeof lines)[number]) => Math.round(l.at + (l.at / l.done) * (l.total - l.done));
  return (
    `run ${end} s; first estimate at ${shown[0]?.at ?? '-'} s; estimated end (at elapsed: now / every behaviour alike) ` +
    samples.map((l) => `${l.at} s: ${l.at + l.left!} / ${alike(l)}`).join(', ')
  );
}

const describe = (o: Outcome) => {
  const s = o.results.summary;
  return `${o.wallS.toFixed(0)} s wall (boot ${o.bootS ?? '?'} s), ${o.results.requests?.count ?? '?'} requests, ${s.passed} passed / ${s.failed} failed / ${s.skipped} skipped / ${s.error} could not be checked, exit ${o.exit}`;
};

const slim = !values['no-slim'] && process.getuid?.() === 0 && existsSync('/usr/bin/unshare') && existsSync('/var/lib/dpkg/status');
const env: NodeJS.ProcessEnv = { ...process.env, PATH: pathWithoutPhp(slim ? /^(php|phar|unzip$)/ : /^(php|phar)/), CMS_CONFORMANCE_CACHE: join(work, 'cache') };
delete env.CMS_CONFORMANCE_PHP;
delete env.CMS_CONFORMANCE_RUNTIME;
let wrap: string[] = [];
if (slim) {
  writeFileSync(join(work, 'slim.sh'), `set -e\n${slimMounts().join('\n')}\nexec "$@"\n`);
  wrap = ['/usr/bin/unshare', '-m', '--propagation', 'private', '/bin/sh', join(work, 'slim.sh')];
}
console.error(`cores ${availableParallelism()}, load ${load()}; php hidden by PATH${slim ? ` and a slim-Debian mount namespace (${SLIM_LACKS.length} packages hidden)` : ''}; work dir ${work}`);
try {
  const noPhp = await runFirstCommand('no-php', env, wrap);
  console.log(`no php (${slim ? 'slim Debian' : 'php off PATH'}, empty cache): ${describe(noPhp)}; load after ${load()}`);
  console.log(`  progress estimate: ${estimates(noPhp.log)}`);
  if (!values['skip-native']) {
    const native = await runFirstCommand('native', { ...process.env });
    console.log(`native php (warm cache): ${describe(native)}; load after ${load()}`);
    console.log(`  progress estimate: ${estimates(native.log)}`);
    const status = (o: Outcome) => new Map(o.results.behaviours.map((b) => [b.id, b.status]));
    const a = status(noPhp);
    const b = status(native);
    const diff = [...new Set([...a.keys(), ...b.keys()])].filter((id) => a.get(id) !== b.get(id));
    console.log(diff.length ? `verdicts differ for ${diff.length}:\n${diff.map((id) => `  ${id}: no-php ${a.get(id)}, native ${b.get(id)}`).join('\n')}` : 'same verdicts: every behaviour has the same status');
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
