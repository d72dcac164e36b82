/**
 * Perpetual contracts against the simulated market (docs/RULES.md K1-K14): opening, closing and isolated
 * margin changes. Margin lives in the member's contract sub-account: each position's margin is frozen there
 * by one hold; cross positions are also backed by the account's free balance (risk.ts). Orders walk the
 * contract book (the spot book shifted by the perpetual's premium, mark.ts) within the price band: a long
 * takes asks, a short bids, closing the other side; what the band leaves is cancelled (K9). Position size
 * is capped by the risk tier of its notional (K10). Fees (contractFeeBps of each fill's notional) go to
 * platform:fees and are shared with the inviter; PnL is settled with house:market (settlement.ts).
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { acct } from '../ledger';
import { marketOf } from '../market/instance';
import type { SymbolSpec } from '../market/symbols';
import { formatAmount, mulDiv, SCALE, type Micro } from '../money';
import { chargeFee, feeOf } from './fees';
import type { Book } from '../market/depth';
import { averagePrice, depleted, FIRST_LEVELS, walkBook, WALK_LEVELS, type Walk } from './fills';
import { missingAt, recordTaken } from './impact';
import { initialMargin, notional } from './margin';
import { settingsOf } from './settings';
import { settlePnl } from './settlement';
import { blankOrder } from './spot';
import {
  orders,
  positions,
  type CloseTrigger,
  type OrderRow,
  type PositionRow,
  type PositionSide,
} from './tables';
import { tierOf, tiersFor } from './tiers';
import { triggerFields, type Triggers } from './triggers';

/**
 * Walks the contract book at `at` for `volume` (buy: asks, sell: bids) within the price band, its first
 * `missing` units gone (what members took and the book has not refilled yet, impact.ts).
 */
export function contractWalk(
  ctx: Ctx,
  spec: SymbolSpec,
  side: 'buy' | 'sell',
  volume: Micro,
  bandBps = ctx.config.priceBandBps,
  at = ctx.now,
  missing = 0,
): Walk {
  const market = marketOf(ctx);
  const options = { limit: null, bandBps };
  const book = (levels: number): Book => depleted(market.contractBook(spec, at, levels), side, missing);
  const first = walkBook(book(FIRST_LEVELS), side, volume, options);
  if (first.stop !== 'book') return first;
  return walkBook(book(WALK_LEVELS), side, volume, options);
}

/** A member's contract order walks the book as members' earlier orders left it, and leaves its mark. */
async function memberWalk(ctx: Ctx, spec: SymbolSpec, side: 'buy' | 'sell', volume: Micro): Promise<Walk> {
  const missing = await missingAt(ctx, 'contract', spec, side);
  const walk = contractWalk(ctx, spec, side, volume, ctx.config.priceBandBps, ctx.now, missing);
  recordTaken(ctx, 'contract', spec, side, missing, walk.quantity);
  return walk;
}

/** Each fill pays contractFeeBps of its own notional (rounded up). */
export function feeOfFills(walk: Walk, bps: number): Micro {
  return walk.fills.reduce((sum, f) => sum + feeOf(notional(f.quantity, f.price), bps), 0n);
}

/** Exact PnL of closing `walk.quantity` of a position opened at `entry`, rounded against the member. */
export function pnlOfWalk(
  side: PositionSide,
  entry: Micro,
  walk: Pick<Walk, 'quantity' | 'valueScaled'>,
): Micro {
  const cost = walk.quantity * entry;
  const diff = side === 'long' ? walk.valueScaled - cost : cost - walk.valueScaled;
  return diff >= 0n ? diff / SCALE : -mulDiv(-diff, 1n, SCALE, 'ceil');
}

async function rehold(ctx: Ctx, position: PositionRow, margin: Micro): Promise<string> {
  await ctx.ledger.release(position.holdId);
  const hold = await ctx.ledger.hold({
    memberId: position.memberId,
    amount: margin,
    reason: 'position',
    ref: `position:${position.id}`,
    sub: 'contract',
    insufficientCode: Codes.insufficientBalance,
  });
  return hold.id;
}

/**
 * Refuses a position whose notional's risk tier, in the pair's own table, allows less than `leverage`
 * (K10, code 4035).
 */
