/**
 * Run configuration: flags > environment > `.env` (dotenv) > defaults.
 * One table of options drives parsing, environment lookup, validation and `--help`.
 */
import { parseArgs } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import dotenv from 'dotenv';
import { FAIL_ON, REPORT_FORMATS, type FailOn, type ReportFormat } from '../../results/results.ts';
import { CLIENT_IDS } from '../../results/clients.ts';
import { UsageError } from './errors.ts';
import { parseShard } from './shard.ts';

export type ProfileChoice = 'auto' | 'spec' | 'wordpress';
export { REPORT_FORMATS, type FailOn, type ReportFormat };

export interface RunConfig {
  /** Base URL of the target; null = boot the embedded WordPress; 'reference' = the in-process reference server. */
  target: string | null;
  user?: string;
  appPassword?: string;
  /** A complete Authorization header value, used instead of user + app password. */
  authHeader?: string;
  profile: ProfileChoice;
  /** Regular expression matched against behaviour IDs and titles. */
  only?: string;
  concurrency: number;
  timeoutMs: number;
  seed: number;
  runs: number;
  /** Exactly this directory; undefined = reports/<timestamp>/ with reports/latest pointing to it. */
  reportDir?: string;
  /** Formats to write (default: all). */
  report: ReportFormat[];
  /** Known failures that do not gate the exit code. */
  baseline?: string;
  /** No baseline at all: not even the known deviations of the embedded release (the plain verdict). */
  noBaseline?: boolean;
  /** Record this run's failures as a baseline file. */
  writeBaseline?: string;
  allowWrites: boolean;
  /** Never write, even where writes are allowed by default. */
  readOnly: boolean;
  /** The target is freshly set up (nobody changed it): defaults of site state are checked. */
  freshSite: boolean;
  /** At most this many requests started per second over the whole run (0 = no limit). */
  maxRps: number;
  /** Times transient trouble of the target (no answer, a gateway's 5xx, 429) is retried; 0 = never. */
  retries: number;
  /** Response bodies larger than this (bytes) are read no further; the check that needs one ends as a target error. */
  maxBodyBytes: number;
  failOn: FailOn;
  /**
   * The clients whose readiness gates the exit code (`--fail-on client`: every client, `['*']`;
   * `--fail-on-client wpapi,api-fetch`: those). Absent: CLIENT findings never gate.
   */
  failOnClient?: string[];
  /** No progress line and no failure lines while the run goes; the summary at the end stays. */
  quiet: boolean;
  /** Sites to run, one after the other (a targets file: text, JSON or CSV); see src/fleet/fleet.ts. */
  targets?: string;
  /** `i/n`: this run's share of the sites (--targets) or of the behaviours (one target). */
  shard?: string;
  /** The start-of-run sweep deletes tagged items of other runs only when they started longer ago than this. */
  sweepAfterMs?: number;
  /** Stop the run (reports written, marked incomplete; exit code 3) when no request got an answer for this long (0 = never). */
  unreachableAfterMs?: number;
  /** Headers sent with every request (--header 'Name: value'), e.g. an access gateway's token; values are secrets. */
  headers?: Record<string, string>;
  /** An HTTP(S) proxy every request goes through (NO_PROXY honoured); without it HTTPS_PROXY / HTTP_PROXY (src/http/connection.ts). */
  proxy?: string;
  /** Do not verify the target's TLS certificate (said on every run). */
  insecure?: boolean;
}

type Kind = 'string' | 'int' | 'duration' | 'size' | 'boolean' | 'enum' | 'list' | 'fail-on' | 'headers' | 'url';

interface OptionDef<K extends string = keyof RunConfig> {
  key: K;
  flag: string;
  env: string;
  kind: Kind;
  values?: readonly string[];
  min?: number;
  help: string;
  placeholder?: string;
  secret?: boolean;
}

