/**
 * S7 on the spot form (commit 27aaa97): a market order walks the book only as far as the price protection
 * band, so the engine may answer `partial`; the member is told what traded and what was cancelled, in their
 * language, never "Order filled".
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
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
  await userEvent.type(form.querySelector<HTMLInputElement>('input[name="volume"]')!, '2');
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
    expect(form.querySelector<HTMLInputElement>('input[name="volume"]')!.value).toBe('');
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
