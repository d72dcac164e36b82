/** Wire views of finance records (API.md: amounts as decimal strings, times as Unix seconds). */
import { toSeconds } from '../context';
import { formatAmount } from '../money';
import type { Micro } from '../money';
import { bpsToPercent, earningsThrough, nominalDaily } from './accrual';
import { DAY_MS, rateFor, roundOf, type ProductSpec } from './catalogue';
import type { FinanceOrderRow, ProfitRow } from './tables';

export interface ProductView {
  id: string;
  name: string;
  type: string;
  currency: string;
  /** Price of one share: amounts are in USDT. */
  price: string;
  startTime: number;
  endTime: number;
  min: string;
  max: string;
  startAmount: string;
  personalLimit: string;
  personalRemaining: string;
  totalAmount: string;
  remaining: string;
  termDays: number;
  /** Daily rate in percent (annual / 365), four decimals. */
  interestRate: string;
  /** Annual rate in percent for the member's VIP level. */
  annualRate: string;
  rates: { vip: number; annualRate: string }[];
  /** For the minimum amount over the whole term. */
  expectedReturn: string;
  /** For the minimum amount. */
  dailyEarnings: string;
  /** If bought now. */
  redemptionDay: number;
  interestDate: number;
  vipMin: number;
  establishedOnly: boolean;
  earlyRedemption: false;
  status: 'open' | 'sold out';
}

export function productView(
  product: ProductSpec,
  ctx: { now: number; vip: number; termDays: number; sold: Micro; held: Micro },
): ProductView {
  const rate = rateFor(product, ctx.vip);
  const round = roundOf(ctx.now);
  const remaining = product.roundAmount - ctx.sold;
  const personal = product.personalLimit - ctx.held;
  return {
    id: product.id,
    name: product.name,
    type: product.type,
    currency: product.currency,
    price: '1',
    startTime: toSeconds(round.start),
    endTime: toSeconds(round.end),
    min: formatAmount(product.min),
    max: formatAmount(product.max),
    startAmount: formatAmount(product.min),
    personalLimit: formatAmount(product.personalLimit),
    personalRemaining: formatAmount(personal > 0n ? personal : 0n),
    totalAmount: formatAmount(product.roundAmount),
    remaining: formatAmount(remaining > 0n ? remaining : 0n),
    termDays: ctx.termDays,
    interestRate: dailyPercent(rate),
    annualRate: bpsToPercent(rate),
    rates: product.ratesBps.map((bps, i) => ({ vip: i + 1, annualRate: bpsToPercent(bps) })),
    expectedReturn: formatAmount(earningsThrough(product.min, rate, ctx.termDays)),
    dailyEarnings: formatAmount(nominalDaily(product.min, rate)),
    redemptionDay: toSeconds(ctx.now + ctx.termDays * DAY_MS),
    interestDate: toSeconds(ctx.now + DAY_MS),
    vipMin: 1,
    establishedOnly: product.establishedOnly,
    earlyRedemption: false,
    status: remaining >= product.min ? 'open' : 'sold out',
  };
}

/** Annual bps -> daily percent with four decimals: 1200 -> "0.0329". */
function dailyPercent(bps: number): string {
  const units = Math.round((bps * 100) / 365);
  return `${Math.floor(units / 10_000)}.${String(units % 10_000).padStart(4, '0')}`;
}

export interface FinanceOrderView {
  id: string;
  productId: string;
  productName: string;
  amount: string;
  annualRate: string;
  termDays: number;
  daysCredited: number;
  /** The most recent day's credit (before the first credit: the nominal daily figure). */
  dailyEarnings: string;
  cumulativeEarnings: string;
  expectedReturn: string;
  startTime: number;
  redemptionDay: number;
  /** Next credit time, null once redeemed. */
  interestDate: number | null;
  status: 'active' | 'redeemed';
  result: string | null;
}

export function orderView(o: FinanceOrderRow): FinanceOrderView {
  const principal = BigInt(o.amount);
  return {
    id: o.id,
    productId: o.productId,
    productName: o.productName,
    amount: formatAmount(principal),
    annualRate: bpsToPercent(o.rateBps),
    termDays: o.termDays,
    daysCredited: o.daysCredited,
    dailyEarnings: formatAmount(BigInt(o.lastDaily)),
    cumulativeEarnings: formatAmount(BigInt(o.earned)),
    expectedReturn: formatAmount(earningsThrough(principal, o.rateBps, o.termDays)),
    startTime: toSeconds(o.startAt),
    redemptionDay: toSeconds(o.redeemAt),
    interestDate: o.status === 'active' ? toSeconds(o.startAt + (o.daysCredited + 1) * DAY_MS) : null,
    status: o.status,
    result: o.status === 'redeemed' ? formatAmount(principal + BigInt(o.earned)) : null,
  };
}

export interface ProfitView {
  id: string;
  type: string;
  amount: string;
  ref: string;
  note: string;
  time: number;
}

export function profitView(p: ProfitRow): ProfitView {
  return {
    id: p.id,
    type: p.type,
    amount: formatAmount(BigInt(p.amount)),
    ref: p.ref,
    note: p.note,
    time: toSeconds(p.at),
  };
}