export function checkTier(ctx: Ctx, symbol: string, size: Micro, leverage: number): void {
  const tiers = tiersFor(ctx.config.riskTiers, symbol);
  const tier = tierOf(tiers, size);
  if (tier && tier.maxLeverage >= leverage) return;
  const allowed = tiers.filter((t) => t.maxLeverage >= leverage).at(-1);
  throw fail(
    Codes.riskTierLeverage,
    tier
      ? `A position of ${formatAmount(size)} USDT allows at most ${tier.maxLeverage}x leverage`
      : `A position of ${formatAmount(size)} USDT is above the largest risk tier`,
    {
      maxLeverage: tier?.maxLeverage ?? 0,
      maxNotional: allowed ? formatAmount(allowed.maxNotional) : '0',
    },
  );
}

function finish(order: OrderRow, requested: Micro, walk: Walk): OrderRow {
  const rest = requested - walk.quantity;
  return {
    ...order,
    filled: walk.quantity.toString(),
    avgPrice: averagePrice(walk).toString(),
    status: rest === 0n ? 'filled' : 'partial',
    cancelledVolume: rest.toString(),
    fills: walk.fills.length,
  };
}

export async function openPosition(
  ctx: Ctx,
  memberId: string,
  input: { spec: SymbolSpec; side: PositionSide; volume: Micro; triggers?: Triggers },
): Promise<OrderRow> {
  const settings = await settingsOf(ctx, memberId);
  const walk = await memberWalk(ctx, input.spec, input.side === 'long' ? 'buy' : 'sell', input.volume);
  if (walk.quantity === 0n) throw fail(400, 'No liquidity within the price band');
  const q = walk.quantity;
  const entry = averagePrice(walk);
  const slot = `${memberId}:${input.spec.symbol}:${input.side}`;
  const existing = (await ctx.tx.query(positions, 'slot', slot))[0];
  const q0 = existing ? BigInt(existing.volume) : 0n;
  const volume = q0 + q;
  const entryAvg = existing
    ? mulDiv(q0 * BigInt(existing.entryPrice) + walk.valueScaled, 1n, volume, 'half-up')
    : entry;
  checkTier(ctx, input.spec.symbol, notional(volume, entryAvg), settings.leverage);
  const margin = initialMargin(q, entry, settings.leverage);
  const fee = feeOfFills(walk, ctx.config.contractFeeBps);
  if (margin < SCALE) throw fail(400, 'Order margin must be at least 1 USDT');
  const contract = acct.user(memberId, 'contract');
  if ((await ctx.ledger.balance(contract)) < margin + fee) {
    throw fail(Codes.insufficientBalance, 'Insufficient balance in the contract account');
  }
  const id = await ctx.ids.next('tradeOrder');
  await chargeFee(ctx, memberId, 'contract', fee, `order:${id}`);
  let position: PositionRow;
  if (existing) {
    const total = BigInt(existing.margin) + margin;
    position = {
      ...existing,
      ...triggerFields(input.triggers, ctx.now),
      volume: volume.toString(),
      entryPrice: entryAvg.toString(),
      margin: total.toString(),
      holdId: await rehold(ctx, existing, total),
      fees: (BigInt(existing.fees) + fee).toString(),
    };
  } else {
    const positionId = await ctx.ids.next('position');
    const hold = await ctx.ledger.hold({
      memberId,
      amount: margin,
      reason: 'position',
      ref: `position:${positionId}`,
      sub: 'contract',
      insufficientCode: Codes.insufficientBalance,
    });
    position = {
      id: positionId,
      memberId,
      symbol: input.spec.symbol,
      side: input.side,
      volume: q.toString(),
      entryPrice: entry.toString(),
      leverage: settings.leverage,
      marginMode: settings.marginMode,
      margin: margin.toString(),
      holdId: hold.id,
      status: 'open',
      openedAt: ctx.now,
      closedAt: null,
      realisedPnl: '0',
      fees: fee.toString(),
      liquidationPrice: null,
      fundingPaid: '0',
      ...triggerFields(input.triggers, ctx.now),
    };
  }
  ctx.tx.put(positions, position);
  const order: OrderRow = finish(
    {
      ...blankOrder(
        id,
        memberId,
        { spec: input.spec, side: 'buy', type: 'market', price: null, volume: input.volume },
        ctx.now,
      ),
      market: 'contract',
      side: input.side === 'long' ? 'open_long' : 'open_short',
      fee: fee.toString(),
      leverage: settings.leverage,
      marginMode: settings.marginMode,
      positionId: position.id,
    },
    input.volume,
    walk,
  );
  ctx.tx.put(orders, order);
  return order;
}

/**
 * Closes `volume` of a position (all of it when null) at market. A member's close walks the book at
 * ctx.now within the price band; a take-profit or stop-loss (`trigger`, watch.ts) closes the whole position
 * at the second `at` the mark reached its price, walking that second's book without the band, as a
 * liquidation does (a stop that cannot fill is no stop), and records the trigger on the order.
 */
