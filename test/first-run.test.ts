/**
 * The first run says what it found (issue 41): a run against the embedded WordPress (no --target)
 * is judged against the shipped known deviations of its release, leads with "16 known deviations
 * of WordPress 6.5.5 (the embedded release), 0 new" and exits 0; with a fault that the release does
 * not have (a double: the cut real run of 6.5.5 plus the failures of the named fault
 * cms.filter-ignored.include) it exits 1 and leads with the new deviation. --no-baseline gives the
 * plain verdict. The real run is held to the same by test/real-targets.embedded-6.5.5.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config.ts';
import { applyBaseline } from '../src/run/baseline.ts';
import { releaseBaseline } from '../src/run/plan.ts';
import { summaryLines } from '../src/cli/run.ts';
import { renderMarkdown } from '../reporters/markdown.ts';
import { renderHtml } from '../reporters/html.ts';
import { runExitCode, summarize, type Results } from '../results/results.ts';
import { groupDeviations } from '../results/deviations.ts';
import { cannedRun, cannedRunResults } from './helpers/canned-deviations.ts';

const embedded = { url: 'http://127.0.0.1:41234', profile: 'wordpress', profileReason: 'auto', embedded: { kind: 'wordpress', version: '6.5.5', plugins: ['akismet'] } };

/** The cut real run of the embedded 6.5.5, judged as `run` without flags judges it. */
function firstRun(extra: Results['behaviours'] = []): Results {
  const base = cannedRunResults('wordpress-6.5.5', { target: embedded, config: { failOn: 'must' } });
  // The cut run keeps only what the deviations need: one of the run's passing SECURITY checks stands for them.
  const security = { ...base.behaviours[0]!, id: 'cms.posts.auth.create', level: 'SECURITY' as const, status: 'passed' as const, covers: [], reason: undefined };
  const behaviours = [...base.behaviours, security, ...extra];
  const r: Results = { ...base, behaviours, summary: summarize(behaviours), deviations: groupDeviations({ behaviours, target: embedded }) };
  const bl = releaseBaseline({ target: null })!;
  r.baseline = applyBaseline(r, bl.data, bl.file, { source: 'release', release: bl.release! });
  return r;
}

const lines = (r: Results) => summaryLines({ results: r, exitCode: runExitCode(r, 'must'), reportDir: '/tmp/r', files: [], resultsPath: '/tmp/r/results.json' });

describe('the first run against the embedded WordPress', () => {
  it('is judged against the known deviations of its release: it leads with them and "0 new", and exits 0', () => {
    const bl = releaseBaseline({ target: null });
    expect(bl?.file).toBe('targets/wordpress/expectations/wordpress-6.5.5.json');
    expect(bl?.release).toBe('WordPress 6.5.5');
    const r = firstRun();
    expect(runExitCode(r, 'must')).toBe(0);
    const out = lines(r);
    expect(out[1]).toBe('PASS — 16 known deviations of WordPress 6.5.5 (the embedded release), 0 new');
    expect(out[2]).toMatch(/^ {2}known {2}MUST {5}\S/);
    expect(out).toContain('PASS — 16 known deviations of WordPress 6.5.5 (the embedded release), 0 new (exit code 0)');
    // The release's CLIENT findings (wpapi, Frontity, HeadstartWP) are readiness, never "new failures" of the baseline.
    expect(r.behaviours.filter((b) => b.level === 'CLIENT' && b.status === 'failed')).toHaveLength(2);
    expect(out.find((l) => l.startsWith('known deviations of WordPress 6.5.5'))).toMatch(/: \d+ known failure\(s\) still fail, 0 new failure\(s\) \(and 2 CLIENT finding\(s\), readiness\), 0 entries now pass$/);
    expect(renderMarkdown(r).split('\n')[0]).toBe('## ✅ cms-conformance: PASS — 16 known deviations of WordPress 6.5.5 (the embedded release), 0 new');
    expect(renderHtml(r)).toContain('<div class="verdict pass" id="verdict">PASS — 16 known deviations of WordPress 6.5.5 (the embedded release), 0 new · exit code 0</div>');
  });

  it('with a fault the release does not have, it exits 1 and leads with the new deviation', () => {
    const fault = cannedRun('include-ignored').behaviours.filter((b) => b.status === 'failed' && b.id.startsWith('cms.posts.filter.include'));
    expect(fault.length).toBeGreaterThan(0);
    const r = firstRun(fault);
    expect(runExitCode(r, 'must')).toBe(1);
    const out = lines(r);
    expect(out[1]).toBe('FAIL — 16 known deviations of WordPress 6.5.5 (the embedded release), 1 new');
    expect(out[2]).toMatch(/^ {2}new {4}MUST {5}include \(arg of GET \/cms\/v2\/posts\)/);
    expect(out.at(-2)).toMatch(/^FAIL — .*1 new \(exit code 1\)$/);
  });

  it('--no-baseline gives the plain verdict; a run with --target has no release baseline', () => {
    expect(resolveConfig({ 'no-baseline': true }).noBaseline).toBe(true);
    expect(releaseBaseline({ target: 'reference' })).toBeUndefined();
    expect(releaseBaseline({ target: 'http://127.0.0.1:8080' })).toBeUndefined();
    const plain = cannedRunResults('wordpress-6.5.5', { target: embedded, config: { failOn: 'must' } });
    expect(lines(plain)[1]).toBe('FAIL — 16 deviations');
  });
});
