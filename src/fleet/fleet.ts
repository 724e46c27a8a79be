/**
 * Fleets: many sites in one run (`run --targets FILE`), shared out over CI runners
 * (`--shard i/n`, stable by site), merged afterwards (`cms-conformance merge`, src/fleet/merge.ts).
 *
 * The targets file names sites and the environment variables that hold their credentials, never
 * the credentials themselves. Three formats, one site each:
 *
 *   # text: URL, then the variables of the user and the application password, then options
 *   https://a.example  A_USER A_APP_PASSWORD  name=shop-a baseline=known/a.json
 *   https://b.example  auth-header-env=B_AUTH profile=wordpress
 *   https://c.example                                   # no credentials: read-only checks only
 *
 *   JSON: [{"url": "...", "name": "...", "userEnv": "A_USER", "appPasswordEnv": "A_APP_PASSWORD",
 *           "authHeaderEnv": "...", "baseline": "...", "profile": "..."}]  (or {"sites": [...]})
 *   CSV:  a header row naming these columns (url,name,user_env,app_password_env,...), then one row per site.
 *
 * A shard writes one folder per site (`sites/<id>/`: the reports of a single run) and
 * `shard.json`, which says what the folder holds: tool version, seed, shard, targets file digest,
 * and every site of the shard with its outcome (also the sites that could not be run).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { normalizeBaseUrl, redactConfig, type ProfileChoice, type RunConfig } from '../core/config.ts';
import { UsageError } from '../core/errors.ts';
import { loadBaseline } from '../run/baseline.ts';
import { parseShard, shardOfKey, type ShardInfo } from '../core/shard.ts';
import { TOOL } from '../core/paths.ts';
import { runConformance, type Log } from '../run/pipeline.ts';
import { SuiteEngine } from '../engine/suite-engine.ts';
import { resolveSelection, type Selection } from '../engine/selection.ts';
import { countsOf, leftBehindLines, type BaselineFile, type Counts } from '../../results/results.ts';
import { EXIT, combineExitCodes, exitCodeOfError } from '../../results/verdict.ts';
import { DEFAULT_REPORTS_ROOT, timestampedDir, updateLatest } from '../../reporters/index.ts';

/** A target as the targets file lists it (one line, object or row). */
export interface TargetEntry {
  /** Unique in the file; the site's folder name and the key of its shard. */
  id: string;
  url: string;
  userEnv?: string;
  appPasswordEnv?: string;
  authHeaderEnv?: string;
  /** The site's own baseline (resolved against the targets file's folder). */
  baseline?: string;
  profile?: ProfileChoice;
  /** Where it is declared: "sites.txt:12". */
  at: string;
}

export interface TargetsFile {
  path: string;
  sites: TargetEntry[];
  /** sha256 of the file's bytes: shards of one fleet run agree on it. */
  digest: string;
}

export const SHARD_FILE = 'shard.json';
export const SITES_DIR = 'sites';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SITE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const PROFILES: readonly ProfileChoice[] = ['auto', 'spec', 'wordpress'];

/** A site's ID from its URL: host, port and path, e.g. `shop.example`, `127.0.0.1-8080-site-3`. */
export function siteIdFor(url: string): string {
  const u = new URL(url);
  const parts = [u.hostname.replace(/^\[|\]$/g, ''), u.port, ...u.pathname.split('/')].filter(Boolean);
  const id = parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 100);
  return id || 'site';
}

/** Field names as written (user-env, userEnv, USER_ENV ...) to one key. */
const fieldKey = (k: string): string => k.toLowerCase().replace(/[-_\s]/g, '');
const FIELDS: Record<string, keyof Omit<TargetEntry, 'id' | 'at'> | 'name'> = {
  url: 'url',
  name: 'name',
  userenv: 'userEnv',
  apppasswordenv: 'appPasswordEnv',
  authheaderenv: 'authHeaderEnv',
  baseline: 'baseline',
  profile: 'profile',
};
/** Fields that would hold a credential itself: refused, the file names variables only. */
const SECRETS = new Set(['user', 'apppassword', 'password', 'authheader', 'token']);

type RawSite = Partial<Record<keyof typeof FIELDS | string, string>>;