export const OPTIONS: readonly OptionDef[] = [
  { key: 'target', flag: 'target', env: 'TARGET_URL', kind: 'string', placeholder: 'URL', help: 'Base URL of the server under test (routes are addressed as {URL}/index.php?rest_route=...). "--target reference" runs against the in-memory reference server, where every behaviour passes. Omit it to boot the embedded local WordPress (needs PHP).' },
  { key: 'user', flag: 'user', env: 'TARGET_USER', kind: 'string', placeholder: 'NAME', help: 'User name for HTTP Basic authentication with an application password.' },
  { key: 'appPassword', flag: 'app-password', env: 'TARGET_APP_PASSWORD', kind: 'string', placeholder: 'PASSWORD', secret: true, help: 'Application password of --user (never printed or written).' },
  { key: 'authHeader', flag: 'auth-header', env: 'TARGET_AUTH_HEADER', kind: 'string', placeholder: 'VALUE', secret: true, help: 'A complete Authorization header value, instead of --user/--app-password.' },
  { key: 'profile', flag: 'profile', env: 'TARGET_PROFILE', kind: 'enum', values: ['auto', 'spec', 'wordpress'], help: 'Names the target uses: spec (documented names), wordpress (wp/v2, akismet/v1, jetpack/v4 ...), auto (decided from the target index). Default auto.' },
  { key: 'only', flag: 'only', env: 'CONFORMANCE_ONLY', kind: 'string', placeholder: 'PATTERN', help: 'Run only behaviours whose ID or title matches this regular expression (e.g. "^disc\\.args\\.cms").' },
  { key: 'concurrency', flag: 'concurrency', env: 'CONFORMANCE_CONCURRENCY', kind: 'int', min: 1, placeholder: 'N', help: 'Requests in flight at once, and parallel suite files. Default 4.' },
  { key: 'timeoutMs', flag: 'timeout', env: 'CONFORMANCE_TIMEOUT', kind: 'duration', min: 1, placeholder: 'MS', help: 'Per-request timeout, in milliseconds or with a unit (500ms, 10s); a batch gets it once per request it carries. Default 10s.' },
  { key: 'seed', flag: 'seed', env: 'CONFORMANCE_SEED', kind: 'int', min: 0, placeholder: 'N', help: 'Seed for generated inputs; printed at the start of every run so a run can be repeated. Default random.' },
  { key: 'runs', flag: 'runs', env: 'CONFORMANCE_RUNS', kind: 'int', min: 1, placeholder: 'N', help: 'Generated inputs per property (fast-check numRuns). Default 20.' },
  { key: 'reportDir', flag: 'report-dir', env: 'REPORT_DIR', kind: 'string', placeholder: 'DIR', help: 'Write the reports to exactly this directory. Default: a new reports/<timestamp>/, and reports/latest points to it.' },
  { key: 'report', flag: 'report', env: 'CONFORMANCE_REPORT', kind: 'list', values: REPORT_FORMATS, placeholder: 'LIST', help: 'Formats to write, comma-separated: html (report.html), junit (junit.xml), md (report.md, for a CI step summary), json (results.json), events (events.ndjson, one line per request). Default all.' },
  { key: 'baseline', flag: 'baseline', env: 'CONFORMANCE_BASELINE', kind: 'string', placeholder: 'FILE', help: 'Known failures (a file --write-baseline wrote, or JSON {"failures":[{"id","reason","link"?}]}): the exit code is 1 only for failures it does not list; entries that now pass are reported. Without --target the known deviations of the embedded WordPress release are the baseline (see --no-baseline).' },
  { key: 'noBaseline', flag: 'no-baseline', env: 'CONFORMANCE_NO_BASELINE', kind: 'boolean', help: 'The plain verdict: no baseline, not even the known deviations of the embedded WordPress release that a run without --target takes as its baseline by default.' },
  { key: 'writeBaseline', flag: 'write-baseline', env: 'CONFORMANCE_WRITE_BASELINE', kind: 'string', placeholder: 'FILE', help: 'Write the failures of this run to FILE as a baseline (reasons and links of entries already in FILE are kept).' },
  { key: 'allowWrites', flag: 'allow-writes', env: 'ALLOW_WRITES', kind: 'boolean', help: 'Allow behaviours that create, change or delete data on a target that is not on loopback. Loopback and embedded targets allow writes by default.' },
  { key: 'readOnly', flag: 'read-only', env: 'READ_ONLY', kind: 'boolean', help: 'Never create, change or delete anything, even on loopback or embedded targets; write behaviours skip with that reason, read behaviours check the site\'s own content.' },
  { key: 'freshSite', flag: 'fresh-site', env: 'CONFORMANCE_FRESH_SITE', kind: 'boolean', help: 'The target is freshly set up and nobody has changed it: also check the documented defaults of site state (settings, module toggles), read before any behaviour writes. Targets the suite boots itself are fresh anyway; without this the default checks skip.' },
  { key: 'maxRps', flag: 'max-rps', env: 'CONFORMANCE_MAX_RPS', kind: 'int', min: 0, placeholder: 'N', help: 'At most N requests per second over the whole run (0 = no limit, the default). A 429 with Retry-After also slows the run down.' },
  { key: 'retries', flag: 'retries', env: 'CONFORMANCE_RETRIES', kind: 'int', min: 0, placeholder: 'N', help: "Send a request again up to N times when the target has transient trouble: no answer (refused, reset, timed out, cut off), a gateway's answer (a 5xx that is not the application's JSON error, a 503 with Retry-After, a 429), an HTML page instead of JSON; with backoff, honouring Retry-After. Reads are sent again freely, writes only when the first attempt cannot have reached the application (no connection, a 429; never after a 5xx, which a gateway may answer after the application acted). Trouble that persists makes the check an error of the target, never a failure. Default 3; 0 = never." },
  { key: 'maxBodyBytes', flag: 'max-body', env: 'CONFORMANCE_MAX_BODY', kind: 'size', min: 1024, placeholder: 'SIZE', help: 'Read response bodies up to this size (bytes, or with a unit: 512kB, 8MB); a larger one is read no further and a check that needs it ends as an error of the target. Default 8MB.' },
  { key: 'quiet', flag: 'quiet', env: 'CONFORMANCE_QUIET', kind: 'boolean', help: 'No progress line and no failure lines while the run goes (the summary at the end is printed).' },
  { key: 'failOn', flag: 'fail-on', env: 'FAIL_ON', kind: 'fail-on', values: [...FAIL_ON, 'client'], placeholder: 'security|must|should[,client]', help: 'The least severe level whose failures make the exit code 1: security (SECURITY only), must (SECURITY and MUST, the default) or should (all three). Add client (--fail-on client, --fail-on must,client) to make the readiness of every real client gate too (a CLIENT finding never gates otherwise).' },
  { key: 'failOnClient', flag: 'fail-on-client', env: 'FAIL_ON_CLIENT', kind: 'list', values: CLIENT_IDS, placeholder: 'LIST', help: `The clients whose readiness makes the exit code 1 when they are not ready, comma-separated: ${CLIENT_IDS.join(', ')} (or all). Beside --fail-on, which it adds to.` },
  { key: 'targets', flag: 'targets', env: 'CONFORMANCE_TARGETS', kind: 'string', placeholder: 'FILE', help: 'Run many sites, one after the other, with the same seed: one site per line (URL, then the names of the environment variables holding its user and application password), or JSON/CSV. One report folder per site under --report-dir.' },
  { key: 'shard', flag: 'shard', env: 'CONFORMANCE_SHARD', kind: 'string', placeholder: 'I/N', help: 'Run only the I-th of N shares: of the sites with --targets (stable by site), else of the behaviours (suite files) of the one target. Merge the shares with cms-conformance merge.' },
  { key: 'unreachableAfterMs', flag: 'unreachable-after', env: 'CONFORMANCE_UNREACHABLE_AFTER', kind: 'duration', min: 0, placeholder: 'DURATION', help: 'When the target has answered no request for this long (every one refused, reset or timed out), stop: delete what can still be deleted, write the reports marked incomplete, exit 3. Default 30s; 0 = never.' },
  { key: 'headers', flag: 'header', env: 'CONFORMANCE_HEADERS', kind: 'headers', placeholder: "'NAME: VALUE'", secret: true, help: "A header sent with every request, with or without credentials (e.g. an access gateway's token in front of the site); repeat for more. The values are never printed or written (reports name the header only). In the environment: one header per line. Headers the suite sets itself (Authorization: use --auth-header; Accept, Content-Type, Host ...) cannot be given." },
  { key: 'proxy', flag: 'proxy', env: 'CONFORMANCE_PROXY', kind: 'url', placeholder: 'URL', help: 'Send every request through this HTTP(S) proxy (http://[user:password@]host:port; https targets through CONNECT). Without it, HTTPS_PROXY / HTTP_PROXY are used as curl does, except for targets on loopback. Hosts in NO_PROXY are reached directly either way. The targets the CLI starts itself (embedded, reference) never go through a proxy.' },
  { key: 'insecure', flag: 'insecure', env: 'CONFORMANCE_INSECURE', kind: 'boolean', help: "Do not verify the target's TLS certificate (a staging site with a self-signed one); every run says so. Better: trust the certificate with NODE_EXTRA_CA_CERTS=/path/to/cert.pem (Node's own variable: the certificate or the CA that signed it, PEM)." },
  { key: 'sweepAfterMs', flag: 'sweep-after', env: 'CONFORMANCE_SWEEP_AFTER', kind: 'duration', min: 0, placeholder: 'DURATION', help: 'Before a run, delete tagged leftovers of other runs only when those runs started longer ago than this (runs still going, e.g. other shards against the same site, are left alone). Default 6h.' },
];

