/**
 * Issue 12 end to end: the operator console (admin.html, served by the reference server at /admin) against
 * the same server members use. An operator logs in with password and TOTP, approves one member withdrawal
 * (sent through the demo chain gateway: the record gets its transaction hash) and rejects another with a
 * reason; the member's own screens show both outcomes, the reason included; the audit log lists both
 * decisions. The demo's simulated reviewer is kept out of the way (its review delay is a day), so every
 * decision here is the operator's. Screenshots: /tmp/shots/admin-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { generate } from 'otplib';
import { z } from 'zod';
import { insertOperator, newOperator } from '../../server/admin/auth';
import { inTransaction } from '../../server/admin/db';
import { login } from '../engine/server/serve';
import { path, screenshots, submitLogin, useBrowser } from './journey';
import { buildLiveApp, fundedMember, startLiveServer, type LiveServer } from './live-server';

const browser = useBrowser();
const shot = screenshots('admin', { fromTop: true });
const suffix = String(Date.now() % 1_000_000);
const member = `wm${suffix}`;
const operator = `rev${suffix}`;
const OPERATOR_PASSWORD = 'correct horse battery';
/** A valid TRON address outside the platform (base58check). */
const DESTINATION = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const REASON = 'Destination address is on a sanctions list';
let live: LiveServer;
let totpSecret = '';
const ids: string[] = [];

beforeAll(async () => {
  buildLiveApp();
  live = await startLiveServer({ withdrawReviewMs: 86_400_000 });
  const store = live.store();
  const fields = await newOperator(
    { username: operator, password: OPERATOR_PASSWORD, role: 'reviewer' },
    1_000,
  );
  const made = await inTransaction(store.driver, (c) => insertOperator(c, store.schema, fields, Date.now()));
  totpSecret = made.totpSecret;
  const session = await fundedMember(live, member, '500');
  for (const amount of ['30', '40']) {
    const answer = await live
      .server()
      .call(
        '/api/withdraw/submit',
        { currency: 'USDT', network: 'TRC20', address: DESTINATION, amount, key: 'key1' },
        session,
      );
    if (answer.code !== 911) throw new Error(`withdraw: ${answer.code} ${answer.msg}`);
    ids.push(answer.data.id);
  }
}, 120_000);

afterAll(async () => {
  await live?.close();
});

async function operatorPage(): Promise<Page> {
  const context = await browser().newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
    baseURL: live.url,
  });
  // The console starts in the site's default language (zh-CN) unless the operator chose one.
  await context.addInitScript(() => localStorage.setItem('strata.admin.lang', 'en-US'));
  return context.newPage();
}

