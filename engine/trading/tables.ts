/** Trading records: orders of all three markets, contract positions and per-member contract settings. */
import type { Ctx } from '../context';
import { defineTable } from '../store/port';

export type MarketKind = 'spot' | 'contract' | 'option';
/** `partial`: a taker order filled in part, the rest cancelled (outside the price band or the book). */
export type OrderStatus = 'open' | 'filled' | 'partial' | 'cancelled' | 'settled';

export interface OrderRow {
  id: string;
  memberId: string;
  market: MarketKind;
  /** Canonical pair name, "BTC/USDT". */
  symbol: string;
  side: string;
  type: 'market' | 'limit';
  /** Limit price (micro-USDT) or null for market orders. */
  price: string | null;
  /** Spot and contracts: base quantity in micro-units; options: the stake in micro-USDT. */
  volume: string;
  filled: string;
  /** Average fill price (micro-USDT), "0" until filled. */
  avgPrice: string;
  fee: string;
  status: OrderStatus;
  /** The frozen funds behind a resting limit order or a running option. */
  holdId: string | null;
  createdAt: number;
  updatedAt: number;
  // Contracts
  leverage: number | null;
  marginMode: MarginMode | null;
  positionId: string | null;
  /** Realised PnL of a closing order (micro-USDT, signed). */
  pnl: string | null;
  /** Volume the book could not fill within the price band, cancelled (absent on rows before issue 13). */
  cancelledVolume?: string;
  /** Number of fills (book levels taken, or one resting fill). */
  fills?: number;
  /**
   * What closed the position, when no member order did: the position's take-profit or stop-loss, reached by
   * the mark (watch.ts). Absent on a member's own orders.
   */
  trigger?: CloseTrigger;
  // Options
  period: number | null;
  startAt: number | null;
  expireAt: number | null;
  entryPrice: string | null;
  exitPrice: string | null;
  payoutBps: number | null;
  result: 'win' | 'lose' | 'draw' | null;
  /** What the member got back at settlement (stake + profit on a win, stake on a draw, 0 on a loss). */
  payout: string | null;
}

export const orders = defineTable<OrderRow>('tradeOrders', {
  member: (o) => o.memberId,
  open: (o) => (o.status === 'open' ? o.market : null),
});

export type MarginMode = 'cross' | 'isolated';
/** A position's own close orders: its take-profit or stop-loss price reached by the mark. */
export type CloseTrigger = 'take_profit' | 'stop_loss';
export type PositionSide = 'long' | 'short';

export interface PositionRow {
  id: string;
  memberId: string;
  symbol: string;
  side: PositionSide;
  /** Base quantity (micro-units). */
  volume: string;
  entryPrice: string;
  leverage: number;
  marginMode: MarginMode;
  /** Margin frozen for this position (micro-USDT). */
  margin: string;
  holdId: string;
  status: 'open' | 'closed' | 'liquidated';
  openedAt: number;
  closedAt: number | null;
  realisedPnl: string;
  fees: string;
  /** Price at which it was liquidated, if it was. */
  liquidationPrice: string | null;
  /** Funding paid (positive) or received (negative) so far, micro-USDT (absent on rows before issue 13). */
  fundingPaid?: string;
  /** Take-profit: a mark price (micro-USDT) at which the whole position is closed at market, or null. */
  takeProfit?: string | null;
  /** Stop-loss: a mark price (micro-USDT) at which the whole position is closed at market, or null. */
  stopLoss?: string | null;
  /** When the take-profit or stop-loss was last set (ms): the mark before it is not looked at. */
  triggersSetAt?: number;
}

export const positions = defineTable<PositionRow>('positions', {
  member: (p) => p.memberId,
  open: (p) => (p.status === 'open' ? 'open' : null),
  slot: (p) => (p.status === 'open' ? `${p.memberId}:${p.symbol}:${p.side}` : null),
});

/** A member's open positions (read by the risk checks, the settings and the position list alike). */
export async function openPositions(ctx: Pick<Ctx, 'tx'>, memberId: string): Promise<PositionRow[]> {
  return (await ctx.tx.query(positions, 'member', memberId)).filter((p) => p.status === 'open');
}

export interface TradingSettingsRow {
  /** The member id. */
  id: string;
  leverage: number;
  marginMode: MarginMode;
}

export const tradingSettings = defineTable<TradingSettingsRow>('tradingSettings');

export const DEFAULT_LEVERAGE = 10;
export const DEFAULT_MARGIN_MODE: MarginMode = 'cross';
