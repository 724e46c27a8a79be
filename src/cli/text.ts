/** What the commands' help texts and summaries share: a paragraph wrapped to the help's width, a path as it is shown. */
import { relative } from 'node:path';
import { HELP_WIDTH, wrap } from '../core/config.ts';

/** `text` wrapped to the help's width, each line indented. */
export const para = (text: string, indent = ''): string =>
  wrap(text, HELP_WIDTH - indent.length)
    .map((l) => `${indent}${l}`)
    .join('\n');

/** A path as the summaries show it: relative to the current folder when inside it. */
export function shownPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r.startsWith('..') ? p : r || '.';
}
