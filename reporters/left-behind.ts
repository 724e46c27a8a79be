/**
 * What the run left on the target (results.json `leftBehind`, results/left-behind.ts), in the
 * header of the reports: each item named, and the command that removes them. Nothing when the
 * run deleted everything it created.
 */
import { describeLeftItem, type Results } from '../results/results.ts';
import { copyBlock, esc } from './html-kit.ts';

/** Items listed in a report (results.json has them all). */
const MAX_ITEMS = 50;

const CREDENTIALS = "with the run's credentials (--user and --app-password, or TARGET_USER and TARGET_APP_PASSWORD in the environment)";

const heading = (n: number, created: number) => `${n} item${n === 1 ? '' : 's'} this run created could not be deleted (of ${created} created)`;

/** The lines of report.md's header (after the verdict). */
export function leftBehindMarkdown(r: Results): string[] {
  const lb = r.leftBehind;
  if (!lb?.items.length) return [];
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').replace(/`/g, "'").slice(0, 300);
  return [
    `> **Left on the target**: ${heading(lb.items.length, lb.created)}. Remove them ${CREDENTIALS}:`,
    '>',
    `> \`${oneLine(lb.command ?? '')}\``,
    '',
    ...lb.items.slice(0, MAX_ITEMS).map((i) => `- \`${oneLine(describeLeftItem(i))}\``),
    ...(lb.items.length > MAX_ITEMS ? [`- … and ${lb.items.length - MAX_ITEMS} more (results.json \`leftBehind\`)`] : []),
    '',
  ];
}

/** The box of report.html's header (after the verdict). */
export function leftBehindHtml(r: Results): string {
  const lb = r.leftBehind;
  if (!lb?.items.length) return '';
  const items = lb.items.slice(0, MAX_ITEMS).map((i) => `<li><code>${esc(describeLeftItem(i))}</code></li>`).join('');
  const more = lb.items.length > MAX_ITEMS ? `<li>… and ${lb.items.length - MAX_ITEMS} more (results.json <code>leftBehind</code>)</li>` : '';
  return `<div class="box err" id="left-behind"><strong>Left on the target</strong>: ${esc(heading(lb.items.length, lb.created))}. Remove them ${esc(CREDENTIALS)}:${copyBlock(lb.command ?? '')}<ul>${items}${more}</ul></div>`;
}
