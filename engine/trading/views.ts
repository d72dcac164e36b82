/** Wire views of orders and positions (decimal strings, Unix seconds). */
import { toSeconds } from '../context';
import { formatAmount, mulDiv } from '../money';
import type { OrderRow, PositionRow } from './tables';

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
  };
}

export interface PositionView {
  id: string;
  symbol: string;
  side: string;
  volume: string;
  entryPrice: string;
  /** Mark price (median of three, mark.ts): what PnL, margin and liquidation use. */
  markPrice: string;
  /** The spot index the mark is built on. */
  indexPrice: string;
  /** Last traded price of the perpetual (display and triggers). */
  lastPrice: string;
  leverage: number;
  marginMode: string;
  margin: string;
  maintenanceMargin: string;
  unrealisedPnl: string;
  /** Maintenance margin / margin balance, percent with two decimals: liquidation at 100. */
  marginRatio: string;
  /** Maintenance margin rate of the position's risk tier, percent ("0.40"). */
  maintenanceRate: string;
  /** Funding paid so far (negative: received). */
  fundingPaid: string;
  /** Null when no positive price liquidates the position. */
  liquidationPrice: string | null;
  status: string;
  openTime: number;
}

export function positionView(
  p: PositionRow,
  live: {
    mark: bigint;
    index: bigint;
    last: bigint;
    maintenance: bigint;
    maintenanceBps: number;
    pnl: bigint;
    /** Margin balance: what backs the position plus its unrealised PnL. */
    balance: bigint;
    liquidation: bigint | null;
  },
): PositionView {
  return {
    id: p.id,
    symbol: p.symbol,
    side: p.side,
    volume: formatAmount(BigInt(p.volume)),
    entryPrice: formatAmount(BigInt(p.entryPrice)),
    markPrice: formatAmount(live.mark),
    indexPrice: formatAmount(live.index),
    lastPrice: formatAmount(live.last),
    leverage: p.leverage,
    marginMode: p.marginMode,
    margin: formatAmount(BigInt(p.margin)),
    maintenanceMargin: formatAmount(live.maintenance),
    unrealisedPnl: formatAmount(live.pnl),
    marginRatio: percent(
      live.balance > 0n ? mulDiv(live.maintenance, 10_000n, live.balance, 'ceil') : 10_000n,
    ),
    maintenanceRate: percent(BigInt(live.maintenanceBps)),
    fundingPaid: formatAmount(BigInt(p.fundingPaid ?? '0')),
    liquidationPrice: live.liquidation === null ? null : formatAmount(live.liquidation),
    status: p.status,
    openTime: toSeconds(p.openedAt),
  };
}

/** Basis points as a percent with two decimals: 40n -> "0.40". */
function percent(bps: bigint): string {
  return `${bps / 100n}.${String(bps % 100n).padStart(2, '0')}`;
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
