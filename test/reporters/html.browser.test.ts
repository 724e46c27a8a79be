/**
 * The HTML report in a real browser (Debian's chromium, driven by playwright-core): it renders
 * without any network, a newcomer finds what fails, why and how to reproduce it, and the status
 * and level filters work. Screenshots go to reports/test-artifacts/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { compareResults } from '../../results/compare.ts';
import { renderCompareHtml } from '../../reporters/compare.ts';
import { renderHtml } from '../../reporters/html.ts';
import { cannedBehaviours, cannedResults } from './canned.ts';

const CHROMIUM = process.env.CMSC_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = resolve(import.meta.dirname, '../../reports/test-artifacts');
// Locally a missing browser skips these tests (install it: apt-get install chromium); in CI it is installed by .ci/run and required.
const available = existsSync(CHROMIUM) || !!process.env.CI;

describe.skipIf(!available)('HTML report in headless Chromium', () => {
  let ctx: BrowserContext;
  let page: Page;
  let profileDir: string;
  const requests: string[] = [];

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'report.html'), renderHtml(cannedResults()));
    profileDir = mkdtempSync(join(tmpdir(), 'cmsc-chromium-'));
    ctx = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 1300 },
    });
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(join(ARTIFACTS, 'report.html')).href);
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  const shown = () => page.locator('#shown').textContent();
  const visible = (status: string) => page.locator(`#matrix tr.beh[data-status="${status}"]:visible`).count();

  it('renders from the file alone: no request other than the file itself', async () => {
    expect(await page.locator('h1').textContent()).toBe('cms-conformance report');
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    expect(await page.locator('#verdict').textContent()).toMatch(/^FAIL — 4 deviations \(1 of them not gating: SHOULD\) · exit code 1$/);
    expect(await page.locator('#counts').textContent()).toBe('12 behaviours: 5 passed, 4 failed (3 MUST, 1 SHOULD), 1 could not be checked, 2 skipped');
    expect(await shown()).toBe('showing 12 of 12');
    await page.screenshot({ path: join(ARTIFACTS, 'report.png') });
  });

  it('shows what fails and why at once, and each failure\'s request and reproduction one click away', async () => {
    expect(await page.locator('#failure-index details.failure').count()).toBe(5); // 4 failures and 1 check that could not be made
    const item = page.locator('details.failure[id="b-cms.posts.per-page.bounds"]');
    expect(await item.locator('summary').innerText()).toContain('answered 200, documented 400');
    await item.locator('summary').click();
    const text = (await item.innerText()).replace(/\s+/g, ' ');
    for (const s of ['WHY IT FAILED', 'answered 200, documented 400', 'SHRUNK INPUT', '"per_page": 101', 'REQUEST', 'RESPONSE', 'HTTP 200', 'REPRODUCE WITH CURL', "curl -sS -X GET 'http://127.0.0.1:8089/index.php?rest_route=/wp/v2/posts&per_page=101' -u \"$TARGET_USER:$TARGET_APP_PASSWORD\"", 'RERUN ONLY THIS BEHAVIOUR'])
      expect(text).toContain(s);
    // the target's HTML is shown as text, never run
    expect(text).toContain('<script>alert(1)</script>');
    // All behaviours: one folded box per namespace, its rows rendered when it is opened; every skip shows its reason
    expect(await page.locator('details.ns[data-ns="suite/v4"]').getAttribute('open')).toBeNull();
    expect(await page.locator('details.ns[data-ns="suite/v4"] > summary').innerText()).toContain('1 skipped');
    expect(await page.locator('#matrix tr.beh').count()).toBe(0);
    for (const d of await page.locator('details.ns > summary').all()) await d.click();
    // a box renders its rows on its 'toggle' event, which the browser dispatches as a task after the click: wait for it
    await expect.poll(() => page.locator('#matrix tr.beh').count()).toBe(12);
    expect(await page.locator('tr.beh[data-status="skipped"] .skipwhy').allTextContents()).toEqual([
      'skipped: writes not allowed: the target is not on loopback; pass --allow-writes to allow writes',
      'skipped: namespace suite/v4 is not advertised by the target',
    ]);
    await item.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'report-failure.png') });
  });

  it('copies a curl command with its button', async () => {
    const button = page.locator('details.failure[id="b-cms.posts.per-page.bounds"] .copybtn').first();
    await button.click();
    await expect.poll(() => button.textContent()).toMatch(/Copied|Press Ctrl\+C/);
  });

  it('filters by status, level and text', async () => {
    await page.locator('#filters input[value="passed"]').uncheck();
    expect(await shown()).toBe('showing 7 of 12');
    expect(await visible('passed')).toBe(0);
    expect(await visible('failed')).toBe(4);
    await page.locator('#filters input[value="MUST"]').uncheck();
    expect(await shown()).toBe('showing 1 of 12');
    expect(await page.locator('#matrix tr.beh:visible .id').allInnerTexts()).toEqual(['cms.posts.create.title-stored']);
    await page.locator('#show-all').click();
    expect(await shown()).toBe('showing 12 of 12');
    await page.locator('#only-failures').click();
    expect(await shown()).toBe('showing 5 of 12');
    expect(await page.locator('details.ns[data-ns="suite/v4"]').isVisible()).toBe(false); // only a skip there
    await page.locator('#search').fill('spamfilter');
    expect(await shown()).toBe('showing 2 of 12');
    await page.locator('#show-all').click();
    expect(await shown()).toBe('showing 12 of 12');
  });

  it('a deviation links to its failures\' details; a link to a behaviour\'s row renders it and leaves it visible below the sticky filter bar', async () => {
    // A report long enough that the row can be scrolled to the top of the window.
    const padding = Array.from({ length: 160 }, (_, i) => ({ ...cannedBehaviours().find((b) => b.id === 'cms.posts.list.default')!, id: `cms.posts.pad.${String(i).padStart(3, '0')}`, route: '/cms/v2/pages' }));
    writeFileSync(join(ARTIFACTS, 'report-long.html'), renderHtml(cannedResults({ behaviours: [...cannedBehaviours(), ...padding] })));
    await page.goto(pathToFileURL(join(ARTIFACTS, 'report-long.html')).href);
    await page.locator('#deviations details.deviation').first().locator('summary').click();
    const link = page.locator('#deviations details.deviation').first().locator('a.id').first();
    const id = (await link.textContent())!;
    await link.click();
    const detail = page.locator(`details.failure[id="b-${id}"]`);
    expect(await detail.getAttribute('open')).not.toBeNull();
    await expect.poll(async () => (await detail.boundingBox())?.y ?? -1).toBeLessThan(400);
    const check = async (id: string, shot: string) => {
      await page.goto(`${pathToFileURL(join(ARTIFACTS, 'report-long.html')).href}#m-${id}`);
      const row = page.locator(`tr.beh[id="m-${id}"]`);
      await expect.poll(async () => (await row.boundingBox())?.y ?? -1).toBeLessThan(400); // rendered and scrolled to the top region
      await page.waitForTimeout(100);
      const bar = (await page.locator('#filters').boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(bar.y).toBeLessThanOrEqual(1); // the bar is stuck at the top
      for (const part of [row.locator('.id'), row.locator('.id + div, .id + .tag + div').first(), row.locator('.badge')]) {
        const box = (await part.boundingBox())!;
        expect(box.y, await part.innerText()).toBeGreaterThanOrEqual(bar.y + bar.height);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      }
      // and nothing covers them: the element at each part's centre is the part itself (or inside it)
      for (const sel of ['.id', '.badge']) {
        const hit = await row.locator(sel).evaluate((el) => {
          const r = el.getClientRects()[0]!; // the first line of the element
          const top = document.elementFromPoint(r.left + Math.min(r.width / 2, 20), r.top + r.height / 2);
          return !!top && (top === el || el.contains(top)) ? 'itself' : `${top?.tagName}#${top?.id}.${top?.className}`;
        });
        expect(hit, `${id} ${sel}`).toBe('itself');
      }
      await page.screenshot({ path: join(ARTIFACTS, shot) });
    };
    await check('cms.posts.pad.120', 'report-row-link.png');
    // a narrow window: the filter bar wraps onto several lines, and the row still clears it
    await page.setViewportSize({ width: 640, height: 900 });
    await page.goto(pathToFileURL(join(ARTIFACTS, 'report-long.html')).href);
    expect((await page.locator('#filters').boundingBox())!.height).toBeGreaterThan(60);
    await check('cms.posts.pad.050', 'report-row-link-narrow.png');
    await page.setViewportSize({ width: 1280, height: 1300 });
  });

  it('renders the comparison with its groups and the advertised diff', async () => {
    const bBeh = cannedBehaviours().map((x) => (x.id === 'cms.posts.list.default' ? { ...x, status: 'failed' as const, reason: 'broken on B' } : x));
    const B = cannedResults({ behaviours: bBeh, advertised: { namespaces: ['cms/v2', 'cms-abilities/v1'], routes: {} } });
    writeFileSync(join(ARTIFACTS, 'compare.html'), renderCompareHtml(compareResults(cannedResults(), B, { a: 'a/results.json', b: 'b/results.json' })));
    await page.goto(pathToFileURL(join(ARTIFACTS, 'compare.html')).href);
    expect(await page.locator('#verdict').textContent()).toMatch(/B REGRESSES — 1 gating behaviour fails on B/);
    expect(await page.locator('#only-b-fails tbody tr').count()).toBe(1);
    expect(await page.locator('#advertised-diff').innerText()).toContain('+ namespace cms-abilities/v1');
    await page.screenshot({ path: join(ARTIFACTS, 'compare.png') });
  });
});
