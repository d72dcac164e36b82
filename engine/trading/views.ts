/** Wire views of orders and positions (decimal strings, Unix seconds). */
import { toSeconds } from '../context';
import { formatAmount, tryParseAmount, type Micro } from '../money';
import { initialMargin } from './margin';
import {
  bpsPercent,
  crossAt,
  crossView,
  markFiguresView,
  positionsAtMark,
  type CrossView,
  type MarkFiguresView,
  type MarkOf,
  type PositionAtMark,
} from './position-figures';
import type { MarginMode, OrderRow, PositionRow, PositionSide } from './tables';
import type { RiskTierConfig } from './tiers';

const money = (v: string | null): string | null => (v === null ? null : formatAmount(BigInt(v)));

export interface OrderView {
  id: string;
  market: string;
  symbol: string;
  side: string;
  type: string;
  price: string | null;
  /** Spot and contracts: base quantity; options: the stake in USDT. */
  volume: string;
  filled: string;
  /** Volume the book could not fill within the price band, cancelled ("0" otherwise). */
  cancelledVolume: string;
  /** Number of fills (book levels taken); the fee is charged per fill. */
  fills: number;
  avgPrice: string;
  fee: string;
  /** open, filled, partial (filled in part, the rest cancelled), cancelled, settled. */
  status: string;
  time: number;
  updateTime: number;
  leverage: number | null;
  marginMode: string | null;
  positionId: string | null;
  pnl: string | null;
  period: number | null;
  startTime: number | null;
  expireTime: number | null;
  entryPrice: string | null;
  exitPrice: string | null;
  /** Profit on a win as a percent of the stake ("85.00"). */
  payoutRatio: string | null;
  result: string | null;
  payout: string | null;
  /**
   * A contract close the position's own take-profit or stop-loss made (`take_profit`, `stop_loss`), or null
   * for a member's order.
   */
  trigger: string | null;
}

export function orderView(o: OrderRow): OrderView {
  return {
    id: o.id,
    market: o.market,
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    price: money(o.price),
    volume: formatAmount(BigInt(o.volume)),
    filled: formatAmount(BigInt(o.filled)),
    cancelledVolume: formatAmount(BigInt(o.cancelledVolume ?? '0')),
    fills: o.fills ?? (BigInt(o.filled) > 0n ? 1 : 0),
    avgPrice: formatAmount(BigInt(o.avgPrice)),
    fee: formatAmount(BigInt(o.fee)),
    status: o.status,
    time: toSeconds(o.createdAt),
    updateTime: toSeconds(o.updatedAt),
    leverage: o.leverage,
    marginMode: o.marginMode,
    positionId: o.positionId,
    pnl: money(o.pnl),
    period: o.period,
    startTime: o.startAt === null ? null : toSeconds(o.startAt),
    expireTime: o.expireAt === null ? null : toSeconds(o.expireAt),
    entryPrice: money(o.entryPrice),
    exitPrice: money(o.exitPrice),
    payoutRatio:
      o.payoutBps === null
        ? null
        : `${Math.floor(o.payoutBps / 100)}.${String(o.payoutBps % 100).padStart(2, '0')}`,
    result: o.result,
    payout: money(o.payout),
    trigger: o.trigger ?? null,
  };
}

/** A position as the device replicates it (engine/sync/views.ts): only what is stored, no live price. */
export interface PositionRecord {
  id: string;
  symbol: string;
  side: PositionSide;
  volume: string;
  entryPrice: string;
  leverage: number;
  marginMode: MarginMode;
  margin: string;
  /** Funding paid so far (negative: received). */
  fundingPaid: string;
  /** open, closed or liquidated. */
  status: PositionRow['status'];
  openTime: number;
  closeTime: number | null;
  realisedPnl: string;
  fees: string;
  /** Take-profit mark price, or null (absent on records a device kept from before TP/SL). */
  takeProfit?: string | null;
  /** Stop-loss mark price, or null (absent on records a device kept from before TP/SL). */
  stopLoss?: string | null;
}

export function positionRecord(p: PositionRow): PositionRecord {
  return {
    id: p.id,
    symbol: p.symbol,
    side: p.side,
    volume: formatAmount(BigInt(p.volume)),
    entryPrice: formatAmount(BigInt(p.entryPrice)),
    leverage: p.leverage,
    marginMode: p.marginMode,
    margin: formatAmount(BigInt(p.margin)),
    fundingPaid: formatAmount(BigInt(p.fundingPaid ?? '0')),
    status: p.status,
    openTime: toSeconds(p.openedAt),
    closeTime: p.closedAt === null ? null : toSeconds(p.closedAt),
    realisedPnl: formatAmount(BigInt(p.realisedPnl)),
    fees: formatAmount(BigInt(p.fees)),
    takeProfit: money(p.takeProfit ?? null),
    stopLoss: money(p.stopLoss ?? null),
  };
}