function site(raw: Record<string, unknown>, at: string, baseDir: string): TargetEntry & { name?: string } {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined || v === null || v === '') continue;
    const key = fieldKey(k);
    if (SECRETS.has(key)) throw new UsageError(`${at}: "${k}" would put a credential in the targets file; name the environment variable that holds it instead (${k.replace(/[-_]?env$/i, '')}-env=VAR)`);
    const field = FIELDS[key];
    if (!field) throw new UsageError(`${at}: unknown field "${k}" (fields: url, name, user-env, app-password-env, auth-header-env, baseline, profile)`);
    if (typeof v !== 'string') throw new UsageError(`${at}: "${k}" must be a string`);
    out[field] = v.trim();
  }
  if (!out.url) throw new UsageError(`${at}: no URL`);
  let url: string;
  try {
    url = normalizeBaseUrl(out.url);
  } catch (e) {
    throw new UsageError(`${at}: ${(e as Error).message.replace(/^--target/, 'the URL')}`);
  }
  for (const f of ['userEnv', 'appPasswordEnv', 'authHeaderEnv'] as const)
    if (out[f] !== undefined && !ENV_NAME.test(out[f]!)) throw new UsageError(`${at}: ${f} must name an environment variable (letters, digits, _), got "${out[f]}"`);
  if ((out.userEnv === undefined) !== (out.appPasswordEnv === undefined)) throw new UsageError(`${at}: give the variables of both the user and the application password, or neither`);
  if (out.authHeaderEnv && out.userEnv) throw new UsageError(`${at}: give either auth-header-env or the user and application password variables, not both`);
  if (out.profile !== undefined && !PROFILES.includes(out.profile as ProfileChoice)) throw new UsageError(`${at}: profile must be one of ${PROFILES.join(', ')}, got "${out.profile}"`);
  if (out.name !== undefined && !SITE_ID.test(out.name)) throw new UsageError(`${at}: name must be letters, digits, ".", "_" or "-" (at most 100), got "${out.name}"`);
  return {
    id: out.name ?? siteIdFor(url),
    url,
    ...(out.userEnv ? { userEnv: out.userEnv, appPasswordEnv: out.appPasswordEnv } : {}),
    ...(out.authHeaderEnv ? { authHeaderEnv: out.authHeaderEnv } : {}),
    ...(out.baseline ? { baseline: resolve(baseDir, out.baseline) } : {}),
    ...(out.profile ? { profile: out.profile as ProfileChoice } : {}),
    at,
  };
}

function parseText(text: string, source: string, baseDir: string): TargetEntry[] {
  const sites: TargetEntry[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const content = line.replace(/(^|\s)#.*$/, '').trim();
    if (!content) return;
    const at = `${source}:${i + 1}`;
    const [url, ...rest] = content.split(/\s+/);
    const raw: RawSite = { url };
    const bare: string[] = [];
    for (const tok of rest) {
      const eq = tok.indexOf('=');
      if (eq > 0) raw[tok.slice(0, eq)] = tok.slice(eq + 1);
      else bare.push(tok);
    }
    if (bare.length === 1 || bare.length > 2)
      throw new UsageError(`${at}: after the URL come the variables of the user and of the application password (two names), then key=value options; got ${bare.length} name(s)`);
    if (bare.length === 2) [raw['user-env'], raw['app-password-env']] = bare;
    sites.push(site(raw, at, baseDir));
  });
  return sites;
}

function parseJson(text: string, source: string, baseDir: string): TargetEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${source} is not valid JSON: ${(e as Error).message}`);
  }
  const list = Array.isArray(data) ? data : (data as { sites?: unknown })?.sites;
  if (!Array.isArray(list)) throw new UsageError(`${source}: expected an array of sites, or {"sites": [...]}`);
  return list.map((x, i) => {
    const at = `${source}: site ${i + 1}`;
    if (typeof x === 'string') return site({ url: x }, at, baseDir);
    if (!x || typeof x !== 'object' || Array.isArray(x)) throw new UsageError(`${at}: expected an object with "url"`);
    return site(x as Record<string, unknown>, at, baseDir);
  });
}

/** One CSV line into fields (double quotes, "" inside quotes). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') out.push(cur), (cur = '');
    else cur += c;
  }
  out.push(cur);
  return out.map((f) => f.trim());
}

function parseCsv(text: string, source: string, baseDir: string): TargetEntry[] {
  const lines = text.split(/\r?\n/).map((l, i) => ({ l, n: i + 1 })).filter(({ l }) => l.trim() && !l.trim().startsWith('#'));
  if (!lines.length) return [];
  const header = csvFields(lines[0]!.l);
  if (!header.some((h) => fieldKey(h) === 'url')) throw new UsageError(`${source}: the first row of a CSV targets file names the columns and must have "url"`);
  return lines.slice(1).map(({ l, n }) => {
    const values = csvFields(l);
    return site(Object.fromEntries(header.map((h, i) => [h, values[i] ?? ''])), `${source}:${n}`, baseDir);
  });
}

/** Parse a targets file's text; `format` from the file name or sniffed from the content. */
export function parseTargets(text: string, source: string, baseDir: string, format?: 'text' | 'json' | 'csv'): TargetEntry[] {
  const t = text.replace(/^\uFEFF/, '');
  const fmt =
    format ??
    (/\.json$/i.test(source) || /^\s*[[{]/.test(t) ? 'json' : /\.csv$/i.test(source) || /^\s*"?url"?\s*,/i.test(t) ? 'csv' : 'text');
  const sites = fmt === 'json' ? parseJson(t, source, baseDir) : fmt === 'csv' ? parseCsv(t, source, baseDir) : parseText(t, source, baseDir);
  const seen = new Map<string, string>();
  for (const s of sites) {
    const other = seen.get(s.id);
    if (other) throw new UsageError(`${s.at}: site "${s.id}" is also at ${other}; give one of them another name=`);
    seen.set(s.id, s.at);
  }
  return sites;
}

export function readTargetsFile(path: string): TargetsFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new UsageError(`cannot read --targets ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const sites = parseTargets(bytes.toString('utf8'), basename(path), dirname(resolve(path)));
  if (!sites.length) throw new UsageError(`--targets ${path} lists no site`);
  return { path, sites, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
}

