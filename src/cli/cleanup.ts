/**
 * `cms-conformance cleanup --target URL --tag TAG`: removes what a run left on a site (a run that
 * was killed with no chance to clean, or one whose deletes were refused or met a target that had
 * gone away): every item of the run's ledger (src/core/ledger.ts) that still carries the tag, by its
 * id, then every item the target lists with the tag (the sweep, src/sdk/fixtures.ts); and says how
 * many it removed and what is still there.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLEANUP_OPTIONS, CLEANUP_RUN_FLAGS, helpRows, optionRows, parseFlags, resolveCleanupConfig } from '../core/config.ts';
import { UsageError } from '../core/errors.ts';
import { Ledger, ledgerPath } from '../core/ledger.ts';
import { ledgerWatch } from '../http/ledger-watch.ts';
import { clientFor } from '../http/run-client.ts';
import { deleteByLedger, leftBehind, sweep } from '../run/leftovers.ts';
import { chooseProfile, fetchIndex } from '../run/session.ts';
import { getProfile, type ProfileName } from '../../schemas/profiles.ts';
import { EXIT } from '../../results/verdict.ts';
import { describeLeftItem } from '../../results/results.ts';
import { para } from './text.ts';

export const CLEANUP_HELP = `Usage: cms-conformance cleanup --target URL --tag TAG [--user NAME --app-password PW] [options]

${para("Removes what a run created on a site and left there: a run killed with no chance to clean up (SIGKILL, a machine that went down), or one whose deletes were refused or met a target that had gone away (its console's last lines, report.md, report.html and results.json leftBehind name each item and this command). First every item of the run's ledger (the ids it created, kept in the temporary folder while something is left) that still carries the tag, by its id, whatever the target's listings answer; then every item the target lists with the tag (posts, pages, contact forms, trash included). Says how many it removed and names what is still there. Only the run's own items: the tag names one run.")}

Options:
${helpRows([
  ...optionRows(CLEANUP_RUN_FLAGS).map(([l, t]): [string, string] => (l.startsWith('--target') ? [l, 'Base URL of the site the run created its items on.\nenv: TARGET_URL'] : [l, t])),
  ...CLEANUP_OPTIONS.map((d): [string, string] => [`--${d.flag} ${d.placeholder}`, `${d.help}\nenv: ${d.env}`]),
  ['--help', 'Show this help.'],
])}

${para('Exit codes: 0 nothing of the run is left (as far as the target lists); 2 usage error; 3 something could not be removed, or the target did not answer its listings (the items whose create answer was lost cannot be found then): the lines say which.')}`;

export async function cleanupCommand(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parseFlags(argv, Object.fromEntries(CLEANUP_OPTIONS.map((d) => [d.flag, { type: 'string' as const }])), 'cleanup');
  if (values.help) {
    out.write(`${CLEANUP_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see cms-conformance cleanup --help)`);
  const cfg = resolveCleanupConfig(values as Record<string, string | boolean | undefined>);
  const target = cfg.target!;
  const { tag } = cfg;
  // The run's ledger: the one given, or the one of the tag in the temporary folder. One written for another URL is not used unless given.
  const path = cfg.ledger ? resolve(cfg.ledger) : ledgerPath(tag);
  if (cfg.ledger && !existsSync(path)) throw new UsageError(`--ledger ${cfg.ledger}: no such file`);
  let ledger = existsSync(path) ? new Ledger(path) : undefined;
  const head = ledger?.read().head;
  if (ledger && head && head.tag !== tag) throw new UsageError(`the ledger ${path} is of the run tagged ${head.tag}, not ${tag}`);
  if (ledger && !cfg.ledger && head && head.target !== target) {
    err.write(`the ledger of ${tag} (${path}) was written for ${head.target}, not ${target}: not used (give --ledger to use it anyway)\n`);
    ledger = undefined;
  }
  const profile: ProfileName = cfg.profile !== 'auto' ? cfg.profile : ((head?.profile as ProfileName | undefined) ?? chooseProfile(cfg, await indexOf(target, cfg)).profile);
  const names = getProfile(profile);
  const client = clientFor(target, cfg, { mapRoute: (r) => names.toTargetRoute(r), ...(ledger ? { onExchange: ledgerWatch(ledger, (r) => names.toTargetRoute(r)) } : {}) });
  try {
    const pass = ledger ? await deleteByLedger(client, ledger, { verifyTag: tag }) : undefined;
    const swept = await sweep(client, { tag }).catch(() => undefined);
    const byId = (pass?.deleted ?? 0) - (pass?.alreadyGone ?? 0);
    const removed = byId + (swept?.deleted ?? 0);
    const how = [ledger ? `${byId} by the ids of its ledger${pass?.alreadyGone ? ` (${pass.alreadyGone} more were gone already)` : ''}` : 'no ledger of the run here', `${swept?.deleted ?? 0} found by the tag`];
    out.write(`removed ${removed} item${removed === 1 ? '' : 's'} of the run tagged ${tag} from ${target} (${how.join(', ')})\n`);
    const left = leftBehind(ledger, tag, target, pass?.failed ?? new Map(), [swept], 'not deleted');
    const unlisted = swept ? (swept.unlisted ?? []) : ['every collection'];
    if (unlisted.length) out.write(`the target did not answer the listings of ${unlisted.join(', ')}: items of the run whose create answer was lost cannot be found by the tag there\n`);
    if (left.items.length) {
      out.write(`still there: ${left.items.length} item${left.items.length === 1 ? '' : 's'}\n`);
      for (const i of left.items) out.write(`  ${describeLeftItem(i)}\n`);
    } else if (ledger && !unlisted.length) ledger.remove();
    return left.items.length || unlisted.length ? EXIT.unreachable : EXIT.ok;
  } finally {
    await client.close();
  }
}

/** The target's index (to tell its route names apart), read with the run's client settings. */
async function indexOf(target: string, cfg: Parameters<typeof clientFor>[1]): Promise<unknown> {
  const client = clientFor(target, cfg, { concurrency: 1, maxRps: 0 });
  try {
    return await fetchIndex(client);
  } finally {
    await client.close();
  }
}
