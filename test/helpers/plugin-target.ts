/**
 * The real implementation of both documents that CI has beside the checkout:
 * `../shared/targets/boot.sh PORT` boots WordPress 7.1 with Akismet, Contact Form 7 and Jetpack
 * (offline, not connected to their remote services) and prints `.env` lines. Tests that need it
 * are skipped (with this reason) where `../shared` is not beside the checkout.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXPECTATIONS_DIR } from '../../targets/wordpress/expectations.ts';
import { BOOT_SH, bootTarget, bootShAvailable, type Target } from '../../src/run/target.ts';
import { ROOT } from './cli.ts';

export { BOOT_SH };
export const PLUGIN_TARGET_AVAILABLE = bootShAvailable();
export const PLUGIN_TARGET_MISSING = `${BOOT_SH} is not beside the checkout (CI has it)`;

export type PluginTarget = Target & { port: number };

/**
 * php -S of the tests' sites with PHP's tracing JIT (boot.sh's PHP_SERVER_ARGS, unless set): the
 * same verdicts for about 15 % less PHP CPU in a full run (132 -> 113 CPU-s, seed 1). `npm run
 * bench` measures the site as boot.sh boots it by default.
 */
const TEST_PHP_ARGS = process.env.PHP_SERVER_ARGS ?? '-d opcache.jit=tracing -d opcache.jit_buffer_size=64M';

/** Boot a fresh site (first boot unpacks ~200 MB once, then ~4-7 s). */
export async function bootPluginTarget(port?: number): Promise<PluginTarget> {
  return (await bootTarget('plugins', { ...(port === undefined ? {} : { port }), env: { PHP_SERVER_ARGS: TEST_PHP_ARGS } })) as PluginTarget;
}

/** The pinned expectations of a real target: the embedded releases' are shipped (targets/wordpress/expectations/), the others are the tests' own. */
export const expectationsFile = (name: string) => (existsSync(join(EXPECTATIONS_DIR, name)) ? join(EXPECTATIONS_DIR, name) : join(ROOT, 'test/expectations', name));
