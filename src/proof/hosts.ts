/**
 * The one way cms-conformance boots a target for itself (selftest, the fault proofs, the
 * project's tests, the benchmarks): the in-memory reference server, the embedded WordPress,
 * or a site booted by an outside script that prints `.env` lines (`boot.sh PORT`, as the
 * real WordPress 7.1 + plugins target beside the checkout: ../shared/targets/boot.sh).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ProfileName } from '../../schemas/profiles.ts';
import { PKG_ROOT } from '../core/paths.ts';

export interface Host {
  url: string;
  user: string;
  appPassword: string;
  profile: ProfileName;
  label: string;
  /** The port of a script-booted site. */
  port?: number;
  /** The file holding the PID (and process group) of a script-booted site's server. */
  pidFile?: string;
  stop(): Promise<void>;
}

export type HostKind = 'reference' | 'wordpress' | 'plugins';

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

/**
 * `content`: what a reference site starts with (targets/reference/state.ts; `blog`: a small real blog's).
 * `fresh`: a host whose site stays as nobody set it up, for runs with --fresh-site one after the
 * other (the self-test): the reference server keeps every setting at its default (a booted
 * reference site otherwise has a newsletter category, so its default is not observable), and
 * each run sets back what it changes. The other hosts are fresh sites as booted. `timezone`: the
 * reference server's site timezone (UTC otherwise).
 */
export async function bootHost(
  kind: HostKind,
  opts: { port?: number; fresh?: boolean; env?: NodeJS.ProcessEnv; timezone?: { gmtOffset: number; timezoneString: string }; content?: 'sample' | 'blog' } = {},
): Promise<Host> {
  if (kind === 'reference') {
    const { startReferenceServer } = await import('../../targets/reference/index.ts');
    const s = await startReferenceServer({ port: opts.port ?? 0, ...(opts.fresh ? { deferSiteSetup: true } : {}), ...(opts.timezone ? { timezone: opts.timezone } : {}), ...(opts.content ? { content: opts.content } : {}) });
    return { url: s.url, user: s.user, appPassword: s.appPassword, profile: 'spec', label: opts.content === 'blog' ? 'reference server with a blog' : 'reference server', stop: () => s.stop() };
  }
  if (kind === 'wordpress') {
    const { bootWordPress } = await import('../../targets/wordpress/index.ts');
    const wp = await bootWordPress();
    return { url: wp.url, user: wp.user, appPassword: wp.appPassword, profile: 'wordpress', label: `WordPress ${wp.version}`, stop: () => wp.stop() };
  }
  return bootScript(BOOT_SH, opts.port, opts.env);
}

/**
 * `script PORT` boots a fresh site and prints TARGET_URL, TARGET_USER, TARGET_APP_PASSWORD; `script PORT stop --clean` removes it.
 * `scriptEnv`: variables for the script beside this process's (boot.sh's knobs: PHP_SERVER_ARGS, PHP_CLI_SERVER_WORKERS).
 */
async function bootScript(script: string, port?: number, scriptEnv?: NodeJS.ProcessEnv): Promise<Host> {
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
    port: p,
    ...(env.TARGET_PID_FILE ? { pidFile: env.TARGET_PID_FILE } : {}),
    stop: async () => {
      await run('bash', [script, String(p), 'stop', '--clean'], { timeout: 60_000 }).catch(() => undefined);
    },
  };
}
