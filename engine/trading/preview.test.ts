import { describe, expect, it } from 'vitest';
import { units } from '../money';
import { previewOrder } from './preview';

const asks: [string, string][] = [
  ['100.1', '1'],
  ['103', '2'],
  ['106', '5'],
];
const bids: [string, string][] = [
  ['99.9', '1'],
  ['97', '2'],
];

describe('order preview (what the trade screen shows before placing)', () => {
  it('S7 estimates the average fill, slippage against the best level and fee per fill; the band leaves the rest', () => {
    const p = previewOrder({ symbol: 'BTC/USDT', market: 'spot', side: 'buy', volume: '5', asks, bids })!;
    // mid = (100.1 + 99.9) / 2 = 100; band edge 105: 1 at 100.1 and 2 at 103.
    expect(p.filled).toBe(units(3));
    expect(p.unfilled).toBe(units(2));
    expect(p.avgPrice).toBe(102_033_333n); // (100.1 + 206) / 3, half up
    expect(p.slippageBps).toBe(193); // (102.033333 - 100.1) / 100.1
    expect(p.fee).toBe(100_100n + 206_000n); // 0.1% of each fill
    expect(p.margin).toBeNull();
  });

  it('K1 K2 a contract preview has the margin and the tiered liquidation price of the fill', () => {
    const p = previewOrder({
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'buy',
      volume: '1',
      asks,
      bids,
      leverage: 10,
      marginMode: 'isolated',
    })!;
    expect(p.avgPrice).toBe(units(100) + 100_000n);
    expect(p.margin).toBe(10_010_000n);
    // (100.1 - 10.01) / 0.996 = 90.451807..., rounded up.
    expect(p.liquidationPrice).toBe(90_451_808n);
    expect(p.maxLeverage).toBe(125);
  });

  it('answers null for an empty or bad volume or an empty book', () => {
    expect(
      previewOrder({ symbol: 'BTC/USDT', market: 'spot', side: 'buy', volume: '', asks, bids }),
    ).toBeNull();
    expect(
      previewOrder({ symbol: 'BTC/USDT', market: 'spot', side: 'buy', volume: 'x', asks, bids }),
    ).toBeNull();
    expect(
      previewOrder({ symbol: 'BTC/USDT', market: 'spot', side: 'sell', volume: '1', asks, bids: [] }),
    ).toBeNull();
  });
});
