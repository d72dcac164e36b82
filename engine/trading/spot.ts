/**
 * Spot orders (docs/RULES.md S2-S5). Coins are ledger assets in the member's cash sub-account; the
 * simulated counterparty is house:market. A market order walks the simulated book within the price band
 * (fills.ts) and what it cannot fill there is cancelled; a limit order takes whatever the book offers
 * within its limit (and the band) and rests for the remainder, with the money (buy) or coins
 * (sell) it needs frozen; a resting order fills at its limit price once the traded price touches it.
 * Fees are charged in USDT on each fill's value (taker or maker alike) and shared with the inviter.
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { acct, USDT, type PostingLeg } from '../ledger';
import { marketOf } from '../market/instance';
import type { SymbolSpec } from '../market/symbols';
import { mulDiv, SCALE, type Micro } from '../money';
import { FEES, feeOf, shareFee } from './fees';
import { fillValue, takeFromBook, type Fill } from './fills';
import { missingAt, recordTaken } from './impact';
import { orders, type OrderRow } from './tables';

const HOUSE = acct.house('market');
/** 1 USDT. */
export const MIN_ORDER_VALUE = SCALE;

export interface SpotInput {
  spec: SymbolSpec;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  price: Micro | null;
  volume: Micro;
}

/**
 * Settles fills as one balanced entry across USDT and the coin, then shares the fee. Each fill is valued
 * on its own (a buyer pays each rounded up, a seller gets each rounded down) and pays its own fee.
 */
async function execute(
  ctx: Ctx,
  order: OrderRow,
  base: string,
  fills: readonly Fill[],
): Promise<{ quantity: Micro; value: Micro; fee: Micro }> {
  const buy = order.side === 'buy';
  let quantity = 0n;
  let value = 0n;
  let fee = 0n;
  for (const fill of fills) {
    const v = fillValue(fill, buy ? 'buy' : 'sell');
    quantity += fill.quantity;
    value += v;
    fee += feeOf(v, ctx.config.spotFeeBps);
  }
  const cash = acct.user(order.memberId, 'cash');
  if (buy && (await ctx.ledger.balance(cash)) < value + fee)
    throw fail(Codes.insufficientBalance, 'Insufficient balance');
  if (!buy && (await ctx.ledger.balance(cash, base)) < quantity) {
    throw fail(Codes.insufficientBalance, `Insufficient ${base}`);
  }
  if (!buy && value < fee) throw fail(400, 'The order is worth less than its fee');
  const legs: PostingLeg[] = buy
    ? [
        { account: cash, amount: -(value + fee) },
        { account: HOUSE, amount: value },
        { account: cash, asset: base, amount: quantity },
        { account: HOUSE, asset: base, amount: -quantity },
      ]
    : [
        { account: cash, asset: base, amount: -quantity },
        { account: HOUSE, asset: base, amount: quantity },
        { account: HOUSE, amount: -value },
        { account: cash, amount: value - fee },
      ];
  if (fee > 0n) legs.push({ account: FEES, amount: fee });
  await ctx.ledger.post('spot:trade', `order:${order.id}`, legs);
  await shareFee(ctx, order.memberId, fee, `order:${order.id}`);
  return { quantity, value, fee };
}

function record(
  order: OrderRow,
  done: { quantity: Micro; value: Micro; fee: Micro },
  fills: number,
  now: number,
): OrderRow {
  const filled = BigInt(order.filled) + done.quantity;
  const totalValue = mulDiv(BigInt(order.filled), BigInt(order.avgPrice), SCALE, 'half-up') + done.value;
  return {
    ...order,
    filled: filled.toString(),
    avgPrice: filled > 0n ? mulDiv(totalValue, SCALE, filled, 'half-up').toString() : '0',
    fee: (BigInt(order.fee) + done.fee).toString(),
    fills: (order.fills ?? 0) + fills,
    updatedAt: now,
  };
}

/** What a resting remainder needs frozen: coins for a sell, value plus the largest possible fee for a buy. */
function reserveFor(ctx: Ctx, side: 'buy' | 'sell', remainder: Micro, price: Micro): Micro {
  if (side === 'sell') return remainder;
  const value = mulDiv(remainder, price, SCALE, 'ceil');
  return value + feeOf(value, ctx.config.spotFeeBps);
}

export async function placeSpot(ctx: Ctx, memberId: string, input: SpotInput): Promise<OrderRow> {
  const sim = marketOf(ctx);
  const reference = input.price ?? BigInt(sim.price(input.spec, ctx.now));
  if (mulDiv(input.volume, reference, SCALE, 'floor') < MIN_ORDER_VALUE) {
    throw fail(400, 'Order value must be at least 1 USDT');
  }
  const id = await ctx.ids.next('tradeOrder');
  let order: OrderRow = blankOrder(id, memberId, input, ctx.now);
  const missing = await missingAt(ctx, 'spot', input.spec, input.side);
  const walk = takeFromBook(ctx, input.spec, input.side, input.volume, input.price, missing);
  recordTaken(ctx, 'spot', input.spec, input.side, missing, walk.quantity);
  if (walk.quantity > 0n) {
    order = record(order, await execute(ctx, order, input.spec.base, walk.fills), walk.fills.length, ctx.now);
  }
  const remainder = input.volume - walk.quantity;
  if (remainder === 0n) {
    order.status = 'filled';
  } else if (input.type === 'market') {
    // What the book could not fill inside the price band is cancelled, and the order says so (S7).
    order.status = walk.quantity > 0n ? 'partial' : 'cancelled';
    order.cancelledVolume = remainder.toString();
  } else {
    const hold = await ctx.ledger.hold({
      memberId,
      amount: reserveFor(ctx, input.side, remainder, input.price ?? 0n),
      reason: 'order',
      ref: `order:${id}`,
      asset: input.side === 'sell' ? input.spec.base : USDT,
      insufficientCode: Codes.insufficientBalance,
    });
    order.holdId = hold.id;
  }
  ctx.tx.put(orders, order);
  return order;
}

/** Fills a resting limit order at its own price (called when the traded price has touched it). */
export async function fillResting(ctx: Ctx, order: OrderRow, base: string): Promise<OrderRow> {
  const remainder = BigInt(order.volume) - BigInt(order.filled);
  const price = BigInt(order.price ?? '0');
  if (order.holdId) await ctx.ledger.release(order.holdId);
  const done: OrderRow = {
    ...record(order, await execute(ctx, order, base, [{ price, quantity: remainder }]), 1, ctx.now),
    status: 'filled',
  };
  ctx.tx.put(orders, done);
  return done;
}

export function blankOrder(id: string, memberId: string, input: SpotInput, now: number): OrderRow {
  return {
    id,
    memberId,
    market: 'spot',
    symbol: input.spec.symbol,
    side: input.side,
    type: input.type,
    price: input.price === null ? null : input.price.toString(),
    volume: input.volume.toString(),
    filled: '0',
    avgPrice: '0',
    fee: '0',
    status: 'open',
    holdId: null,
    createdAt: now,
    updatedAt: now,
    leverage: null,
    marginMode: null,
    positionId: null,
    pnl: null,
    cancelledVolume: '0',
    fills: 0,
    period: null,
    startAt: null,
    expireAt: null,
    entryPrice: null,
    exitPrice: null,
    payoutBps: null,
    result: null,
    payout: null,
  };
}
