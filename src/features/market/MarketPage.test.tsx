import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Quote } from '../../../engine/index';
import { renderApp } from '../../app/test-utils';
import { fundedMember, wireTestApi } from '../../../tests/app/test-wallet';
import { compactVolume } from '../../lib/decimal';
import { selectQuotes } from './MarketPage';
import { mergeFavourites } from '../../lib/favourites';
import { nextSort, parseSort, searchQuotes, sortQuotes } from '../../lib/market-view';
import { appSync } from '../../sync/app';
import { advanceMarket } from '../../../tests/app/test-market';
import { applyFeed } from '../../lib/use-quotes';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-market'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

const quote = (symbol: string, change24h: string, latest = '1', volume = '1'): Quote => ({
  symbol,
  base: symbol.split('/')[0] ?? symbol,
  latest,
  change24h,
  source: 'simulated',
  high: '1',
  low: '1',
  open: '1',
  prevClose: '1',
  volume,
  time: 0,
});

describe('search, sort and favourites (issue 26 item 3, pure)', () => {
  const list = [
    quote('BTC/USDT', '1.5', '96000.5', '10'),
    quote('ETH/USDT', '-2.25', '3400', '500'),
    quote('DOGE/USDT', '0.10', '0.21', '90000000'),
    quote('ETC/USDT', '-0.5', '20.000001', '3'),
  ];
  const bases = (qs: Quote[]) => qs.map((q) => q.base);

  it('search matches the pair in any case, with or without the slash; empty lists every pair', () => {
    expect(bases(searchQuotes(list, 'et'))).toEqual(['ETH', 'ETC']);
    expect(bases(searchQuotes(list, 'btc/usdt'))).toEqual(['BTC']);
    expect(bases(searchQuotes(list, ' dogeUSDT '))).toEqual(['DOGE']);
    expect(searchQuotes(list, '')).toHaveLength(4);
    expect(searchQuotes(list, 'xrp')).toEqual([]);
  });

  it('sorts by USDT volume (volume x price, exact), price or change, either way; the button cycles', () => {
    // Turnover: BTC 960,005; ETH 1,700,000; DOGE 18,900,000; ETC 60.000003.
    expect(bases(sortQuotes(list, { key: 'volume', direction: 'desc' }))).toEqual([
      'DOGE',
      'ETH',
      'BTC',
      'ETC',
    ]);
    expect(bases(sortQuotes(list, { key: 'price', direction: 'asc' }))).toEqual([
      'DOGE',
      'ETC',
      'ETH',
      'BTC',
    ]);
    expect(bases(sortQuotes(list, { key: 'change', direction: 'desc' }))).toEqual([
      'BTC',
      'DOGE',
      'ETC',
      'ETH',
    ]);
    expect(bases(sortQuotes(list, null))).toEqual(['BTC', 'ETH', 'DOGE', 'ETC']);
    expect(nextSort(null, 'price')).toEqual({ key: 'price', direction: 'desc' });
    expect(nextSort({ key: 'price', direction: 'desc' }, 'price')).toEqual({
      key: 'price',
      direction: 'asc',
    });
    expect(nextSort({ key: 'price', direction: 'asc' }, 'price')).toBeNull();
    expect(nextSort({ key: 'price', direction: 'asc' }, 'change')).toEqual({
      key: 'change',
      direction: 'desc',
    });
    expect(parseSort('change-asc')).toEqual({ key: 'change', direction: 'asc' });
    expect(parseSort('float-desc')).toBeNull();
  });

  it('favourites: the replica with the unsettled writes laid over it in order; refused writes change nothing', () => {
    const replica = [
      { id: '1:ETH/USDT', symbol: 'ETH/USDT', time: 2 },
      { id: '1:BTC/USDT', symbol: 'BTC/USDT', time: 1 },
    ];
    const write = (symbol: string, favourite: boolean, createdAt: number, state = 'waiting' as const) => ({
      id: `w${createdAt}`,
      name: '/api/market/favourite',
      args: { symbol, favourite },
      createdAt,
      state,
    });
    expect(mergeFavourites(replica, [])).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(
      mergeFavourites(replica, [
        write('SOL/USDT', true, 30),
        write('BTC/USDT', false, 10),
        write('SOL/USDT', false, 20),
      ]),
    ).toEqual(['ETH/USDT', 'SOL/USDT']);
    expect(mergeFavourites(replica, [{ ...write('ETH/USDT', false, 5), state: 'failed' }])).toEqual([
      'BTC/USDT',
      'ETH/USDT',
    ]);
    expect(selectQuotes(list, 'favourites', ['ETC/USDT', 'BTC/USDT', 'XRP/USDT']).map((q) => q.base)).toEqual(
      ['ETC', 'BTC'],
    );
  });
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
      data: { 'A/USDT': { symbol: 'A/USDT', latest: '2', change24h: '-1.50', time: 1, source: 'simulated' } },
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
    expect(list.querySelectorAll('.change .visually-hidden')).toHaveLength(8);
    // The feed connects once the page is idle (src/lib/feed.ts): wait until it says so.
    await screen.findByText('Live');
    const before = list.textContent;
    await act(() => advanceMarket(120_000));
    await waitFor(() => expect(screen.getByRole('list', { name: 'All' }).textContent).not.toBe(before));
  });

  it('searches, stars a pair (kept through the outbox and synced), lists favourites and sorts, from the address', async () => {
    const member = await fundedMember('mkf');
    const { router } = await renderApp('/market', { user: member });
    await screen.findByRole('list', { name: 'All' }, { timeout: 5000 });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search pairs' }), 'eth');
    const found = within(screen.getByRole('list', { name: 'All' })).getAllByRole('link');
    expect(found.map((a) => a.getAttribute('href'))).toEqual(['/finance/kline?symbol=ETH%2FUSDT']);
    expect(router.state.location.search).toBe('?q=eth');
    const star = screen.getByRole('button', { name: 'Favourite: ETH/USDT' });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(star);
    await waitFor(() => expect(star.getAttribute('aria-pressed')).toBe('true'));
    // The write went through the outbox and the engine, and the device's replica has the row.
    await waitFor(
      async () => {
        await appSync().sync();
        const rows = await appSync()
          .db.replica.where('[memberId+table]')
          .equals([member.id, 'favourites'])
          .toArray();
        expect(rows.map((r) => (r.record as { symbol: string }).symbol)).toEqual(['ETH/USDT']);
      },
      { timeout: 5000 },
    );
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search pairs' }), 'zzz');
    expect(screen.getByText('No pair matches “ethzzz”.')).toBeTruthy();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search pairs' }));
    await userEvent.click(screen.getByRole('button', { name: 'Favourites' }));
    const favourites = screen.getByRole('list', { name: 'Favourites' });
    expect(within(favourites).getAllByRole('link')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Favourite: ETH/USDT' }));
    await screen.findByText('No favourites yet: tap ☆ beside a pair to add it.');
    await userEvent.click(screen.getByRole('button', { name: 'All' }));
    // Sorting: price, highest first, then lowest first, named for screen readers.
    await userEvent.click(screen.getByRole('button', { name: 'Sort by Price' }));
    expect(router.state.location.search).toBe('?sort=price-desc');
    const prices = () =>
      [...screen.getByRole('list', { name: 'All' }).querySelectorAll('.quote-price strong data')].map(
        (d) => d.getAttribute('value') ?? '',
      );
    const desc = prices();
    expect([...desc].sort((a, b) => Number(b) - Number(a))).toEqual(desc);
    await userEvent.click(screen.getByRole('button', { name: 'Sorted by Price, highest first' }));
    expect(screen.getByRole('button', { name: 'Sorted by Price, lowest first' })).toBeTruthy();
    expect(prices()[0]).toBe(desc.at(-1));
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

  it('a star set offline shows at once, waits in the outbox without a toast, and is applied on reconnect', async () => {
    const member = await fundedMember('mks');
    await renderApp('/market', { user: member });
    await screen.findByRole('list', { name: 'All' }, { timeout: 5000 });
    setOnline(false);
    const star = screen.getByRole('button', { name: 'Favourite: SOL/USDT' });
    await userEvent.click(star);
    await waitFor(() => expect(star.getAttribute('aria-pressed')).toBe('true'));
    expect(await appSync().db.outbox.where('memberId').equals(member.id).count()).toBe(1);
    expect(screen.queryByText(/Waiting for connection/)).toBeNull();
    setOnline(true);
    await waitFor(
      async () => {
        await appSync().sync();
        expect(await appSync().db.outbox.where('memberId').equals(member.id).count()).toBe(0);
        const rows = await appSync()
          .db.replica.where('[memberId+table]')
          .equals([member.id, 'favourites'])
          .toArray();
        expect(rows.map((r) => (r.record as { symbol: string }).symbol)).toEqual(['SOL/USDT']);
      },
      { timeout: 5000 },
    );
    expect(star.getAttribute('aria-pressed')).toBe('true');
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
