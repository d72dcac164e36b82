/**
 * What an order will do before it is placed: estimated fill price and slippage from the visible book, the
 * fee, and for contracts the margin required and the liquidation price at mark. Pure (no engine state), so
 * the app imports it from engine/index.ts to show the risk before a member commits. A cross order's
 * liquidation price is the account's after the order (its positions with the new one added or merged, the
 * free balance less margin and fee, valued by positionsAtMark as the positions list is). docs/TRADING.md.
 */
import { defaultConfig } from '../config';
import type { Book } from '../market/depth';
import { mulDiv, tryParseAmount, type Micro } from '../money';
import { feeOf } from './fees';
import { averagePrice, fillValue, walkBook } from './fills';
import { initialMargin, notional, tieredLiquidationPrice } from './margin';
import { positionsAtMark, type MarkOf, type PositionAtMark } from './position-figures';
import { tierOf, tiersFor } from './tiers';

export interface PreviewInput {
  /** The pair ("BTC/USDT"): a contract's risk tiers are the pair's own table. */
  symbol: string;
  market: 'spot' | 'contract';
  side: 'buy' | 'sell';
  volume: string;
  /** The book as the depth call answers it: [price, quantity] decimal strings, best first. */
  asks: readonly (readonly [string, string])[];
  bids: readonly (readonly [string, string])[];
  leverage?: number;
  /** Cross: the contract account's free balance backs the position too. */
  marginMode?: 'cross' | 'isolated';
  available?: string;
  /**
   * The member's contract account as the positions list values it (cross orders): without it, a cross
   * order is previewed as the account's only position, backed by `available`, at the book's mid.
   */
  account?: PreviewAccount;
}

/** What a cross order's liquidation price depends on besides the order itself. */
export interface PreviewAccount {
  /** The member's open positions (every mode; only cross ones back the order). */
  open: readonly PositionAtMark[];
  /** The contract account's free USDT before the order. */
  available: Micro;
  /** The pairs' mark prices. */
  markOf: MarkOf;
}

/** The id the previewed position goes by when it opens a new one. */
const PREVIEWED = 'preview';

/**
 * The liquidation price of a cross order's position after the order, from the same function as the
 * positions list: the order (quantity, its fills' value, margin and fee) joins the account.
 */
export function crossLiquidationAfter(
  account: PreviewAccount,
  order: {
    symbol: string;
    side: 'long' | 'short';
    quantity: Micro;
    /** Sum of quantity x price over the fills, scaled by 1e6 (Walk.valueScaled). */
    valueScaled: Micro;
    margin: Micro;
    fee: Micro;
  },
): Micro | null {
  const existing = account.open.find(
    (p) => p.symbol === order.symbol && p.side === order.side && p.marginMode === 'cross',
  );
  let position: PositionAtMark;
  if (existing) {
    const volume = existing.volume + order.quantity;
    position = {
      ...existing,
      volume,
      entryPrice: mulDiv(existing.volume * existing.entryPrice + order.valueScaled, 1n, volume, 'half-up'),
      margin: existing.margin + order.margin,
    };
  } else {
    position = {
      id: PREVIEWED,
      symbol: order.symbol,
      side: order.side,
      marginMode: 'cross',
      volume: order.quantity,
      entryPrice: mulDiv(order.valueScaled, 1n, order.quantity, 'half-up'),
      margin: order.margin,
    };
  }
  const after = [...account.open.filter((p) => p !== existing), position];
  const available = account.available - order.margin - order.fee;
  return positionsAtMark(after, available, account.markOf).get(position.id)?.liquidation ?? null;
}

export interface OrderPreview {
  /** Volume the visible book fills within the price band, and the rest. */
  filled: Micro;
  unfilled: Micro;
  avgPrice: Micro;
  /** Average price against the best level, in basis points (always >= 0). */
  slippageBps: number;
  fee: Micro;
  margin: Micro | null;
  liquidationPrice: Micro | null;
  /** The leverage the position's risk tier allows (contracts), or null. */
  maxLeverage: number | null;
}

const micro = (text: string): Micro | null => {
  const parsed = tryParseAmount(text);
  return parsed.ok ? parsed.value : null;
};

function toBook(input: PreviewInput): Book {
  const level = ([p, q]: readonly [string, string]) => ({
    price: Number(micro(p) ?? 0n),
    // The engine's book quantities are 1e-4 units.
    qty: Number((micro(q) ?? 0n) / 100n),
  });
  const asks = input.asks.map(level);
  const bids = input.bids.map(level);
  const bestAsk = asks[0]?.price ?? 0;
  const bestBid = bids[0]?.price ?? bestAsk;
  return { mid: Math.round((bestAsk + (bestBid || bestAsk)) / 2), asks, bids };
}

/** Null when the volume is not a positive amount or the book is empty. */
export function previewOrder(input: PreviewInput): OrderPreview | null {
  const volume = micro(input.volume);
  if (volume === null || volume <= 0n) return null;
  const book = toBook(input);
  const best = (input.side === 'buy' ? book.asks : book.bids)[0];
  if (!best) return null;
  const walk = walkBook(book, input.side, volume, {
    limit: null,
    bandBps: defaultConfig.priceBandBps,
  });
  if (walk.quantity === 0n) return null;
  const avgPrice = averagePrice(walk);
  const bestPrice = BigInt(best.price);
  const diff = avgPrice > bestPrice ? avgPrice - bestPrice : bestPrice - avgPrice;
  const slippageBps = Number((diff * 10_000n) / bestPrice);
  const fee =
    input.market === 'spot'
      ? walk.fills.reduce((s, f) => s + feeOf(fillValue(f, input.side), defaultConfig.spotFeeBps), 0n)
      : walk.fills.reduce(
          (s, f) => s + feeOf(notional(f.quantity, f.price), defaultConfig.contractFeeBps),
          0n,
        );
  let margin: Micro | null = null;
  let liquidationPrice: Micro | null = null;
  let maxLeverage: number | null = null;
  if (input.market === 'contract' && input.leverage) {
    const tiers = tiersFor(defaultConfig.riskTiers, input.symbol);
    margin = initialMargin(walk.quantity, avgPrice, input.leverage);
    const side = input.side === 'buy' ? 'long' : 'short';
    if (input.marginMode === 'cross') {
      const mid = BigInt(book.mid);
      const account = input.account ?? {
        open: [],
        available: micro(input.available ?? '0') ?? 0n,
        markOf: () => mid,
      };
      liquidationPrice = crossLiquidationAfter(account, {
        symbol: input.symbol,
        side,
        quantity: walk.quantity,
        valueScaled: walk.valueScaled,
        margin,
        fee,
      });
    } else {
      liquidationPrice = tieredLiquidationPrice(side, walk.quantity, avgPrice, margin, tiers);
    }
    maxLeverage = tierOf(tiers, notional(walk.quantity, avgPrice))?.maxLeverage ?? 0;
  }
  return {
    filled: walk.quantity,
    unfilled: volume - walk.quantity,
    avgPrice,
    slippageBps,
    fee,
    margin,
    liquidationPrice,
    maxLeverage,
  };
}
