/** Wire views of orders and positions (decimal strings, Unix seconds). */
import { toSeconds } from '../context';
import { formatAmount } from '../money';
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
  avgPrice: string;
  fee: string;
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
  markPrice: string;
  leverage: number;
  marginMode: string;
  margin: string;
  maintenanceMargin: string;
  unrealisedPnl: string;
  /** Null when no positive price liquidates the position. */
  liquidationPrice: string | null;
  status: string;
  openTime: number;
}

export function positionView(
  p: PositionRow,
  live: { mark: bigint; maintenance: bigint; pnl: bigint; liquidation: bigint | null },
): PositionView {
  return {
    id: p.id,
    symbol: p.symbol,
    side: p.side,
    volume: formatAmount(BigInt(p.volume)),
    entryPrice: formatAmount(BigInt(p.entryPrice)),
    markPrice: formatAmount(live.mark),
    leverage: p.leverage,
    marginMode: p.marginMode,
    margin: formatAmount(BigInt(p.margin)),
    maintenanceMargin: formatAmount(live.maintenance),
    unrealisedPnl: formatAmount(live.pnl),
    liquidationPrice: live.liquidation === null ? null : formatAmount(live.liquidation),
    status: p.status,
    openTime: toSeconds(p.openedAt),
  };
}
