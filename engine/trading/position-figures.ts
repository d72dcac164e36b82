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
import {
  liquidationBand,
  notional,
  shownLiquidation,
  unrealisedPnl,
  type Leg,
  type LiquidationBand,
} from './margin';
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
  /** Margin balance: isolated, the margin plus its unrealised PnL; cross, the cross account's. */
  balance: Micro;
  /** Margin ratio in basis points: isolated, its maintenance / balance; cross, the cross account's. */
  ratioBps: Micro;
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

/** The cross account at the marks (Binance "Margin Ratio" of a cross-margin account). */
export interface CrossFigures {
  /** Cross wallet balance: the contract account's free USDT and every cross position's margin. */
  walletBalance: Micro;
  /** Unrealised PnL of every cross position at its mark. */
  pnl: Micro;
  /** Maintenance margin of every cross position at its mark. */
  maintenance: Micro;
  /** Margin balance: wallet balance + unrealised PnL. */
  equity: Micro;
}

/** The cross account as wire strings, beside the positions in /api/position/list. */
export interface CrossView {
  walletBalance: string;
  unrealisedPnl: string;
  maintenanceMargin: string;
  /** Total maintenance margin / (wallet balance + total unrealised PnL), percent: liquidation at 100. */
  marginRatio: string;
}

/** The cross account's wallet balance, unrealised PnL and maintenance margin at the marks. */
export function crossAt(
  open: readonly PositionAtMark[],
  contractAvailable: Micro,
  markOf: MarkOf,
  tiers: RiskTierConfig = defaultConfig.riskTiers,
): CrossFigures {
  let walletBalance = contractAvailable;
  let pnl = 0n;
  let maintenance = 0n;
  for (const p of open) {
    if (p.marginMode !== 'cross') continue;
    const mark = markOf(p.symbol);
    walletBalance += p.margin;
    pnl += unrealisedPnl(p.side, p.volume, p.entryPrice, mark);
    maintenance += maintenanceAt(p, mark, tiers);
  }
  return { walletBalance, pnl, maintenance, equity: walletBalance + pnl };
}

/** Maintenance / margin balance in basis points (rounded up); 100% once the balance is gone. */
export function ratioBps(maintenance: Micro, balance: Micro): Micro {
  if (maintenance === 0n) return 0n;
  return balance > 0n ? mulDiv(maintenance, 10_000n, balance, 'ceil') : 10_000n;
}

export function crossView(c: CrossFigures): CrossView {
  return {
    walletBalance: formatAmount(c.walletBalance),
    unrealisedPnl: formatAmount(c.pnl),
    maintenanceMargin: formatAmount(c.maintenance),
    marginRatio: bpsPercent(ratioBps(c.maintenance, c.equity)),
  };
}

function legOf(p: PositionAtMark, tiers: RiskTierConfig): Leg {
  return { side: p.side, quantity: p.volume, entry: p.entryPrice, tiers: tiersFor(tiers, p.symbol) };
}

/**
 * What the positions of `position`'s pair liquidate at, with the legs that share it: an isolated position
 * alone on its margin; cross, every cross position of the pair (a hedged long and short together) on the
 * cross wallet balance with the other pairs' unrealised PnL less their maintenance at their marks
 * (Binance's WB - TMM1 + UPNL1).
 */
export function bandOf(
  position: PositionAtMark,
  open: readonly PositionAtMark[],
  contractAvailable: Micro,
  markOf: MarkOf,
  tiers: RiskTierConfig = defaultConfig.riskTiers,
): { band: LiquidationBand; legs: Leg[] } {
  if (position.marginMode === 'isolated') {
    const legs = [legOf(position, tiers)];
    return { band: liquidationBand(legs, position.margin), legs };
  }
  let backing = contractAvailable;
  const legs: Leg[] = [];
  for (const p of open) {
    if (p.marginMode !== 'cross') continue;
    backing += p.margin;
    if (p.symbol === position.symbol) {
      legs.push(legOf(p, tiers));
    } else {
      const mark = markOf(p.symbol);
      backing += unrealisedPnl(p.side, p.volume, p.entryPrice, mark) - maintenanceAt(p, mark, tiers);
    }
  }
  return { band: liquidationBand(legs, backing), legs };
}

/** Liquidation price of one open position given everything that backs it (one price per cross pair). */
export function liquidationAt(
  position: PositionAtMark,
  open: readonly PositionAtMark[],
  contractAvailable: Micro,
  markOf: MarkOf,
  tiers: RiskTierConfig = defaultConfig.riskTiers,
): Micro | null {
  const { band, legs } = bandOf(position, open, contractAvailable, markOf, tiers);
  return shownLiquidation(band, legs, markOf(position.symbol));
}

/**
 * The figures of each of a member's open positions at the marks `markOf` answers. `open` is every open
 * position of the member (cross positions back each other); `contractAvailable` the contract account's free
 * USDT. Keyed by position id. A cross position's margin balance and ratio are the cross account's.
 */
export function positionsAtMark(
  open: readonly PositionAtMark[],
  contractAvailable: Micro,
  markOf: MarkOf,
  tiers: RiskTierConfig = defaultConfig.riskTiers,
): Map<string, MarkFigures> {
  const out = new Map<string, MarkFigures>();
  const cross = crossAt(open, contractAvailable, markOf, tiers);
  for (const p of open) {
    const mark = markOf(p.symbol);
    const pairTiers = tiersFor(tiers, p.symbol);
    const pnl = unrealisedPnl(p.side, p.volume, p.entryPrice, mark);
    const tier = tierOf(pairTiers, notional(p.volume, mark)) ?? pairTiers[pairTiers.length - 1];
    const maintenance = maintenanceAt(p, mark, tiers);
    const isolated = p.marginMode === 'isolated';
    const balance = isolated ? p.margin + pnl : cross.equity;
    out.set(p.id, {
      mark,
      maintenance,
      maintenanceBps: tier?.mmrBps ?? 0,
      pnl,
      balance,
      ratioBps: isolated ? ratioBps(maintenance, balance) : ratioBps(cross.maintenance, cross.equity),
      liquidation: liquidationAt(p, open, contractAvailable, markOf, tiers),
    });
  }
  return out;
}

/**
 * What is left above the maintenance margin: `backing` (an isolated margin, or the cross wallet balance) +
 * the positions' unrealised PnL - their maintenance, at the marks. The position (isolated) or the cross
 * account is liquidated when it is at or below zero (margin ratio 100%).
 */
export function cushionAt(
  positions: readonly PositionAtMark[],
  backing: Micro,
  markOf: MarkOf,
  tiers: RiskTierConfig = defaultConfig.riskTiers,
): Micro {
  let cushion = backing;
  for (const p of positions) {
    const mark = markOf(p.symbol);
    cushion += unrealisedPnl(p.side, p.volume, p.entryPrice, mark) - maintenanceAt(p, mark, tiers);
  }
  return cushion;
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
    marginRatio: bpsPercent(f.ratioBps),
    maintenanceRate: bpsPercent(BigInt(f.maintenanceBps)),
    liquidationPrice: f.liquidation === null ? null : formatAmount(f.liquidation),
  };
}
