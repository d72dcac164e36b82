import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Quote } from '../../../engine/index';
import { renderApp } from '../../app/test-utils';
import { fundedMember, wireTestApi } from '../../../tests/app/test-wallet';
import { compactVolume } from '../../lib/decimal';
import { selectQuotes } from './MarketPage';
import { advanceMarket } from '../../../tests/app/test-market';
import { applyFeed } from '../../lib/use-quotes';

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

const quote = (symbol: string, change24h: string): Quote => ({
  symbol,
  base: symbol.split('/')[0] ?? symbol,
  latest: '1',
  change24h,
  source: 'simulated',
  high: '1',
  low: '1',
  open: '1',
  prevClose: '1',
  volume: '1',
  time: 0,
});

describe('quotes list', { timeout: 20_000 }, () => {
  it('rising and falling lists keep only pairs that moved that way, biggest move first (exact order)', () => {
    const list = [
      quote('A/USDT', '0.10'),
      quote('B/USDT', '-0.30'),
      quote('C/USDT', '0.2'),
      quote('D/USDT', '0'),
    ];
    expect(selectQuotes(list, 'rising').map((q) => q.base)).toEqual(['C', 'A']);
    expect(selectQuotes(list, 'falling').map((q) => q.base)).toEqual(['B']);
    expect(selectQuotes(list, 'all')).toHaveLength(4);
  });

  it('volumes of a million or more are shortened by moving the decimal point, never through a float', () => {
    const plain = (v: string, d: number) => `${v}|${d}`;
    expect(compactVolume('1227718821.1234', plain)).toBe('1.227718821|2B');
    expect(compactVolume('3707495', plain)).toBe('3.707495|2M');
    expect(compactVolume('25673.5', plain)).toBe('25673.5|0');
  });

  it('Curr refreshes latest price and change; ticker24hr replaces the list', () => {
    const list = [quote('A/USDT', '1.00')];
    const curr = applyFeed(list, {
      type: 'Curr',
      data: { 'A/USDT': { symbol: 'A/USDT', latest: '2', change24h: '-1.50', time: 1 } },
    });
    expect(curr[0]).toMatchObject({ latest: '2', change24h: '-1.50', high: '1' });
    const ticker = applyFeed(curr, { type: 'ticker24hr', data: [quote('B/USDT', '3')] });
    expect(ticker.map((q) => q.symbol)).toEqual(['B/USDT']);
    expect(applyFeed(list, { type: 'ping', data: null })).toBe(list);
  });

  it('/market shows the eight USDT pairs, labelled simulated, and updates them from the feed', async () => {
    await renderApp('/market', { user: await fundedMember('mk') });
    const list = await screen.findByRole('list', { name: 'All' }, { timeout: 5000 });
    const rows = within(list).getAllByRole('link');
    expect(rows).toHaveLength(8);
    expect(rows[0]?.getAttribute('href')).toBe('/finance/kline?symbol=BTC%2FUSDT');
    expect(screen.getByText('Simulated prices: a demo market, not a real exchange.')).toBeTruthy();
    // Every change carries a spoken direction and an arrow, not colour alone.
    expect(list.querySelectorAll('.change .sr-only')).toHaveLength(8);
    // The feed connects once the page is idle (src/lib/feed.ts): wait until it says so.
    await screen.findByText('Live');
    const before = list.textContent;
    await act(() => advanceMarket(120_000));
    await waitFor(() => expect(screen.getByRole('list', { name: 'All' }).textContent).not.toBe(before));
  });

  it('the rising and falling views partition the pairs', async () => {
    await renderApp('/market', { user: await fundedMember('mk') });
    await screen.findByRole('list', { name: 'All' }, { timeout: 5000 });
    await userEvent.click(screen.getByRole('button', { name: 'Rising' }));
    const rising = screen.queryByRole('list', { name: 'Rising' });
    const up = rising ? within(rising).getAllByRole('link').length : 0;
    await userEvent.click(screen.getByRole('button', { name: 'Falling' }));
    const falling = screen.queryByRole('list', { name: 'Falling' });
    const down = falling ? within(falling).getAllByRole('link').length : 0;
    expect(up + down).toBeLessThanOrEqual(8);
    expect(up + down).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Falling' }).getAttribute('aria-pressed')).toBe('true');
  });
});

function setOnline(value: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
  act(() => {
    window.dispatchEvent(new Event(value ? 'online' : 'offline'));
  });
}

describe('offline on the market screens (issue 26 item 7)', { timeout: 20_000 }, () => {
  afterEach(() => setOnline(true));

  it('one offline notice per page; the live dot goes off, the prices are marked stale and stop; online again, live', async () => {
    await renderApp('/market', { user: await fundedMember('mko') });
    const list = await screen.findByRole('list', { name: 'All' }, { timeout: 5000 });
    await screen.findByText('Live');
    await act(() => advanceMarket(60_000));
    setOnline(false);
    // The feed rests: no dot, the prices dimmed and dated, and they no longer move.
    await screen.findByText(/^Prices as of \d\d:\d\d$/);
    expect(document.querySelector('.feed-live')).toBeNull();
    expect(list.className).toContain('quote-list-stale');
    const frozen = list.textContent;
    await act(() => advanceMarket(120_000));
    expect(screen.getByRole('list', { name: 'All' }).textContent).toBe(frozen);
    // One notice says the device is offline: the shell's banner.
    const notices = [
      ...document.querySelectorAll('[role="status"], .needs-connection, .offline-note'),
    ].filter((el) => /offline/i.test(el.textContent ?? ''));
    expect(notices).toHaveLength(1);
    setOnline(true);
    await screen.findByText('Live', undefined, { timeout: 5000 });
    expect(screen.getByRole('list', { name: 'All' }).className).not.toContain('quote-list-stale');
  });

  it('the trade page shows one offline banner (it stacked two), and it names what waits', async () => {
    await renderApp('/contract', { user: await fundedMember('mkt') });
    await screen.findByRole('form', { name: 'Spot order' }, { timeout: 5000 });
    setOnline(false);
    const banner = await screen.findByText(/^You are offline\. Figures shown may be out of date/);
    expect(banner.closest('[data-testid="pwa-online-status"]')).not.toBeNull();
    const notices = [...document.querySelectorAll('p, div[role="status"]')].filter(
      (el) => el.children.length === 0 && /offline/i.test(el.textContent ?? ''),
    );
    expect(notices).toHaveLength(1);
  });
});