describe('the operator console (issue 12)', () => {
  it('an operator logs in with TOTP, approves one withdrawal and rejects another; the member sees both; the audit log lists both', async () => {
    const page = await operatorPage();
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Operator login' }).waitFor({ timeout: 20_000 });
    // A wrong code is refused and changes nothing.
    await page.getByLabel('Username').fill(operator);
    await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await page.getByLabel('Authenticator code').fill('000000');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').first().waitFor();
    await page.getByLabel('Authenticator code').fill(await generate({ secret: totpSecret }));
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Withdrawals' }).waitFor({ timeout: 20_000 });
    await page.getByRole('cell', { name: member }).first().waitFor({ timeout: 20_000 });
    // A reviewer sees the queues, not the admin screens.
    expect(await page.getByRole('link', { name: 'Operators' }).count()).toBe(0);
    await shot(page, 'queue');

    const [approveId, rejectId] = ids as [string, string];
    await page.getByRole('button', { name: `Approve withdrawal ${approveId}` }).click();
    const approve = page.getByRole('dialog', { name: `Approve withdrawal ${approveId}` });
    await approve.getByText(DESTINATION).waitFor();
    await approve.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByText(`Withdrawal ${approveId} approved and handed to the chain gateway.`)
      .waitFor({ timeout: 20_000 });

    await page.getByRole('button', { name: `Reject withdrawal ${rejectId}` }).click();
    const reject = page.getByRole('dialog', { name: `Reject withdrawal ${rejectId}` });
    // A reason is required: an empty one is refused before anything is sent.
    await reject.getByRole('button', { name: 'Reject' }).click();
    await reject.getByText('Enter a reason.').waitFor();
    await reject.getByLabel('Reason').fill(REASON);
    await reject.getByRole('button', { name: 'Reject' }).click();
    await page
      .getByText(`Withdrawal ${rejectId} rejected; the member's funds are released.`)
      .waitFor({ timeout: 20_000 });
    await shot(page, 'decided');
    await page.context().close();

    // The member's own screens: one withdrawal successful with its hash, the other rejected with the reason,
    // and the rejected 40 back in the balance (500 - 50 VIP - 30 sent).
    const { page: app, context } = await memberPage();
    await app.goto('/login');
    await submitLogin(app, member);
    await expect.poll(() => path(app), { timeout: 20_000 }).not.toBe('/login');
    await app.goto('/order/withdrawRecord');
    const records = app.locator('.record');
    await records
      .filter({ hasText: 'Rejected' })
      .filter({ hasText: REASON })
      .first()
      .waitFor({ timeout: 20_000 });
    await records.filter({ hasText: 'Successful' }).first().waitFor({ timeout: 20_000 });
    // The sent one carries the hash the chain gateway answered (whole in its title, with Copy beside it).
    const hash = records
      .filter({ hasText: 'Successful' })
      .locator('.record-hash > span', { hasText: 'Transaction:' });
    expect(await hash.getAttribute('title')).toMatch(/^\S{20,}$/);
    expect(await hash.textContent()).toBe(`Transaction: ${await hash.getAttribute('title')}`);
    await shot(app, 'member-records');
    const s = live.server();
    const profile = await s.call('/api/user/getuser', undefined, await login(s, member));
    expect(profile.data.available).toBe('420');
    await context.close();

    // An admin reads both decisions in the audit log (over the operator API: the reviewer may not open it).
    const audit = await auditActions();
    expect(audit).toContainEqual({
      action: 'withdrawal.approve',
      target: `withdrawal:${approveId}`,
      username: operator,
    });
    expect(audit).toContainEqual({
      action: 'withdrawal.reject',
      target: `withdrawal:${rejectId}`,
      username: operator,
    });
  }, 180_000);
});

async function memberPage() {
  const context = await browser().newContext({
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    baseURL: live.url,
  });
  await context.addInitScript(() => {
    if (!localStorage.getItem('strata.lang')) localStorage.setItem('strata.lang', 'en-US');
  });
  return { context, page: await context.newPage() };
}

/** The audit log's entries as an admin reads them (GET /api/admin/audit). */
async function auditActions(): Promise<Array<{ action: string; target: string; username: string }>> {
  const store = live.store();
  const admin = `adm${suffix}`;
  const fields = await newOperator({ username: admin, password: OPERATOR_PASSWORD, role: 'admin' }, 1_000);
  const made = await inTransaction(store.driver, (c) => insertOperator(c, store.schema, fields, Date.now()));
  const post = async (route: string, body: unknown, token?: string) =>
    (await (
      await fetch(`${live.url}${route}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      })
    ).json()) as { code: number; msg: string; data: unknown };
  const signedIn = await post('/api/admin/login', {
    username: admin,
    password: OPERATOR_PASSWORD,
    totp: await generate({ secret: made.totpSecret }),
  });
  if (signedIn.code !== 0) throw new Error(`admin login: ${signedIn.code} ${signedIn.msg}`);
  const { token } = z.object({ token: z.string() }).parse(signedIn.data);
  const response = await fetch(`${live.url}/api/admin/audit?limit=100`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as {
    data: { list: Array<{ action: string; target: string; username: string }> };
  };
  return body.data.list.map(({ action, target, username }) => ({ action, target, username }));
}
