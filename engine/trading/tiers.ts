/**
 * Risk tiers (docs/RULES.md K10, docs/TRADING.md "Risk tiers"): maximum leverage and maintenance margin
 * rate by position notional, with the maintenance amount that makes the maintenance margin continuous
 * across tier edges. The default table is Binance's published USDⓈ-M BTCUSDT leverage and margin brackets
 * (binance.com/en/futures/trading-rules/perpetual/leverage-margin, BTCUSDT, as published 2023-2024).
 *
 *   maintenance margin = notional x MMR(tier) - maintenance amount(tier)
 *   maintenance amount(n) = floor(n) x (MMR(n) - MMR(n-1)) + maintenance amount(n-1), amount(1) = 0
 */
import { mulDiv, units, type Micro } from '../money';

export interface RiskTier {
  /** Upper bound of the tier's position notional in micro-USDT (inclusive). */
  maxNotional: Micro;
  /** Highest leverage a position of this notional may use. */
  maxLeverage: number;
  /** Maintenance margin rate in basis points of the notional. */
  mmrBps: number;
}

/** Binance USDⓈ-M BTCUSDT brackets: notional cap (USDT), maximum leverage, maintenance margin rate. */
export const BINANCE_BTCUSDT_TIERS: readonly RiskTier[] = [
  { maxNotional: units(50_000), maxLeverage: 125, mmrBps: 40 },
  { maxNotional: units(250_000), maxLeverage: 100, mmrBps: 50 },
  { maxNotional: units(3_000_000), maxLeverage: 50, mmrBps: 100 },
  { maxNotional: units(15_000_000), maxLeverage: 20, mmrBps: 250 },
  { maxNotional: units(30_000_000), maxLeverage: 10, mmrBps: 500 },
  { maxNotional: units(80_000_000), maxLeverage: 5, mmrBps: 1_000 },
  { maxNotional: units(100_000_000), maxLeverage: 4, mmrBps: 1_250 },
  { maxNotional: units(200_000_000), maxLeverage: 3, mmrBps: 1_500 },
  { maxNotional: units(300_000_000), maxLeverage: 2, mmrBps: 2_500 },
  { maxNotional: units(500_000_000), maxLeverage: 1, mmrBps: 5_000 },
];

export interface ResolvedTier extends RiskTier {
  /** Lower bound (exclusive; 0 for the first tier). */
  minNotional: Micro;
  /** Maintenance amount ("cum") in micro-USDT. */
  maintenanceAmount: Micro;
}

/** The table with each tier's floor and maintenance amount filled in. */
export function resolveTiers(tiers: readonly RiskTier[]): ResolvedTier[] {
  const out: ResolvedTier[] = [];
  let floor = 0n;
  let amount = 0n;
  let previousBps = 0;
  for (const [i, tier] of tiers.entries()) {
    if (i > 0) amount += mulDiv(floor, BigInt(tier.mmrBps - previousBps), 10_000n, 'floor');
    out.push({ ...tier, minNotional: floor, maintenanceAmount: amount });
    floor = tier.maxNotional;
    previousBps = tier.mmrBps;
  }
  return out;
}

/** The tier of a notional; null above the last tier (a position that size is refused). */
export function tierOf(tiers: readonly ResolvedTier[], notional: Micro): ResolvedTier | null {
  return tiers.find((t) => notional <= t.maxNotional) ?? null;
}

/** Maintenance margin of a position of `notional`: notional x MMR - maintenance amount, never negative. */
export function tieredMaintenance(tiers: readonly ResolvedTier[], notional: Micro): Micro {
  const tier = tierOf(tiers, notional) ?? tiers[tiers.length - 1];
  if (!tier) return 0n;
  const mm = mulDiv(notional, BigInt(tier.mmrBps), 10_000n, 'ceil') - tier.maintenanceAmount;
  return mm > 0n ? mm : 0n;
}
