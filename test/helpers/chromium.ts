/** Debian's chromium, driven by playwright-core, for the tests of the HTML reports. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

export const CHROMIUM = process.env.CMSC_CHROMIUM ?? '/usr/bin/chromium';
/** Locally a missing browser skips the browser tests (apt-get install chromium); in CI it is required. */
export const chromiumAvailable = existsSync(CHROMIUM) || !!process.env.CI;

/** A headless browser without network extras, its first page, and how to close it. */
export async function openChromium(viewport = { width: 1280, height: 1300 }): Promise<{ ctx: BrowserContext; page: Page; close: () => Promise<void> }> {
  const { chromium } = await import('playwright-core');
  const profileDir = mkdtempSync(join(tmpdir(), 'cmsc-chromium-'));
  const ctx = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
  });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  return {
    ctx,
    page,
    close: async () => {
      await ctx.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
