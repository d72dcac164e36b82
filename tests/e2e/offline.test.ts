/**
 * Issue 10, demo mode: every screen reads the device. Online, a member sees their balance and records; then
 * the connection drops and the page reloads: /user, /order/rechargeRecord, /order/transferRecord and
 * /market still show the last data, the member's figures with the time they date from, and the shell says
 * it is offline, calmly, once. Screenshots: /tmp/shots/offline-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  buyVip,
  fastForwardHour,
  forgetStoredMember,
  newEnglishPage,
  path,
  register,
  screenshots,
  simulateDeposit,
  submitLogin,
  useBrowser,
} from './journey';

const browser = useBrowser();
const shot = screenshots('offline', { fromTop: true });

async function record(page: Page, route: string, text: string | RegExp): Promise<void> {
  await page.goto(route);
  try {
    await page.locator('.record').filter({ hasText: text }).first().waitFor({ timeout: 20_000 });
  } catch (error) {
    await page.screenshot({ path: '/tmp/shots/offline-failed.png', fullPage: true });
    throw new Error(`${route}: ${String(text)} not listed; page: ${await page.locator('main').innerText()}`, {
      cause: error,
    });
  }
}

describe('offline-first reads (issue 10, demo mode)', () => {
  it('online, then offline with a reload: the last data with its time on every screen', async () => {
    const { page, context } = await newEnglishPage(browser());
    const suffix = String(Date.now() % 1_000_000);
    const alice = `ofa${suffix}`;
    const bob = `ofb${suffix}`;

    await register(page, bob);
    await simulateDeposit(page, '60');
    await fastForwardHour(page);
    await page.locator('.record').filter({ hasText: 'Successful' }).first().waitFor({ timeout: 30_000 });
    await buyVip(page, 1, '50.00', 20_000);

    await forgetStoredMember(page);
    await register(page, alice);
    await simulateDeposit(page, '1000');
    await fastForwardHour(page);
    await page.locator('.record').filter({ hasText: 'Successful' }).first().waitFor({ timeout: 30_000 });

    await page.goto('/user/transfer');
    await page.getByLabel('Recipient').fill(bob);
    await page.getByLabel('Amount').fill('25');
    await page.getByRole('button', { name: 'Next' }).click();
    await page
      .getByRole('dialog', { name: 'Confirm transfer' })
      .getByRole('button', { name: 'Transfer now' })
      .click();
    await page
      .getByText(/Transfer complete|Waiting for connection/)
      .first()
      .waitFor({ timeout: 20_000 });
    await record(page, '/order/transferRecord', `To ${bob}`);

    // Online: the balance and the records, read from the device replica the sync engine filled.
    await page.goto('/user');
    await page.locator('.hero-amount').filter({ hasText: '975.00' }).waitFor({ timeout: 20_000 });
    await record(page, '/order/rechargeRecord', '+1,000.00 USDT');
    await page.goto('/market');
    await page.getByText('BTC/USDT').first().waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker?.controller != null), { timeout: 30_000 })
      .toBe(true);

    // The connection drops; each screen reloads from the device alone.
    await context.setOffline(true);
    for (const route of ['/user', '/order/rechargeRecord', '/order/transferRecord', '/market']) {
      await page.goto(route);
      await page.getByTestId('pwa-online-status').getByText('You are offline').waitFor({ timeout: 20_000 });
      expect(await page.getByRole('button', { name: 'Try again' }).count(), route).toBe(0);
    }

    await page.goto('/user');
    await page.locator('.hero-amount').filter({ hasText: '975.00' }).waitFor({ timeout: 20_000 });
    await page
      .getByTestId('freshness')
      .filter({ hasText: /^Updated / })
      .waitFor();
    await page.getByTestId('sync-status').filter({ hasText: 'Offline' }).waitFor();
    await shot(page, 'user');

    await record(page, '/order/rechargeRecord', '+1,000.00 USDT');
    await page
      .getByTestId('freshness')
      .filter({ hasText: /^Updated / })
      .waitFor();

    await record(page, '/order/transferRecord', `To ${bob}`);
    await page
      .getByTestId('freshness')
      .filter({ hasText: /^Updated / })
      .waitFor();
    await shot(page, 'transfer-records');

    // Demo quotes are simulated on the device, so the market keeps moving; the list is there either way.
    await page.goto('/market');
    await page.getByText('BTC/USDT').first().waitFor({ timeout: 20_000 });
    await shot(page, 'market');

    // The sync status opens its queue sheet by keyboard; nothing is waiting.
    await page.getByTestId('sync-status').focus();
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog', { name: 'Waiting to be sent' });
    await sheet.getByText('Nothing is waiting to be sent.').waitFor();
    await page.keyboard.press('Escape');

    // Logging out and in as another member on this device shows none of the first member's records.
    await context.setOffline(false);
    await forgetStoredMember(page);
    await submitLogin(page, bob);
    await expect.poll(() => path(page), { timeout: 20_000 }).not.toBe('/login');
    await record(page, '/order/transferRecord', `From ${alice}`);
    expect(
      await page
        .locator('.record')
        .filter({ hasText: `To ${bob}` })
        .count(),
    ).toBe(0);
    await context.close();
  });
});