// ---------------------------------------------------------------- the shard file

export type SiteState = 'done' | 'not-run' | 'pending';

export interface ShardSiteEntry {
  id: string;
  url: string;
  /** Its folder, relative to shard.json (absent when it could not be run). */
  dir?: string;
  state: SiteState;
  /** Exit code of the site's run (0, 1, 3, 4), or of why it could not run (2, 3, 4). */
  exitCode?: number;
  /** Why it could not be run. */
  error?: string;
  summary?: Counts;
  durationMs?: number;
}

export interface ShardFile {
  schemaVersion: 1;
  kind: 'cms-conformance-shard';
  tool: { name: string; version: string };
  seed: number;
  shard: ShardInfo;
  targets: { file: string; digest: string; sites: number };
  /** The run's configuration, credentials redacted. */
  config: Record<string, unknown>;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  /** Every site of this shard, in the order run. */
  sites: ShardSiteEntry[];
  exitCode?: number;
}

export interface FleetRunOutcome {
  dir: string;
  shardFile: string;
  shard: ShardFile;
  latest?: string;
  exitCode: number;
}

function credentialsOf(s: TargetEntry, env: NodeJS.ProcessEnv): Pick<RunConfig, 'user' | 'appPassword' | 'authHeader'> {
  const read = (name: string, what: string): string => {
    const v = env[name];
    if (v === undefined || v === '') throw new UsageError(`environment variable ${name} (the ${what} of site ${s.id}, ${s.at}) is not set`);
    return v;
  };
  if (s.authHeaderEnv) return { user: undefined, appPassword: undefined, authHeader: read(s.authHeaderEnv, 'Authorization header') };
  if (s.userEnv) return { user: read(s.userEnv, 'user'), appPassword: read(s.appPasswordEnv!, 'application password'), authHeader: undefined };
  // No variables named: the run's own credentials (--user/--app-password, --auth-header), if any.
  return {};
}

/** Both baselines as one: the site's own entries win over --baseline's for the same behaviour. */
function mergedBaseline(global: { file: string; data: BaselineFile } | undefined, own: string | undefined): { file: string; data: BaselineFile } | undefined {
  if (!own) return global;
  const mine = loadBaseline(own);
  if (!global) return { file: own, data: mine };
  const ids = new Set(mine.failures.map((f) => f.id));
  return { file: `${global.file} + ${own}`, data: { ...mine, failures: [...mine.failures, ...global.data.failures.filter((f) => !ids.has(f.id))] } };
}

/**
 * `run --targets FILE [--shard i/n]`: run the shard's sites one after the other on one suite
 * engine, with the same seed and flags; one report folder per site and shard.json.
 */
