/** Help text of the CLI: words wrapped to a width, two aligned columns. */

/** Width help text is wrapped to. */
export const HELP_WIDTH = 100;

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

/**
 * Two aligned columns: each left cell, then its text wrapped beside it. The left column is as
 * wide as the widest cell (a cell wider than `maxLeft` puts its text on the next line).
 */
export function helpRows(rows: readonly (readonly [left: string, text: string])[], maxLeft = 34): string {
  const col = Math.min(maxLeft, Math.max(...rows.map(([l]) => l.length)) + 2) + 2;
  const out: string[] = [];
  for (const [left, text] of rows) {
    const lines = text.split('\n').flatMap((t) => wrap(t, HELP_WIDTH - col));
    const head = `  ${left}`;
    if (head.length + 2 > col) out.push(head, ...lines.map((l) => `${' '.repeat(col)}${l}`));
    else out.push(`${head.padEnd(col)}${lines[0]}`, ...lines.slice(1).map((l) => `${' '.repeat(col)}${l}`));
  }
  return out.join('\n');
}
