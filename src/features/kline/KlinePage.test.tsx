import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Candle } from '../../../engine/index';
import { renderApp } from '../../app/test-utils';
import { advanceMarket } from '../../../tests/app/test-market';
import { fundedMember, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-market'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

/** The canvas chart is replaced by a recorder: jsdom has no canvas, and this tests the data, not drawing. */
const chart = vi.hoisted(() => ({
  sets: [] as { candles: Candle[]; decimals: number }[],
  updates: [] as Candle[],
  needOlder: null as null | (() => void),
}));
vi.mock('./chart', () => ({
  createKlineChart: (_box: HTMLElement, options: { onNeedOlder: () => void }) => {
    chart.needOlder = options.onNeedOlder;
    return {
      setLocale: () => undefined,
      setCandles: (candles: Candle[], decimals: number) =>
        chart.sets.push({ candles: [...candles], decimals }),
      update: (candle: Candle) => chart.updates.push(candle),
      setTheme: () => undefined,
      destroy: () => undefined,
    };
  },
}));

beforeAll(wireTestApi);
afterEach(cleanup);

describe('/finance/kline', { timeout: 20_000 }, () => {
  it('M4 M6: loads 300 candles, pages back with before, switches interval and moves the last candle live', async () => {
    const { router } = await renderApp('/finance/kline?symbol=ETH%2FUSDT', {
      user: await fundedMember('kl'),
    });
    await waitFor(() => expect(chart.sets).toHaveLength(1), { timeout: 5000 });
    const first = chart.sets[0]?.candles ?? [];
    expect(first).toHaveLength(300);
    expect(first[1]!.time - first[0]!.time).toBe(15 * 60);
    expect(screen.getByRole('button', { name: '15m' }).getAttribute('aria-pressed')).toBe('true');
    await screen.findByText(/^Latest candle: open /);

    await act(async () => chart.needOlder?.());
    await waitFor(() => expect(chart.sets).toHaveLength(2));
    const paged = chart.sets[1]?.candles ?? [];
    expect(paged).toHaveLength(600);
    expect(paged[300]).toEqual(first[0]);
    expect(new Set(paged.map((c) => c.time)).size).toBe(600);

    const updates = chart.updates.length;
    // The feed's subscription may still be on its way: the market moves on until a tick reaches the chart.
    await waitFor(
      async () => {
        await act(() => advanceMarket(3_000));
        expect(chart.updates.length).toBeGreaterThan(updates);
      },
      { timeout: 10_000 },
    );
    expect(chart.updates.at(-1)!.time).toBeGreaterThanOrEqual(paged.at(-1)!.time);
    // A tick moves the last candle with update(); it never reloads the whole series.
    expect(chart.sets).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: '1h' }));
    await waitFor(() => expect(chart.sets).toHaveLength(3));
    const hourly = chart.sets[2]?.candles ?? [];
    expect(hourly[1]!.time - hourly[0]!.time).toBe(3600);
    expect(router.state.location.search).toBe('?symbol=ETH%2FUSDT&interval=1h');
  });

  it('M7: shows the order book depth under the chart, bids and asks summed over 100 levels', async () => {
    await renderApp('/finance/kline?symbol=BTC%2FUSDT', { user: await fundedMember('kd') });
    const depth = await screen.findByRole('region', { name: 'Order book depth' }, { timeout: 5000 });
    expect(depth.querySelectorAll('polygon')).toHaveLength(2);
    expect(depth.textContent).toMatch(/^Bids [\d,.]+\u00a0BTC · asks [\d,.]+\u00a0BTC within 100 levels$/);
  });

  it('the pair sheet: a button opens it, typing filters, arrows and Enter pick, Escape returns focus', async () => {
    const { router } = await renderApp('/finance/kline?symbol=BTC%2FUSDT', {
      user: await fundedMember('kp'),
    });
    const opener = await screen.findByRole('button', { name: 'Pair: BTC/USDT. Change pair' });
    await userEvent.click(opener);
    const sheet = screen.getByRole('dialog', { name: 'Choose a pair' });
    const box = within(sheet).getByRole('combobox', { name: 'Search pairs' });
    expect(document.activeElement).toBe(box);
    const options = () => within(sheet).getAllByRole('option');
    await waitFor(() => expect(options()).toHaveLength(8));
    // The current pair is selected and active; the combobox names the active option.
    const selected = options().find((o) => o.getAttribute('aria-selected') === 'true');
    expect(selected?.textContent).toContain('BTC/USDT');
    expect(box.getAttribute('aria-activedescendant')).toBe(selected?.id);
    await userEvent.type(box, 'o');
    const names = options().map((o) => o.querySelector('.pair-option-name')?.textContent ?? '');
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThan(8);
    expect(names.every((name) => /O/.test(name))).toBe(true);
    await userEvent.clear(box);
    await userEvent.type(box, 'zz');
    expect(within(sheet).getByText('No pair matches “zz”.')).toBeTruthy();
    await userEvent.clear(box);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    await userEvent.click(opener);
    const box2 = screen.getByRole('combobox', { name: 'Search pairs' });
    await userEvent.type(box2, 'eth');
    await userEvent.keyboard('{End}{Enter}');
    await waitFor(() => expect(router.state.location.search).toContain('symbol=ETH%2FUSDT'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Pair: ETH/USDT. Change pair' })).toBeTruthy();
  });

  it('a Buy and Sell bar stays at the bottom of the K-line screen, linking to the trade screen for the pair', async () => {
    await renderApp('/finance/kline?symbol=SOL%2FUSDT', { user: await fundedMember('kb') });
    const bar = await screen.findByRole('navigation', { name: 'Trade SOL/USDT' });
    const buy = within(bar).getByRole('link', { name: 'Buy SOL' });
    const sell = within(bar).getByRole('link', { name: 'Sell SOL' });
    expect(buy.getAttribute('href')).toBe('/contract?symbol=SOL%2FUSDT&side=buy');
    expect(sell.getAttribute('href')).toBe('/contract?symbol=SOL%2FUSDT&side=sell');
    expect(bar.className).toBe('kline-trade-bar');
  });
});
