/**
 * The reports lead with deviations (failing behaviours grouped by the documented item that broke,
 * results/deviations.ts): the console summary, Markdown and HTML (each deviation expandable to its
 * behaviours), compare, baselines and the fleet report. JUnit stays one case per behaviour.
 */
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../results/compare.ts';
import { renderCompareHtml, renderCompareMarkdown } from '../../reporters/compare.ts';
import { FleetBuilder } from '../../results/fleet-matrix.ts';
import { renderFleetMarkdown } from '../../reporters/fleet-markdown.ts';
import { renderFleetHtml } from '../../reporters/fleet-html.ts';
import { renderHtml } from '../../reporters/html.ts';
import { renderJUnit } from '../../reporters/junit.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { applyBaseline, baselineFromResults } from '../../src/run/baseline.ts';
import { deviationSummary } from '../../results/deviations.ts';
import { cannedRunResults } from '../helpers/canned-deviations.ts';

const args = () => cannedRunResults('args-missing');

describe('reports lead with deviations', () => {
  it('console: "N deviations in M failing behaviours", then one line per deviation, worst first', () => {
    const lines = deviationSummary(args());
    expect(lines[0]).toBe('4 deviations in 12 failing behaviours:');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^ {2}MUST +search_semantics \(arg of GET \/cms\/v2\/posts\).*\(4 behaviours\): /);
    expect(deviationSummary(cannedRunResults('args-missing', { behaviours: [] }))).toEqual([]);
  });

  it('Markdown: the deviations come before the counts, each a <details> with its behaviours', () => {
    const md = renderMarkdown(args());
    const at = md.indexOf('### 4 deviations in 12 failing behaviours');
    expect(at).toBeGreaterThan(0);
    // One headline count (the deviations), the behaviours' counts under it, the deviations before the tables.
    expect(md.split('\n')[0]).toMatch(/ — 4 deviations$/);
    expect(md.split('\n')[2]).toMatch(/^\d+ behaviours: \d+ passed, 12 failed \(12 MUST\)/);
    expect(at).toBeLessThan(md.indexOf('| level |'));
    expect(at).toBeLessThan(md.indexOf('### Failures (12)'));
    expect(md).toContain('<details><summary><b>MUST</b> format (field of post) and 4 more places that document it — 4 behaviours:');
    expect(md).toContain('- `disc.args.cms.posts.collection.list.format`');
  });

  it('HTML: a deviations section first, each deviation a <details> linking to its behaviours', () => {
    const html = renderHtml(args());
    expect(html.indexOf('<section id="deviations">')).toBeGreaterThan(0);
    expect(html.indexOf('<section id="deviations">')).toBeLessThan(html.indexOf('<section id="summary">'));
    expect(html).toContain('<h2>4 deviations in 12 failing behaviours</h2>');
    expect((html.match(/<details class="deviation"/g) ?? []).length).toBe(4);
    expect(html).toContain('href="#b-disc.args.cms.posts.collection.list.format"');
    expect(html).toContain('href="#deviations">Deviations (4)</a>');
  });

  it('a wider cause lists the documented items it joins (Markdown and HTML)', () => {
    const r = cannedRunResults('suite-writes-refused');
    expect(r.deviations!.map((d) => d.key)).toEqual(['routes:suite/v4:write']);
    expect(renderMarkdown(r)).toContain('The documented items it joins: `');
    expect(renderHtml(r)).toContain('<p class="note">The documented items it joins: <code>');
  });

  it('JUnit stays one case per behaviour', () => {
    const xml = renderJUnit(args());
    expect((xml.match(/<failure /g) ?? []).length).toBe(12);
  });

  it('compare: deviations matched by documented item, only on B first', () => {
    const a = cannedRunResults('footnotes-missing');
    const b = args();
    const c = compareResults(a, b);
    const only = (g: string) => c.deviations.filter((d) => d.group === g).map((d) => d.key);
    expect(only('only-b')).toHaveLength(4);
    expect(only('only-a')).toContain('field:post.meta');
    expect(c.deviations[0]!.group).toBe('only-b');
    const md = renderCompareMarkdown(c);
    expect(md.indexOf('### Deviations: 4 only on B, 2 only on A, 0 on both')).toBeLessThan(md.indexOf('| group | behaviours |'));
    expect(renderCompareHtml(c)).toContain('<details class="deviation" data-group="only-b">');
  });

  it('baselines: a written baseline leads with its deviations; new failures are reported by deviation', () => {
    const r = args();
    const file = baselineFromResults(r);
    expect(Object.keys(file)).toEqual(['schemaVersion', 'description', 'deviations', 'failures']);
    expect(file.deviations).toHaveLength(4);
    expect(file.failures).toHaveLength(12);
    const partial = { ...file, deviations: file.deviations!.filter((d) => d.key !== 'field:post.format'), failures: file.failures.filter((f) => !f.id.includes('format')) };
    const outcome = applyBaseline(r, partial, 'b.json');
    expect(outcome.newFailures).toHaveLength(4);
    expect(outcome.newDeviations).toEqual([
      {
        key: 'field:post.format',
        item: 'format (field of post) and 4 more places that document it',
        level: 'MUST',
        newFailures: ['disc.args.cms.posts.autosaves.collection.create.format', 'disc.args.cms.posts.collection.create.format', 'disc.args.cms.posts.collection.list.format', 'disc.args.cms.posts.item.update.format'],
      },
    ]);
  });

  it('fleet: deviations by documented item with the sites that have them, first in fleet.md and fleet.html', () => {
    const b = new FleetBuilder({ failOn: 'must', tool: { name: 'cms-conformance', version: '0.1.0' } });
    b.addSite({ id: 'one', url: 'http://one', shards: [], results: args() });
    b.addSite({ id: 'two', url: 'http://two', shards: [], results: args() });
    b.addSite({ id: 'three', url: 'http://three', shards: [], results: cannedRunResults('footnotes-missing') });
    const r = b.build([], [], false);
    const format = r.itemDeviations!.find((d) => d.key === 'field:post.format')!;
    expect(format.sites.map((i) => r.sites[i]!.id).sort()).toEqual(['one', 'two']);
    expect(format.behaviours).toHaveLength(4);
    const md = renderFleetMarkdown(r);
    expect(md.indexOf('### Deviations by documented item')).toBeLessThan(md.indexOf('### Failing behaviours shared by sites'));
    const html = renderFleetHtml(r);
    expect(html.indexOf('id="item-deviations"')).toBeLessThan(html.indexOf('id="deviations"'));
  });
});
