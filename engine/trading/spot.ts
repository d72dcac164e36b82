/**
 * Spot orders (docs/RULES.md S2-S5). Coins are ledger assets in the member's cash sub-account; the
 * simulated counterparty is house:market. A market order walks the simulated book; a limit order takes
 * whatever the book offers within its limit and rests for the remainder, with the money (buy) or coins
 * (sell) it needs frozen; a resting order fills at its limit price once the traded price touches it.
 * Fees are charged in USDT on the order's value (taker or maker alike) and shared with the inviter.
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { acct, USDT, type PostingLeg } from '../ledger';
import { marketOf } from '../market/instance';
import type { SymbolSpec } from '../market/symbols';
import { mulDiv, type Micro } from '../money';
import { FEES, feeOf, shareFee } from './fees';
import { orders, type OrderRow } from './tables';

const HOUSE = acct.house('market');
const UNIT = 1_000_000n;
/** Book quantities are in 1e-4 base units; ledger quantities in 1e-6. */
const BOOK_TO_MICRO = 100n;
const BOOK_LEVELS = 100;
export const MIN_ORDER_VALUE = 1_000_000n;

export interface SpotInput {
  spec: SymbolSpec;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  price: Micro | null;
  volume: Micro;
}

interface Fill {
  quantity: Micro;
  /** Sum of quantity x price over the levels taken, still scaled by 1e6. */
  valueScaled: bigint;
}

/** Walks the book at ctx.now for up to `volume`, within `limit` if given. */
function walk(ctx: Ctx, input: SpotInput, volume: Micro): Fill {
  const book = marketOf(ctx).book(input.spec, ctx.now, BOOK_LEVELS);
  const levels = input.side === 'buy' ? book.asks : book.bids;
  let quantity = 0n;
  let valueScaled = 0n;
  for (const level of levels) {
    const price = BigInt(level.price);
    if (input.price !== null && (input.side === 'buy' ? price > input.price : price < input.price)) break;
    const take =
      volume - quantity < BigInt(level.qty) * BOOK_TO_MICRO
        ? volume - quantity
        : BigInt(level.qty) * BOOK_TO_MICRO;
    quantity += take;
    valueScaled += take * price;
    if (quantity === volume) break;
  }
  return { quantity, valueScaled };
}

/** Settles a fill as one balanced entry across USDT and the coin, then shares the fee. */
async function execute(
  ctx: Ctx,
  order: OrderRow,
  base: string,
  fill: Fill,
): Promise<{ value: Micro; fee: Micro }> {
  const buy = order.side === 'buy';
  const value = buy ? (fill.valueScaled + UNIT - 1n) / UNIT : fill.valueScaled / UNIT;
  const fee = feeOf(value, ctx.config.spotFeeBps);
  const cash = acct.user(order.memberId, 'cash');
  if (buy && (await ctx.ledger.balance(cash)) < value + fee)
    throw fail(Codes.insufficientBalance, 'Insufficient balance');
  if (!buy && (await ctx.ledger.balance(cash, base)) < fill.quantity) {
    throw fail(Codes.insufficientBalance, `Insufficient ${base}`);
  }
  const legs: PostingLeg[] = buy
    ? [
        { account: cash, amount: -(value + fee) },
        { account: HOUSE, amount: value },
        { account: cash, asset: base, amount: fill.quantity },
        { account: HOUSE, asset: base, amount: -fill.quantity },
      ]
    : [
        { account: cash, asset: base, amount: -fill.quantity },
        { account: HOUSE, asset: base, amount: fill.quantity },
        { account: HOUSE, amount: -value },
        { account: cash, amount: value - fee },
      ];
  if (fee > 0n) legs.push({ account: FEES, amount: fee });
  await ctx.ledger.post('spot:trade', `order:${order.id}`, legs);
  await shareFee(ctx, order.memberId, fee, `order:${order.id}`);
  return { value, fee };
}

function record(order: OrderRow, quantity: Micro, value: Micro, fee: Micro, now: number): OrderRow {
  const filled = BigInt(order.filled) + quantity;
  const totalValue = mulDiv(BigInt(order.filled), BigInt(order.avgPrice), UNIT, 'half-up') + value;
  return {
    ...order,
    filled: filled.toString(),
    avgPrice: filled > 0n ? mulDiv(totalValue, UNIT, filled, 'half-up').toString() : '0',
    fee: (BigInt(order.fee) + fee).toString(),
    updatedAt: now,
  };
}

/** What a resting remainder needs frozen: coins for a sell, value plus the largest possible fee for a buy. */
function reserveFor(ctx: Ctx, side: 'buy' | 'sell', remainder: Micro, price: Micro): Micro {
  if (side === 'sell') return remainder;
  const value = mulDiv(remainder, price, UNIT, 'ceil');
  return value + feeOf(value, ctx.config.spotFeeBps);
}

export async function placeSpot(ctx: Ctx, memberId: string, input: SpotInput): Promise<OrderRow> {
  const sim = marketOf(ctx);
  const reference = input.price ?? BigInt(sim.price(input.spec, ctx.now));
  if (mulDiv(input.volume, reference, UNIT, 'floor') < MIN_ORDER_VALUE) {
    throw fail(400, 'Order value must be at least 1 USDT');
  }
  const id = await ctx.ids.next('tradeOrder');
  let order: OrderRow = blankOrder(id, memberId, input, ctx.now);
  const fill = walk(ctx, input, input.volume);
  if (fill.quantity > 0n) {
    const { value, fee } = await execute(ctx, order, input.spec.base, fill);
    order = record(order, fill.quantity, value, fee, ctx.now);
  }
  const remainder = input.volume - fill.quantity;
  if (remainder === 0n || input.type === 'market') {
    order.status = 'filled';
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
  const { value, fee } = await execute(ctx, order, base, {
    quantity: remainder,
    valueScaled: remainder * price,
  });
  const done: OrderRow = { ...record(order, remainder, value, fee, ctx.now), status: 'filled' };
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
