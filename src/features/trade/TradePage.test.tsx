import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { appSync } from '../../sync/app';
import { startAppWrites } from '../../sync/app-writes';
import { engineCall, sentPaths } from '../../../tests/app/test-engine';
import { fundedMember, wireTestApi } from '../../../tests/app/test-wallet';
import { checkSpot, marginFor, notional } from './order-rules';

vi.mock(
  '../../api/transport-worker',
  async () => (await import('../../../tests/app/test-market')).workerModule,
);
vi.mock(
  '../../api/engine-transport',
  async () => (await import('../../../tests/app/test-engine')).engineModule,
);

beforeAll(wireTestApi);
afterEach(cleanup);

const base = {
  side: 'buy' as const,
  type: 'limit' as const,
  price: '100',
  volume: '1',
  latest: '100',
  availableUsdt: '100',
  availableBase: '0',
};

describe('order rules', () => {
  it('S2: the value of an order is price x quantity rounded up to the micro-unit', () => {
    expect(notional('0.333333', '0.000001')).toBe(1n);
    expect(notional('95000.5', '0.01')).toBe(950_005_000n);
  });

  it('K1: margin is the notional over the leverage, rounded up', () => {
    expect(marginFor('100', '1', 3)).toBe(33_333_334n);
  });

  it('S5: a limit order needs a positive price and quantity, and no more than the account holds', () => {
    expect(checkSpot({ ...base, price: '' })).toEqual({ price: 'required' });
    expect(checkSpot({ ...base, price: '0', volume: '' })).toEqual({ price: 'invalid', volume: 'required' });
    expect(checkSpot(base)).toEqual({});
    expect(checkSpot({ ...base, volume: '1.000001' })).toEqual({ volume: 'overAvailable' });
    expect(checkSpot({ ...base, side: 'sell', availableBase: '0.5' })).toEqual({ volume: 'overAvailable' });
    expect(checkSpot({ ...base, type: 'market', price: '' })).toEqual({});
  });
});

