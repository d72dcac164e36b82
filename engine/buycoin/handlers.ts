/**
 * Quick buy (/api/buycoin/quote, /api/buycoin/buy): USDT from a simulated over-the-counter desk, paid in
 * a fiat currency. The desk's rate is a fixed reference rate plus a visible spread (S6). The fiat payment
 * goes through ctx.counterparties.payments: simulated in demo mode; in live mode quick buy answers 403
 * "Quick buy is not available" until a real payment provider adapter is configured (docs/OPERATIONS.md).
 * A paid charge credits the USDT from world:FIAT (outside money, like a deposit).
 */
import { z } from 'zod';
import type { Ctx } from '../context';
import type { PaymentProvider } from '../counterparties';
import { Codes, fail } from '../errors';
import { acct } from '../ledger';
import { formatAmount, mulDiv, units, type Micro } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { amount, body } from '../schema';

/** Reference fiat per 1 USDT, micro-units. */
export const FIAT_RATES: Readonly<Record<string, Micro>> = {
  USD: units(1),
  EUR: 920_000n,
  GBP: 790_000n,
  JPY: units(150),
  KRW: units(1_380),
  CNY: 7_200_000n,
  HKD: 7_800_000n,
  VND: units(25_400),
  RUB: units(92),
  TRY: units(34),
  IDR: units(15_900),
  BRL: 5_600_000n,
  THB: units(36),
  PLN: 4_000_000n,
  CZK: units(23),
  UAH: units(41),
  IRR: units(42_000),
  SAR: 3_750_000n,
};

export const SPREAD_BPS = 150n;
export const MIN_BUY = units(10);
export const MAX_BUY = units(50_000);

export interface BuycoinQuote {
  amount: string;
  currency: string;
  referenceRate: string;
  rate: string;
  /** Percent over the reference rate. */
  spread: string;
  total: string;
}

export function quoteFor(amountUsdt: Micro, currency: string): BuycoinQuote {
  const reference = FIAT_RATES[currency];
  if (reference === undefined) throw fail(400, `Unsupported currency ${currency}`);
  if (amountUsdt < MIN_BUY || amountUsdt > MAX_BUY) {
    throw fail(Codes.purchaseAmountMismatch, 'Quick buy amount must be between 10 and 50,000 USDT');
  }
  const rate = mulDiv(reference, 10_000n + SPREAD_BPS, 10_000n, 'ceil');
  return {
    amount: formatAmount(amountUsdt),
    currency,
    referenceRate: formatAmount(reference),
    rate: formatAmount(rate),
    spread: '1.50',
    total: formatAmount(mulDiv(amountUsdt, rate, units(1), 'ceil')),
  };
}

export const QUICK_BUY_OFF = 'Quick buy is not available';

function provider(ctx: Ctx): PaymentProvider {
  const payments = ctx.counterparties.payments;
  if (!payments) throw fail(Codes.denied, QUICK_BUY_OFF);
  return payments;
}

const input = body({
  amount,
  currency: z
    .string()
    .max(8)
    .transform((c) => c.toUpperCase()),
});

export const buycoinDomain: Domain = {
  name: 'buycoin',
  handlers: {
    '/api/buycoin/quote': handler({
      auth: true,
      body: input,
      run: async (ctx, i) => {
        provider(ctx);
        return quoteFor(i.amount, i.currency);
      },
    }),
    '/api/buycoin/buy': handler({
      auth: true,
      body: input,
      run: async (ctx, i) => {
        const payments = provider(ctx);
        const quote = quoteFor(i.amount, i.currency);
        const id = await ctx.ids.next('buycoin');
        const paid = await payments.charge({
          orderId: id,
          memberId: ctx.member.id,
          amount: i.amount,
          currency: quote.currency,
          total: quote.total,
        });
        if (paid.status !== 'paid') throw fail(Codes.message, `Payment declined: ${paid.reason}`);
        await ctx.ledger.move(acct.world('FIAT'), acct.user(ctx.member.id), i.amount, {
          kind: 'buycoin',
          ref: `buycoin:${id}`,
        });
        return { id, ...quote, status: 'success', time: ctx.nowSec };
      },
    }),
  },
};
