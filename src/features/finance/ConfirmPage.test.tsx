import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { sentPaths } from '../../../tests/app/test-engine';
import { buyVip, fundedMember, SECRETS, wireTestApi } from '../../../tests/app/test-wallet';
import { checkBuyAmount, estimateEarnings } from './buy-rules';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-market'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

async function open(amount: string, vip: number) {
  const member = await fundedMember('fin', amount);
  if (vip > 0) await buyVip(member, vip, SECRETS.key);
  const view = await renderApp('/finance/confirm?id=1', { user: member });
  await screen.findByRole('heading', { name: 'USDT Starter 30D' }, { timeout: 5000 });
  return view;
}

const amountField = () => screen.getByLabelText('Amount');
const subscribe = () => screen.getByRole('button', { name: 'Subscribe' });

describe('finance buy rules', () => {
  const product = {
    min: '10',
    max: '2000',
    personalRemaining: '1500',
    remaining: '1000',
  } as Parameters<typeof checkBuyAmount>[1];

  it('checks the amount exactly against min, max, personal limit, the round and the balance', () => {
    expect(checkBuyAmount('', product, '50')).toBe('required');
    expect(checkBuyAmount('0', product, '50')).toBe('invalidAmount');
    expect(checkBuyAmount('9.999999', product, '50')).toBe('belowMinimum');
    expect(checkBuyAmount('10', product, '50')).toBeNull();
    expect(checkBuyAmount('2000.000001', product, '5000')).toBe('overMaximum');
    expect(checkBuyAmount('1500.000001', product, '5000')).toBe('overPersonal');
    expect(checkBuyAmount('1000.000001', product, '5000')).toBe('overRound');
    expect(checkBuyAmount('50.000001', product, '50')).toBe('overAvailable');
  });

  it('F2 F3: estimates principal x rate / 365 a day and E(term) over the term, rounded down', () => {
    expect(estimateEarnings('1000', '12.00', 30)).toEqual({ daily: '0.328767', total: '9.863013' });
    expect(estimateEarnings('x', '12.00', 30)).toBeNull();
  });
});

describe('/financial', { timeout: 20_000 }, () => {
  it('F1: every product shows its annual rate with the term, minimum, maximum and redemption rule beside it', async () => {
    const member = await fundedMember('fl', '0');
    await renderApp('/financial', { user: member });
    const list = await screen.findByRole('list', { name: 'Managed finance' }, { timeout: 5000 });
    const cards = within(list).getAllByRole('listitem');
    expect(cards.length).toBeGreaterThan(1);
    for (const card of cards) {
      expect(within(card).getByText(/^\d+\.\d\d%$/)).toBeTruthy();
      expect(within(card).getByText('30 days')).toBeTruthy();
      expect(within(card).getByText('Minimum')).toBeTruthy();
      expect(within(card).getByText(/no early redemption or refund before it/)).toBeTruthy();
    }
    expect(screen.getByText('Managed finance needs VIP1 or above.')).toBeTruthy();
  });
});

describe('/finance/confirm', { timeout: 20_000 }, () => {
  it('shows the rate with its term and rules, and refuses bad amounts inline without sending', async () => {
    await open('100', 1);
    expect(screen.getAllByText(/Principal returned on the redemption day/).length).toBeGreaterThan(0);
    sentPaths.length = 0;
    await userEvent.click(subscribe());
    expect(screen.getByText('Enter an amount')).toBeTruthy();
    expect(document.activeElement).toBe(amountField());
    await userEvent.type(amountField(), '5');
    expect(screen.getByText('The amount is at least 10.00 USDT')).toBeTruthy();
    await userEvent.clear(amountField());
    await userEvent.type(amountField(), '60');
    // 100 deposited, 50 spent on the VIP1 trial.
    expect(screen.getByText('The amount is more than your available balance')).toBeTruthy();
    expect(amountField().getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(subscribe());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sentPaths).toEqual([]);
  });

  it('subscribes after the security key and lists the subscription with its earnings', async () => {
    await open('300', 1);
    await userEvent.type(amountField(), '100');
    expect(screen.getByText(/Estimated: 0\.\d{6} USDT a day/)).toBeTruthy();
    await userEvent.click(subscribe());
    const dialog = await screen.findByRole('dialog', { name: 'Subscribe to USDT Starter 30D' });
    await userEvent.type(within(dialog).getByLabelText('Security key'), SECRETS.key);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay 100.00 USDT' }));
    const list = await screen.findByRole('list', { name: 'Active' }, { timeout: 5000 });
    expect(within(list).getByText('USDT Starter 30D')).toBeTruthy();
    expect(within(list).getByText('100.00 USDT')).toBeTruthy();
    expect(within(list).getByText('Cumulative earnings')).toBeTruthy();
  });

  it('F5: a VIP0 member is refused by the server (3009) and stays on the form', async () => {
    await open('300', 0);
    await userEvent.type(amountField(), '20');
    await userEvent.click(subscribe());
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Security key'), SECRETS.key);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay 20.00 USDT' }));
    await waitFor(() => expect(document.querySelector('.toast-error')).not.toBeNull());
    expect(screen.getByRole('heading', { name: 'USDT Starter 30D' })).toBeTruthy();
  });
});