describe('/contract', { timeout: 20_000 }, () => {
  async function open(amount: string) {
    const member = await fundedMember('tr', amount);
    await renderApp('/contract', { user: member });
    await screen.findByRole('form', { name: 'Spot order' }, { timeout: 5000 });
    await screen.findByText(/Available: 1,000\.00 USDT|Available: 0\.00 USDT/, undefined, { timeout: 5000 });
    return member;
  }

  async function openFunded(to: 'contract' | 'options', amount: string) {
    const member = await fundedMember('tr', '1000');
    await engineCall('/api/account/transfer', { from: 'cash', to, amount }, member);
    await renderApp('/contract', { user: member });
    await screen.findByRole('form', { name: 'Spot order' }, { timeout: 5000 });
    return member;
  }

  it('M7: the depth chart sits under the order book, its picture named and described by the totals', async () => {
    const member = await fundedMember('trd', '10');
    await renderApp('/contract', { user: member });
    const depth = await screen.findByRole('region', { name: 'Order book depth' }, { timeout: 5000 });
    const bookCard = depth.closest('.book-card');
    expect(bookCard).not.toBeNull();
    expect(within(bookCard as HTMLElement).getByRole('list', { name: 'Asks (sell orders)' })).toBeTruthy();
    const picture = within(depth).getByRole('img', { name: 'Order book depth' });
    expect(picture.querySelectorAll('polygon')).toHaveLength(2);
    const summary = document.getElementById(picture.getAttribute('aria-describedby') ?? '');
    expect(summary?.textContent).toMatch(/^Bids [\d,.]+ BTC · asks [\d,.]+ BTC within 100 levels$/);
  });

  it('K6: leverage and margin mode picked on the form are saved through the outbox and read back next time', async () => {
    const member = await openFunded('contract', '100');
    await userEvent.click(screen.getByRole('tab', { name: 'Contract' }));
    const form = await screen.findByRole('form', { name: 'Contract order' });
    await userEvent.selectOptions(within(form).getByLabelText('Leverage'), '20');
    await userEvent.click(within(form).getByRole('button', { name: 'Isolated' }));
    await waitFor(
      async () =>
        expect(await engineCall('/api/position/settings', {}, member)).toEqual({
          leverage: 20,
          marginMode: 'isolated',
        }),
      { timeout: 5000 },
    );
    expect(sentPaths).toContain('/api/sync/push');
  });

  it('K1 K5 K8: opens an isolated long, shows its PnL and liquidation price, adds margin, closes it', async () => {
    await openFunded('contract', '500');
    await userEvent.click(screen.getByRole('tab', { name: 'Contract' }));
    const form = await screen.findByRole('form', { name: 'Contract order' });
    await within(form).findByText('Available: 500.00 USDT', undefined, { timeout: 5000 });
    await userEvent.click(within(form).getByRole('button', { name: 'Isolated' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Open long' }));
    expect(within(form).getByText('Enter a quantity')).toBeTruthy();
    await userEvent.type(within(form).getByLabelText('Quantity (BTC)'), '0.001');
    expect(within(form).getByText(/Margin frozen: about \d+\.\d\d USDT at 10x/)).toBeTruthy();
    await userEvent.click(within(form).getByRole('button', { name: 'Open long' }));
    await waitFor(() =>
      expect(document.querySelector('.toast-success')?.textContent).toBe('Long position opened'),
    );
    await userEvent.click(screen.getByRole('tab', { name: 'Positions' }));
    const position = await screen.findByRole('listitem', { name: 'BTC/USDT Long' }, { timeout: 5000 });
    expect(within(position).getByText('Unrealised PnL')).toBeTruthy();
    expect(within(position).getByText('Liq. price')).toBeTruthy();
    await userEvent.click(within(position).getByRole('button', { name: 'Adjust margin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adjust margin: BTC/USDT' });
    await userEvent.type(within(dialog).getByLabelText('Amount'), '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(toasts()).toContainEqual(expect.stringMatching(/^Margin is now \d+\.\d{2,6} USDT$/)),
    );
    await userEvent.click(
      within(screen.getByRole('listitem', { name: 'BTC/USDT Long' })).getByRole('button', {
        name: 'Close at market',
      }),
    );
    await screen.findByText('No open positions.', undefined, { timeout: 5000 });
  });

  it('O2: an Up/Down stake under 1 USDT is refused inline; payout and risk show before an up bet is placed', async () => {
    await openFunded('options', '50');
    await userEvent.click(screen.getByRole('tab', { name: 'Up/Down' }));
    const form = await screen.findByRole('form', { name: 'Up/Down bet' });
    const outcome = form.querySelector('dl.bet-outcome');
    expect(outcome?.getAttribute('aria-label')).toBe('What this stake pays');
    expect(outcome?.textContent).toContain('+80% of the stake');
    expect(outcome?.textContent).toContain('You lose the whole stake');
    await within(form).findByText('Available: 50.00 USDT', undefined, { timeout: 5000 });
    expect(within(form).getByRole('button', { name: '300s · 85%' })).toBeTruthy();
    await userEvent.type(within(form).getByLabelText('Stake'), '0.5');
    await userEvent.click(within(form).getByRole('button', { name: /Up/ }));
    expect(within(form).getByText('The amount is at least 1 USDT')).toBeTruthy();
    await userEvent.clear(within(form).getByLabelText('Stake'));
    await userEvent.type(within(form).getByLabelText('Stake'), '5.55');
    // 60 s pays 80%: +4.44 on a win (5.55 x 0.8 exactly), 9.99 back; a loss costs the 5.55.
    expect(outcome?.textContent).toContain('If you are right+4.44 USDT9.99 USDT back in total');
    expect(outcome?.textContent).toContain('If you are wrong−5.55 USDT');
    expect(outcome?.textContent).toContain('If the price is unchangedYour stake comes back');
    await userEvent.clear(within(form).getByLabelText('Stake'));
    await userEvent.type(within(form).getByLabelText('Stake'), '5');
    expect(outcome?.textContent).toContain('+4.00 USDT');
    await userEvent.click(within(form).getByRole('button', { name: /Up/ }));
    const list = await screen.findByRole('list', { name: 'Current delegations' }, { timeout: 5000 });
    expect(within(list).getByText(/Stake 5\.00 USDT · 60 s · payout 80\.00%/)).toBeTruthy();
  });

  it('refuses an empty or too large order inline, focusing the first bad field, and sends nothing', async () => {
    await open('1000');
    expect(screen.getByText('Simulated prices: a demo market, not a real exchange.')).toBeTruthy();
    sentPaths.length = 0;
    await userEvent.click(submitButton());
    expect(screen.getByText('Enter a price')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Price'));
    await userEvent.type(screen.getByLabelText('Price'), '100000');
    await userEvent.type(screen.getByLabelText('Quantity (BTC)'), '1');
    await userEvent.click(submitButton());
    expect(screen.getByText('More than your available balance')).toBeTruthy();
    expect(sentPaths.filter((p) => p === '/api/order/place')).toEqual([]);
  });

  it('places a resting limit order, lists it as a current delegation, and cancels it', async () => {
    await open('1000');
    await userEvent.type(screen.getByLabelText('Price'), '1000');
    await userEvent.type(screen.getByLabelText('Quantity (BTC)'), '0.01');
    expect(screen.getByText('Value: 10.00 USDT')).toBeTruthy();
    await userEvent.click(submitButton());
    const list = await screen.findByRole('list', { name: 'Current delegations' }, { timeout: 5000 });
    expect(within(list).getByText(/Limit · price 1,000\.00 · 0\.0100 BTC/)).toBeTruthy();
    await userEvent.click(within(list).getByRole('button', { name: 'Cancel BTC/USDT order' }));
    // The cancel goes through the outbox (a push, then its answer stored) before the list is read again.
    await waitFor(() => expect(screen.getByText('No open orders.')).toBeTruthy(), { timeout: 5000 });
  });
});

describe('/contract offline (issue 10)', { timeout: 20_000 }, () => {
  const setOnline = (value: boolean) =>
    act(() => {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
      window.dispatchEvent(new Event(value ? 'online' : 'offline'));
    });

  it('a limit order waits in the outbox and is listed as waiting; a market order is refused before typing', async () => {
    const member = await fundedMember('troff', '1000');
    await renderApp('/contract', { user: member });
    await screen.findByRole('form', { name: 'Spot order' }, { timeout: 5000 });
    await screen.findByText(/Available: 1,000\.00 USDT/, undefined, { timeout: 5000 });
    try {
      await setOnline(false);
      const form = screen.getByRole('form', { name: 'Spot order' });
      await userEvent.click(within(form).getByRole('button', { name: 'Market' }));
      expect(within(form).getByText(/This needs a connection/)).toBeTruthy();
      expect(within(form).getByLabelText('Quantity (BTC)').matches(':disabled')).toBe(true);
      await userEvent.click(within(form).getByRole('button', { name: 'Limit' }));
      expect(within(form).queryByText(/This needs a connection/)).toBeNull();

      sentPaths.length = 0;
      await userEvent.type(screen.getByLabelText('Price'), '1000');
      await userEvent.type(screen.getByLabelText('Quantity (BTC)'), '0.01');
      await userEvent.click(submitButton());
      const waiting = await screen.findByRole('list', { name: 'Waiting to be sent' });
      expect(within(waiting).getByText('Waiting for connection')).toBeTruthy();
      expect(within(waiting).getByText(/BTC\/USDT 0\.01 @ 1000/)).toBeTruthy();
      expect(sentPaths).not.toContain('/api/sync/push');

      // As the app does at start: answers nobody awaited are announced, and an applied one leaves the list.
      const stop = startAppWrites();
      await setOnline(true);
      await act(() => appSync().flush());
      await waitFor(() => expect(screen.queryByRole('list', { name: 'Waiting to be sent' })).toBeNull(), {
        timeout: 5000,
      });
      stop();
      const orders = await engineCall<{ list: unknown[] }>(
        '/api/order/list',
        { page: 1, limit: 20, market: 'spot', status: 'open' },
        member,
      );
      expect(orders.list).toHaveLength(1);
    } finally {
      await setOnline(true);
    }
  });
});

function toasts(): string[] {
  return [...document.querySelectorAll('.toast')].map((e) => e.textContent ?? '');
}

function submitButton(): HTMLElement {
  const form = screen.getByRole('form', { name: 'Spot order' });
  const button = form.querySelector<HTMLElement>('button[type="submit"]');
  if (!button) throw new Error('no submit button');
  return button;
}
