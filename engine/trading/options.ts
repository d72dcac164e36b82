/**
 * Up/down options (docs/RULES.md O1-O2). The stake is frozen in the member's options sub-account. An option
 * starts at the next whole minute and runs for its period (60, 300 or 900 s), so both of its prices are
 * K-line values anyone can check: the entry is the open of the 1m candle starting at `startAt`, the exit the
 * close of the 1m candle ending at `expireAt`. Up wins when exit > entry, down when exit < entry; equal is a
 * draw (stake returned). A win pays the stake back plus stake x payout ratio from house:market; a loss pays
 * the stake to house:market. No fee: the payout ratio below 100% is the house's edge.
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { acct } from '../ledger';
import { marketOf } from '../market/instance';
import { findSymbol, type SymbolSpec } from '../market/symbols';
import { mulDiv, SCALE, type Micro } from '../money';
import { blankOrder } from './spot';
import { orders, type OrderRow } from './tables';

export const SETTLE_JOB = 'option.settle';
const HOUSE = acct.house('market');
const MINUTE = 60_000;
/** 1 USDT. */
export const MIN_STAKE = SCALE;

export async function placeOption(
  ctx: Ctx,
  memberId: string,
  input: { spec: SymbolSpec; side: 'up' | 'down'; stake: Micro; period: number },
): Promise<OrderRow> {
  const payoutBps = ctx.config.optionPayoutBps[String(input.period)];
  if (payoutBps === undefined) {
    throw fail(400, `Period must be one of ${Object.keys(ctx.config.optionPayoutBps).join(', ')} seconds`);
  }
  if (input.stake < MIN_STAKE) throw fail(400, 'Stake must be at least 1 USDT');
  const id = await ctx.ids.next('tradeOrder');
  const hold = await ctx.ledger.hold({
    memberId,
    amount: input.stake,
    reason: 'option',
    ref: `order:${id}`,
    sub: 'options',
    insufficientCode: Codes.insufficientBalance,
  });
  const startAt = Math.ceil(ctx.now / MINUTE) * MINUTE;
  const expireAt = startAt + input.period * 1000;
  const order: OrderRow = {
    ...blankOrder(
      id,
      memberId,
      { spec: input.spec, side: 'buy', type: 'market', price: null, volume: input.stake },
      ctx.now,
    ),
    market: 'option',
    side: input.side,
    holdId: hold.id,
    period: input.period,
    startAt,
    expireAt,
    payoutBps,
  };
  ctx.tx.put(orders, order);
  await ctx.jobs.schedule(SETTLE_JOB, expireAt, { orderId: id });
  return order;
}

export type OptionResult = 'win' | 'lose' | 'draw';

export function optionResult(side: string, entry: Micro, exit: Micro): OptionResult {
  if (exit === entry) return 'draw';
  return (side === 'up') === exit > entry ? 'win' : 'lose';
}

export async function settleOption(ctx: Ctx, payload: unknown): Promise<void> {
  const orderId = (payload as { orderId?: unknown } | null)?.orderId;
  if (typeof orderId !== 'string') throw new TypeError('option.settle: bad payload');
  const order = await ctx.tx.get(orders, orderId);
  if (!order || order.status !== 'open' || order.market !== 'option' || !order.holdId) return;
  const spec = findSymbol(order.symbol);
  if (!spec || order.startAt === null || order.expireAt === null)
    throw new Error(`option ${orderId} is malformed`);
  const sim = marketOf(ctx);
  const entry = BigInt(sim.price(spec, order.startAt));
  const exit = BigInt(sim.price(spec, order.expireAt));
  const result = optionResult(order.side, entry, exit);
  const stake = BigInt(order.volume);
  let payout = 0n;
  if (result === 'lose') {
    await ctx.ledger.capture(order.holdId, HOUSE);
  } else {
    await ctx.ledger.release(order.holdId);
    payout = stake;
    if (result === 'win') {
      const profit = mulDiv(stake, BigInt(order.payoutBps ?? 0), 10_000n, 'floor');
      if (profit > 0n) {
        await ctx.ledger.move(HOUSE, acct.user(order.memberId, 'options'), profit, {
          kind: 'option:payout',
          ref: `order:${order.id}`,
        });
      }
      payout += profit;
    }
  }
  ctx.tx.put(orders, {
    ...order,
    status: 'settled',
    filled: order.volume,
    entryPrice: entry.toString(),
    exitPrice: exit.toString(),
    result,
    payout: payout.toString(),
    pnl: (payout - stake).toString(),
    updatedAt: ctx.now,
  });
  ctx.emit({ type: 'order', data: { memberId: order.memberId, id: order.id, status: 'settled' } });
}
