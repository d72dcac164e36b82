/** Launches Debian's headless Chromium through playwright-core (no downloaded browser builds). */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';

export { CHROMIUM_PATH, launchBrowser } from './steps';

export function baseURL(): string {
  return inject('baseURL');
}

export interface MobilePage {
  context: BrowserContext;
  page: Page;
}

/** A 375x812 phone-sized context, as the member sees the app. */
export async function newMobilePage(
  browser: Browser,
  options: { locale?: string } = {},
): Promise<MobilePage> {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: options.locale ?? 'zh-CN',
    baseURL: baseURL(),
  });
  const page = await context.newPage();
  return { context, page };
}
