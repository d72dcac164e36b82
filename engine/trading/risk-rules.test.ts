/**
 * Worked examples of the trading formulas, each against the exchange documentation it follows
 * (docs/TRADING.md names the pages). The numbers are computed by hand from the published formulas.
 */
import { describe, expect, it } from 'vitest';
import { MarketSim } from '../market/market';
import { findSymbol } from '../market/symbols';
import { units } from '../money';
import { bandEdge, walkBook } from './fills';
import { fundingAmount } from './funding';
import { tieredLiquidationPrice } from './margin';
import {
  contractBook,
  fundingRateFromPremium,
  indexPrice,
  lastPrice,
  markPrice,
  median3,
  premiumPpm,
  PREMIUM_LIMIT_PPM,
} from './mark';
import { defaultConfig, resolveConfig } from '../config';
import type { Ctx } from '../context';
import { EngineError } from '../errors';
import { checkTier } from './contracts';
import {
  BINANCE_BTCUSDT_TIERS,
  BINANCE_ETHUSDT_TIERS,
  resolveTiers,
  SMALL_CAP_TIERS,
  tieredMaintenance,
  tierOf,
  tiersFor,
} from './tiers';

const tiers = resolveTiers(BINANCE_BTCUSDT_TIERS);
const BTC = findSymbol('BTC')!;

describe('K10 risk tiers (Binance USDⓈ-M BTCUSDT leverage and margin brackets)', () => {
  it('K10 the maintenance amounts derived from the table are the ones Binance publishes', () => {
    // Binance: 0; 50; 1,300; 46,300; 421,300; 1,921,300; 3,921,300; 6,421,300; 26,421,300; 101,421,300.
    expect(tiers.map((t) => t.maintenanceAmount)).toEqual(
      [0, 50, 1_300, 46_300, 421_300, 1_921_300, 3_921_300, 6_421_300, 26_421_300, 101_421_300].map((n) =>
        units(n),
      ),
    );
  });

  it('K10 maintenance margin = notional x MMR - maintenance amount, continuous at the tier edges', () => {
    // 100,000 USDT is tier 2: 100,000 x 0.5% - 50 = 450.
    expect(tieredMaintenance(tiers, units(100_000))).toBe(units(450));
    // At 50,000 both tier 1 (50,000 x 0.4%) and tier 2 (50,000 x 0.5% - 50) give 200.
    expect(tieredMaintenance(tiers, units(50_000))).toBe(units(200));
    expect(tieredMaintenance(tiers, units(50_000) + 1n)).toBe(units(200) + 1n);
    // 1,000,000 USDT: tier 3, 1% - 1,300 = 8,700.
    expect(tieredMaintenance(tiers, units(1_000_000))).toBe(units(8_700));
  });

  it('K10 the tier of a notional caps its leverage: 125x to 50,000, 100x to 250,000, 50x to 3,000,000', () => {
    expect(tierOf(tiers, units(50_000))?.maxLeverage).toBe(125);
    expect(tierOf(tiers, units(50_001))?.maxLeverage).toBe(100);
    expect(tierOf(tiers, units(250_001))?.maxLeverage).toBe(50);
    expect(tierOf(tiers, units(500_000_001))).toBeNull();
  });
});

