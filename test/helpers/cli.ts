/** Run the real CLI in a child process, as a user would (the one spawn helper: src/proof/cli-process.ts). */
import { PKG_ROOT } from '../../src/core/paths.ts';

export { BIN, exec, runCli, type CliRun, type Exec, type ExecOptions } from '../../src/proof/cli-process.ts';
export const ROOT = PKG_ROOT;
