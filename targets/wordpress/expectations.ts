/**
 * The known deviations of the embedded WordPress releases from the specification, shipped with
 * the package (expectations/wordpress-<version>.json): every gating failure of a full run (seed 1)
 * and the deviations they form, each with why it is genuine. The one source of truth: a run
 * against the embedded target takes the file of its release as its default baseline (so the first
 * run says "16 known deviations of WordPress 6.5.5 (the embedded release), 0 new"), and the
 * project's real-target test holds a full run to it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EXPECTATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'expectations');

/** The shipped expectations of an embedded WordPress release, when there is a file for it. */
export function knownDeviationsFile(version: string): string | undefined {
  const file = join(EXPECTATIONS_DIR, `wordpress-${version}.json`);
  return existsSync(file) ? file : undefined;
}
