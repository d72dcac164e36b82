/**
 * Subscribing to a product and the daily accrual job. Money moves as ledger postings: the principal goes
 * from the member's cash to their financial sub-account and is frozen there for the term; each day's
 * earnings come from `house:finance` (the simulated fund manager that pays the yield); on the redemption
 * day the hold is released and the principal goes back to cash. Each step is one unit of work.
 *
 * Accrual is one job per subscription-day, chained: day d's job credits day d and schedules day d+1. Jobs
 * run as of their due time, so an engine closed for 40 days credits each missed day exactly once, in order,
 * with the profit-log time of the day it belongs to (F4).
 */
import { effectiveVip, type MemberRow } from '../accounts/tables';
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { acct } from '../ledger/accounts';
import type { Micro } from '../money';
import { requireKey } from '../security/key';
import { earningsOfDay, nominalDaily } from './accrual';
import { DAY_MS, findProduct, rateFor, roundOf } from './catalogue';
import { financeOrders, financeRounds, profitLog, type FinanceOrderRow, type ProfitType } from './tables';

export const ACCRUE_JOB = 'finance.accrue';
export const FINANCE_HOUSE = acct.house('finance');

export interface AccruePayload {
  orderId: string;
  day: number;
}

export async function soldThisRound(ctx: Ctx, productId: string): Promise<Micro> {
  const row = await ctx.tx.get(financeRounds, `${productId}:${roundOf(ctx.now).round}`);
  return row ? BigInt(row.sold) : 0n;
}

export async function heldInProduct(ctx: Ctx, memberId: string, productId: string): Promise<Micro> {
  const active = await ctx.tx.query(financeOrders, 'memberProduct', `${memberId}:${productId}`);
  return active.reduce((sum, o) => sum + BigInt(o.amount), 0n);
}

export async function subscribe(
  ctx: Ctx,
  member: MemberRow,
  input: { id: string; amount: Micro; key: string },
): Promise<FinanceOrderRow> {
  const product = findProduct(input.id);
  if (!product) throw fail(Codes.notFound, 'Product not found');
  const vip = effectiveVip(member, ctx.now);
  if (vip < 1) throw fail(Codes.vipInsufficient, 'Managed finance needs VIP1 or above');
  if (product.establishedOnly && ctx.now - member.createdAt < ctx.config.establishedMemberMs) {
    throw fail(
      Codes.newUserRestricted,
      'New accounts cannot buy this product: please contact customer service',
    );
  }
  const amount = input.amount;
  if (amount < product.min || amount > product.max) {
    throw fail(Codes.purchaseAmountMismatch, 'Amount is outside the minimum and maximum of this product');
  }
  if ((await heldInProduct(ctx, member.id, product.id)) + amount > product.personalLimit) {
    throw fail(Codes.purchaseAmountMismatch, 'Amount exceeds your personal limit for this product');
  }
  const sold = await soldThisRound(ctx, product.id);
  if (sold + amount > product.roundAmount) {
    throw fail(Codes.purchaseAmountMismatch, 'Amount exceeds what is left in this round');
  }
  await requireKey(ctx, member, input.key);

  const id = await ctx.ids.next('financeOrder');
  await ctx.ledger.move(acct.user(member.id, 'cash'), acct.user(member.id, 'financial'), amount, {
    kind: 'finance:subscribe',
    ref: `finance:${id}`,
    insufficientCode: Codes.insufficientBalance,
  });
  const hold = await ctx.ledger.hold({
    memberId: member.id,
    amount,
    reason: 'finance',
    ref: `finance:${id}`,
    sub: 'financial',
  });
  const rateBps = rateFor(product, vip);
  const termDays = ctx.config.financeTermDays;
  const order: FinanceOrderRow = {
    id,
    memberId: member.id,
    productId: product.id,
    productName: product.name,
    amount: amount.toString(),
    rateBps,
    termDays,
    daysCredited: 0,
    earned: '0',
    lastDaily: nominalDaily(amount, rateBps).toString(),
    startAt: ctx.now,
    redeemAt: ctx.now + termDays * DAY_MS,
    holdId: hold.id,
    status: 'active',
    redeemedAt: null,
  };
  ctx.tx.put(financeOrders, order);
  ctx.tx.put(financeRounds, {
    id: `${product.id}:${roundOf(ctx.now).round}`,
    sold: (sold + amount).toString(),
  });
  await ctx.jobs.schedule(ACCRUE_JOB, order.startAt + DAY_MS, {
    orderId: id,
    day: 1,
  } satisfies AccruePayload);
  return order;
}

export async function addProfit(
  ctx: Ctx,
  entry: { memberId: string; type: ProfitType; amount: Micro; ref: string; note: string },
): Promise<void> {
  ctx.tx.put(profitLog, {
    id: await ctx.ids.next('profit'),
    memberId: entry.memberId,
    type: entry.type,
    amount: entry.amount.toString(),
    ref: entry.ref,
    note: entry.note,
    at: ctx.now,
  });
}

function isAccruePayload(value: unknown): value is AccruePayload {
  const v = value as Partial<AccruePayload> | null;
  return !!v && typeof v.orderId === 'string' && typeof v.day === 'number';
}

/** Credits day `day` of a subscription; on the last day also returns the principal. Idempotent. */
export async function accrue(ctx: Ctx, payload: unknown): Promise<void> {
  if (!isAccruePayload(payload)) throw new TypeError('finance.accrue: bad payload');
  const order = await ctx.tx.get(financeOrders, payload.orderId);
  if (!order || order.status !== 'active' || order.daysCredited >= payload.day) return;
  const principal = BigInt(order.amount);
  const credit = earningsOfDay(principal, order.rateBps, payload.day);
  const cash = acct.user(order.memberId, 'cash');
  const ref = `finance:${order.id}:day${payload.day}`;
  if (credit > 0n) {
    await ctx.ledger.move(FINANCE_HOUSE, cash, credit, { kind: 'finance:interest', ref });
    await addProfit(ctx, {
      memberId: order.memberId,
      type: 'finance',
      amount: credit,
      ref: order.id,
      note: `${order.productName} day ${payload.day}/${order.termDays}`,
    });
  }
  const next: FinanceOrderRow = {
    ...order,
    daysCredited: payload.day,
    earned: (BigInt(order.earned) + credit).toString(),
    lastDaily: credit.toString(),
  };
  if (payload.day >= order.termDays) {
    await ctx.ledger.release(order.holdId);
    await ctx.ledger.move(acct.user(order.memberId, 'financial'), cash, principal, {
      kind: 'finance:redeem',
      ref: `finance:${order.id}`,
    });
    next.status = 'redeemed';
    next.redeemedAt = ctx.now;
  } else {
    await ctx.jobs.schedule(ACCRUE_JOB, order.startAt + (payload.day + 1) * DAY_MS, {
      orderId: order.id,
      day: payload.day + 1,
    } satisfies AccruePayload);
  }
  ctx.tx.put(financeOrders, next);
  ctx.emit({ type: 'order', data: { memberId: order.memberId, kind: 'finance', id: order.id } });
}
