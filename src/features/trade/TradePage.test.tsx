import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { appSync } from '../../sync/app';
import { startAppWrites } from '../../sync/app-writes';
import { engineCall, sentPaths } from '../../../tests/app/test-engine';
import { fundedMember, wireTestApi } from '../../../tests/app/test-wallet';
import { mulDiv, parseAmountText } from '../../../engine/index';
import {
  checkSpot,
  checkTrigger,
  marginFor,
  notional,
  quantityForShare,
  quantityForTotal,
} from './order-rules';
import { countdown } from './FundingTicker';
import { shareOf } from './CloseDialog';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-market'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

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

describe('quick amounts, entry by total, take-profit and stop-loss on the form', () => {
  it('25-100% of what is free buys margin plus fee within it, cut to the step', () => {
    // 1,000 USDT free at 10x and 5 bp: N = 1,000 x 10 / (1 + 10 x 0.0005) = 9,950.248756; at 50,000: 0.199004.
    const share = (quarters: number) =>
      quantityForShare({ available: '1000', quarters, leverage: 10, price: '50000', feeBps: 5, decimals: 4 });
    expect(share(4)).toBe('0.199');
    expect(share(2)).toBe('0.0995');
    expect(share(1)).toBe('0.0497');
    const q = parseAmountText(share(4)!)!;
    const notional = mulDiv(q, 50_000n, 1n, 'ceil');
    // Margin (N / 10) + fee (N x 0.05%) stay within what is free.
    expect(notional / 10n + mulDiv(notional, 5n, 10_000n, 'ceil')).toBeLessThanOrEqual(1_000_000_000n);
    expect(share(0)).toBe('0');
    expect(
      quantityForShare({
        available: undefined,
        quarters: 4,
        leverage: 10,
        price: '1',
        feeBps: 5,
        decimals: 4,
      }),
    ).toBeNull();
    expect(
      quantityForShare({ available: '1', quarters: 4, leverage: 10, price: '0', feeBps: 5, decimals: 4 }),
    ).toBeNull();
  });

  it('a total in USDT buys total / last price, cut down to the step', () => {
    expect(quantityForTotal('100', '30000', 4)).toBe('0.0033');
    expect(quantityForTotal('100', '0', 4)).toBeNull();
    expect(quantityForTotal('abc', '1', 4)).toBeNull();
  });

  it("K17 on the form: a long's take-profit above the mark and stop-loss below, a short's the reverse", () => {
    expect(checkTrigger('tp', 'long', '', '100')).toBeNull();
    expect(checkTrigger('tp', 'long', '101', '100')).toBeNull();
    expect(checkTrigger('tp', 'long', '100', '100')).toBe('tpSide');
    expect(checkTrigger('sl', 'long', '99', '100')).toBeNull();
    expect(checkTrigger('sl', 'long', '100.5', '100')).toBe('slSide');
    expect(checkTrigger('tp', 'short', '99', '100')).toBeNull();
    expect(checkTrigger('tp', 'short', '101', '100')).toBe('tpSide');
    expect(checkTrigger('sl', 'short', '99', '100')).toBe('slSide');
    expect(checkTrigger('sl', 'short', '0', '100')).toBe('invalid');
  });

  it('the funding countdown is hh:mm:ss of the quote clock', () => {
    expect(countdown(8 * 3600)).toBe('08:00:00');
    expect(countdown(3661)).toBe('01:01:01');
    expect(countdown(-5)).toBe('00:00:00');
  });

  it('a close of a quarter, a half, three quarters or all of a position, at the step', () => {
    expect(shareOf('0.0013', 1, 4)).toBe('0.0003');
    expect(shareOf('0.0013', 2, 4)).toBe('0.0006');
    expect(shareOf('0.0013', 4, 4)).toBe('0.0013');
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

  it("the K-line's Buy/Sell bar: ?side=sell opens the spot form on Sell and the contract form on Short", async () => {
    const member = await fundedMember('trs', '10');
    await renderApp('/contract?symbol=ETH%2FUSDT&side=sell', { user: member });
    const spot = await screen.findByRole('form', { name: 'Spot order' }, { timeout: 5000 });
    const spotSide = within(spot).getByRole('group', { name: 'Side' });
    expect(within(spotSide).getByRole('button', { name: 'Sell ETH' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(spot.querySelector('button[type="submit"]')?.textContent).toBe('Sell ETH');
    await userEvent.click(screen.getByRole('tab', { name: 'Contract' }));
    const contract = await screen.findByRole('form', { name: 'Contract order' });
    expect(within(contract).getByRole('button', { name: 'Short' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(contract).getByRole('button', { name: 'Open short' })).toBeTruthy();
  });

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
    expect(summary?.textContent).toMatch(/^Bids [\d,.]+\u00a0BTC · asks [\d,.]+\u00a0BTC within 100 levels$/);
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

  it('K1 K5 K8 K16: a long opened through its confirmation sheet with a take-profit; the card shows ROE and TP/SL, adds margin, sets a stop-loss, closes half then the rest', async () => {
    const member = await openFunded('contract', '500');
    await userEvent.click(screen.getByRole('tab', { name: 'Contract' }));
    const form = await screen.findByRole('form', { name: 'Contract order' });
    await within(form).findByText('Available: 500.00 USDT', undefined, { timeout: 5000 });
    // Long/Short is one toggle; the button says what it does.
    expect(within(form).getByRole('button', { name: 'Long' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(within(form).getByRole('button', { name: 'Isolated' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Open long' }));
    expect(within(form).getByText('Enter a quantity')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.type(within(form).getByLabelText('Quantity (BTC)'), '0.001');
    expect(within(form).getByText(/Margin frozen: about \d+\.\d\d USDT at 10x/)).toBeTruthy();
    // A take-profit under the mark is refused on the form, before any sheet.
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Take-profit / stop-loss' }));
    await userEvent.type(within(form).getByLabelText('Take-profit (mark price)'), '1');
    await userEvent.click(within(form).getByRole('button', { name: 'Open long' }));
    expect(
      within(form).getByText(/^Take-profit is on the wrong side of the mark price \([\d,]+\.\d\d\)$/),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.clear(within(form).getByLabelText('Take-profit (mark price)'));
    await userEvent.type(within(form).getByLabelText('Take-profit (mark price)'), '900000');
    await userEvent.click(within(form).getByRole('button', { name: 'Open long' }));
    // 10x: the sheet shows the risk before anything is sent.
    const sheet = await screen.findByRole('dialog', { name: 'Confirm: Long BTC/USDT' });
    const row = (label: string) => figureOf(sheet, label);
    expect(row('Size')).toBe('0.0010 BTC');
    expect(row('Leverage')).toBe('10x · Isolated');
    expect(row('Est. entry price')).toMatch(/^[\d,]+\.\d\d$/);
    expect(row('Liq. price')).toMatch(/^[\d,]+\.\d\d$/);
    expect(row('Margin')).toMatch(/^\d+\.\d\d USDT$/);
    expect(row('Fee')).toMatch(/^\d+\.\d\d USDT$/);
    expect(row('Funding rate (est.)')).toMatch(/^-?\d\.\d{4}%$/);
    expect(row('Next funding')).toMatch(/^\d{4}-\d\d-\d\d (00|08|16):00$/);
    expect(row('Take-profit (mark price)')).toBe('900,000.00');
    expect(await engineCall('/api/position/list', {}, member)).toMatchObject({ list: [] });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Open long' }));
    await waitFor(() =>
      expect(document.querySelector('.toast-success')?.textContent).toBe('Long position opened'),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Positions' }));
    const position = await screen.findByRole('listitem', { name: 'BTC/USDT Long' }, { timeout: 5000 });
    const card = (label: string) => figureOf(screen.getByRole('listitem', { name: 'BTC/USDT Long' }), label);
    expect(within(position).getByText('Unrealised PnL')).toBeTruthy();
    expect(within(position).getByText('Liq. price')).toBeTruthy();
    expect(card('ROE')).toMatch(/^[+-]?\d+\.\d\d%$/);
    await waitFor(() => expect(card('TP/SL')).toBe('900,000.00 / None'), { timeout: 5000 });
    await userEvent.click(within(position).getByRole('button', { name: 'Adjust margin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adjust margin: BTC/USDT' });
    await userEvent.type(within(dialog).getByLabelText('Amount'), '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(toasts()).toContainEqual(expect.stringMatching(/^Margin is now \d+\.\d{2,6} USDT$/)),
    );
    // A stop-loss set on the open position, the take-profit kept.
    await userEvent.click(
      within(screen.getByRole('listitem', { name: 'BTC/USDT Long' })).getByRole('button', { name: 'TP/SL' }),
    );
    const triggers = await screen.findByRole('dialog', { name: 'TP/SL: BTC/USDT' });
    expect((within(triggers).getByLabelText('Take-profit (mark price)') as HTMLInputElement).value).toBe(
      '900000',
    );
    await userEvent.type(within(triggers).getByLabelText('Stop-loss (mark price)'), '1000');
    await userEvent.click(within(triggers).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(toasts()).toContain('Take-profit and stop-loss saved'));
    await waitFor(() => expect(card('TP/SL')).toBe('900,000.00 / 1,000.00'), { timeout: 5000 });
    // Half of it closed, then the rest.
    await userEvent.click(
      within(screen.getByRole('listitem', { name: 'BTC/USDT Long' })).getByRole('button', { name: 'Close' }),
    );
    let closing = await screen.findByRole('dialog', { name: 'Close Long BTC/USDT' });
    await userEvent.click(within(closing).getByRole('button', { name: 'Close 50% of the position' }));
    expect((within(closing).getByLabelText('Quantity (BTC)') as HTMLInputElement).value).toBe('0.0005');
    await userEvent.click(within(closing).getByRole('button', { name: 'Close at market' }));
    await waitFor(() => expect(toasts()).toContain('Closed 0.0005 BTC; the rest stays open'));
    await waitFor(() => expect(card('Size')).toBe('0.0005'), { timeout: 5000 });
    expect(card('TP/SL')).toBe('900,000.00 / 1,000.00');
    await userEvent.click(
      within(screen.getByRole('listitem', { name: 'BTC/USDT Long' })).getByRole('button', { name: 'Close' }),
    );
    closing = await screen.findByRole('dialog', { name: 'Close Long BTC/USDT' });
    await userEvent.clear(within(closing).getByLabelText('Quantity (BTC)'));
    await userEvent.type(within(closing).getByLabelText('Quantity (BTC)'), '0.0006');
    await userEvent.click(within(closing).getByRole('button', { name: 'Close at market' }));
    expect(within(closing).getByText("More than the position's size")).toBeTruthy();
    await userEvent.click(within(closing).getByRole('button', { name: 'Close 100% of the position' }));
    await userEvent.click(within(closing).getByRole('button', { name: 'Close at market' }));
    await screen.findByText('No open positions.', undefined, { timeout: 5000 });
  });

  it('"don\'t show again" is remembered on the device and can be undone; quick amounts and entry by total', async () => {
    localStorage.removeItem('strata.trade.skipConfirm');
    const member = await openFunded('contract', '500');
    await userEvent.click(screen.getByRole('tab', { name: 'Contract' }));
    const form = await screen.findByRole('form', { name: 'Contract order' });
    await within(form).findByText('Available: 500.00 USDT', undefined, { timeout: 5000 });
    await userEvent.click(within(form).getByRole('button', { name: 'Short' }));
    // 25% of what is free at 10x, margin and fee within it, at the pair's step.
    // (Once the pair's price is on the screen: no price, no quantity.)
    await waitFor(async () => {
      await userEvent.click(within(form).getByRole('button', { name: '25% of what is available' }));
      const qty = (within(form).getByLabelText('Quantity (BTC)') as HTMLInputElement).value;
      expect(qty).toMatch(/^0\.\d{1,4}$/);
    });
    await userEvent.click(within(form).getByRole('button', { name: 'Open short' }));
    let sheet = await screen.findByRole('dialog', { name: 'Confirm: Short BTC/USDT' });
    await userEvent.click(
      within(sheet).getByRole('checkbox', { name: "Don't show this again on this device" }),
    );
    await userEvent.click(within(sheet).getByRole('button', { name: 'Open short' }));
    await waitFor(() => expect(toasts()).toContain('Short position opened'));
    expect(localStorage.getItem('strata.trade.skipConfirm')).toBe('1');
    // Entry by total in USDT: the quantity it buys is shown; no sheet any more.
    await userEvent.click(within(form).getByRole('button', { name: 'Total (USDT)' }));
    await userEvent.type(within(form).getByLabelText('Total (USDT)'), '50');
    expect(within(form).getByText(/^Quantity at the last price: 0\.\d{4} BTC$/)).toBeTruthy();
    await userEvent.click(within(form).getByRole('button', { name: 'Open short' }));
    await waitFor(async () => {
      const orders = (await engineCall('/api/order/list', { market: 'contract' }, member)) as {
        list: unknown[];
      };
      expect(orders.list).toHaveLength(2);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(within(form).getByRole('button', { name: 'Show the order confirmation again' }));
    expect(localStorage.getItem('strata.trade.skipConfirm')).toBeNull();
    await userEvent.type(within(form).getByLabelText('Total (USDT)'), '50');
    await userEvent.click(within(form).getByRole('button', { name: 'Open short' }));
    sheet = await screen.findByRole('dialog', { name: 'Confirm: Short BTC/USDT' });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
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
      const orders = await engineCall(
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

/** The value shown beside a label in a label/value list (`dt`/`dd`) inside `within`. */
function figureOf(scope: HTMLElement, label: string): string | undefined {
  const dt = [...scope.querySelectorAll('dt')].find((d) => d.textContent === label);
  return dt?.nextElementSibling?.textContent ?? undefined;
}
