/**
 * The plumbing the end-to-end journeys share: one Chromium per test file, English mobile pages, screenshots
 * and the member's steps through the real pages (register, log in, a simulated deposit, buying a VIP level).
 * Each journey keeps its own assertions; these helpers only wait for what the next step needs.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { newMobilePage, type MobilePage } from './browser';
import { animationsDone, fillRegister, launchBrowser, path } from './steps';

export const SHOTS = '/tmp/shots';

export {
  KEY,
  PASSWORD,
  animationsDone,
  buyVip,
  fastForward,
  fastForwardHour,
  fillRegister,
  forgetStoredMember,
  path,
  simulateDeposit,
  submitLogin,
  toast,
} from './steps';

/** Launches Chromium before the file's tests and closes it after them; call at the top of a test file. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is launched in beforeAll; use it inside a test');
    return browser;
  };
}

/** A phone-sized page in English, unless the test itself stores another language. */
export async function newEnglishPage(browser: Browser): Promise<MobilePage> {
  const mobile = await newMobilePage(browser, { locale: 'en-US' });
  // E2E_CONSOLE=1 prints the page's console and uncaught errors, for finding why a journey stalls.
  if (process.env.E2E_CONSOLE) {
    mobile.page.on('console', (m) => console.log('[console]', m.type(), m.text()));
    mobile.page.on('pageerror', (e) => console.log('[pageerror]', e.message));
  }
  await mobile.context.addInitScript(() => {
    if (!localStorage.getItem('strata.lang')) localStorage.setItem('strata.lang', 'en-US');
  });
  return mobile;
}

/**
 * A screenshot taker for one journey: /tmp/shots/<prefix>-<name>.png, full page, once animations are done.
 * `fromTop` scrolls up first: a full-page shot of a scrolled page draws the sticky bars mid-page.
 */
export function screenshots(
  prefix: string,
  options: { fromTop?: boolean } = {},
): (page: Page, name: string) => Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  return async (page, name) => {
    if (options.fromTop) await page.evaluate(() => window.scrollTo(0, 0));
    await animationsDone(page);
    await page.screenshot({ path: `${SHOTS}/${prefix}-${name}.png`, fullPage: true });
  };
}

/** Registers a member through /register and waits until the app has moved on from it. */
export async function register(page: Page, username: string): Promise<void> {
  await page.goto('/register');
  await fillRegister(page, username);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect.poll(() => path(page), { timeout: 20_000 }).not.toBe('/register');
}
