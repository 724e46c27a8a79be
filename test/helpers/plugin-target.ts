/**
 * The real implementation of both documents that CI has beside the checkout:
 * `../shared/targets/boot.sh PORT` boots WordPress 7.1 with Akismet, Contact Form 7 and Jetpack
 * (offline, not connected to their remote services) and prints `.env` lines. Tests that need it
 * are skipped (with this reason) where `../shared` is not beside the checkout.
 */
import { join } from 'node:path';
import { BOOT_SH, bootHost, bootShAvailable, type Host } from '../../src/hosts.ts';
import { ROOT } from './cli.ts';

export { BOOT_SH };
export const PLUGIN_TARGET_AVAILABLE = bootShAvailable();
export const PLUGIN_TARGET_MISSING = `${BOOT_SH} is not beside the checkout (CI has it)`;

export type PluginTarget = Host & { port: number };

/** Boot a fresh site (first boot unpacks ~200 MB once, then ~4-7 s). */
export async function bootPluginTarget(port?: number): Promise<PluginTarget> {
  return (await bootHost('plugins', port === undefined ? {} : { port })) as PluginTarget;
}

export const expectationsFile = (name: string) => join(ROOT, 'test/expectations', name);