/** What `cms-conformance cleanup` takes besides the run's options it shares (CLEANUP_RUN_FLAGS). */
export interface CleanupConfig {
  /** The run tag (`cmsc-<run id>`) of the items to remove. */
  tag: string;
  /** The run's ledger (src/core/ledger.ts); default: the one in the temporary folder for the tag, when it is there. */
  ledger?: string;
}

export const CLEANUP_OPTIONS: readonly OptionDef<keyof CleanupConfig>[] = [
  { key: 'tag', flag: 'tag', env: 'CONFORMANCE_TAG', kind: 'string', placeholder: 'TAG', help: 'The tag of the run whose items to remove (cmsc-…: the run prints it at its start; the reports and results.json leftBehind name it). Every item that run created carries it in its title or slug.' },
  { key: 'ledger', flag: 'ledger', env: 'CONFORMANCE_LEDGER', kind: 'string', placeholder: 'FILE', help: "The run's ledger of the items it created, by id (results.json leftBehind.ledger). Default: the ledger of --tag in the temporary folder, when the run ran on this machine. Without one, items are found by the tag alone (which needs the target's listings)." },
];

/** The options of run that cleanup takes too (the target, the credentials, how to talk to it). */
export const CLEANUP_RUN_FLAGS = ['target', 'user', 'app-password', 'auth-header', 'profile', 'timeout', 'retries', 'max-body', 'concurrency', 'max-rps'] as const;

