/**
 * The target: the server a run checks. This is the one way cms-conformance boots one for itself
 * (a run without --target URL, selftest, the fault proofs, the project's tests, the benchmarks):
 * the in-memory reference server, the embedded WordPress, or a site booted by an outside script
 * that prints `.env` lines (`boot.sh PORT`, as the real WordPress 7.1 + plugins target beside the
 * checkout: ../shared/targets/boot.sh). A target given by its URL is not booted: the run takes it as it is.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ProfileName } from '../../schemas/profiles.ts';
import { PKG_ROOT } from '../core/paths.ts';
import { UnreachableError, UsageError } from '../core/errors.ts';
import type { RunConfig } from '../core/config.ts';
import type { RunInfo } from '../core/run-info.ts';

/** A target cms-conformance booted. */
export interface Target {
  url: string;
  user: string;
  appPassword: string;
  /** The names it uses. */
  profile: ProfileName;
  /** What it is, for people: "reference server", "WordPress 6.5.5". */
  label: string;
  /** What a run records of it (results.json `target.embedded`); null for a site a script booted. */
  embedded: RunInfo['embedded'];
  /** The port of a script-booted site. */
  port?: number;
  /** The file holding the PID (and process group) of a script-booted site's server. */
  pidFile?: string;
  /**
   * A target booted `fresh` (as nobody set it up) that a run sets up once it has read the defaults
   * of site state (src/core/fresh-site.ts); a target that is not set up stays fresh.
   */
  setUp?: () => void;
  /**
   * The least per-request timeout a run against it uses: the embedded WordPress on PHP-in-WebAssembly
   * takes seconds a request on a busy machine, and a request the client gives up on is still served
   * (the queue only grows). Its slowness is no finding about the target.
   */
  requestTimeoutMs?: number;
  stop(): Promise<void>;
}

/** The per-request timeout of runs against the embedded WordPress on PHP-in-WebAssembly (at least). */
export const WASM_REQUEST_TIMEOUT_MS = 60_000;

export type TargetKind = 'reference' | 'wordpress' | 'plugins';

export type EmbeddedVersion = '6.5.5' | '6.1.9';
/** The embedded WordPress a run without --target boots. */
export const DEFAULT_WORDPRESS_VERSION: EmbeddedVersion = '6.5.5';

export interface BootOptions {
  port?: number;
  /**
   * Start as a site nobody set up: the reference server keeps every setting at its default (a
   * booted reference site otherwise has a newsletter category, so its default is not observable)
   * until `setUp` is called; runs with --fresh-site one after the other (the self-test) never call
   * it, and each run sets back what it changes. The other kinds are fresh sites as booted.
   */
  fresh?: boolean;
  /** Variables for a boot script beside this process's (boot.sh's knobs: PHP_SERVER_ARGS, PHP_CLI_SERVER_WORKERS). */
  env?: NodeJS.ProcessEnv;
  /** The reference server's site timezone (UTC otherwise). */
  timezone?: { gmtOffset: number; timezoneString: string };
  /** What a reference site starts with (targets/reference/state.ts; `blog`: a small real blog's). */
  content?: 'sample' | 'blog' | 'theme-test';
  /** The embedded WordPress's version (6.5.5 unless told). */
  version?: EmbeddedVersion;
  /** Where the embedded WordPress says what it does while it boots. */
  log?: (line: string) => void;
}

/** Where the real WordPress 7.1 + plugins target's script is (beside the checkout; CI has it). */
export const BOOT_SH = process.env.CMSC_BOOT_SH ?? resolve(PKG_ROOT, '../shared/targets/boot.sh');
export const bootShAvailable = () => existsSync(BOOT_SH);

const run = promisify(execFile);

/**
 * A site timezone that is not GMT and has no daylight saving time (India, +5:30): the reference
 * server of the self-test and of the fault proofs runs in it, so that what a server does with
 * date_gmt and gmt_offset shows (on a site in GMT, date and date_gmt are the same).
 */
export const NON_GMT_TIMEZONE = { gmtOffset: 5.5, timezoneString: 'Asia/Kolkata' } as const;

