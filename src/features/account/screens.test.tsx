import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api } from '../../api';
import { wireApi } from '../../app/api-wiring';
import { renderApp } from '../../app/test-utils';
import { engineCall, seedMember, type SeededMember } from '../../../tests/app/test-engine';
import { buyAmountRule } from './buycoin';
import { inviteLink } from './InvitePage';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

afterEach(cleanup);
beforeAll(() => wireApi(() => undefined));

const render = (path: string, user: SeededMember) => renderApp(path, { user });

describe('/user/invite', () => {
  it('shows the code, a register link carrying it, the terms and a downline with its earnings', async () => {
    const inviter = await seedMember('inviter');
    const profile = await engineCall('/api/user/getuser', undefined, inviter);
    await seedMember('invitee', profile.inviteCode);
    await render('/user/invite', inviter);
    expect(await screen.findByText(profile.inviteCode)).toBeTruthy();
    expect(screen.getByText(inviteLink(profile.inviteCode))).toBeTruthy();
    expect(screen.getByText(/^Terms: you earn 20\.00% of the platform's trading fees/)).toBeTruthy();
    const downline = screen.getByRole('list', { name: 'Your invitees (1)' });
    expect(within(downline).getByText('in***ee')).toBeTruthy();
    expect(within(downline).getByText('0.00 USDT')).toBeTruthy();
  });

  it('builds the link to /register?invite=', () => {
    expect(inviteLink('AB CD', 'https://x.test')).toBe('https://x.test/register?invite=AB%20CD');
  });
});

describe('/user/buycoin', () => {
  it('checks the amount exactly (10 to 50,000 USDT, at most 6 decimals)', () => {
    expect(buyAmountRule('')).toBe('buycoin.amountRequired');
    expect(buyAmountRule('9.999999')).toBe('buycoin.amountRange');
    expect(buyAmountRule('10')).toBeUndefined();
    expect(buyAmountRule('50000.000001')).toBe('buycoin.amountRange');
    expect(buyAmountRule('0')).toBe('buycoin.amountInvalid');
  });

  it('quotes with the spread next to the total, then buys and credits the balance', async () => {
    const member = await seedMember('buyer');
    await render('/user/buycoin', member);
    expect(await screen.findByText(/^Simulation: the seller is a simulated desk/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Amount (USDT)'), '5');
    await userEvent.tab();
    expect(screen.getByText('The amount must be between 10 and 50,000 USDT')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Amount (USDT)'));
    await userEvent.type(screen.getByLabelText('Amount (USDT)'), '100');
    await userEvent.selectOptions(screen.getByLabelText('Pay with'), 'USD');
    expect(await screen.findByText('1.50%', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByText('101.50 USD')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Buy now' }));
    expect(await screen.findByText('Bought 100.00 USDT', { selector: '.toast' })).toBeTruthy();
    const profile = await engineCall('/api/user/getuser', undefined, member);
    expect(profile.balance).toBe('100');
  });
});

describe('/user/buycoin on a live server without a payment provider', () => {
  it('says quick buy is unavailable, quotes nothing and cannot buy', async () => {
    const member = await seedMember('nobuy');
    const real = api.call.bind(api);
    const spy = vi.spyOn(api, 'call').mockImplementation(((path: string, ...rest: unknown[]) => {
      if (path === '/api/site/getsite') {
        return Promise.resolve({
          walletAddress: '',
          ercAddress: '',
          customerservice: '',
          demo: false,
          quickBuy: false,
        });
      }
      if (path.startsWith('/api/buycoin/'))
        return Promise.reject({ code: 403, msg: 'Quick buy is not available' });
      return (real as (...args: unknown[]) => unknown)(path, ...rest);
    }) as typeof api.call);
    try {
      await render('/user/buycoin', member);
      expect(
        await screen.findByText(/^Quick buy is not available: no payment provider is connected/),
      ).toBeTruthy();
      await userEvent.type(screen.getByLabelText('Amount (USDT)'), '100');
      expect((screen.getByRole('button', { name: 'Buy now' }) as HTMLButtonElement).disabled).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('/user/help and /user/finance/log', () => {
  it('lists the six help articles in the member language, each opening to its text', async () => {
    const member = await seedMember('helpme');
    await render('/user/help', member);
    const first = await screen.findByText('How to register');
    expect(document.querySelectorAll('details.help-item')).toHaveLength(6);
    await userEvent.click(first);
    expect(first.closest('details')?.open).toBe(true);
  });

  it('shows an empty earnings log, and filters by kind', async () => {
    const member = await seedMember('nolog');
    await render('/user/finance/log', member);
    expect(await screen.findByText('No earnings yet.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Mining' }));
    expect(screen.getByRole('button', { name: 'Mining' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(screen.getByText('No earnings yet.')).toBeTruthy());
  });
});
