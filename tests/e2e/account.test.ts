/**
 * The account journey in headless Chromium against the production build, in demo mode: register a member
 * through the UI (the captcha code is shown in demo mode), log out, log back in, visit every account screen,
 * then fast-forward the demo clock past the 7-day token life: ONE session-expired dialog, then /login.
 * Screenshots of every account screen go to /tmp/shots/account-*.png (light, then dark and right to left).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  fillRegister,
  forgetStoredMember,
  newEnglishPage,
  path,
  screenshots,
  submitLogin,
  useBrowser,
} from './journey';

const browser = useBrowser();
const shot = screenshots('account');

async function login(page: Page, username: string) {
  await submitLogin(page, username);
  await expect.poll(() => path(page), { timeout: 30_000 }).toBe('/home');
}

async function visit(page: Page, route: string, ready: string | RegExp, name: string) {
  await page.goto(route);
  await page.getByText(ready).first().waitFor({ timeout: 30_000 });
  await shot(page, name);
}

describe('account and session (issue 5)', () => {
  it('registers through the UI, logs out and in, shows every account screen, and ends an expired session once', async () => {
    const { page, context } = await newEnglishPage(browser());
    const username = `acct${Date.now() % 1_000_000}`;

    // Register: every rule is checked before sending.
    await page.goto('/register');
    await page.getByText(/^Demo code: \d{4}$/).waitFor({ timeout: 30_000 });
    await shot(page, 'register');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Please enter a username').waitFor();
    await shot(page, 'register-errors');
    await fillRegister(page, username);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => path(page), { timeout: 30_000 }).toBe('/home');
    await page.getByRole('heading', { name: `Hello, ${username}` }).waitFor();

    // Log out from account management, then log back in.
    await visit(page, '/user/account', `${username}@example.test`, 'account');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => path(page), { timeout: 30_000 }).toBe('/login');
    await page.locator('.toast').filter({ hasText: 'You have been logged out' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('strata.user'))).toBeNull();
    await shot(page, 'login');
    await login(page, username);

    // Every account screen.
    await visit(page, '/user/changePsw', 'Current login password', 'changepsw');
    await visit(page, '/user/cert', 'Verify your identity', 'cert');
    await visit(page, '/user/bank', 'No bank cards yet.', 'bank');
    await page.goto('/user/bankAdd');
    await page.getByLabel('Bank name').fill('Demo Bank');
    await page.getByLabel('Card number').fill('6222000011112345');
    await page.getByLabel('Card holder').fill('Alice Demo');
    await shot(page, 'bankadd');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('**** **** **** 2345').waitFor({ timeout: 30_000 });
    await shot(page, 'bank-list');
    await visit(page, '/user/invite', 'Your invitation code', 'invite');
    await page.goto('/user/buycoin');
    await page.getByLabel('Amount (USDT)').fill('100');
    await page.getByText('Spread over reference').waitFor({ timeout: 30_000 });
    await shot(page, 'buycoin');
    await visit(page, '/user/help', 'How to register', 'help');
    await visit(page, '/user/finance/log', 'No earnings yet.', 'financelog');
    await visit(page, '/userforget', 'Reset your security key', 'userforget');
    await visit(page, '/forget', 'Reset your login password', 'forget');

    // The demo tools, from the badge.
    await page.goto('/user/account');
    await page.getByText(`${username}@example.test`).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Demo mode: learn more' }).click();
    await page.getByRole('button', { name: 'Fast-forward 30 days' }).waitFor();
    await shot(page, 'demo-tools');

    // 30 days > the 7-day token life: the account screen reloads, its calls answer 401, ONE dialog shows.
    await page.getByRole('button', { name: 'Fast-forward 30 days' }).click();
    const expired = page.getByRole('dialog', { name: 'Session expired' });
    await expired.waitFor({ timeout: 30_000 });
    // The screen's other calls answer 401 too: wait until the page has handled them (the main thread goes
    // idle with nothing left to run) instead of a fixed delay, then there is still one dialog.
    await page.evaluate(
      () => new Promise<void>((done) => requestIdleCallback(() => requestIdleCallback(() => done()))),
    );
    expect(await page.getByRole('dialog').count()).toBe(1);
    await shot(page, 'session-expired');
    await expired.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => path(page), { timeout: 30_000 }).toBe('/login');
    await page.locator('.toast').filter({ hasText: 'You have been logged out' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('strata.user'))).toBeNull();

    // The member logs in again after the expiry.
    await login(page, username);

    // Dark theme, then right to left (ar-SA), for the main account screens.
    await page.evaluate(() => localStorage.setItem('strata.theme', 'dark'));
    await visit(page, '/user/account', `${username}@example.test`, 'account-dark');
    await visit(page, '/user/changePsw', 'Current login password', 'changepsw-dark');
    await forgetStoredMember(page);
    await visit(page, '/register', /^Demo code: \d{4}$/, 'register-dark');
    await page.evaluate(() => {
      localStorage.setItem('strata.lang', 'ar-SA');
      localStorage.setItem('strata.theme', 'light');
    });
    await page.goto('/login');
    await page.locator('html[dir="rtl"]').waitFor({ timeout: 30_000 });
    await page.locator('form').waitFor();
    await shot(page, 'login-rtl');
    await page.goto('/register');
    await page.locator('.captcha img').waitFor({ timeout: 30_000 });
    await shot(page, 'register-rtl');
    // The default language of the page (SPEC.md §1): Chinese.
    await page.evaluate(() => localStorage.setItem('strata.lang', 'zh-CN'));
    await page.goto('/register');
    await page.getByText(/^演示验证码：\d{4}$/).waitFor({ timeout: 30_000 });
    await shot(page, 'register-zh');
    await page.goto('/login');
    await page.getByLabel('用户名、邮箱或手机号').waitFor({ timeout: 30_000 });
    await shot(page, 'login-zh');
    await context.close();
  }, 240_000);
});