/** /api/position/tpsl's answer: the position's take-profit and stop-loss now. */
export interface PositionTriggersView {
  id: string;
  takeProfit: string | null;
  stopLoss: string | null;
}

export function triggersView(p: PositionRow): PositionTriggersView {
  return { id: p.id, takeProfit: money(p.takeProfit ?? null), stopLoss: money(p.stopLoss ?? null) };
}

/** An open position valued at a mark: the stored fields and the mark-dependent figures. */
export interface LivePosition extends MarkFiguresView {
  id: string;
  symbol: string;
  side: string;
  volume: string;
  entryPrice: string;
  leverage: number;
  marginMode: string;
  margin: string;
  /** Funding paid so far (negative: received). */
  fundingPaid: string;
  status: string;
  openTime: number;
  /**
   * Return on equity: the unrealised PnL as a percent of the initial margin (entry notional / leverage),
   * two decimals cut toward zero ("-12.34").
   */
  roe: string;
  takeProfit: string | null;
  stopLoss: string | null;
}

export interface PositionView extends LivePosition {
  /** The spot index the mark is built on. */
  indexPrice: string;
  /** Last traded price of the perpetual (display and triggers). */
  lastPrice: string;
}

/** Unrealised PnL / initial margin (entry notional / leverage) in percent, two decimals toward zero. */
export function roePercent(
  pnl: Micro,
  p: Pick<PositionAtMark, 'volume' | 'entryPrice'>,
  leverage: number,
): string {
  const margin = initialMargin(p.volume, p.entryPrice, Math.max(1, leverage));
  if (margin === 0n) return '0.00';
  const bps = (pnl * 10_000n) / margin;
  const abs = bps < 0n ? -bps : bps;
  return `${bps < 0n ? '-' : ''}${bpsPercent(abs)}`;
}

function micro(value: string): Micro {
  const parsed = tryParseAmount(value);
  return parsed.ok ? parsed.value : 0n;
}

/** The record's figures in micro-units (exact: the record's decimals are formatAmount's). */
export function positionAtMark(r: PositionRecord): PositionAtMark {
  return {
    id: r.id,
    symbol: r.symbol,
    side: r.side,
    marginMode: r.marginMode,
    volume: micro(r.volume),
    entryPrice: micro(r.entryPrice),
    margin: micro(r.margin),
  };
}

/**
 * A member's open positions valued at the marks `markOf` answers, in the order given: the one function
 * behind /api/position/list and the device's positions panel (from the replica). `records` may include
 * closed positions (the replica keeps them); only open ones are valued and answered. `contractAvailable` is
 * the contract account's free USDT (it backs cross positions).
 */
export function livePositions(
  records: readonly PositionRecord[],
  contractAvailable: Micro,
  markOf: MarkOf,
  tiers?: RiskTierConfig,
): LivePosition[] {
  const open = records.filter((r) => r.status === 'open');
  const figures = positionsAtMark(open.map(positionAtMark), contractAvailable, markOf, tiers);
  return open.flatMap((r) => {
    const f = figures.get(r.id);
    if (!f) return [];
    return [
      {
        id: r.id,
        symbol: r.symbol,
        side: r.side,
        volume: r.volume,
        entryPrice: r.entryPrice,
        leverage: r.leverage,
        marginMode: r.marginMode,
        margin: r.margin,
        fundingPaid: r.fundingPaid,
        status: r.status,
        openTime: r.openTime,
        ...markFiguresView(f),
        roe: roePercent(f.pnl, positionAtMark(r), r.leverage),
        takeProfit: r.takeProfit ?? null,
        stopLoss: r.stopLoss ?? null,
      },
    ];
  });
}

/**
 * The cross account beside the positions (/api/position/list `cross`, the trade screen's account margin
 * ratio): the same records, free balance and marks as livePositions.
 */
export function liveCross(
  records: readonly PositionRecord[],
  contractAvailable: Micro,
  markOf: MarkOf,
  tiers?: RiskTierConfig,
): CrossView {
  const open = records.filter((r) => r.status === 'open').map(positionAtMark);
  return crossView(crossAt(open, contractAvailable, markOf, tiers));
}

export interface FundingView {
  id: string;
  positionId: string;
  symbol: string;
  time: number;
  /** Funding rate, percent with four decimals ("0.0100"). */
  rate: string;
  markPrice: string;
  /** Positive: paid by the member; negative: received. */
  amount: string;
}

export function fundingView(r: {
  id: string;
  positionId: string;
  symbol: string;
  at: number;
  ratePpm: number;
  markPrice: string;
  amount: string;
}): FundingView {
  const abs = Math.abs(r.ratePpm);
  return {
    id: r.id,
    positionId: r.positionId,
    symbol: r.symbol,
    time: toSeconds(r.at),
    rate: `${r.ratePpm < 0 ? '-' : ''}${Math.floor(abs / 10_000)}.${String(abs % 10_000).padStart(4, '0')}`,
    markPrice: formatAmount(BigInt(r.markPrice)),
    amount: formatAmount(BigInt(r.amount)),
  };
}
