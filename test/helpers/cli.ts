/** Run the real CLI in a child process, as a user would (the one spawn helper: src/cli-process.ts). */
import { PKG_ROOT } from '../../src/paths.ts';

export { BIN, exec, runCli, type CliRun, type Exec, type ExecOptions } from '../../src/cli-process.ts';
export const ROOT = PKG_ROOT;
