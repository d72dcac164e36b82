/**
 * Cross margin at the account level (issue 24; docs/TRADING.md "Cross account"): the hedged example a
 * member met - 40 USDT, 100x cross, a 0.02 BTC long and a 0.02 BTC short at ~87,000 - through the real
 * engine, with the cash scaled to the seed's price (~121,000 on 2026-11-21): 56 USDT.
 */
import { describe, expect, it } from 'vitest';

import { acct } from '../../../engine/ledger/accounts';

import { marketFor } from '../../../engine/market/instance';

import { findSymbol, formatPrice, formatVolume } from '../../../engine/market/symbols';

import { formatAmount, parseAmount } from '../../../engine/money';

import { contractBook, markPrice } from '../../../engine/trading/mark';

import { previewOrder } from '../../../engine/trading/preview';

import type { PositionAtMark } from '../../../engine/trading/position-figures';

import { DAY, harness, type Side } from './harness';

const BTC = findSymbol('BTC')!;

describe('the cross account', () => {
  it('a flat hedged book shows one liquidation price far above the market, the account ratio once, and survives ten days', async () => {
    const h = await harness();
    const m = await h.member({ cash: '56' });
    expect((await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '56' })).code).toBe(
      0,
    );
    for (const side of ['open_long', 'open_short'] as const) {
      const res = await m.call('/api/order/place', {
        symbol: 'BTC/USDT',
        market: 'contract',
        side,
        volume: '0.02',
        leverage: 100,
        marginMode: 'cross',
      });
      expect(res.code).toBe(0);
    }
    const { list, cross } = (await m.call('/api/position/list')).data;
    expect(list).toHaveLength(2);
    const [a, b] = list;
    // Binance: same pair, both legs of a cross book share one price.
    expect(a!.liquidationPrice).toBe(b!.liquidationPrice);
    const liq = parseAmount(a!.liquidationPrice!);
    const mark = parseAmount(a!.markPrice);
    // The maintenance of 0.04 BTC (0.4%) meets ~53.6 USDT of equity only near 2.7x the mark.
    expect(liq).toBeGreaterThan(mark * 2n);
    // One ratio for the account: total maintenance / (wallet balance + total unrealised PnL).
    const mm = parseAmount(cross.maintenanceMargin);
    expect(mm).toBe(parseAmount(a!.maintenanceMargin) + parseAmount(b!.maintenanceMargin));
    const equity = parseAmount(cross.walletBalance) + signedAmount(cross.unrealisedPnl);
    expect(Number(cross.marginRatio)).toBeCloseTo((Number(mm) / Number(equity)) * 100, 1);
    expect(a!.marginRatio).toBe(cross.marginRatio);
    expect(b!.marginRatio).toBe(cross.marginRatio);
    await h.advance(10 * DAY);
    const after = (await m.call('/api/position/list')).data;
    expect(after.list.map((p) => p.side).sort()).toEqual(['long', 'short']);
    expect(await h.invariants()).toEqual([]);
  });
});

describe('the contract order preview', () => {
  it('shows a cross order the liquidation price the positions list shows once it is placed (a hedged book)', async () => {
    const h = await harness();
    const m = await h.member({ cash: '200' });
    await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '200' });
    const place = (side: Side, volume: string) =>
      m.call('/api/order/place', {
        symbol: 'BTC/USDT',
        market: 'contract',
        side,
        volume,
        leverage: 100,
        marginMode: 'cross',
      });
    expect((await place('open_long', '0.03')).code).toBe(0);
    const sim = marketFor(h.rt.seed);
    const list = async () => (await m.call('/api/position/list')).data.list;
    /** What the trade screen previews for `volume` on `side`, from the device's view of the account. */
    const preview = async (side: 'buy' | 'sell', volume: string) => {
      const t = h.clock.now();
      // The contract book at this instant (what the order will walk) and the marks the list values at.
      const book = contractBook(sim, BTC, t, 100);
      // The member's open positions in micro-units, as the device reads its replica (positionAtMark).
      const open: PositionAtMark[] = (await list()).map((p) => ({
        id: p.id,
        symbol: p.symbol,
        side: p.side === 'long' ? 'long' : 'short',
        marginMode: p.marginMode === 'isolated' ? 'isolated' : 'cross',
        volume: parseAmount(p.volume),
        entryPrice: parseAmount(p.entryPrice),
        margin: parseAmount(p.margin),
      }));
      return previewOrder({
        symbol: 'BTC/USDT',
        market: 'contract',
        side,
        volume,
        asks: book.asks.map((l) => [formatPrice(l.price), formatVolume(l.qty)] as const),
        bids: book.bids.map((l) => [formatPrice(l.price), formatVolume(l.qty)] as const),
        leverage: 100,
        marginMode: 'cross',
        account: {
          open,
          available: await h.balance(acct.user(m.id, 'contract')),
          markOf: (symbol) => markPrice(sim, findSymbol(symbol)!, t),
        },
      })!;
    };
    // A short of 0.02 against the 0.03 long: the account's liquidation price, not the single position's.
    const hedge = await preview('sell', '0.02');
    const alone = previewOrder({
      ...{ symbol: 'BTC/USDT', market: 'contract', side: 'sell', volume: '0.02', leverage: 100 },
      asks: [],
      bids: contractBook(sim, BTC, h.clock.now(), 100).bids.map(
        (l) => [formatPrice(l.price), formatVolume(l.qty)] as const,
      ),
      marginMode: 'cross',
      available: formatAmount(await h.balance(acct.user(m.id, 'contract'))),
    })!;
    expect(hedge.liquidationPrice).not.toBe(alone.liquidationPrice);
    expect((await place('open_short', '0.02')).code).toBe(0);
    const after = await list();
    expect(after).toHaveLength(2);
    for (const p of after) expect(p.liquidationPrice).toBe(formatAmount(hedge.liquidationPrice!));
    // Adding to the open long merges into it, as the engine merges: the preview agrees again.
    const more = await preview('buy', '0.01');
    expect((await place('open_long', '0.01')).code).toBe(0);
    const merged = await list();
    expect(merged.find((p) => p.side === 'long')!.volume).toBe('0.04');
    for (const p of merged) expect(p.liquidationPrice).toBe(formatAmount(more.liquidationPrice!));
  });
});

function signedAmount(s: string): bigint {
  return s.startsWith('-') ? -parseAmount(s.slice(1)) : parseAmount(s);
}
