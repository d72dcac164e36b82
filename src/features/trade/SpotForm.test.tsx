/**
 * S7 on the spot form (commit 27aaa97): a market order walks the book only as far as the price protection
 * band, so the engine may answer `partial`; the member is told what traded and what was cancelled, in their
 * language, never "Order filled". Quick amounts, entry by total and the side given by `?side=` (issue 26).
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import type { OrderView } from '../../../engine/index';
import { toastStore } from '../../state/toast-store';
import { Toaster } from '../../app/Toaster';
import { initI18n, i18next } from '../../i18n';
import type { LanguageCode } from '../../i18n/languages';
import { SpotForm } from './SpotForm';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../api', () => ({ api: { call } }));

afterEach(() => {
  cleanup();
  call.mockReset();
  for (const t of toastStore.get()) toastStore.dismiss(t.id);
});

afterAll(async () => {
  await initI18n('en-US');
});

const answer = (status: OrderView['status'], filled: string, cancelledVolume: string) =>
  ({
    id: '7',
    symbol: 'BTC/USDT',
    market: 'spot',
    side: 'buy',
    type: 'market',
    status,
    volume: '2',
    filled,
    cancelledVolume,
  }) as unknown as OrderView;

async function placeMarketBuy(language: LanguageCode, placed: OrderView) {
  await initI18n(language);
  call.mockImplementation(async (path: string) => {
    if (path === '/api/order/place') return placed;
    if (path === '/api/market/depth') return { asks: [['95000', '1']], bids: [['94990', '1']] };
    throw new Error(`unexpected call ${path}`);
  });
  const onPlaced = vi.fn();
  render(
    <I18nextProvider i18n={i18next}>
      <SpotForm
        symbol="BTC/USDT"
        base="BTC"
        latest="95000"
        availableUsdt="1000000"
        availableBase="0"
        pickedPrice={null}
        onPlaced={onPlaced}
      />
      <Toaster />
    </I18nextProvider>,
  );
  const form = screen.getByRole('form', { name: i18next.t('trade.spotForm') });
  await userEvent.click(screen.getByRole('button', { name: i18next.t('trade.market') }));
  await userEvent.type(form.querySelector<HTMLInputElement>('input[name="amount"]')!, '2');
  await userEvent.click(form.querySelector<HTMLButtonElement>('button[type="submit"]')!);
  await waitFor(() => expect(onPlaced).toHaveBeenCalledOnce());
  expect(call).toHaveBeenCalledWith('/api/order/place', {
    symbol: 'BTC/USDT',
    market: 'spot',
    side: 'buy',
    type: 'market',
    volume: '2',
  });
  return form;
}

describe('spot market order partly filled by the price band (S7)', () => {
  it('says how much traded and how much was cancelled, not "Order filled"', async () => {
    const form = await placeMarketBuy('en-US', answer('partial', '1.2345', '0.7655'));
    const toaster = screen.getByRole('status');
    await waitFor(() =>
      expect(toaster.textContent).toContain(
        'Partly filled: 1.2345 BTC traded; the other 0.7655 BTC was cancelled at the price protection limit',
      ),
    );
    expect(toaster.textContent).not.toContain('Order filled');
    expect(form.querySelector<HTMLInputElement>('input[name="amount"]')!.value).toBe('');
  });

  it('is translated: the same answer in German', async () => {
    await placeMarketBuy('de-DE', answer('partial', '1.2345', '0.7655'));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toContain(
        'Teilweise ausgeführt: 1,2345 BTC gehandelt; die übrigen 0,7655 BTC wurden an der Preisschutzgrenze storniert',
      ),
    );
  });

  it('nothing within the band: says nothing was traded', async () => {
    await placeMarketBuy('en-US', answer('cancelled', '0', '2'));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toContain(
        'Not filled: the book had nothing within the price protection limit, so nothing was traded',
      ),
    );
  });
});

function renderSpot(props: Partial<Parameters<typeof SpotForm>[0]> = {}) {
  call.mockImplementation(async (path: string, body: unknown) => {
    if (path === '/api/order/place')
      return { ...answer('filled', String((body as { volume: string }).volume), '0'), status: 'filled' };
    if (path === '/api/market/depth') return { asks: [['95000', '1']], bids: [['94990', '1']] };
    throw new Error(`unexpected call ${path}`);
  });
  render(
    <I18nextProvider i18n={i18next}>
      <SpotForm
        symbol="BTC/USDT"
        base="BTC"
        latest="95000"
        availableUsdt="1000"
        availableBase="0.123456"
        pickedPrice={null}
        onPlaced={() => {}}
        {...props}
      />
      <Toaster />
    </I18nextProvider>,
  );
  const form = screen.getByRole('form', { name: i18next.t('trade.spotForm') });
  const input = () => form.querySelector<HTMLInputElement>('input[name="amount"]')!;
  return { form, input };
}

describe('spot quick amounts and entry by total (issue 26 item 2)', () => {
  it('a buy fills a share of the free USDT with the 0.1% fee within it, at the limit price and the step', async () => {
    await initI18n('en-US');
    const { form, input } = renderSpot();
    await userEvent.type(form.querySelector<HTMLInputElement>('input[name="price"]')!, '95000');
    // 1,000 USDT: 1,000 x 10,000 / 10,010 = 999.000999 spendable, / 95,000 = 0.010515... -> 0.0105 BTC
    // (997.50 + fee 0.9975 = 998.4975 <= 1,000; 0.0106 would cost 1,007.70).
    await userEvent.click(screen.getByRole('button', { name: 'Buy with 100% of the available USDT' }));
    expect(input().value).toBe('0.0105');
    expect(screen.getByText('Value: 997.50 USDT')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Buy with 50% of the available USDT' }));
    expect(input().value).toBe('0.0052');
    // By total: the 100% total is what 0.0105 BTC costs, and the quantity derived from it is 0.0105 again.
    await userEvent.click(screen.getByRole('button', { name: 'Total (USDT)' }));
    expect(input().value).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Buy with 100% of the available USDT' }));
    expect(input().value).toBe('997.5');
    expect(screen.getByText('Quantity at this price: 0.0105 BTC')).toBeTruthy();
  });

  it('a sell fills a share of the free coin cut to the step; the side comes from the page', async () => {
    await initI18n('en-US');
    const { input } = renderSpot({ initialSide: 'sell' });
    const side = screen.getByRole('group', { name: 'Side' });
    expect(within(side).getByRole('button', { name: 'Sell BTC' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(side).getByRole('button', { name: 'Buy BTC' }).getAttribute('aria-pressed')).toBe('false');
    // 0.123456 / 4 = 0.030864 -> 0.0308 at the pair's 4 places.
    await userEvent.click(screen.getByRole('button', { name: 'Sell 25% of the available BTC' }));
    expect(input().value).toBe('0.0308');
    await userEvent.click(screen.getByRole('button', { name: 'Sell 100% of the available BTC' }));
    expect(input().value).toBe('0.1234');
  });

  it('a market buy by total sends the quantity the total buys at the last price; an empty total says so', async () => {
    await initI18n('en-US');
    const { form, input } = renderSpot();
    await userEvent.click(screen.getByRole('button', { name: 'Market' }));
    await userEvent.click(screen.getByRole('button', { name: 'Total (USDT)' }));
    await userEvent.click(form.querySelector<HTMLButtonElement>('button[type="submit"]')!);
    expect(screen.getByText('Enter a total')).toBeTruthy();
    expect(call).not.toHaveBeenCalledWith('/api/order/place', expect.anything());
    // 1 USDT at 95,000 is less than the 0.0001 BTC step: too small, said before sending.
    await userEvent.type(input(), '1');
    expect(screen.getByText('Enter a total above zero, large enough for the smallest quantity')).toBeTruthy();
    await userEvent.clear(input());
    // 500 / 95,000 = 0.005263... -> 0.0052 BTC.
    await userEvent.type(input(), '500');
    expect(screen.getByText('Quantity at the last price: 0.0052 BTC')).toBeTruthy();
    await userEvent.click(form.querySelector<HTMLButtonElement>('button[type="submit"]')!);
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith('/api/order/place', {
        symbol: 'BTC/USDT',
        market: 'spot',
        side: 'buy',
        type: 'market',
        volume: '0.0052',
      }),
    );
  });

  it('is translated: German quick amounts and the derived quantity in German figures', async () => {
    await initI18n('de-DE');
    const { input } = renderSpot({ availableUsdt: '20000', latest: '95000' });
    await userEvent.click(screen.getByRole('button', { name: 'Market-Order' }));
    await userEvent.click(screen.getByRole('button', { name: 'Gesamt (USDT)' }));
    // 20,000 x 10,000 / 10,010 = 19,980.019980 / 95,000 = 0.210315... -> 0.2103 BTC, costing 19,978.50.
    await userEvent.click(screen.getByRole('button', { name: 'Mit 100 % der verfügbaren USDT kaufen' }));
    expect(input().value).toBe('19978.5');
    expect(screen.getByText('Menge zum letzten Preis: 0,2103 BTC')).toBeTruthy();
  });
});
