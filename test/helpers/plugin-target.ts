/**
 * The real implementation of both documents that CI has beside the checkout:
 * `../shared/targets/boot.sh PORT` boots WordPress 7.1 with Akismet, Contact Form 7 and Jetpack
 * (offline, not connected to their remote services) and prints `.env` lines. Tests that need it
 * are skipped (with this reason) where `../shared` is not beside the checkout.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../targets/wordpress/proc.ts';
import { ROOT } from './cli.ts';

const run = promisify(execFile);

export const BOOT_SH = resolve(ROOT, '../shared/targets/boot.sh');
export const PLUGIN_TARGET_AVAILABLE = existsSync(BOOT_SH);
export const PLUGIN_TARGET_MISSING = `${BOOT_SH} is not beside the checkout (CI has it)`;

export interface PluginTarget {
  url: string;
  user: string;
  appPassword: string;
  port: number;
  stop(): Promise<void>;
}

/** Boot a fresh site (first boot unpacks ~200 MB once, then ~4-7 s). */
export async function bootPluginTarget(): Promise<PluginTarget> {
  const port = await freePort();
  const { stdout } = await run('bash', [BOOT_SH, String(port)], { maxBuffer: 16 << 20, timeout: 10 * 60_000 });
  const env = Object.fromEntries(
    stdout
      .split('\n')
      .map((l) => /^([A-Z_]+)=(.*)$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );
  if (!env.TARGET_URL || !env.TARGET_USER || !env.TARGET_APP_PASSWORD) throw new Error(`boot.sh ${port} printed no target: ${stdout.slice(0, 300)}`);
  return {
    url: env.TARGET_URL,
    user: env.TARGET_USER,
    appPassword: env.TARGET_APP_PASSWORD,
    port,
    stop: async () => {
      await run('bash', [BOOT_SH, String(port), 'stop', '--clean'], { timeout: 60_000 }).catch(() => undefined);
    },
  };
}

export const expectationsFile = (name: string) => join(ROOT, 'test/expectations', name);
