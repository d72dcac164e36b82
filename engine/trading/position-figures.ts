/**
 * A contract position's figures at a mark price (docs/RULES.md K2-K4, K10): unrealised PnL, maintenance
 * margin and its tier's rate, margin balance and ratio, liquidation price. One pure function for the engine
 * (/api/position/list, the liquidation watch, the contract account's valuation) and the device (the
 * replicated position rows plus the feed's mark prices, src/features/trade/PositionsPanel.tsx), so both
 * agree to the micro-unit. Imports only the money module, the margin arithmetic and the risk tiers, so it
 * stays small in the app.
 */
import { defaultConfig } from '../config';
import { formatAmount, mulDiv, type Micro } from '../money';
import { notional, tieredLiquidationPrice, unrealisedPnl } from './margin';
import type { MarginMode, PositionSide } from './tables';
import { tieredMaintenance, tierOf, tiersFor, type RiskTierConfig } from './tiers';

/** What the figures need of an open position, in micro-units (the stored row, or the replica's view parsed). */
export interface PositionAtMark {
  id: string;
  symbol: string;
  side: PositionSide;
  marginMode: MarginMode;
  /** Base quantity. */
  volume: Micro;
  entryPrice: Micro;
  /** Margin frozen for the position (micro-USDT). */
  margin: Micro;
}

export interface MarkFigures {
  mark: Micro;
  /** Maintenance margin at the mark, by the risk tier of the mark notional. */
  maintenance: Micro;
  /** Maintenance margin rate of that tier (basis points). */
  maintenanceBps: number;
  /** Signed unrealised PnL at the mark, rounded toward the member's disadvantage. */
  pnl: Micro;
  /** Margin balance: what backs the position plus its unrealised PnL. */
  balance: Micro;
  /** Null when no positive price liquidates the position. */
  liquidation: Micro | null;
}

/** The same figures as wire strings (the mark-dependent half of PositionView). */
export interface MarkFiguresView {
  markPrice: string;
  maintenanceMargin: string;
  unrealisedPnl: string;
  /** Maintenance margin / margin balance, percent with two decimals: liquidation at 100. */
  marginRatio: string;
  /** Maintenance margin rate of the position's risk tier, percent ("0.40"). */
  maintenanceRate: string;
  liquidationPrice: string | null;
}

/** Mark price of a pair (micro-USDT). */
export type MarkOf = (symbol: string) => Micro;

/** Maintenance margin of a position at `mark`, by the risk tier of its mark notional (K10). */
export function maintenanceAt(
  position: Pick<PositionAtMark, 'symbol' | 'volume'>,
  mark: Micro,
  tiers: RiskTierConfig = defaultConfig.riskTiers,
): Micro {
  return tieredMaintenance(tiersFor(tiers, position.symbol), notional(position.volume, mark));
}

/**
 * What backs a position: its margin (isolated), or the contract account's free balance, every open cross
 * margin and the other cross positions' unrealised PnL less their maintenance, at the mark (cross).
 */
export function backingAt(
  position: PositionAtMark,
  open: readonly PositionAtMark[],
  contractAvailable: Micro,
  markOf: MarkOf,
  tiers: RiskTierConfig = defaultConfig.riskTiers,
): Micro {
  if (position.marginMode === 'isolated') return position.margin;
  let backing = contractAvailable;
  for (const p of open) {
    if (p.marginMode !== 'cross') continue;
    backing += p.margin;
    if (p.id !== position.id) {
      const mark = markOf(p.symbol);
      backing += unrealisedPnl(p.side, p.volume, p.entryPrice, mark);
      backing -= maintenanceAt(p, mark, tiers);
    }
  }
  return backing;
}

/** Liquidation price of one open position given everything that backs it. */
export function liquidationAt(
  position: PositionAtMark,
  open: readonly PositionAtMark[],
  contractAvailable: Micro,
  markOf: MarkOf,
  tiers: RiskTierConfig = defaultConfig.riskTiers,
): Micro | null {
  return tieredLiquidationPrice(
    position.side,
    position.volume,
    position.entryPrice,
    backingAt(position, open, contractAvailable, markOf, tiers),
    tiersFor(tiers, position.symbol),
  );
}

/**
 * The figures of each of a member's open positions at the marks `markOf` answers. `open` is every open
 * position of the member (cross positions back each other); `contractAvailable` the contract account's free
 * USDT. Keyed by position id.
 */
export function positionsAtMark(
  open: readonly PositionAtMark[],
  contractAvailable: Micro,
  markOf: MarkOf,
  tiers: RiskTierConfig = defaultConfig.riskTiers,
): Map<string, MarkFigures> {
  const out = new Map<string, MarkFigures>();
  for (const p of open) {
    const mark = markOf(p.symbol);
    const pairTiers = tiersFor(tiers, p.symbol);
    const pnl = unrealisedPnl(p.side, p.volume, p.entryPrice, mark);
    const tier = tierOf(pairTiers, notional(p.volume, mark)) ?? pairTiers[pairTiers.length - 1];
    out.set(p.id, {
      mark,
      maintenance: maintenanceAt(p, mark, tiers),
      maintenanceBps: tier?.mmrBps ?? 0,
      pnl,
      balance: backingAt(p, open, contractAvailable, markOf, tiers) + pnl,
      liquidation: liquidationAt(p, open, contractAvailable, markOf, tiers),
    });
  }
  return out;
}

/** Unrealised PnL of open positions at the mark: what the contract account's valuation adds. */
export function unrealisedTotalAt(open: readonly PositionAtMark[], markOf: MarkOf): Micro {
  let total = 0n;
  for (const p of open) total += unrealisedPnl(p.side, p.volume, p.entryPrice, markOf(p.symbol));
  return total;
}

/** Basis points as a percent with two decimals: 40n -> "0.40". */
export function bpsPercent(bps: bigint): string {
  return `${bps / 100n}.${String(bps % 100n).padStart(2, '0')}`;
}

export function markFiguresView(f: MarkFigures): MarkFiguresView {
  return {
    markPrice: formatAmount(f.mark),
    maintenanceMargin: formatAmount(f.maintenance),
    unrealisedPnl: formatAmount(f.pnl),
    marginRatio: bpsPercent(f.balance > 0n ? mulDiv(f.maintenance, 10_000n, f.balance, 'ceil') : 10_000n),
    maintenanceRate: bpsPercent(BigInt(f.maintenanceBps)),
    liquidationPrice: f.liquidation === null ? null : formatAmount(f.liquidation),
  };
}
