import { describe, expect, it } from 'vitest';

import { acct } from '../../../engine/ledger/accounts';

import { extremesBetween } from '../../../engine/market/extremes';

import { marketFor } from '../../../engine/market/instance';

import { contractBook } from '../../../engine/trading/mark';

import { findSymbol } from '../../../engine/market/symbols';

import { mulDiv, parseAmount, units } from '../../../engine/money';

import type { PositionView } from '../../../engine/trading/views';
import { DAY, harness, type Member, type OrderBody, type Side } from './harness';

const BTC = findSymbol('BTC')!;
const order = (side: Side, volume: string, extra: Partial<OrderBody> = {}): OrderBody => ({
  symbol: 'BTC/USDT',
  market: 'contract',
  side,
  type: 'market',
  volume,
  ...extra,
});

const signed = (s: string): bigint => (s.startsWith('-') ? -parseAmount(s.slice(1)) : parseAmount(s));

async function positionsOf(m: Member): Promise<PositionView[]> {
  return (await m.call('/api/position/list')).data.list;
}

async function funded(cash = '10000') {
  const h = await harness();
  const m = await h.member({ cash });
  expect((await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: cash })).code).toBe(
    0,
  );
  return { h, m };
}

describe('contracts', () => {
  it('K1 an isolated 10x long freezes notional / 10 as margin, pays the fee, and shows the tiered liquidation price', async () => {
    const { h, m } = await funded();
    const res = await m.call(
      '/api/order/place',
      order('open_long', '0.1', { leverage: 10, marginMode: 'isolated' }),
    );
    expect(res.code).toBe(0);
    const o = res.data;
    const entry = parseAmount(o.avgPrice);
    // The contract book is the spot book shifted by the perpetual's premium (mark.ts); 0.1 BTC fits its
    // best ask.
    const book = contractBook(marketFor(h.rt.seed), BTC, h.clock.now(), 1);
    expect(entry).toBe(BigInt(book.asks[0]!.price));
    expect(o).toMatchObject({ status: 'filled', filled: '0.1', cancelledVolume: '0', fills: 1 });
    // margin = 0.1 x entry / 10; fee = 0.05% of 0.1 x entry.
    const notional = entry / 10n;
    const margin = mulDiv(notional, 1n, 10n, 'ceil');
    const fee = mulDiv(notional, 5n, 10_000n, 'ceil');
    expect(parseAmount(o.fee)).toBe(fee);
    expect(await h.balance(acct.frozen(m.id, 'contract'))).toBe(margin);
    expect(await h.balance(acct.user(m.id, 'contract'))).toBe(units(10_000) - margin - fee);
    const [p] = await positionsOf(m);
    // Binance's isolated long (tier 1, MMR 0.4%, cum 0): P = (Q x EP - WB) / (Q x (1 - 0.004)).
    expect(parseAmount(p!.liquidationPrice!)).toBe(
      mulDiv(entry * 100_000n - margin * units(1), 10_000n, 100_000n * 9_960n, 'ceil'),
    );
    expect(p).toMatchObject({ side: 'long', marginMode: 'isolated', leverage: 10, volume: '0.1' });
    expect(p!.maintenanceRate).toBe('0.40');
    expect(p!.fundingPaid).toBe('0');
    expect(await h.invariants()).toEqual([]);
  });

  it('K3 a cross long is backed by the whole contract account: its liquidation price is further away', async () => {
    const { m } = await funded();
    // 0.3 BTC at the seed's ~121,000 is ~36,000 USDT of notional: inside tier 1 (up to 50,000).
    await m.call('/api/order/place', order('open_long', '0.3', { leverage: 10, marginMode: 'cross' }));
    const [p] = await positionsOf(m);
    const entry = parseAmount(p!.entryPrice);
    const margin = parseAmount(p!.margin);
    const free = units(10_000) - margin - mulDiv((entry * 3n) / 10n, 5n, 10_000n, 'ceil');
    // WB = free + margin (no other positions), tier 1: P = (Q x EP - WB) / (Q x 0.996).
    expect(parseAmount(p!.liquidationPrice!)).toBe(
      mulDiv(entry * 300_000n - (free + margin) * units(1), 10_000n, 300_000n * 9_960n, 'ceil'),
    );
  });

  it("K8 closing pays the PnL at the contract book's bid from or to the house and returns the margin", async () => {
    const { h, m } = await funded();
    const open = (
      await m.call('/api/order/place', order('open_long', '0.05', { leverage: 5, marginMode: 'isolated' }))
    ).data;
    await h.advance(3_600_000);
    const half = await m.call('/api/order/place', order('close_long', '0.02'));
    expect(half.code).toBe(0);
    const close = (await m.call('/api/order/place', order('close_long', '0.03'))).data;
    const pnl1 = signed(half.data.pnl!);
    const pnl2 = signed(close.pnl!);
    const entry = parseAmount(open.avgPrice);
    const exit = parseAmount(close.avgPrice);
    expect(exit).toBe(BigInt(contractBook(marketFor(h.rt.seed), BTC, h.clock.now(), 1).bids[0]!.price));
    const expected =
      exit >= entry
        ? mulDiv(exit - entry, 30_000n, units(1), 'floor')
        : -mulDiv(entry - exit, 30_000n, units(1), 'ceil');
    expect(pnl2).toBe(expected);
    const fees = parseAmount(open.fee) + parseAmount(half.data.fee) + parseAmount(close.fee);
    expect(await h.balance(acct.user(m.id, 'contract'))).toBe(units(10_000) + pnl1 + pnl2 - fees);
    expect(await h.balance(acct.frozen(m.id, 'contract'))).toBe(0n);
    expect(await positionsOf(m)).toEqual([]);
    expect((await m.call('/api/order/place', order('close_long', '0.01'))).code).toBe(404);
    expect(await h.invariants()).toEqual([]);
  });

  it('K5 isolated margin can be added and reduced, never below the initial margin; cross refuses', async () => {
    const { h, m } = await funded();
    await m.call('/api/order/place', order('open_short', '0.1', { leverage: 20, marginMode: 'isolated' }));
    const [p] = await positionsOf(m);
    const margin = parseAmount(p!.margin);
    expect((await m.call('/api/position/margin', { id: p!.id, amount: '100' })).code).toBe(0);
    expect(await h.balance(acct.frozen(m.id, 'contract'))).toBe(margin + units(100));
    const [after] = await positionsOf(m);
    expect(parseAmount(after!.liquidationPrice!)).toBeGreaterThan(parseAmount(p!.liquidationPrice!));
    expect((await m.call('/api/position/margin', { id: p!.id, amount: '-100' })).code).toBe(0);
    expect((await m.call('/api/position/margin', { id: p!.id, amount: '-0.000001' })).code).toBe(400);
    expect((await m.call('/api/position/margin', { id: p!.id, amount: '1000000' })).code).toBe(4011);
    expect((await m.call('/api/position/margin', { id: '999', amount: '1' })).code).toBe(404);
    const { m: cross } = await funded();
    await cross.call('/api/order/place', order('open_long', '0.01'));
    const [c] = await positionsOf(cross);
    expect((await cross.call('/api/position/margin', { id: c!.id, amount: '1' })).code).toBe(400);
  });

  it('K6 leverage and margin mode apply to all contracts and cannot change while a position is open (403)', async () => {
    const { m } = await funded();
    expect((await m.call('/api/position/settings', { leverage: 0 })).code).toBe(400);
    expect((await m.call('/api/position/settings', { leverage: 101 })).code).toBe(400);
    expect((await m.call('/api/position/settings', { leverage: 25, marginMode: 'isolated' })).data).toEqual({
      leverage: 25,
      marginMode: 'isolated',
    });
    await m.call('/api/order/place', order('open_long', '0.01'));
    const [p] = await positionsOf(m);
    expect(p).toMatchObject({ leverage: 25, marginMode: 'isolated' });
    expect((await m.call('/api/position/settings', { leverage: 50 })).code).toBe(403);
    expect(
      (await m.call('/api/order/place', order('open_short', '0.01', { marginMode: 'cross' }))).code,
    ).toBe(403);
    expect((await m.call('/api/position/settings', { leverage: 25 })).code).toBe(0);
    await m.call('/api/order/place', order('close_long', '0.01'));
    expect((await m.call('/api/position/settings', { leverage: 50 })).code).toBe(0);
    expect(
      (await m.call('/api/order/place', order('open_long', '0.01', { type: 'limit', price: '1' }))).code,
    ).toBe(400);
  });

  it('K7 a 100x isolated long is liquidated on settle once the mark reaches its liquidation price, losing its margin', async () => {
    const { h, m } = await funded('1000');
    const start = h.clock.now();
    await m.call('/api/order/place', order('open_long', '0.01', { leverage: 100, marginMode: 'isolated' }));
    const [p] = await positionsOf(m);
    const liq = parseAmount(p!.liquidationPrice!);
    const margin = parseAmount(p!.margin);
    await h.advance(DAY);
    const low = BigInt(extremesBetween(marketFor(h.rt.seed).get(BTC), start, start + DAY).low);
    expect(low).toBeLessThanOrEqual(liq);
    expect(await positionsOf(m)).toEqual([]);
    expect(await h.balance(acct.frozen(m.id, 'contract'))).toBe(0n);
    const fee = parseAmount((await m.call('/api/order/list')).data.list[0]!.fee);
    expect(await h.balance(acct.user(m.id, 'contract'))).toBe(units(1000) - margin - fee);
    expect(h.feed.some((f) => f.type === 'position')).toBe(true);
    expect(await h.invariants()).toEqual([]);
  });
});
