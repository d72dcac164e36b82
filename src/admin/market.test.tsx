/**
 * The console's Market screen (GET /api/admin/market, POST /api/admin/market/halt) against a scripted operator
 * API: the house's net position and PnL per pair with the venues of its index, a stale pair marked, and the
 * kill switch (admins only, a reason required, from the keyboard).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminMarket, AdminMarketPair } from '../../contract/admin/model';
import { saveSession } from './api';
import { mockServer, operator, renderConsole } from './test-utils';

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const BTC: AdminMarketPair = {
  symbol: 'BTC/USDT',
  spot: '-0.1',
  contracts: '-0.2',
  net: '-0.3',
  indexPrice: '91234.56',
  exposure: '-27370.368',
  contractPnl: '12.5',
  source: 'binance,okx,coinbase',
  stale: false,
  halted: false,
  haltedAt: null,
  haltReason: null,
  venues: [
    { venue: 'binance', price: '91234.56', time: 1_767_600_000, state: 'used' },
    { venue: 'okx', price: '91234.9', time: 1_767_600_000, state: 'used' },
    { venue: 'coinbase', price: '92990.1', time: 1_767_600_000, state: 'outlier' },
  ],
};
const ETH: AdminMarketPair = {
  ...BTC,
  symbol: 'ETH/USDT',
  spot: '0',
  contracts: '1',
  net: '1',
  indexPrice: '3120.4',
  exposure: '3120.4',
  contractPnl: '0',
  source: 'okx,coinbase',
  stale: true,
  halted: true,
  haltedAt: 1_767_590_000,
  haltReason: 'venue incident',
  venues: [{ venue: 'binance', price: null, time: null, state: 'stale' }],
};

function market(pairs: AdminMarketPair[]): AdminMarket {
  return { mode: 'venues', pairs, cash: '9123.456', pnl: '-4.2', time: 1_767_600_000 };
}

function serve(
  role: 'admin' | 'reviewer',
  onHalt = (body: Record<string, unknown>) => ({ ...BTC, ...body }),
) {
  saveSession('tok', operator(role));
  return mockServer((call) => {
    if (call.path === '/api/admin/me') return { code: 0, data: operator(role) };
    if (call.path === '/api/admin/market') return { code: 0, data: market([BTC, ETH]) };
    if (call.path === '/api/admin/market/halt') return { code: 0, data: onHalt(call.body ?? {}) };
    return undefined;
  });
}

describe('console: market and house risk', () => {
  it("shows the house's position, PnL and each pair's venues; a stale or stopped pair says so", async () => {
    serve('reviewer');
    renderConsole('/market');
    expect(await screen.findByRole('heading', { name: 'Market and house risk' })).toBeTruthy();
    expect(await screen.findByText("Live prices from the venues of each pair's index.")).toBeTruthy();
    expect(screen.getByText('9123.456 USDT')).toBeTruthy();
    expect(screen.getByText('-4.2 USDT')).toBeTruthy();
    const btc = screen.getByRole('row', { name: /BTC\/USDT/ });
    for (const text of ['-0.3', '91234.56', '-27370.368', '12.5', 'Open']) {
      expect(within(btc).getAllByText(text).length).toBeGreaterThan(0);
    }
    const venues = within(btc).getByRole('list', { name: 'Venues of BTC/USDT' });
    expect(within(venues).getByText(/coinbase: too far from the median/)).toBeTruthy();
    expect(within(venues).getAllByText(/in the index/)).toHaveLength(2);
    const eth = screen.getByRole('row', { name: /ETH\/USDT/ });
    expect(within(eth).getByText('Stale')).toBeTruthy();
    expect(within(eth).getByText(/Stopped since/)).toBeTruthy();
    expect(within(eth).getByText('venue incident')).toBeTruthy();
    // A reviewer reads; the switch is an admin's.
    expect(screen.queryByRole('button', { name: /Stop new orders/ })).toBeNull();
  });

  it('an admin stops a pair from the keyboard with a reason, and resumes another', async () => {
    const calls = serve('admin');
    renderConsole('/market');
    const user = userEvent.setup();
    const stop = await screen.findByRole('button', { name: 'Stop new orders in BTC/USDT' });
    expect(screen.getByRole('button', { name: 'Resume orders in ETH/USDT' })).toBeTruthy();
    stop.focus();
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Stop new orders in BTC/USDT' });
    expect(within(dialog).getByText(/refused \(code 4037\)/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Stop new orders' }));
    expect(within(dialog).getByText('Enter a reason.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(within(dialog).getByLabelText('Reason'), 'Binance incident');
    await user.click(within(dialog).getByRole('button', { name: 'Stop new orders' }));
    expect(await screen.findByText('New orders in BTC/USDT are stopped.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/admin/market/halt',
      body: { symbol: 'BTC/USDT', halted: true, reason: 'Binance incident' },
    });
  });
});
