/**
 * Member security journeys in headless Chromium against the production build, in demo mode (docs/SPEC.md
 * §10): two-factor authentication enrolled from Account and security (the test is the authenticator app:
 * otplib reads the key the screen shows), a login from a new device asked for the code, the Devices screen
 * with the new-device message; and a passkey added with Chromium's virtual authenticator (CDP WebAuthn
 * domain), then a passwordless login with it, an address saved on the whitelist whose hold counts down and is
 * released by the demo's fast-forward, a transfer showing its recipient masked with the level, a withdrawal
 * confirmed with the passkey, and the proof of reserves verified with the connection gone. Screenshots at
 * 360 px in en-US and ar-SA go to /tmp/shots/security-*.png.
 */
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { baseURL } from './browser';
import {
  buyVip,
  fastForward,
  fastForwardHour,
  forgetStoredMember,
  KEY,
  newEnglishPage,
  path,
  PASSWORD,
  register,
  screenshots,
  simulateDeposit,
  submitLogin,
  useBrowser,
} from './journey';

const browser = useBrowser();
const shot = screenshots('security', { fromTop: true });

/**
 * The authenticator's code for the next 30 s step: the engine accepts one step of drift and each step once,
 * so this code is accepted right after the current step's code was used, without waiting for the clock.
 */
function nextStepCode(secret: string): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
}

/** A valid TRON address outside the demo (the USDT contract): a withdrawal to it leaves the platform. */
const EXTERNAL_TRC20 = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/**
 * Turns two-factor authentication on from Account and security, as a member with an authenticator app does
 * (the test is the app: otplib reads the key the screen shows, on the real clock, which the demo's
 * fast-forwards do not move); answers the key. `shoot` takes the screens.
 */
async function turnOnTwoFactor(
  page: Page,
  { shoot }: { shoot?: (name: string) => Promise<void> } = {},
): Promise<string> {
  await page.goto('/user/account');
  await page.getByRole('link', { name: 'Two-factor authentication' }).click();
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await page.getByLabel('Login password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('img', { name: 'QR code of your authenticator key' }).waitFor({ timeout: 30_000 });
  const secret = ((await page.getByLabel('Authenticator key').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shoot?.('twofactor-scan');
  await page
    .getByLabel('Code from the app')
    .fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) }));
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' });
  await codes.waitFor({ timeout: 30_000 });
  expect(await codes.getByRole('listitem').count()).toBe(10);
  await shoot?.('twofactor-recovery');
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByText('Recovery codes left').waitFor();
  return secret;
}

async function narrow(page: Page): Promise<void> {
  await page.setViewportSize({ width: 360, height: 780 });
}

async function arabic(page: Page, route: string, ready: string | RegExp): Promise<void> {
  await page.evaluate(() => localStorage.setItem('strata.lang', 'ar-SA'));
  await page.goto(route);
  await page.getByText(ready).first().waitFor({ timeout: 30_000 });
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
}

describe('two-factor authentication (issue 27 item 1)', () => {
  it('enrols with the QR code and a first code, shows the recovery codes once, and asks a new device for a code', async () => {
    const { page } = await newEnglishPage(browser());
    await narrow(page);
    const username = `tfa${Date.now() % 1_000_000}`;
    await register(page, username);

    const secret = await turnOnTwoFactor(page, { shoot: (name) => shot(page, name) });
    await shot(page, 'twofactor-on');

    // A new device: in demo mode the engine lives in this browser profile, so the profile becomes a new
    // device by forgetting its device id (as clearing site data would); the password alone is not enough.
    await forgetStoredMember(page);
    await page.evaluate(() => localStorage.removeItem('strata.deviceId'));
    await submitLogin(page, username);
    await page.getByRole('heading', { name: "Confirm it's you" }).waitFor({ timeout: 30_000 });
    expect(path(page)).toBe('/login');
    await shot(page, 'login-step');
    await page.getByLabel('Authenticator code').fill(await nextStepCode(secret));
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await expect.poll(() => path(page), { timeout: 30_000 }).toBe('/home');

    // The member's devices: the new device's login in the history, marked, and its message.
    await page.goto('/user/devices');
    await page.getByText('New device', { exact: true }).first().waitFor({ timeout: 30_000 });
    await page
      .getByText(/^New login: /)
      .first()
      .waitFor({ timeout: 30_000 });
    await shot(page, 'devices');
    await arabic(page, '/user/devices', 'سجل تسجيلات الدخول');
    await shot(page, 'devices-ar');
    await arabic(page, '/user/twofactor', 'رموز الاسترداد المتبقية');
    await shot(page, 'twofactor-on-ar');
  }, 180_000);
});

/** A page on http://localhost (a WebAuthn relying party must be a domain, not 127.0.0.1). */
async function localhostPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser().newContext({
    viewport: { width: 360, height: 780 },
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    baseURL: baseURL().replace('127.0.0.1', 'localhost'),
  });
  await context.addInitScript(() => {
    if (!localStorage.getItem('strata.lang')) localStorage.setItem('strata.lang', 'en-US');
  });
  return { context, page: await context.newPage() };
}