export const DEFAULTS = {
  target: null,
  profile: 'auto',
  concurrency: 4,
  timeoutMs: 10_000,
  runs: 20,
  report: [...REPORT_FORMATS],
  allowWrites: false,
  readOnly: false,
  freshSite: false,
  maxRps: 0,
  retries: 3,
  maxBodyBytes: 8 * 1024 * 1024,
  failOn: 'must',
  quiet: false,
} satisfies Partial<RunConfig>;

function parseValue(def: OptionDef<string>, raw: string | boolean | string[], source: string): unknown {
  const where = `${source === 'flag' ? `--${def.flag}` : def.env}`;
  switch (def.kind) {
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      const v = String(raw).trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
      throw new UsageError(`${where} must be true or false, got "${raw}"`);
    }
    case 'int': {
      const s = String(raw).trim();
      if (!/^-?\d+$/.test(s)) throw new UsageError(`${where} must be a whole number, got "${raw}"`);
      const n = Number(s);
      if (def.min !== undefined && n < def.min) throw new UsageError(`${where} must be at least ${def.min}, got ${n}`);
      return n;
    }
    case 'duration': {
      const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(raw).trim());
      if (!m) throw new UsageError(`${where} must be a duration such as 10000, 500ms or 10s, got "${raw}"`);
      const n = Number(m[1]) * (m[2] === 's' ? 1000 : m[2] === 'm' ? 60_000 : m[2] === 'h' ? 3_600_000 : 1);
      if (n < (def.min ?? 0)) throw new UsageError(`${where} must be positive`);
      return Math.round(n);
    }
    case 'size': {
      const m = /^(\d+(?:\.\d+)?)\s*(b|kb|k|mb|m|gb|g|kib|mib|gib)?$/i.exec(String(raw).trim());
      if (!m) throw new UsageError(`${where} must be a size such as 8MB, 512kB or 1048576, got "${raw}"`);
      const unit = (m[2] ?? 'b').toLowerCase().replace(/i?b$/, '') || 'b';
      const n = Number(m[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1);
      if (n < (def.min ?? 0)) throw new UsageError(`${where} must be at least ${def.min} bytes, got ${Math.round(n)}`);
      return Math.round(n);
    }
    case 'list': {
      const items = String(raw)
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean);
      if (items.length === 1 && items[0] === 'all') return [...def.values!];
      const bad = items.filter((x) => !def.values!.includes(x));
      if (bad.length || !items.length) throw new UsageError(`${where} takes a comma-separated list of ${def.values!.join(', ')} (or all), got "${raw}"`);
      return [...new Set(items)];
    }
    case 'fail-on': {
      // One level, and `client` (readiness of every real client) beside it or alone: must,client.
      const items = String(raw).split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);
      const levels = items.filter((x) => x !== 'client');
      if (!items.length || levels.some((x) => !(FAIL_ON as readonly string[]).includes(x)) || levels.length > 1)
        throw new UsageError(`${where} must be one of ${FAIL_ON.join(', ')}, or client (also beside a level: must,client), got "${raw}"`);
      return [...new Set(items)];
    }
    case 'headers': {
      const lines = Array.isArray(raw) ? raw.map(String) : String(raw).split(/\r?\n/).filter((l) => l.trim() !== '');
      const out: Record<string, string> = {};
      for (const line of lines) {
        const [name, value] = parseHeader(line, where);
        const same = Object.keys(out).find((k) => k.toLowerCase() === name.toLowerCase());
        if (same) throw new UsageError(`${where}: ${name} is given twice`);
        out[name] = value;
      }
      return out;
    }
    case 'url': {
      const s = String(raw).trim();
      let url: URL;
      try {
        url = new URL(s);
      } catch {
        throw new UsageError(`${where} must be a URL such as http://proxy.example:3128, got "${redactUrl(s)}"`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${where} must be an http:// or https:// URL, got "${redactUrl(s)}"`);
      return s;
    }
    case 'enum': {
      const s = String(raw).trim();
      if (!def.values!.includes(s)) throw new UsageError(`${where} must be one of ${def.values!.join(', ')}, got "${raw}"`);
      return s;
    }
    default: {
      const s = String(raw);
      if (s === '') throw new UsageError(`${where} must not be empty`);
      return s;
    }
  }
}

