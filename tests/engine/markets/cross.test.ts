/**
 * Cross margin at the account level (issue 24; docs/TRADING.md "Cross account"): the hedged example a
 * member met - 40 USDT, 100x cross, a 0.02 BTC long and a 0.02 BTC short - through the real engine.
 */
import { describe, expect, it } from 'vitest';
import type { CrossView, PositionView } from '../../../engine/contract';
import { parseAmount } from '../../../engine/money';
import { DAY, harness } from './harness';

describe('the cross account', () => {
  it('a flat hedged book shows one liquidation price far above the market, the account ratio once, and survives ten days', async () => {
    const h = await harness();
    const m = await h.member({ cash: '40' });
    expect((await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '40' })).code).toBe(
      0,
    );
    for (const side of ['open_long', 'open_short']) {
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
    const { list, cross } = (await m.call('/api/position/list')).data as {
      list: PositionView[];
      cross: CrossView;
    };
    expect(list).toHaveLength(2);
    const [a, b] = list;
    // Binance: same pair, both legs of a cross book share one price.
    expect(a!.liquidationPrice).toBe(b!.liquidationPrice);
    const liq = parseAmount(a!.liquidationPrice!);
    const mark = parseAmount(a!.markPrice);
    // The maintenance of 0.04 BTC (0.4%) meets ~38 USDT of equity only near 2.7x the mark.
    expect(liq).toBeGreaterThan(mark * 2n);
    // One ratio for the account: total maintenance / (wallet balance + total unrealised PnL).
    const mm = parseAmount(cross.maintenanceMargin);
    expect(mm).toBe(parseAmount(a!.maintenanceMargin) + parseAmount(b!.maintenanceMargin));
    const equity = parseAmount(cross.walletBalance) + signedAmount(cross.unrealisedPnl);
    expect(Number(cross.marginRatio)).toBeCloseTo((Number(mm) / Number(equity)) * 100, 1);
    expect(a!.marginRatio).toBe(cross.marginRatio);
    expect(b!.marginRatio).toBe(cross.marginRatio);
    await h.advance(10 * DAY);
    const after = (await m.call('/api/position/list')).data as { list: PositionView[] };
    expect(after.list.map((p) => p.side).sort()).toEqual(['long', 'short']);
    expect(await h.invariants()).toEqual([]);
  });
});

function signedAmount(s: string): bigint {
  return s.startsWith('-') ? -parseAmount(s.slice(1)) : parseAmount(s);
}
