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

/** One position of a pair in a liquidation: its side, size, entry and its pair's resolved risk tiers. */
export interface Leg {
  side: PositionSide;
  quantity: Micro;
  entry: Micro;
  tiers: readonly ResolvedTier[];
}

/**
 * The prices of one pair at which an account's margin balance meets its maintenance margin, with every
 * other figure held: `below` where it is reached from above as the price falls (a net long's), `above`
 * where it is reached as the price rises (a short's, or a hedged book's whose maintenance grows with the
 * price). Null where no positive price gets there.
 */
export interface LiquidationBand {
  below: Micro | null;
  above: Micro | null;
}

/** The tier of `quantity` at `price` by its exact notional; past the last bracket, the last tier (K10). */
export function tierAtPrice(
  tiers: readonly ResolvedTier[],
  quantity: Micro,
  price: Micro,
): ResolvedTier | null {
  const scaled = quantity * price;
  return tiers.find((t) => scaled <= t.maxNotional * SCALE) ?? tiers[tiers.length - 1] ?? null;
}

/**
 * Binance's liquidation price with risk tiers (FAQ "How to Calculate Liquidation Price of USDⓈ-M Futures
 * Contracts", cross and isolated, one-way and hedge mode), for every position of one pair together:
 *
 *   WB - TMM1 + UPNL1 + sum side_i x Q_i x (P - EP_i) = sum (Q_i x P x MMR_i - cum_i)
 *   P = (WB - TMM1 + UPNL1 + cumB + cumL + cumS - side x QB x EPB - QL x EPL + QS x EPS)
 *       / (QB x MMR_B + QL x MMR_L + QS x MMR_S - side x QB - QL + QS)
 *
 * `backing` is WB - TMM1 + UPNL1 (isolated: the position's margin, the others' terms 0; cross: the cross
 * wallet balance with the other pairs' maintenance and unrealised PnL at their marks). Each leg's MMR and
 * cum are those of its notional at P (Binance's note), so the equation is solved on every price interval
 * where the legs' tiers are fixed and a root is kept only inside its interval; past the last bracket the
 * last tier holds, in this as in the maintenance margin. Margin balance less maintenance is concave in P
 * (maintenance rates grow with the notional), so there is at most one root each way. Rounded against the
 * member: `below` up, `above` down.
 */
export function liquidationBand(legs: readonly Leg[], backing: Micro): LiquidationBand {
  const live = legs.filter((l) => l.quantity > 0n && l.tiers.length > 0);
  if (live.length === 0) return { below: null, above: null };
  const edges = new Set<bigint>([0n]);
  for (const l of live) {
    for (const t of l.tiers.slice(0, -1)) edges.add((t.maxNotional * SCALE) / l.quantity);
  }
  const points = [...edges].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let below: Micro | null = null;
  let above: Micro | null = null;
  for (const [j, lo] of points.entries()) {
    const hi = points[j + 1] ?? null;
    // The legs' tiers on (lo, hi]: those at hi (floored edges sit in the lower tier), past the last edge the last tier.
    let a = 10_000n * SCALE * backing;
    let slope = 0n;
    for (const l of live) {
      const tier = hi === null ? l.tiers[l.tiers.length - 1]! : tierAtPrice(l.tiers, l.quantity, hi)!;
      const sign = l.side === 'long' ? 1n : -1n;
      a += 10_000n * SCALE * tier.maintenanceAmount - 10_000n * sign * l.quantity * l.entry;
      slope += l.quantity * (10_000n * sign - BigInt(tier.mmrBps));
    }
    // Margin balance less maintenance, times SCALE x 10,000, is a + slope x P on this interval.
    if (slope > 0n && a < 0n) {
      const root = mulDiv(-a, 1n, slope, 'ceil');
      if (root >= lo && (hi === null || root <= hi + 1n) && (below === null || root > below)) below = root;
    } else if (slope < 0n && a > 0n) {
      const root = mulDiv(a, 1n, -slope, 'floor');
      if (root > 0n && root + 1n >= lo && (hi === null || root <= hi) && (above === null || root < above)) {
        above = root;
      }
    }
  }
  return { below, above };
}

/** True when a mark range [low, high] reaches either edge of a band. */
export function bandBreached(band: LiquidationBand, low: Micro, high: Micro): boolean {
  return (band.below !== null && low <= band.below) || (band.above !== null && high >= band.above);
}

/**
 * The one liquidation price shown for the positions of a pair: the edge of the band the account moves
 * towards as the price moves against it at `mark` (below for a net long, above for a short or a hedged
 * book; Binance shows one price for both legs of a cross pair), else the band's other edge.
 */
export function shownLiquidation(band: LiquidationBand, legs: readonly Leg[], mark: Micro): Micro | null {
  if (band.below === null || band.above === null) return band.below ?? band.above;
  let slope = 0n;
  for (const l of legs) {
    const tier = tierAtPrice(l.tiers, l.quantity, mark);
    const sign = l.side === 'long' ? 1n : -1n;
    slope += l.quantity * (10_000n * sign - BigInt(tier?.mmrBps ?? 0));
  }
  return slope > 0n ? band.below : band.above;
}

/**
 * The liquidation price of a single position (isolated, or the only cross position of an account) with
 * `backing` behind it:
 *   long  P = (Q x EP - WB - cum) / (Q x (1 - MMR))   (rounded up: never later than the rule)
 *   short P = (Q x EP + WB + cum) / (Q x (1 + MMR))   (rounded down)
 * with the tier of the notional at P itself. Null when no positive price gets there.
 */
export function tieredLiquidationPrice(
  side: PositionSide,
  quantity: Micro,
  entry: Micro,
  backing: Micro,
  tiers: readonly ResolvedTier[],
): Micro | null {
  const band = liquidationBand([{ side, quantity, entry, tiers }], backing);
  return side === 'long' ? (band.below ?? band.above) : (band.above ?? band.below);
}
