/**
 * Risk tiers (docs/RULES.md K10, docs/TRADING.md "Risk tiers"): maximum leverage and maintenance margin
 * rate by position notional, with the maintenance amount that makes the maintenance margin continuous
 * across tier edges. One table per contract pair: BTCUSDT and ETHUSDT are Binance's published USDⓈ-M
 * leverage and margin brackets (binance.com/en/futures/trading-rules/perpetual/leverage-margin); every other
 * pair uses a smaller-cap table, Binance's ETCUSDT brackets (a mid-cap perpetual).
 *
 *   maintenance margin = notional x MMR(tier) - maintenance amount(tier)
 *   maintenance amount(n) = floor(n) x (MMR(n) - MMR(n-1)) + maintenance amount(n-1), amount(1) = 0
 */
import { findSymbol } from '../market/symbols';
import { mulDiv, units, type Micro } from '../money';

export interface RiskTier {
  /** Upper bound of the tier's position notional in micro-USDT (inclusive). */
  maxNotional: Micro;
  /** Highest leverage a position of this notional may use. */
  maxLeverage: number;
  /** Maintenance margin rate in basis points of the notional. */
  mmrBps: number;
}

/** Binance USDⓈ-M BTCUSDT brackets (as published 2023-2024): notional cap (USDT), maximum leverage, maintenance margin rate. */
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

/**
 * Binance USDⓈ-M ETHUSDT brackets, as GET /fapi/v1/leverageBracket answered in 2024 (the snapshot kept in
 * freqtrade's binance_leverage_tiers.json). Published maintenance amounts: 0; 50; 950; 11,450; 131,450;
 * 381,450; 2,006,450; 9,506,450; 17,506,450; 27,506,450; 80,506,450; 280,506,450.
 */
export const BINANCE_ETHUSDT_TIERS: readonly RiskTier[] = [
  { maxNotional: units(50_000), maxLeverage: 125, mmrBps: 40 },
  { maxNotional: units(600_000), maxLeverage: 100, mmrBps: 50 },
  { maxNotional: units(3_000_000), maxLeverage: 75, mmrBps: 65 },
  { maxNotional: units(12_000_000), maxLeverage: 50, mmrBps: 100 },
  { maxNotional: units(50_000_000), maxLeverage: 25, mmrBps: 200 },
  { maxNotional: units(65_000_000), maxLeverage: 20, mmrBps: 250 },
  { maxNotional: units(150_000_000), maxLeverage: 10, mmrBps: 500 },
  { maxNotional: units(320_000_000), maxLeverage: 5, mmrBps: 1_000 },
  { maxNotional: units(400_000_000), maxLeverage: 4, mmrBps: 1_250 },
  { maxNotional: units(530_000_000), maxLeverage: 3, mmrBps: 1_500 },
  { maxNotional: units(800_000_000), maxLeverage: 2, mmrBps: 2_500 },
  { maxNotional: units(1_200_000_000), maxLeverage: 1, mmrBps: 5_000 },
];

/**
 * The smaller-cap table for every other pair: Binance USDⓈ-M ETCUSDT brackets from the same 2024 snapshot
 * (75x only to 5,000 USDT, 25x from 50,000). Published maintenance amounts: 0; 5; 45; 545; 12,545;
 * 112,545; 312,545; 562,545; 2,562,545; 10,062,545.
 */
export const SMALL_CAP_TIERS: readonly RiskTier[] = [
  { maxNotional: units(5_000), maxLeverage: 75, mmrBps: 50 },
  { maxNotional: units(10_000), maxLeverage: 50, mmrBps: 60 },
  { maxNotional: units(50_000), maxLeverage: 40, mmrBps: 100 },
  { maxNotional: units(400_000), maxLeverage: 25, mmrBps: 200 },
  { maxNotional: units(2_000_000), maxLeverage: 10, mmrBps: 500 },
  { maxNotional: units(8_000_000), maxLeverage: 5, mmrBps: 1_000 },
  { maxNotional: units(10_000_000), maxLeverage: 4, mmrBps: 1_250 },
  { maxNotional: units(20_000_000), maxLeverage: 3, mmrBps: 1_500 },
  { maxNotional: units(30_000_000), maxLeverage: 2, mmrBps: 2_500 },
  { maxNotional: units(50_000_000), maxLeverage: 1, mmrBps: 5_000 },
];

/**
 * Risk tier tables by contract pair ("BTCUSDT"), with `default` for every pair not listed. config.riskTiers
 * is one of these, or (as before per-pair tables) a single table that every pair uses.
 */
export interface RiskTierTables {
  readonly default: readonly RiskTier[];
  readonly [pair: string]: readonly RiskTier[];
}

export type RiskTierConfig = RiskTierTables | readonly RiskTier[];

export const DEFAULT_RISK_TIERS: RiskTierTables = {
  BTCUSDT: BINANCE_BTCUSDT_TIERS,
  ETHUSDT: BINANCE_ETHUSDT_TIERS,
  default: SMALL_CAP_TIERS,
};

/** "BTC/USDT", "btcusdt" or "BTC" -> "BTCUSDT", the key of the pair's table. */
export function pairKey(symbol: string): string {
  const spec = findSymbol(symbol);
  return spec ? `${spec.base}USDT` : symbol.replace('/', '').trim().toUpperCase();
}

/** The table a pair uses: a single table for every pair, else the pair's own, else `default`. */
export function tableFor(config: RiskTierConfig, symbol: string): readonly RiskTier[] {
  if (isSingleTable(config)) return config;
  return config[pairKey(symbol)] ?? config.default;
}

function isSingleTable(config: RiskTierConfig): config is readonly RiskTier[] {
  return Array.isArray(config);
}

const resolved = new WeakMap<readonly RiskTier[], ResolvedTier[]>();

/** The resolved tiers of a pair's table (cached per table: the watch asks every second). */
export function tiersFor(config: RiskTierConfig, symbol: string): readonly ResolvedTier[] {
  const table = tableFor(config, symbol);
  let out = resolved.get(table);
  if (!out) {
    out = resolveTiers(table);
    resolved.set(table, out);
  }
  return out;
}

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