export async function closePosition(
  ctx: Ctx,
  memberId: string,
  input: {
    spec: SymbolSpec;
    side: PositionSide;
    volume: Micro | null;
    at?: number;
    trigger?: CloseTrigger;
  },
): Promise<OrderRow> {
  const position = (
    await ctx.tx.query(positions, 'slot', `${memberId}:${input.spec.symbol}:${input.side}`)
  )[0];
  if (!position) throw fail(Codes.notFound, `No open ${input.side} position in ${input.spec.symbol}`);
  const at = input.at ?? ctx.now;
  const total = BigInt(position.volume);
  const requested = input.volume ?? total;
  if (requested > total) throw fail(400, 'Volume is more than the open position');
  const band = input.trigger ? 10_000 : ctx.config.priceBandBps;
  const side = input.side === 'long' ? 'sell' : 'buy';
  // A member's close walks the book as members' orders left it; a triggered close (the watch, at the
  // second its price was touched) walks the prices alone, as liquidations do, whatever the clock's step.
  const walk = input.trigger
    ? contractWalk(ctx, input.spec, side, requested, band, at)
    : await memberWalk(ctx, input.spec, side, requested);
  if (walk.quantity === 0n) throw fail(400, 'No liquidity within the price band');
  const q = walk.quantity;
  const entry = BigInt(position.entryPrice);
  const margin = BigInt(position.margin);
  const part = q === total ? margin : mulDiv(margin, q, total, 'floor');
  const id = await ctx.ids.next('tradeOrder');
  const ref = `order:${id}`;
  await ctx.ledger.release(position.holdId);
  const cap =
    position.marginMode === 'isolated' ? part : await ctx.ledger.balance(acct.user(memberId, 'contract'));
  const pnl = await settlePnl(ctx, memberId, pnlOfWalk(input.side, entry, walk), cap, ref);
  const available = await ctx.ledger.balance(acct.user(memberId, 'contract'));
  const wanted = feeOfFills(walk, ctx.config.contractFeeBps);
  const fee = wanted < available ? wanted : available;
  await chargeFee(ctx, memberId, 'contract', fee, ref);
  const rest = total - q;
  const next: PositionRow = {
    ...position,
    volume: rest.toString(),
    margin: (margin - part).toString(),
    realisedPnl: (BigInt(position.realisedPnl) + pnl).toString(),
    fees: (BigInt(position.fees) + fee).toString(),
  };
  if (rest === 0n) {
    next.status = 'closed';
    next.closedAt = at;
  } else {
    const hold = await ctx.ledger.hold({
      memberId,
      amount: margin - part,
      reason: 'position',
      ref: `position:${position.id}`,
      sub: 'contract',
    });
    next.holdId = hold.id;
  }
  ctx.tx.put(positions, next);
  const order: OrderRow = finish(
    {
      ...blankOrder(
        id,
        memberId,
        { spec: input.spec, side: 'sell', type: 'market', price: null, volume: requested },
        at,
      ),
      market: 'contract',
      side: input.side === 'long' ? 'close_long' : 'close_short',
      fee: fee.toString(),
      leverage: position.leverage,
      marginMode: position.marginMode,
      positionId: position.id,
      pnl: pnl.toString(),
      ...(input.trigger ? { trigger: input.trigger } : {}),
    },
    requested,
    walk,
  );
  ctx.tx.put(orders, order);
  return order;
}

/** Adds (positive) or removes (negative) isolated margin; never below the initial margin (K5). */
export async function adjustMargin(
  ctx: Ctx,
  memberId: string,
  positionId: string,
  delta: Micro,
): Promise<PositionRow> {
  const position = await ctx.tx.get(positions, positionId);
  if (!position || position.memberId !== memberId || position.status !== 'open') {
    throw fail(Codes.notFound, 'Position not found');
  }
  if (position.marginMode !== 'isolated') throw fail(400, 'Cross positions share the contract account');
  if (delta === 0n) throw fail(400, 'Amount must not be zero');
  const next = BigInt(position.margin) + delta;
  const floor = initialMargin(BigInt(position.volume), BigInt(position.entryPrice), position.leverage);
  if (next < floor) throw fail(400, 'Margin cannot go below the initial margin of the position');
  const updated: PositionRow = {
    ...position,
    margin: next.toString(),
    holdId: await rehold(ctx, position, next),
  };
  ctx.tx.put(positions, updated);
  return updated;
}