export async function runFleet(cfg: RunConfig, log: Log, env: NodeJS.ProcessEnv = process.env): Promise<FleetRunOutcome> {
  if (cfg.target) throw new UsageError('give either --target (one site) or --targets (a file of sites), not both');
  if (cfg.writeBaseline) throw new UsageError('--write-baseline records one site; with --targets, name a baseline per site in the targets file (baseline=FILE)');
  const file = readTargetsFile(cfg.targets!);
  const spec = cfg.shard ? parseShard(cfg.shard) : { index: 1, count: 1 };
  const shard: ShardInfo = { ...spec, by: 'site' };
  const mine = file.sites.filter((s) => shardOfKey(s.id, spec.count) === spec.index);
  const global = cfg.baseline ? { file: cfg.baseline, data: loadBaseline(cfg.baseline) } : undefined;
  // Baselines named in the file are read before anything runs: a typo is a usage error, not a surprise at site 900.
  for (const s of mine) if (s.baseline) loadBaseline(s.baseline);

  const dir = cfg.reportDir ? resolve(cfg.reportDir) : timestampedDir(resolve(DEFAULT_REPORTS_ROOT));
  mkdirSync(dir, { recursive: true });
  const shardFile = join(dir, SHARD_FILE);
  const started = new Date();
  const doc: ShardFile = {
    schemaVersion: 1,
    kind: 'cms-conformance-shard',
    tool: TOOL,
    seed: cfg.seed,
    shard,
    targets: { file: basename(file.path), digest: file.digest, sites: file.sites.length },
    config: redactConfig({ ...cfg, targets: basename(file.path) }),
    startedAt: started.toISOString(),
    sites: mine.map((s) => ({ id: s.id, url: s.url, state: 'pending' as const })),
  };
  const save = () => writeFileSync(shardFile, `${JSON.stringify(doc, null, 2)}\n`);
  save();
  log(`${TOOL.name} ${TOOL.version}: shard ${spec.index}/${spec.count} of ${file.sites.length} site(s) in ${basename(file.path)}: ${mine.length} site(s); seed ${cfg.seed}`);

  let engine: SuiteEngine | undefined;
  let selection: Selection | undefined;
  let stop = false;
  const onSignal = (sig: NodeJS.Signals) => {
    log(`\n${sig}: stopping after this site's cleanup ...`);
    stop = true;
    engine?.cancel();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const [i, s] of mine.entries()) {
      if (stop) break;
      const entry = doc.sites[i]!;
      const t0 = performance.now();
      const siteDir = join(dir, SITES_DIR, s.id);
      try {
        const creds = credentialsOf(s, env);
        const baseline = mergedBaseline(global, s.baseline);
        // The shard shares out sites here, not behaviours: every site runs every selected behaviour.
        selection ??= await resolveSelection(cfg.only);
        engine ??= await SuiteEngine.create(selection, { ...cfg, shard: undefined }, { keepWorkers: true });
        const quiet: Log = (l) => (/^(sweep|cms-conformance \d|profile )/.test(l) ? undefined : log(`  ${l}`));
        const outcome = await runConformance(
          { ...cfg, ...creds, target: s.url, profile: s.profile ?? cfg.profile, reportDir: siteDir, baseline: undefined, writeBaseline: undefined, targets: undefined, shard: undefined },
          quiet,
          { engine, selection, shard, site: s.id, noLatest: true, ...(baseline ? { baseline } : {}) },
        );
        const r = outcome.results;
        Object.assign(entry, { state: 'done', dir: relative(dir, siteDir), exitCode: outcome.exitCode, summary: countsOf(r.summary) });
        const c = r.summary;
        log(`[${i + 1}/${mine.length}] ${s.id}: ${c.passed} passed, ${c.failed} failed, ${c.error ?? 0} could not be checked, ${c.skipped} skipped (exit ${outcome.exitCode}, ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
        for (const l of leftBehindLines(r.leftBehind)) log(`  ${l}`);
      } catch (e) {
        if (engine?.cancelled) break;
        Object.assign(entry, { state: 'not-run', exitCode: exitCodeOfError(e), error: (e as Error).message });
        if (existsSync(join(siteDir, 'results.json'))) entry.dir = relative(dir, siteDir);
        log(`[${i + 1}/${mine.length}] ${s.id}: not run: ${(e as Error).message}`);
      }
      entry.durationMs = Math.round(performance.now() - t0);
      save();
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await engine?.close();
  }
  const finished = new Date();
  doc.finishedAt = finished.toISOString();
  doc.durationMs = finished.getTime() - started.getTime();
  const pending = doc.sites.filter((s) => s.state === 'pending').length;
  doc.exitCode = combineExitCodes([...doc.sites.map((s) => s.exitCode ?? 0), ...(pending ? [EXIT.unreachable] : [])]);
  save();
  const latest = cfg.reportDir ? undefined : updateLatest(dirname(dir), dir);
  return { dir, shardFile, shard: doc, ...(latest ? { latest } : {}), exitCode: doc.exitCode };
}
