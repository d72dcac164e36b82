/**
 * Writes through the outbox in headless Chromium against the production build, in demo mode (issue 10): two
 * members with VIP; one transfers to the other while the browser is offline. The transfer is listed as
 * waiting (with its amount, beside an unchanged balance) on /user/transfer and /order/transferRecord, is
 * still there after a reload with no network, and once the network is back it is pushed and applied exactly
 * once: the recipient's balance grows by the amount once and lists one transfer.
 * The two deposits confirm by the demo tools' fast-forward. Screenshots: /tmp/shots/outbox-*.png.
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
  toast,
  useBrowser,
} from './journey';

const browser = useBrowser();
const shot = screenshots('outbox', { fromTop: true });
const TOAST_MS = 15_000;

async function login(page: Page, username: string) {
  await forgetStoredMember(page);
  await submitLogin(page, username);
  await expect.poll(() => path(page), { timeout: 20_000 }).not.toBe('/login');
}

/** Waits until /user/transfer shows this available balance (the server's confirmed figure). */
async function available(page: Page, amount: string) {
  await page.getByText(`Available ${amount} USDT`).waitFor({ timeout: 30_000 });
}

describe('writes through the outbox (issue 10)', () => {
  it('a transfer made offline waits, survives a reload offline, and is applied exactly once on reconnect', async () => {
    const { page, context } = await newEnglishPage(browser());
    const suffix = String(Date.now() % 1_000_000);
    const alice = `oa${suffix}`;
    const bob = `ob${suffix}`;

    await register(page, bob);
    await simulateDeposit(page, '100');
    await forgetStoredMember(page);
    await register(page, alice);
    await simulateDeposit(page, '300');
    // Both deposits confirm when the simulated clock moves on (the clock is the device's, for both members).
    await fastForwardHour(page);
    await page
      .locator('.record')
      .filter({ hasText: '+300.00 USDT' })
      .filter({ hasText: 'Successful' })
      .first()
      .waitFor({ timeout: 30_000 });
    await buyVip(page, 1, '50.00', TOAST_MS);
    await login(page, bob);
    await page.goto('/user/transfer');
    await available(page, '100.00');
    await buyVip(page, 1, '50.00', TOAST_MS);
    await page.goto('/user/transfer');
    await available(page, '50.00');

    await login(page, alice);
    await page.goto('/user/transfer');
    await available(page, '250.00');
    // Served by the service worker from here on, so a reload with no network still opens the app.
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, {
      timeout: 30_000,
    });
    await page.reload();
    await available(page, '250.00');

    await context.setOffline(true);
    await page.getByLabel('Recipient').fill(bob);
    await page.getByLabel('Amount').fill('25');
    await page.getByRole('button', { name: 'Next' }).click();
    await page
      .getByRole('dialog', { name: 'Confirm transfer' })
      .getByRole('button', { name: 'Transfer now' })
      .click();
    await toast(page, 'Saved on this device: it will be sent when the connection returns', TOAST_MS);
    const waiting = page.getByRole('list', { name: 'Waiting to be sent' });
    await waiting.getByText('Waiting for connection').waitFor();
    await waiting.getByText('-25.00 USDT').waitFor();
    await page.getByText('−25.00 USDT waiting').waitFor();
    // The confirmed balance is the server's: unchanged while the transfer waits.
    await available(page, '250.00');
    await shot(page, 'transfer-waiting');

    await page.reload();
    await page
      .getByRole('list', { name: 'Waiting to be sent' })
      .getByText('Waiting for connection')
      .waitFor();
    await page.getByText('−25.00 USDT waiting').waitFor();
    await page.goto('/order/transferRecord');
    const listed = page.getByRole('list', { name: 'Waiting to be sent' });
    await listed.getByText(`To ${bob}`).waitFor();
    await listed.getByText('-25.00 USDT').waitFor();
    await shot(page, 'records-waiting');

    await page.goto('/user/transfer');
    await page.getByText('−25.00 USDT waiting').waitFor();
    await context.setOffline(false);
    await toast(page, `Done: transfer of 25.00 USDT to ${bob}`, 30_000);
    await expect
      .poll(() => page.getByRole('list', { name: 'Waiting to be sent' }).count(), { timeout: 15_000 })
      .toBe(0);
    await available(page, '225.00');
    // A second reload and reconnect push nothing again.
    await page.reload();
    await available(page, '225.00');

    await login(page, bob);
    await page.goto('/user/transfer');
    await available(page, '75.00');
    await page.goto('/order/transferRecord');
    await page
      .locator('.record')
      .filter({ hasText: `From ${alice}` })
      .first()
      .waitFor({ timeout: 15_000 });
    expect(
      await page
        .locator('.record')
        .filter({ hasText: `From ${alice}` })
        .count(),
    ).toBe(1);
    await context.close();
  }, 300_000);
});
