/** Launches Debian's headless Chromium through playwright-core (no downloaded browser builds). */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

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
