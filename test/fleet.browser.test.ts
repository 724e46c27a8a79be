/**
 * The fleet report in a real browser (Debian's chromium, driven by playwright-core), at the
 * size of a real fleet: 1,000 sites × 918 behaviours. It renders without any network, the matrix
 * shows the deviating sites, the filters (status, namespace, level, behaviour, site, group) change
 * what it shows, and each site links to its own report. Timings are measured by the fleet
 * benchmark (bench/fleet.ts), not asserted here.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FleetBuilder } from '../results/fleet-matrix.ts';
import { renderFleetHtml } from '../reporters/fleet-html.ts';
import { chromiumAvailable, openChromium } from './helpers/chromium.ts';
import { siteResults, syntheticBehaviours } from './helpers/fleet.ts';
import type { Status } from '../results/results.ts';

const ARTIFACTS = resolve(import.meta.dirname, '../reports/test-artifacts');

const SITES = 1000;
const BEH = syntheticBehaviours(918);
/** Every 10th site fails behaviour 3, every 7th behaviour 5; site 13 could not check behaviour 8; 1 in 9 behaviours skip. */
const status = (n: number) => (_: unknown, i: number): Status =>
  (i === 3 && n % 10 === 0) || (i === 5 && n % 7 === 0) ? 'failed' : i === 8 && n === 13 ? 'error' : i % 9 === 1 ? 'skipped' : 'passed';

describe.skipIf(!chromiumAvailable)('fleet report in headless Chromium (1,000 sites × 918 behaviours)', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  const requests: string[] = [];

  beforeAll(async () => {
    const b = new FleetBuilder({ failOn: 'must', tool: { name: 'cms-conformance', version: '0.1.0' } });
    for (let n = 1; n <= SITES; n++)
      b.addSite({ id: `site-${n}`, url: `https://site-${n}.example`, shards: [`site ${(n % 4) + 1}/4`], report: `../shard-${(n % 4) + 1}/sites/site-${n}/report.html`, results: siteResults(`https://site-${n}.example`, BEH, status(n)) });
    const report = b.build([], [], false);
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'fleet.html'), renderFleetHtml(report));
    ({ page, close } = await openChromium());
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(join(ARTIFACTS, 'fleet.html')).href);
  }, 120_000);

  afterAll(async () => close?.());

  const shown = async () => (await page.locator('#fm-shown').textContent()) ?? '';
  const rows = () => page.locator('#fm-body tr[data-i]').count();

  it('renders from the file alone, with the verdict and the deviations the sites share', async () => {
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    expect(await page.locator('#verdict').textContent()).toMatch(/^FAIL — 228 of 1000 sites with SECURITY or MUST failures not in their baseline/);
    const first = page.locator('#deviation-list tbody tr').first();
    expect(await first.textContent()).toContain(BEH[5]!.id);
    expect(await first.locator('td').first().textContent()).toBe('142');
    await page.screenshot({ path: join(ARTIFACTS, 'fleet.png') });
  });

  it('shows the deviating sites in the matrix by default, drawing only the rows in view', async () => {
    // 100 sites fail b3, 142 fail b5 (14 both), site 13 errs: 229 sites; 3 behaviours.
    expect(await shown()).toBe('229 of 1000 sites × 3 of 918 behaviours');
    const drawn = await rows();
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(229);
    await page.locator('#fm-wrap').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForFunction(() => document.querySelector('#fm-body tr[data-i]:last-of-type td.sh')?.textContent !== '');
    expect(await page.locator('#fm-body tr[data-i]').last().locator('td.sh').textContent()).toMatch(/^site-\d+$/);
  });

  it('filters by status, namespace, level, behaviour, site and group', async () => {
    await page.locator('#ff input[data-st="s"]').check();
    expect(await shown()).toMatch(/^1000 of 1000 sites × 105 of 918 behaviours$/);
    await page.locator('#f-ns').selectOption('spamfilter/v1');
    expect(await shown()).toMatch(/^1000 of 1000 sites × 21 of 918 behaviours$/);
    await page.locator('#f-reset').click();
    await page.locator('#f-lvl').selectOption('SHOULD');
    expect(await shown()).toBe('0 of 1000 sites × 0 of 918 behaviours');
    await page.locator('#f-reset').click();
    await page.locator('#f-beh').fill(BEH[3]!.id);
    expect(await shown()).toBe('100 of 1000 sites × 1 of 918 behaviours');
    await page.locator('#f-site').fill('site-70');
    expect(await shown()).toBe('2 of 1000 sites × 1 of 918 behaviours'); // site-70, site-700
    await page.locator('#f-reset').click();
    await page.locator('#f-group').selectOption('0');
    expect(await shown()).toMatch(/^128 of 1000 sites × 1 of 918 behaviours$/); // b5 only: 142 - 14
    await page.locator('#f-reset').click();
  });

  it('a click on a deviation shows its sites; each site links to its own report; a cell tells its reason', async () => {
    await page.locator('#deviation-list tbody tr').nth(1).click();
    expect(await shown()).toBe('100 of 1000 sites × 1 of 918 behaviours');
    const link = page.locator('#fm-body tr[data-i] td.sh a').first();
    expect(await link.getAttribute('href')).toMatch(/^\.\.\/shard-\d\/sites\/site-\d+\/report\.html$/);
    const cells = page.locator('#fm-body tr[data-i] canvas').first();
    await cells.hover({ position: { x: 7, y: 9 } });
    expect(await cells.getAttribute('title')).toMatch(/^site-\d+ · .*: failed — .*answered 404 rest_no_route$/);
    await page.locator('#f-reset').click();
  });
});
