/**
 * Contract arithmetic (docs/RULES.md K1-K4, docs/TRADING.md), all exact bigint: quantities in
 * micro-base-units, prices in micro-USDT, money in micro-USDT.
 *
 * - notional = quantity x price; initial margin = notional(entry) / leverage, rounded up.
 * - maintenance margin by risk tier (tiers.ts), at the mark.
 * - liquidation price: Binance's formula with tiers (tieredLiquidationPrice below).
 */
import { mulDiv, SCALE, type Micro } from '../money';
import type { PositionSide } from './tables';
import type { ResolvedTier } from './tiers';

export function notional(quantity: Micro, price: Micro): Micro {
  return mulDiv(quantity, price, SCALE, 'half-up');
}

export function initialMargin(quantity: Micro, entry: Micro, leverage: number): Micro {
  return mulDiv(quantity, entry, SCALE * BigInt(leverage), 'ceil');
}

/** Signed unrealised PnL at `mark`, rounded toward the member's disadvantage. */
export function unrealisedPnl(side: PositionSide, quantity: Micro, entry: Micro, mark: Micro): Micro {
  const diff = side === 'long' ? mark - entry : entry - mark;
  if (diff >= 0n) return mulDiv(diff, quantity, SCALE, 'floor');
  return -mulDiv(-diff, quantity, SCALE, 'ceil');
}

/** True when a mark at or beyond the liquidation price has been reached. */
export function breached(side: PositionSide, liq: Micro | null, low: Micro, high: Micro): boolean {
  if (liq === null) return false;
  return side === 'long' ? low <= liq : high >= liq;
}

/**
 * Binance's USDⓈ-M liquidation price (FAQ "How to Calculate Liquidation Price of USDⓈ-M Futures
 * Contracts", one-way mode) with risk tiers: the price P where backing + PnL(P) equals the maintenance
 * margin at P, Q x P x MMR - cum:
 *   long  P = (Q x EP - WB - cum) / (Q x (1 - MMR))   (rounded up: never later than the rule)
 *   short P = (Q x EP + WB + cum) / (Q x (1 + MMR))   (rounded down)
 * WB is the isolated margin, or for cross the account's wallet balance less the other positions'
 * maintenance plus their unrealised PnL (backingOf). The tier is the one of the notional at P itself, as
 * Binance's note asks; null when no positive price gets there.
 */
export function tieredLiquidationPrice(
  side: PositionSide,
  quantity: Micro,
  entry: Micro,
  backing: Micro,
  tiers: readonly ResolvedTier[],
): Micro | null {
  if (quantity <= 0n) return null;
  const at = (tier: ResolvedTier): Micro | null => {
    const cushion = (backing + tier.maintenanceAmount) * SCALE;
    const bps = BigInt(tier.mmrBps);
    if (side === 'long') {
      const num = quantity * entry - cushion;
      if (num <= 0n) return null;
      return mulDiv(num, 10_000n, quantity * (10_000n - bps), 'ceil');
    }
    const num = quantity * entry + cushion;
    if (num <= 0n) return 0n;
    return mulDiv(num, 10_000n, quantity * (10_000n + bps), 'floor');
  };
  const first = tiers[0];
  if (!first || at(first) === null) return null;
  for (const tier of tiers) {
    const price = at(tier);
    if (price === null) continue;
    const n = notional(quantity, price);
    if (n > tier.minNotional && n <= tier.maxNotional) return price;
  }
  // Rounding at a tier edge: fall back to the tier of the entry notional.
  const own = tiers.find((t) => notional(quantity, entry) <= t.maxNotional) ?? tiers[tiers.length - 1]!;
  return at(own);
}