/**
 * `--concurrency -3`: node's parseArgs takes "-3" for an option and calls the flag's argument
 * ambiguous. A value that looks like a negative number is the flag's value; it is joined as
 * `--concurrency=-3`, so validation says what is wrong with it.
 */
export function joinNegativeValues(argv: readonly string[], valueFlags: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    if (a.startsWith('--') && !a.includes('=') && valueFlags.has(a.slice(2)) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** Parse flags of a sub-command. Returns the flag values and remaining positionals. `command` names the help to point to. */
export function parseFlags(argv: string[], extra: Record<string, { type: 'string' | 'boolean' }> = {}, command = 'run') {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' }, ...extra };
  for (const def of OPTIONS) options[def.flag] = { type: def.kind === 'boolean' ? 'boolean' : 'string', ...(def.kind === 'headers' ? { multiple: true } : {}) };
  const valueFlags = new Set(Object.entries(options).filter(([, o]) => o.type === 'string').map(([f]) => f));
  try {
    return parseArgs({ args: joinNegativeValues(argv, valueFlags), options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${parseArgsMessage(err)} (see cms-conformance ${command} --help)`);
  }
}

/** The first line of a node:util parseArgs error, without its advice about positionals. */
export function parseArgsMessage(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .replace(/\. To specify a positional argument.*$/s, '')
    .replace(/^Option '(--[\w-]+)(?: <value>)?' argument missing$/, "$1 needs a value");
}

/**
 * Resolve the configuration. `env` defaults to process.env; a `.env` file in `cwd`
 * fills in what the environment does not set.
 */
export function resolveConfig(
  flags: Record<string, string | boolean | string[] | undefined>,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): RunConfig {
  const dotenvPath = resolve(cwd, '.env');
  const fileEnv = existsSync(dotenvPath) ? dotenv.parse(readFileSync(dotenvPath)) : {};
  const out: Record<string, unknown> = { ...DEFAULTS, ...readOptions(OPTIONS, flags, env, fileEnv) };
  if (out.seed === undefined) out.seed = Math.floor(Math.random() * 2 ** 31);
  failOnLevels(out);
  const cfg = out as unknown as RunConfig;
  if (cfg.target && cfg.target !== 'reference') cfg.target = normalizeBaseUrl(cfg.target);
  if ((cfg.user === undefined) !== (cfg.appPassword === undefined))
    throw new UsageError('--user and --app-password go together: give both or neither');
  if (cfg.authHeader && cfg.user) throw new UsageError('give either --auth-header or --user/--app-password, not both');
  if (cfg.only !== undefined) {
    try {
      new RegExp(cfg.only);
    } catch {
      throw new UsageError(`--only is not a valid regular expression: ${cfg.only}`);
    }
  }
  if (cfg.shard !== undefined) parseShard(cfg.shard);
  return cfg;
}

/** The values of `defs` given: flags, then the environment, then the `.env` file's. */
function readOptions<K extends string>(defs: readonly OptionDef<K>[], flags: Record<string, string | boolean | string[] | undefined>, env: NodeJS.ProcessEnv, fileEnv: Record<string, string>): Partial<Record<K, unknown>> {
  const out: Partial<Record<K, unknown>> = {};
  for (const def of defs) {
    const flag = flags[def.flag];
    if (flag !== undefined) out[def.key] = parseValue(def, flag, 'flag');
    else if (env[def.env] !== undefined && env[def.env] !== '') out[def.key] = parseValue(def, env[def.env]!, 'env');
    else if (fileEnv[def.env] !== undefined && fileEnv[def.env] !== '') out[def.key] = parseValue(def, fileEnv[def.env]!, 'env');
  }
  return out;
}

/**
 * The configuration of `cms-conformance cleanup`: the run options it shares (CLEANUP_RUN_FLAGS; any
 * other run flag is a usage error) and its own (CLEANUP_OPTIONS), with the same precedence as run.
 */
export function resolveCleanupConfig(flags: Record<string, string | boolean | string[] | undefined>, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): RunConfig & CleanupConfig {
  const other = OPTIONS.find((d) => flags[d.flag] !== undefined && !(CLEANUP_RUN_FLAGS as readonly string[]).includes(d.flag));
  if (other) throw new UsageError(`--${other.flag} does not apply to cleanup (see cms-conformance cleanup --help)`);
  const cfg = resolveConfig(flags, env, cwd);
  const dotenvPath = resolve(cwd, '.env');
  const own = readOptions(CLEANUP_OPTIONS, flags, env, existsSync(dotenvPath) ? dotenv.parse(readFileSync(dotenvPath)) : {});
  if (!cfg.target || cfg.target === 'reference') throw new UsageError('cleanup needs --target URL: the site the run created its items on');
  if (own.tag === undefined) throw new UsageError('cleanup needs --tag TAG: the tag of the run whose items to remove (cmsc-…, printed at the start of the run and named in its reports)');
  const tag = String(own.tag).trim().toLowerCase();
  if (!/^cmsc-[0-9a-z]{8}[0-9a-f]{4}$/.test(tag)) throw new UsageError(`--tag must be a run tag such as cmsc-mxcky2ru83b8 (cmsc- and 12 letters and digits), got "${own.tag}"`);
  if (!cfg.authHeader && cfg.user === undefined) throw new UsageError('cleanup deletes: give the credentials the run had (--user and --app-password, or --auth-header)');
  return { ...cfg, tag, ...(own.ledger !== undefined ? { ledger: String(own.ledger) } : {}) };
}

/**
 * `--fail-on` as given (a list): one conformance level (the default must) and, with `client`,
 * every client's readiness (`failOnClient` `['*']`, beside any `--fail-on-client`).
 */
function failOnLevels(out: Record<string, unknown>): void {
  if (!Array.isArray(out.failOn)) return;
  const given = out.failOn as string[];
  out.failOn = given.find((v) => v !== 'client') ?? DEFAULTS.failOn;
  if (given.includes('client')) out.failOnClient = ['*'];
}

export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--target must be an http(s) URL such as http://127.0.0.1:8080, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--target must be an http(s) URL, got "${raw}"`);
  if (url.username || url.password) throw new UsageError('put credentials in --user/--app-password, not in the --target URL');
  if (url.search || url.hash) throw new UsageError('--target is a base URL: remove its query string or fragment');
  return url.toString().replace(/\/+$/, '');
}

/** Is the target on this machine? (writes are allowed by default only there) */
export function isLoopback(target: string): boolean {
  const host = new URL(target).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The configuration as it may be printed or written: secrets replaced (a header's name and a proxy's host are kept). */
export function redactConfig(cfg: RunConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...cfg };
  for (const def of OPTIONS) if (def.secret && out[def.key] !== undefined) out[def.key] = '[redacted]';
  if (cfg.headers) out.headers = Object.fromEntries(Object.keys(cfg.headers).map((name) => [name, '[redacted]']));
  if (cfg.proxy) out.proxy = redactUrl(cfg.proxy);
  return out;
}

export { HELP_WIDTH, helpRows, wrap } from './help-text.ts';
export { redactUrl } from './header-flags.ts';
import { helpRows } from './help-text.ts';
import { parseHeader, redactUrl } from './header-flags.ts';

/** The rows of the given options (default all), for a command's help: flag, text, environment variable. */
export function optionRows(flags?: readonly string[]): [string, string][] {
  const defs = flags ? flags.map((f) => OPTIONS.find((d) => d.flag === f)!).filter(Boolean) : OPTIONS;
  return defs.map((d) => [`--${d.flag}${d.kind === 'boolean' ? '' : ` ${d.placeholder ?? (d.values ? d.values.join('|') : 'VALUE')}`}`, `${d.help}\nenv: ${d.env}`]);
}

export function optionsHelp(flags?: readonly string[]): string {
  return helpRows(optionRows(flags));
}
