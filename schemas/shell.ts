/**
 * Shell quoting for the commands the tool prints or writes (a rerun command in a report, the
 * command that points a client at `serve`, the `php` wrapper of the embedded WordPress). Here,
 * at the bottom of the house, because every floor that prints a command uses it.
 */

/** Always in single quotes: `it's` → `'it'\''s'`. */
export const shellQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** Quoted only when the shell would read it otherwise: `--only 'a b'` but `--seed 1`. */
export const shq = (s: string): string => (/^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : shellQuote(s));