describe('K10 risk tier tables per pair (Binance USDⓈ-M leverage and margin brackets)', () => {
  it('K10 ETHUSDT and the smaller-cap (ETCUSDT) tables derive the maintenance amounts Binance publishes', () => {
    expect(resolveTiers(BINANCE_ETHUSDT_TIERS).map((t) => t.maintenanceAmount)).toEqual(
      [
        0, 50, 950, 11_450, 131_450, 381_450, 2_006_450, 9_506_450, 17_506_450, 27_506_450, 80_506_450,
        280_506_450,
      ].map((n) => units(n)),
    );
    expect(resolveTiers(SMALL_CAP_TIERS).map((t) => t.maintenanceAmount)).toEqual(
      [0, 5, 45, 545, 12_545, 112_545, 312_545, 562_545, 2_562_545, 10_062_545].map((n) => units(n)),
    );
  });

  it('K10 each pair resolves its own table: BTC and ETH their brackets, every other pair the smaller-cap one', () => {
    const config = defaultConfig.riskTiers;
    expect(tiersFor(config, 'BTC/USDT')).toEqual(resolveTiers(BINANCE_BTCUSDT_TIERS));
    expect(tiersFor(config, 'ETHUSDT')).toEqual(resolveTiers(BINANCE_ETHUSDT_TIERS));
    expect(tiersFor(config, 'SOL/USDT')).toEqual(resolveTiers(SMALL_CAP_TIERS));
    // 400,000 USDT: ETH tier 2 allows 100x, BTC tier 3 50x, the smaller-cap tier 4 25x.
    expect(tierOf(tiersFor(config, 'ETH/USDT'), units(400_000))?.maxLeverage).toBe(100);
    expect(tierOf(tiersFor(config, 'BTC/USDT'), units(400_000))?.maxLeverage).toBe(50);
    expect(tierOf(tiersFor(config, 'LTC/USDT'), units(400_000))?.maxLeverage).toBe(25);
  });

  it('K10 a 20,000 USDT position at 50x is fine on BTCUSDT (125x tier) but refused with 4035 on a smaller pair', () => {
    const ctx = { config: defaultConfig } as Ctx;
    expect(() => checkTier(ctx, 'BTC/USDT', units(20_000), 50)).not.toThrow();
    let error: unknown;
    try {
      checkTier(ctx, 'SOL/USDT', units(20_000), 50);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EngineError);
    // Smaller-cap tier 3 (10,000-50,000) allows 40x; 50x is allowed up to 10,000 USDT.
    expect(error).toMatchObject({ code: 4035, data: { maxLeverage: 40, maxNotional: '10000' } });
  });

  it('K10 overrides still work: a single table applies to every pair, a per-pair map replaces the defaults', () => {
    const single = resolveConfig({ riskTiers: BINANCE_BTCUSDT_TIERS });
    expect(() => checkTier({ config: single } as Ctx, 'SOL/USDT', units(20_000), 50)).not.toThrow();
    const map = resolveConfig({ riskTiers: { default: BINANCE_BTCUSDT_TIERS, BTCUSDT: SMALL_CAP_TIERS } });
    expect(() => checkTier({ config: map } as Ctx, 'SOL/USDT', units(20_000), 50)).not.toThrow();
    expect(() => checkTier({ config: map } as Ctx, 'BTC/USDT', units(20_000), 50)).toThrow(EngineError);
  });
});

describe('K2 liquidation price (Binance "How to Calculate Liquidation Price of USDⓈ-M Futures Contracts")', () => {
  it('K2 isolated long 1 BTC at 50,000 with 2,500 margin: (50,000 - 2,500) / (1 x 0.996) = 47,690.763053', () => {
    expect(tieredLiquidationPrice('long', units(1), units(50_000), units(2_500), tiers)).toBe(
      47_690_763_053n,
    );
  });

  it('K2 isolated short 1 BTC at 50,000 with 2,500 margin lands in tier 2 at its own notional: 52,288.557213', () => {
    // Tier 1 would give 52,500 / 1.004 = 52,290.84, a notional above 50,000: Binance's note says to use
    // the tier of the notional at the liquidation price, so (52,500 + 50) / 1.005 = 52,288.557213.
    expect(tieredLiquidationPrice('short', units(1), units(50_000), units(2_500), tiers)).toBe(
      52_288_557_213n,
    );
  });

  it('K2 isolated long 10 BTC at 60,000 with 20x (30,000 margin), tier 3: (600,000 - 30,000 - 1,300) / 9.9', () => {
    expect(tieredLiquidationPrice('long', units(10), units(60_000), units(30_000), tiers)).toBe(
      57_444_444_445n,
    );
  });

  it('K3 a long backed by more than its notional has no liquidation price', () => {
    expect(tieredLiquidationPrice('long', units(1), units(50_000), units(50_000), tiers)).toBeNull();
  });
});