describe('passkeys, the address book, money out and proof of reserves (issue 27 items 2-4 and 7)', () => {
  it('adds a passkey and logs in with it; a whitelisted address held until the fast-forward; a transfer showing its recipient; a withdrawal confirmed with the passkey; the proof verified offline', async () => {
    const { context, page } = await localhostPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const suffix = Date.now() % 1_000_000;
    // A VIP1 member to transfer to (a recipient needs a level), paid on the simulated chain.
    const bob = `pkbob${suffix}`;
    await register(page, bob);
    await simulateDeposit(page, '60');
    await fastForwardHour(page);
    await buyVip(page, 1, '50.00', 20_000);
    await forgetStoredMember(page);

    const username = `pk${suffix}`;
    await register(page, username);
    await page.goto('/user/passkeys');
    await page.getByLabel('Passkey name').fill('Test phone');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const list = page.getByRole('list', { name: 'Your passkeys' });
    await list.getByText('Test phone').waitFor({ timeout: 30_000 });
    await shot(page, 'passkeys');

    await forgetStoredMember(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in with a passkey' }).click();
    await expect.poll(() => path(page), { timeout: 30_000 }).toBe('/home');
    await page.goto('/user/devices');
    const history = page.getByRole('list', { name: 'Login history' });
    await history
      .getByText(/Passkey/)
      .first()
      .waitFor({ timeout: 30_000 });

    // An address saved on the whitelist: held for 24 hours, counting down while the member watches.
    await page.goto('/user/addressbook');
    await page.getByRole('button', { name: 'Add an address' }).click();
    await page.getByLabel('Receiving address').fill(EXTERNAL_TRC20);
    await page.getByLabel('Label').fill('Cold wallet');
    await page.getByRole('button', { name: 'Save address' }).click();
    const hold = page.getByRole('timer');
    await hold.waitFor({ timeout: 30_000 });
    const held = (await hold.textContent()) ?? '';
    expect(held).toMatch(/^On hold: usable in (0 d 2[34]|1 d 00):\d\d:\d\d$/);
    await expect.poll(() => hold.textContent(), { timeout: 10_000 }).not.toBe(held);
    await page.getByRole('switch').click();
    await page.getByText('On: withdrawals only to saved addresses').waitFor({ timeout: 30_000 });
    await shot(page, 'addressbook-hold');
    // Money to withdraw, then a day of the simulated clock: the deposit confirms and the hold ends.
    await simulateDeposit(page, '100');
    await fastForward(page, '1 day');
    await page.goto('/user/addressbook');
    await page.getByText('Ready to use').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('timer').count()).toBe(0);

    // A transfer names its recipient, masked, with the level, in the confirmation sheet.
    await page.goto('/user/transfer');
    await page.getByLabel('Recipient').fill(bob);
    await page.getByLabel('Amount').fill('5');
    await page.getByRole('button', { name: 'Next' }).click();
    const sheet = page.getByRole('dialog', { name: 'Confirm transfer' });
    await sheet.getByText(`${bob.slice(0, 2)}***${bob.slice(-2)} · VIP1`).waitFor({ timeout: 30_000 });
    await shot(page, 'transfer-recipient');
    await sheet.getByRole('button', { name: 'Cancel' }).click();

    // With two-factor on, a withdrawal to the released address is confirmed with the passkey.
    // The simulated clock is 1 h (bob's deposit) + 1 day ahead; the authenticator app is not.
    await turnOnTwoFactor(page);
    await page.goto('/user/withdraw');
    await page.getByText(/available 100\.00 USDT/).waitFor({ timeout: 30_000 });
    await page.getByLabel('Receiving address').fill(EXTERNAL_TRC20);
    await page.getByLabel('Amount', { exact: true }).fill('20');
    await page.getByLabel('Security key').fill(KEY);
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm withdrawal' });
    await confirm.getByLabel('Authenticator code').waitFor({ timeout: 30_000 });
    await shot(page, 'withdraw-second-factor');
    await confirm.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { name: 'Submitted, awaiting review' }).waitFor({ timeout: 30_000 });

    // Proof of reserves: downloaded and verified, then checked again with the connection gone.
    const verified = 'Verified on this device: your balances are included in this snapshot';
    await page.goto('/user/account');
    await page.getByRole('link', { name: 'Proof of reserves' }).click();
    await page.getByText(verified).waitFor({ timeout: 30_000 });
    // The connection drops: the screen is opened again in the app (a document loaded now would not be offline
    // in this browser context's emulation) and checks the proof stored on the device, with its time.
    await context.setOffline(true);
    await page.getByTestId('pwa-online-status').getByText('You are offline').waitFor({ timeout: 30_000 });
    await page.goBack();
    await page.getByRole('link', { name: 'Proof of reserves' }).click();
    await page.getByText(verified).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('pwa-online-status').textContent()).toContain('You are offline');
    expect(await page.getByRole('button', { name: 'Download the latest proof' }).isDisabled()).toBe(true);
    const downloaded = page
      .locator('dt', { hasText: 'Proof downloaded' })
      .locator('xpath=following-sibling::dd[1]');
    expect(await downloaded.textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    await shot(page, 'reserves-offline');
    await context.close();
  }, 240_000);
});
