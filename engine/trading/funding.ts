/**
 * Funding (docs/RULES.md K12, docs/TRADING.md "Funding"): at 00:00, 08:00 and 16:00 UTC every position open
 * before pays or receives notional-at-mark x funding rate (positive: longs pay), one balanced entry with
 * house:market, the payer's amount rounded up and the receiver's down. Isolated positions pay from their
 * margin, cross ones from the free balance first. Each payment is a fundingPayments row; one that would take
 * everything behind a position liquidates it at that funding time instead.
 */
import type { Ctx } from '../context';
import { notify } from '../devices/notices';
import { acct } from '../ledger';
import { findSymbol } from '../market/symbols';
import { formatAmount, mulDiv, PPM, type Micro } from '../money';
import { defineTable } from '../store/port';
import { notional } from './margin';
import { FUNDING_INTERVAL_MS } from './mark';
import { liquidate } from './risk';
import { HOUSE } from './settlement';
import { positions, type PositionRow } from './tables';

export interface FundingRow {
  id: string;
  memberId: string;
  positionId: string;
  symbol: string;
  /** Funding time, ms. */
  at: number;
  /** Rate in parts per million (100 = 0.01%). */
  ratePpm: number;
  markPrice: string;
  /** Signed micro-USDT: positive paid by the member, negative received. */
  amount: string;
}

export const fundingPayments = defineTable<FundingRow>('fundingPayments', {
  member: (r) => r.memberId,
  position: (r) => r.positionId,
});

/** The signed amount a position pays (positive) or receives (negative) at a funding time. */
export function fundingAmount(side: PositionRow['side'], size: Micro, ratePpm: number): Micro {
  const rate = BigInt(ratePpm);
  const pays = (side === 'long') === rate > 0n;
  const magnitude = mulDiv(size, rate < 0n ? -rate : rate, PPM, pays ? 'ceil' : 'floor');
  return pays ? magnitude : -magnitude;
}

/** What a position can pay from: its margin (isolated), or the free balance and its margin (cross). */
async function payable(ctx: Ctx, position: PositionRow): Promise<Micro> {
  const margin = BigInt(position.margin);
  if (position.marginMode === 'isolated') return margin;
  return (await ctx.ledger.balance(acct.user(position.memberId, 'contract'))) + margin;
}

async function pay(ctx: Ctx, position: PositionRow, amount: Micro, ref: string): Promise<Micro> {
  const contract = acct.user(position.memberId, 'contract');
  const margin = BigInt(position.margin);
  if (amount === 0n) return 0n;
  await ctx.ledger.release(position.holdId);
  let next = margin;
  let moved: Micro;
  if (amount < 0n) {
    moved = amount;
    await ctx.ledger.move(HOUSE, contract, -amount, { kind: 'contract:funding', ref });
    if (position.marginMode === 'isolated') next = margin - amount;
  } else {
    const free = (await ctx.ledger.balance(contract)) - margin;
    const limit = position.marginMode === 'isolated' ? margin : free + margin;
    moved = amount < limit ? amount : limit;
    if (moved > 0n) await ctx.ledger.move(contract, HOUSE, moved, { kind: 'contract:funding', ref });
    const fromMargin = position.marginMode === 'isolated' ? moved : moved > free ? moved - free : 0n;
    next = margin - fromMargin;
  }
  const row: PositionRow = {
    ...position,
    margin: next.toString(),
    fundingPaid: (BigInt(position.fundingPaid ?? '0') + moved).toString(),
  };
  if (next > 0n) {
    const hold = await ctx.ledger.hold({
      memberId: position.memberId,
      amount: next,
      reason: 'position',
      ref: `position:${position.id}`,
      sub: 'contract',
    });
    row.holdId = hold.id;
  }
  ctx.tx.put(positions, row);
  return moved;
}

/** The `trading.funding` hook: every funding time in (from, to]. */
export async function settleFunding(ctx: Ctx, window: { from: number; to: number }): Promise<void> {
  const market = ctx.counterparties.market;
  if (!market) return;
  const first = Math.floor(window.from / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS + FUNDING_INTERVAL_MS;
  for (let at = first; at <= window.to; at += FUNDING_INTERVAL_MS) {
    // Each member's payments at this funding time, told in one notice (the notification centre).
    const byMember = new Map<string, { amount: Micro; count: number }>();
    const open = await ctx.tx.query(positions, 'open', 'open');
    for (const p of open.sort((a, b) => Number(a.id) - Number(b.id))) {
      const current = await ctx.tx.get(positions, p.id);
      if (!current || current.status !== 'open' || current.openedAt >= at) continue;
      // The price watch settles a funding time that falls inside its window where it falls (watch.ts):
      // a position pays once per funding time.
      const paid = await ctx.tx.query(fundingPayments, 'position', current.id);
      if (paid.some((r) => r.at === at)) continue;
      const spec = findSymbol(current.symbol);
      if (!spec) continue;
      const ratePpm = market.fundingRate(spec, at);
      const mark = market.markPrice(spec, at);
      const amount = fundingAmount(current.side, notional(BigInt(current.volume), mark), ratePpm);
      if (amount > 0n && amount >= (await payable(ctx, current))) {
        // Funding would take everything behind the position (a long gap at a steady rate can): it is
        // liquidated at that funding time instead, before the payment.
        await liquidate(ctx, current, at);
        continue;
      }
      const id = await ctx.ids.next('funding');
      const moved = await pay(ctx, current, amount, `funding:${id}`);
      ctx.tx.put(fundingPayments, {
        id,
        memberId: current.memberId,
        positionId: current.id,
        symbol: current.symbol,
        at,
        ratePpm,
        markPrice: mark.toString(),
        amount: moved.toString(),
      });
      const sum = byMember.get(current.memberId) ?? { amount: 0n, count: 0 };
      byMember.set(current.memberId, { amount: sum.amount + moved, count: sum.count + 1 });
    }
    for (const [memberId, sum] of [...byMember].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (sum.amount === 0n) continue;
      // Positive: the member paid; negative: received (as /api/position/funding's amount).
      await notify(ctx, memberId, 'funding.settled', {
        amount: formatAmount(sum.amount),
        positions: String(sum.count),
        time: String(Math.floor(at / 1000)),
      });
    }
  }
}
