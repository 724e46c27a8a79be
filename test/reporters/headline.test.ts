/**
 * The head of every report says what was checked (issue 41, item 3): the verdict with one headline
 * count (deviations) and the behaviours under it, how the target was checked (anonymous or with
 * credentials, read-only or writes) and what that left unchecked in a user's words; a run that
 * checked no SECURITY behaviour never shows a bare PASS (reporters/headline.ts).
 */
import { describe, expect, it } from 'vitest';
import { countsLine, modeLine, notCheckedLines, verdictLine } from '../../reporters/headline.ts';
import { renderHtml } from '../../reporters/html.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { summarize, type BehaviourResult, type Level, type Results } from '../../results/results.ts';
import { cannedBehaviours, cannedResults } from './canned.ts';

const one = cannedBehaviours().find((b) => b.status === 'passed')!;
const make = (id: string, level: Level, status: BehaviourResult['status'], reason?: string): BehaviourResult => ({ ...one, id, level, status, namespace: id.split('.')[0] === 'suite' ? 'suite/v4' : 'cms/v2', ...(reason ? { reason } : { reason: undefined }) });

/** An anonymous, read-only run of a live site: every SECURITY check needs credentials, the writes the run may not send. */
function anonymous(): Results {
  const behaviours = [
    ...Array.from({ length: 113 }, (_, i) => make(`cms.s${i}.security`, 'SECURITY', 'skipped', 'no credentials: give --user and --app-password (or --auth-header)')),
    ...Array.from({ length: 40 }, (_, i) => make(`cms.w${i}.write`, 'MUST', 'skipped', 'writes not allowed: the target is not on loopback; pass --allow-writes to allow writes')),
    ...Array.from({ length: 5 }, (_, i) => make(`suite.n${i}`, 'MUST', 'skipped', 'namespace suite/v4 is not advertised by the target')),
    ...Array.from({ length: 200 }, (_, i) => make(`cms.r${i}.read`, 'MUST', 'passed')),
  ];
  return cannedResults({
    behaviours,
    summary: summarize(behaviours),
    deviations: [],
    config: { target: 'https://site.example', failOn: 'must' },
    mode: { credentials: 'none', writes: { allowed: false, reason: 'the target is not on loopback; pass --allow-writes to allow writes' } },
  });
}

describe('what a run checked, and what not', () => {
  it('an anonymous read-only run: no bare PASS, the mode, and what it left unchecked in a user\'s words', () => {
    const r = anonymous();
    expect(verdictLine(r)).toBe('PASS, SECURITY NOT CHECKED — no deviation');
    expect(countsLine(r)).toBe('358 behaviours: 200 passed, 0 failed, 0 could not be checked, 158 skipped');
    expect(modeLine(r)).toBe('checked anonymously (no credentials), read-only (the target is not on loopback: pass --allow-writes to allow writes)');
    expect(notCheckedLines(r)).toEqual([
      '113 SECURITY behaviours need credentials: not checked (give --user and --app-password)',
      '40 behaviours write, and the run was read-only (the target is not on loopback): not checked',
      '5 behaviours of namespaces the target does not advertise (suite/v4 5): not checked',
    ]);
    // the same in the head of report.md and report.html
    const md = renderMarkdown(r);
    expect(md.split('\n')[0]).toBe('## ⚠️ cms-conformance: PASS, SECURITY NOT CHECKED — no deviation');
    expect(md).toContain('- 113 SECURITY behaviours need credentials: not checked (give --user and --app-password)');
    expect(md).toContain('Checked anonymously (no credentials), read-only');
    const html = renderHtml(r);
    expect(html).toContain('<div class="verdict partial" id="verdict">PASS, SECURITY NOT CHECKED — no deviation · exit code 0</div>');
    expect(html).toContain('<li>113 SECURITY behaviours need credentials: not checked (give --user and --app-password)</li>');
    expect(html.indexOf('id="not-checked"')).toBeLessThan(html.indexOf('<dl class="meta">'));
  });

  it('with credentials and SECURITY checked: a plain PASS; one behaviour reads in the singular', () => {
    const r = anonymous();
    const behaviours = r.behaviours.map((b, i) => (b.level === 'SECURITY' ? { ...b, status: i === 0 ? ('skipped' as const) : ('passed' as const) } : b));
    const checked = { ...r, behaviours, summary: summarize(behaviours), mode: { credentials: 'given' as const, writes: { allowed: true, reason: '--allow-writes' } } };
    expect(verdictLine(checked)).toBe('PASS — no deviation');
    expect(modeLine(checked)).toBe('checked with credentials (--user/--app-password or --auth-header), writes allowed (--allow-writes)');
    expect(notCheckedLines(checked)[0]).toBe('1 SECURITY behaviour needs credentials: not checked (give --user and --app-password)');
  });
});