/** Boot a target of this kind; a target that cannot boot is an UnreachableError (exit 3). */
export async function bootTarget(kind: TargetKind, opts: BootOptions = {}): Promise<Target> {
  if (kind === 'reference') {
    const { startReferenceServer } = await import('../../targets/reference/index.ts').catch(() => {
      throw new UsageError('--target reference: the reference server is not available in this version');
    });
    const s = await startReferenceServer({ port: opts.port ?? 0, ...(opts.fresh ? { deferSiteSetup: true } : {}), ...(opts.timezone ? { timezone: opts.timezone } : {}), ...(opts.content ? { content: opts.content } : {}) });
    return {
      url: s.url,
      user: s.user,
      appPassword: s.appPassword,
      profile: 'spec',
      label: opts.content === 'blog' ? 'reference server with a blog' : opts.content === 'theme-test' ? 'reference server with the theme test content' : 'reference server',
      embedded: { kind: 'reference' },
      ...(opts.fresh && s.setUpSite ? { setUp: s.setUpSite } : {}),
      stop: () => s.stop(),
    };
  }
  if (kind === 'wordpress') {
    const { bootWordPress, TargetBootError } = await import('../../targets/wordpress/index.ts');
    try {
      opts.log?.('booting the embedded WordPress (first run downloads it once) ...');
      const wp = await bootWordPress({ ...(opts.log ? { log: opts.log } : {}), ...(opts.version ? { version: opts.version } : {}) });
      if (wp.runtime === 'wasm') opts.log?.(`requests to it time out after ${WASM_REQUEST_TIMEOUT_MS / 1000} s at the earliest (--timeout): PHP-in-WebAssembly is slow`);
      return {
        url: wp.url,
        user: wp.user,
        appPassword: wp.appPassword,
        profile: 'wordpress',
        label: `WordPress ${wp.version}`,
        embedded: { kind: 'wordpress', version: wp.version, plugins: wp.plugins },
        ...(wp.runtime === 'wasm' ? { requestTimeoutMs: WASM_REQUEST_TIMEOUT_MS } : {}),
        stop: () => wp.stop(),
      };
    } catch (err) {
      if (err instanceof TargetBootError) throw new UnreachableError(`cannot boot the embedded WordPress: ${err.message}`);
      throw err;
    }
  }
  return bootScript(BOOT_SH, opts.port, opts.env);
}

/**
 * `script PORT` boots a fresh site and prints TARGET_URL, TARGET_USER, TARGET_APP_PASSWORD; `script PORT stop --clean` removes it.
 * `scriptEnv`: variables for the script beside this process's.
 */
async function bootScript(script: string, port?: number, scriptEnv?: NodeJS.ProcessEnv): Promise<Target> {
  if (!existsSync(script)) throw new Error(`${script} is not beside the checkout (CI has it)`);
  const p = port ?? (await (await import('../../targets/wordpress/proc.ts')).freePort());
  const { stdout } = await run('bash', [script, String(p)], { maxBuffer: 16 << 20, timeout: 10 * 60_000, ...(scriptEnv ? { env: { ...process.env, ...scriptEnv } } : {}) });
  const env = Object.fromEntries([...stdout.matchAll(/^(?:export )?([A-Z_]+)=["']?([^"'\n]*)["']?$/gm)].map((m) => [m[1]!, m[2]!]));
  if (!env.TARGET_URL || !env.TARGET_USER || !env.TARGET_APP_PASSWORD) throw new Error(`${script} ${p} printed no target: ${stdout.slice(0, 300)}`);
  return {
    url: env.TARGET_URL,
    user: env.TARGET_USER,
    appPassword: env.TARGET_APP_PASSWORD,
    profile: 'wordpress',
    label: 'WordPress 7.1 with Akismet, Contact Form 7 and Jetpack (boot.sh)',
    embedded: null,
    port: p,
    ...(env.TARGET_PID_FILE ? { pidFile: env.TARGET_PID_FILE } : {}),
    stop: async () => {
      await run('bash', [script, String(p), 'stop', '--clean'], { timeout: 60_000 }).catch(() => undefined);
    },
  };
}

/**
 * The second phase of a run: its target. A URL is taken as it is (undefined: nothing booted);
 * `--target reference` boots the reference server, no --target the embedded WordPress (6.5.5
 * unless `version` says otherwise), each fresh: the run reads the defaults of site state before
 * it sets the site up (setUp).
 */
export async function prepareTarget(cfg: Pick<RunConfig, 'target'>, log: (line: string) => void, version?: EmbeddedVersion): Promise<Target | undefined> {
  if (cfg.target && cfg.target !== 'reference') return undefined;
  return bootTarget(cfg.target === 'reference' ? 'reference' : 'wordpress', { fresh: true, log, ...(version ? { version } : {}) });
}
