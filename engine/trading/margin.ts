/**
 * Contract arithmetic (docs/RULES.md K2-K4), all exact bigint: quantities in micro-base-units, prices in
 * micro-USDT, money in micro-USDT.
 *
 * - notional = quantity x price; initial margin = notional(entry) / leverage, rounded up.
 * - maintenance margin = notional(entry) x maintenanceMarginBps / 10,000, rounded up (on the entry notional,
 *   so a position's liquidation price is fixed while nothing about it changes).
 * - isolated: liquidated when margin + unrealised PnL <= maintenance; solving for the price gives
 *   long  P_liq = entry - (margin - maintenance) / quantity   (rounded up: never later than the rule)
 *   short P_liq = entry + (margin - maintenance) / quantity   (rounded down)
 * - cross: the same with margin replaced by everything backing the position: the account's free balance,
 *   all cross margins, and the other cross positions' unrealised PnL at the current mark.
 */
import { mulDiv, SCALE as UNIT, type Micro } from '../money';
import type { PositionSide } from './tables';

export function notional(quantity: Micro, price: Micro): Micro {
  return mulDiv(quantity, price, UNIT, 'half-up');
}

export function initialMargin(quantity: Micro, entry: Micro, leverage: number): Micro {
  return mulDiv(quantity, entry, UNIT * BigInt(leverage), 'ceil');
}

export function maintenanceMargin(quantity: Micro, entry: Micro, bps: number): Micro {
  return mulDiv(quantity, entry * BigInt(bps), UNIT * 10_000n, 'ceil');
}

/** Signed unrealised PnL at `mark`, rounded toward the member's disadvantage. */
export function unrealisedPnl(side: PositionSide, quantity: Micro, entry: Micro, mark: Micro): Micro {
  const diff = side === 'long' ? mark - entry : entry - mark;
  if (diff >= 0n) return mulDiv(diff, quantity, UNIT, 'floor');
  return -mulDiv(-diff, quantity, UNIT, 'ceil');
}

/**
 * The mark price at which `backing` (margin, or for cross everything behind the position) minus the
 * maintenance margin is used up. Null when no positive price gets there (a fully collateralised long).
 */
export function liquidationPrice(
  side: PositionSide,
  quantity: Micro,
  entry: Micro,
  backing: Micro,
  maintenance: Micro,
): Micro | null {
  const cushion = backing - maintenance;
  if (side === 'long') {
    const drop =
      cushion >= 0n ? mulDiv(cushion, UNIT, quantity, 'floor') : -mulDiv(-cushion, UNIT, quantity, 'ceil');
    const price = entry - drop;
    return price > 0n ? price : null;
  }
  const rise =
    cushion >= 0n ? mulDiv(cushion, UNIT, quantity, 'floor') : -mulDiv(-cushion, UNIT, quantity, 'ceil');
  return entry + rise;
}

/** True when a mark at or beyond the liquidation price has been reached. */
export function breached(side: PositionSide, liq: Micro | null, low: Micro, high: Micro): boolean {
  if (liq === null) return false;
  return side === 'long' ? low <= liq : high >= liq;
}
