import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { generate } from 'otplib';
import { renderApp } from '../../app/test-utils';
import { appSync } from '../../sync/app';
import { engineCall, testClock, type SeededMember } from '../../../tests/app/test-engine';
import { addressOf, buyVip, fundedMember, SECRETS, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

const field = (name: string) => screen.getByLabelText(name);

/** The next 30 s step's authenticator code (each code is accepted once). */
async function nextCode(secret: string): Promise<string> {
  testClock.advance(30_000);
  return generate({ secret, epoch: Math.floor(testClock.now() / 1000) });
}

async function withTwoFactor(member: SeededMember): Promise<string> {
  const { secret } = await engineCall('/api/security/totp/setup', { password: SECRETS.password }, member);
  await engineCall('/api/security/totp/enable', { code: await nextCode(secret) }, member);
  return secret;
}

describe('/user/withdraw with two-factor authentication', () => {
  it('a member without it confirms as always: no code field', async () => {
    const member = await fundedMember('wd2off', '50');
    const payee = await fundedMember('payee2off');
    await renderApp('/user/withdraw', { user: member });
    await waitFor(() => expect(screen.getByText(/available 50.00 USDT/)).toBeTruthy());
    await userEvent.type(field('Receiving address'), await addressOf(payee, 'TRC20'));
    await userEvent.type(field('Amount'), '20');
    await userEvent.type(field('Security key'), SECRETS.key);
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm withdrawal' });
    expect(within(dialog).queryByLabelText('Authenticator code')).toBeNull();
  });

  it('asks for the code in the confirmation; a wrong code is refused (6102) and nothing is held; the right one submits', async () => {
    const member = await fundedMember('wd2on', '50');
    const payee = await fundedMember('payee2on');
    const secret = await withTwoFactor(member);
    await renderApp('/user/withdraw', { user: member });
    await waitFor(() => expect(screen.getByText(/available 50.00 USDT/)).toBeTruthy());
    await userEvent.type(field('Receiving address'), await addressOf(payee, 'TRC20'));
    await userEvent.type(field('Amount'), '20');
    await userEvent.type(field('Security key'), SECRETS.key);
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    let dialog = await screen.findByRole('dialog', { name: 'Confirm withdrawal' });
    // Without a code the confirmation asks for it and sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByText('Enter the code from your authenticator app')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Authenticator code'), '000000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText('The code is wrong', { selector: '.form-error' }, { timeout: 5000 }),
    ).toBeTruthy();
    const profile = await engineCall('/api/user/getuser', undefined, member);
    expect(profile.available).toBe('50');

    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    dialog = await screen.findByRole('dialog', { name: 'Confirm withdrawal' });
    await userEvent.type(within(dialog).getByLabelText('Authenticator code'), await nextCode(secret));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByRole('heading', { name: 'Submitted, awaiting review' }, { timeout: 5000 }),
    ).toBeTruthy();
    // The code never reached the device's database.
    const stored = JSON.stringify(await Promise.all(appSync().db.tables.map((table) => table.toArray())));
    expect(stored).not.toMatch(/"code":"\d{6}"/);
  }, 20_000);
});

describe('/user/transfer with two-factor authentication', () => {
  it('needs no security key but a code; without two-factor the dialog is as always', async () => {
    const vip = await fundedMember('tr2vip', '60');
    await buyVip(vip, 1, SECRETS.key);
    const member = await fundedMember('tr2on', '25');
    const secret = await withTwoFactor(member);
    await renderApp('/user/transfer', { user: member });
    await screen.findByRole('heading', { name: 'Transfer to a member' });
    await waitFor(() => expect(screen.getByText(/Available 25.00 USDT/)).toBeTruthy());
    await userEvent.type(field('Recipient'), vip.username);
    await userEvent.type(field('Amount'), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm transfer' });
    expect(within(dialog).queryByLabelText('Security key')).toBeNull();
    await userEvent.type(await within(dialog).findByLabelText('Authenticator code'), await nextCode(secret));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer now' }));
    expect(await screen.findByRole('heading', { name: 'Transfer complete' }, { timeout: 5000 })).toBeTruthy();
  }, 20_000);
});
