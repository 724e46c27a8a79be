/**
 * What a run left on the target (results.json `leftBehind`): the items it created and could not
 * delete (a delete refused, the target gone, a stop that gave up), each named, and the one command
 * that removes them. The exit code does not depend on it: it is what the verdicts make it.
 */

/** One item the run created and did not delete. */
export interface LeftItem {
  /** post, page, media, contact-form, autosave (goes with its parent). */
  type: string;
  /** Its id; absent for a create whose answer was lost (it may exist: its id is not known). */
  id?: number;
  /** Its route in spec names (the collection, for a create whose answer was lost). */
  route: string;
  /** The tagged title or slug it was given (`cmsc-<run>-<hint>-<n>`), when it has one. */
  tag?: string;
  /** The behaviour that created it ("fixtures": a suite file's shared fixtures). */
  by?: string;
  /** Why it is still there: the delete's answer, or why it was not tried. */
  why: string;
}

export interface LeftBehind {
  /** Items the run created (its ledger: src/core/ledger.ts), autosaves included. */
  created: number;
  /** The items it could not delete (empty when it deleted all). */
  items: LeftItem[];
  /** The run tag every item carries. */
  tag: string;
  /** The command that removes them (present when items is not empty). */
  command?: string;
  /** The ledger the command reads (kept while items are left; it lives in the temporary folder of the machine that ran). */
  ledger?: string;
}

/** One item in words: `post 12 cmsc-…-auth-valid-3 (made by auth.credentials.write-accepted): DELETE … 500`. */
export function describeLeftItem(i: LeftItem): string {
  return `${i.type} ${i.id ?? '(id unknown)'}${i.tag ? ` ${i.tag}` : ''}${i.by ? ` (made by ${i.by})` : ''}: ${i.why}`;
}

/** The last lines of the console (and the text of the reports) when something was left; none when nothing was. */
export function leftBehindLines(lb: LeftBehind | undefined, max = 20): string[] {
  if (!lb?.items.length) return [];
  const n = lb.items.length;
  return [
    `LEFT ON THE TARGET: ${n} item${n === 1 ? '' : 's'} this run created could not be deleted (of ${lb.created} created):`,
    ...lb.items.slice(0, max).map((i) => `  ${describeLeftItem(i)}`),
    ...(n > max ? [`  … and ${n - max} more (results.json leftBehind)`] : []),
    `remove them with the run's credentials (--user and --app-password, or TARGET_USER and TARGET_APP_PASSWORD in the environment):`,
    `  ${lb.command}`,
  ];
}
