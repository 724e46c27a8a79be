/** `cms-conformance list`: its help, and the declared behaviours listed without a target (src/engine/list.ts). */
import { helpRows, optionRows, parseFlags, resolveConfig } from '../core/config.ts';
import { UsageError } from '../core/errors.ts';
import { listBehaviours } from '../engine/list.ts';
import { declaredTotal, noneSelected } from '../engine/selection.ts';
import { EXIT } from '../../results/verdict.ts';
import { para } from './text.ts';

export const LIST_HELP = `Usage: cms-conformance list [--only PATTERN] [--json]

${para('Lists the declared behaviours without a target: ID, level, title, spec section and where each is declared.')}

Options:
${helpRows([...optionRows(['only']), ['--json', 'Print JSON (with the catalog items each behaviour covers).'], ['--help', 'Show this help.']])}

${para('Exit codes: 0 listed; 1 a suite file could not be loaded; 2 usage error (an --only that selects nothing).')}`;

export async function listCommand(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } }, 'list');
  if (values.help) {
    out.write(`${LIST_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance list --help)`);
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, {});
  const { behaviours, errors } = await listBehaviours(cfg.only);
  if (cfg.only !== undefined && !behaviours.length && !errors.length) throw new UsageError(noneSelected(cfg.only, await declaredTotal()));
  if (values.json) out.write(`${JSON.stringify({ behaviours, errors }, null, 2)}\n`);
  else {
    for (const b of behaviours) out.write(`${b.id}\t${b.level}\t${b.title}\t(${b.spec})${b.location ? `\t${b.location}` : ''}\n`);
    out.write(`${behaviours.length} behaviours\n`);
    for (const e of errors) out.write(`error: ${e}\n`);
  }
  return errors.length ? EXIT.failed : EXIT.ok;
}
