import { describe, expect, it } from 'vitest';
import { units } from '../money';
import {
  breached,
  initialMargin,
  liquidationPrice,
  maintenanceMargin,
  notional,
  unrealisedPnl,
} from './margin';

const BTC = (n: number) => BigInt(Math.round(n * 1e6));

describe('contract margin arithmetic (worked examples)', () => {
  it('K2 isolated long: 0.1 BTC at 100,000 with 10x and 0.5% maintenance liquidates at 90,500', () => {
    // notional 10,000; margin 10,000 / 10 = 1,000; maintenance 10,000 x 0.5% = 50;
    // 1,000 + (P - 100,000) x 0.1 = 50  =>  P = 100,000 - 950 / 0.1 = 90,500.
    const q = BTC(0.1);
    const entry = units(100_000);
    expect(notional(q, entry)).toBe(units(10_000));
    const margin = initialMargin(q, entry, 10);
    expect(margin).toBe(units(1_000));
    const maintenance = maintenanceMargin(q, entry, 50);
    expect(maintenance).toBe(units(50));
    expect(liquidationPrice('long', q, entry, margin, maintenance)).toBe(units(90_500));
  });

  it('K2 isolated short: the same position short liquidates at 109,500', () => {
    const q = BTC(0.1);
    const entry = units(100_000);
    expect(liquidationPrice('short', q, entry, units(1_000), units(50))).toBe(units(109_500));
  });

  it('K2 100x long: 1 ETH at 3,000 has 30 margin, 15 maintenance and liquidates at 2,985 (-0.5%)', () => {
    const q = units(1);
    const entry = units(3_000);
    const margin = initialMargin(q, entry, 100);
    expect(margin).toBe(units(30));
    expect(liquidationPrice('long', q, entry, margin, maintenanceMargin(q, entry, 50))).toBe(units(2_985));
  });

  it('K3 cross long: 500 free in the account behind a 1,000-margin 0.1 BTC long moves liquidation to 85,500', () => {
    // Backing = free 500 + margin 1,000 = 1,500; (1,500 - 50) / 0.1 = 14,500 below the entry.
    expect(liquidationPrice('long', BTC(0.1), units(100_000), units(1_500), units(50))).toBe(units(85_500));
  });

  it('K3 a long backed by more than its notional has no liquidation price', () => {
    expect(liquidationPrice('long', BTC(0.1), units(100_000), units(20_000), units(50))).toBeNull();
    expect(liquidationPrice('long', BTC(0.1), units(100_000), units(10_000), units(50))).toBe(units(500));
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
