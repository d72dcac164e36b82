/**
 * Member security journeys in headless Chromium against the production build, in demo mode (docs/SPEC.md
 * §10): two-factor authentication enrolled from Account and security (the test is the authenticator app:
 * otplib reads the key the screen shows), a login from a new device asked for the code, the Devices screen
 * with the new-device message; and a passkey added with Chromium's virtual authenticator (CDP WebAuthn
 * domain), then a passwordless login with it. Screenshots at 360 px in en-US and ar-SA go to
 * /tmp/shots/security-*.png.
 */
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { baseURL } from './browser';
import {
  forgetStoredMember,
  newEnglishPage,
  path,
  PASSWORD,
  register,
  screenshots,
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

    await page.goto('/user/account');
    await page.getByRole('link', { name: 'Two-factor authentication' }).click();
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByLabel('Login password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('img', { name: 'QR code of your authenticator key' }).waitFor({ timeout: 30_000 });
    const secret = ((await page.getByLabel('Authenticator key').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot(page, 'twofactor-scan');
    await page
      .getByLabel('Code from the app')
      .fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) }));
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' });
    await codes.waitFor({ timeout: 30_000 });
    expect(await codes.getByRole('listitem').count()).toBe(10);
    await shot(page, 'twofactor-recovery');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Recovery codes left').waitFor();
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

describe('passkeys (issue 27 item 2)', () => {
  it('adds a passkey with the platform authenticator and logs in with it, without a password', async () => {
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
    const username = `pk${Date.now() % 1_000_000}`;
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
    await context.close();
  }, 180_000);
});