describe('K12 funding rate (Binance "Introduction to Binance Futures Funding Rates")', () => {
  it('K12 F = P + clamp(I - P, -0.05%, 0.05%) with I = 0.01%: a premium between -0.04% and 0.06% pays 0.01%', () => {
    expect(fundingRateFromPremium(431)).toBe(100); // 0.0431% + (-0.0331%)
    expect(fundingRateFromPremium(-200)).toBe(100);
    expect(fundingRateFromPremium(800)).toBe(300); // 0.08% - 0.05%
    expect(fundingRateFromPremium(-1_000)).toBe(-500); // -0.1% + 0.05%
  });

  it('K12 the rate is capped at +-0.75%', () => {
    expect(fundingRateFromPremium(10_000)).toBe(7_500);
    expect(fundingRateFromPremium(-10_000)).toBe(-7_500);
  });

  it('K12 funding fee = position notional x rate: 20,000 USDT at 0.01% is 2 USDT, longs pay, shorts receive', () => {
    expect(fundingAmount('long', units(20_000), 100)).toBe(units(2));
    expect(fundingAmount('short', units(20_000), 100)).toBe(-units(2));
    expect(fundingAmount('short', units(20_000), -100)).toBe(units(2));
    // Rounding: the payer rounds up, the receiver down.
    expect(fundingAmount('long', 3n, 100)).toBe(1n);
    expect(fundingAmount('short', 3n, 100)).toBe(0n);
  });
});

describe('K11 mark price (Binance "Mark Price in USDⓈ-M Futures")', () => {
  const sim = new MarketSim(20261121);
  const t = Date.UTC(2026, 10, 21, 7, 31, 17);

  it('K11 median of three', () => {
    expect(median3(1n, 2n, 3n)).toBe(2n);
    expect(median3(3n, 1n, 2n)).toBe(2n);
    expect(median3(2n, 3n, 1n)).toBe(2n);
    expect(median3(5n, 5n, 1n)).toBe(5n);
  });

  it("K11 the mark lies between the index and last prices' components and the last is the index plus premium", () => {
    for (let i = 0; i < 50; i++) {
      const at = t + i * 997_013;
      const index = indexPrice(sim, BTC, at);
      const last = lastPrice(sim, BTC, at);
      const ppm = premiumPpm(sim, BTC, at);
      expect(Math.abs(ppm)).toBeLessThanOrEqual(PREMIUM_LIMIT_PPM);
      // last = index x (1 + premium), to the tick.
      const exact = (Number(index) * (1_000_000 + ppm)) / 1_000_000;
      expect(Math.abs(Number(last) - exact)).toBeLessThanOrEqual(BTC.tick);
      const mark = markPrice(sim, BTC, at);
      // Every component is within 2.75% of the index (premium <= 2%, funding <= 0.75%).
      expect(Number(mark - index)).toBeLessThanOrEqual(Number(index) * 0.0275);
      expect(Number(index - mark)).toBeLessThanOrEqual(Number(index) * 0.0275);
    }
  });

  it('K11 the contract book is the spot book shifted by the premium', () => {
    const spot = sim.book(BTC, t, 5);
    const perp = contractBook(sim, BTC, t, 5);
    expect(perp.asks).toHaveLength(5);
    expect(BigInt(perp.mid)).toBe(lastPrice(sim, BTC, t));
    expect(perp.asks.map((l) => l.qty)).toEqual(spot.asks.map((l) => l.qty));
  });
});

describe('S7 fills walk the book within the price band (Binance "percent price" protection)', () => {
  const book = {
    mid: 100_000_000,
    asks: [
      { price: 100_100_000, qty: 10_000 }, // 1 unit at 100.1
      { price: 103_000_000, qty: 20_000 }, // 2 units at 103
      { price: 106_000_000, qty: 50_000 }, // outside a 5% band
    ],
    bids: [{ price: 99_900_000, qty: 10_000 }],
  };

  it('S7 a buy takes levels up to the band and stops there; the rest is left for cancelling', () => {
    const walk = walkBook(book, 'buy', units(5), { limit: null, bandBps: 500 });
    expect(walk.fills).toEqual([
      { price: 100_100_000n, quantity: units(1) },
      { price: 103_000_000n, quantity: units(2) },
    ]);
    expect(walk.quantity).toBe(units(3));
    expect(walk.stop).toBe('band');
    expect(bandEdge('buy', 100_000_000n, 500)).toBe(105_000_000n);
    expect(bandEdge('sell', 100_000_000n, 500)).toBe(95_000_000n);
  });

  it('S7 a limit stops the walk first; a small order fills at the best level', () => {
    expect(walkBook(book, 'buy', units(5), { limit: 101_000_000n, bandBps: 500 }).stop).toBe('limit');
    const small = walkBook(book, 'buy', units(1) / 2n, { limit: null, bandBps: 500 });
    expect(small).toMatchObject({ quantity: units(1) / 2n, stop: 'filled' });
    expect(walkBook(book, 'sell', units(2), { limit: null, bandBps: 500 }).stop).toBe('book');
  });
});
