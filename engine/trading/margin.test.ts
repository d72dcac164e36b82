import { describe, expect, it } from 'vitest';
import { units } from '../money';
import { breached, initialMargin, notional, unrealisedPnl } from './margin';

const BTC = (n: number) => BigInt(Math.round(n * 1e6));

describe('contract margin arithmetic (worked examples)', () => {
  it('K1 0.1 BTC at 100,000 is 10,000 of notional; at 10x its initial margin is 1,000', () => {
    const q = BTC(0.1);
    const entry = units(100_000);
    expect(notional(q, entry)).toBe(units(10_000));
    expect(initialMargin(q, entry, 10)).toBe(units(1_000));
    // 1 ETH at 3,000 with 100x: 30; rounding up.
    expect(initialMargin(units(1), units(3_000), 100)).toBe(units(30));
    expect(initialMargin(1n, 1n, 100)).toBe(1n);
  });

  it('K4 unrealised PnL is signed and rounds against the member; breach compares the window extremes', () => {
    expect(unrealisedPnl('long', BTC(0.1), units(100_000), units(101_000))).toBe(units(100));
    expect(unrealisedPnl('short', BTC(0.1), units(100_000), units(101_000))).toBe(-units(100));
    expect(unrealisedPnl('long', 3n, units(1), units(1) - 1n)).toBe(-1n);
    expect(breached('long', units(90_500), units(90_500), units(99_000))).toBe(true);
    expect(breached('long', units(90_500), units(90_500) + 1n, units(99_000))).toBe(false);
    expect(breached('short', units(109_500), units(100_000), units(109_500))).toBe(true);
    expect(breached('long', null, 1n, 2n)).toBe(false);
  });
});
