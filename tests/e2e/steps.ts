/**
 * The journeys' browser steps that need no test runner (no Vitest import): launching Debian's Chromium, the
 * member's steps through the real English pages (register, log in, a simulated deposit, fast-forwarding the
 * demo clock, buying a VIP level) and waiting for animations. tests/e2e/journey.ts re-exports them for the
 * tests; scripts/screenshots.ts uses them outside Vitest.
 */
import { chromium, type Browser, type Page } from 'playwright-core';

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

export const PASSWORD = 'secret1';
export const KEY = '1234';

export const path = (page: Page) => new URL(page.url()).pathname;

/**
 * Resolves once every finite CSS animation and transition on the page has finished (toasts sliding in,
 * dialogs fading): what a screenshot should show, waited for by its own events rather than a timer.
 * Endless animations (a spinner) are left running.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ).then(() => undefined),
  );
}

/** Fills the English sign-up form of an open /register, with the captcha code demo mode shows. */
export async function fillRegister(page: Page, username: string): Promise<void> {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('E-mail').fill(`${username}@example.test`);
  await page.getByLabel('Login password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Security key', { exact: true }).fill(KEY);
  await page.getByLabel('Repeat the security key', { exact: true }).fill(KEY);
  await page.getByLabel('Secret answer').fill('Rex');
  const hint = page.getByText(/^Demo code: \d{4}$/);
  // The captcha is the first call a fresh profile's demo engine answers; on a loaded machine its start can
  // outlast the client's timeout, and the captcha then says "Tap to retry", as a member would.
  const retry = page.getByRole('button', { name: 'Tap to retry' });
  for (let attempt = 0; ; attempt++) {
    await hint.or(retry).first().waitFor({ timeout: 60_000 });
    if (!(await retry.isVisible()) || attempt === 3) break;
    await retry.click();
  }
  await hint.waitFor();
  const code = ((await hint.textContent()) ?? '').replace('Demo code: ', '').trim();
  await page.getByLabel('Verification code', { exact: true }).fill(code);
}

/**
 * Logs the device out by forgetting the stored member, from a page of the same origin where the app does not
 * run (a static file): removed from a running app's page, the key can be written back by the app (a profile or
 * balance refresh saves the member) between the removal and the next navigation, which then lands logged in.
 */
export async function forgetStoredMember(page: Page): Promise<void> {
  await page.goto('/favicon.svg');
  await page.evaluate(() => localStorage.removeItem('strata.user'));
}

/** Submits the English login form; the caller waits for where it expects to land. */
export async function submitLogin(page: Page, username: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username, e-mail or phone').fill(username);
  await page.getByLabel('Login password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** Waits for a toast; on failure says which toasts showed instead (a refused call's catalogue message). */
export async function toast(page: Page, text: string | RegExp, timeout: number): Promise<void> {
  try {
    await page.locator('.toast').filter({ hasText: text }).first().waitFor({ timeout });
  } catch (error) {
    throw new Error(
      `toast ${String(text)} not seen; shown: ${await page.locator('.toast').allTextContents()}`,
      {
        cause: error,
      },
    );
  }
}

/** Sends a simulated TRC-20 payment from /user/recharge and waits until its pending record shows. */
export async function simulateDeposit(page: Page, amount: string): Promise<void> {
  await page.goto('/user/recharge');
  await page.locator('.address').waitFor();
  await page.getByLabel('Simulated amount').fill(amount);
  await page.getByRole('button', { name: 'Send simulated payment' }).click();
  await page.locator('.record progress').first().waitFor();
}

/**
 * The demo tools move the simulated clock an hour: pending deposits confirm and reviews finish at once, so
 * a journey watches those states without waiting on real time.
 */
export async function fastForwardHour(page: Page): Promise<void> {
  await fastForward(page, '1 hour');
}

/** The demo tools move the simulated clock by one of their steps ('1 hour', '1 day', '30 days'). */
export async function fastForward(page: Page, step: '1 hour' | '1 day' | '30 days'): Promise<void> {
  await page.getByRole('button', { name: 'Demo mode: learn more' }).click();
  const tools = page.getByRole('dialog', { name: 'Demo mode' });
  await tools.getByRole('button', { name: `Fast-forward ${step}` }).click();
  await tools.getByText(`Simulated clock moved forward ${step}`).first().waitFor({ timeout: 20_000 });
  await tools.getByRole('button', { name: 'Close' }).click();
}

/** Buys a VIP level on /user/vip with the security key and waits for the confirming toast. */
export async function buyVip(page: Page, level: number, price: string, toastTimeout: number): Promise<void> {
  await page.goto('/user/vip');
  await page.getByRole('button', { name: `Buy VIP${level}` }).click();
  const dialog = page.getByRole('dialog', { name: `Buy VIP${level}` });
  await dialog.getByLabel('Security key').fill(KEY);
  await dialog.getByRole('button', { name: `Pay ${price} USDT` }).click();
  await toast(page, `You are now VIP${level}`, toastTimeout);
}
