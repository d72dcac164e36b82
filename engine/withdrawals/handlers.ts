/**
 * Withdrawals (API.md): the fee quote, submission (held, answered with 911) and the member's records.
 * Submission checks in this order, each with its own code: body schema (400), minimum (410), address for
 * the network (420 invalid, 421 other network), the address book (6124 the member's own deposit address; with
 * the whitelist on, 6126 not saved, 6127 still on hold: addressbook/rules.ts), security key (20041, 3007, 430, 431), the second factor of a
 * member with two-factor authentication (6101-6104, 6110-6112: twofactor/require.ts), available balance
 * (4011); then the amount is frozen and the review is scheduled (docs/RULES.md W1-W6).
 */
import { z } from 'zod';
import { networkSchema, requireAddress } from '../chain/schema';
import { Codes, fail } from '../errors';
import { formatAmount } from '../money';
import { handler, reply } from '../router';
import type { Domain } from '../routes';
import { amount, body, listBody, newestFirst, paginate } from '../schema';
import { requireKey } from '../security/key';
import { requireDestination } from '../addressbook/rules';
import { requireSecondFactor, secondFactorShape } from '../twofactor/require';
import { reviewWithdrawalJob, WITHDRAW_REVIEW_JOB } from './review';
import { effectiveMinimum, quoteFee } from './rules';
import { withdrawals, type WithdrawalRow } from './tables';
import type { WithdrawFeeQuote, WithdrawalRecord } from './types';
import { withdrawalView } from './view';

const feeHandler = handler({
  auth: true,
  body: body({ network: networkSchema, amount }),
  run: async (ctx, input): Promise<WithdrawFeeQuote> => {
    const quote = quoteFee(ctx.config, input.network, input.amount);
    return {
      fee: formatAmount(quote.feeMicro),
      received: formatAmount(quote.receivedMicro),
      minimum: formatAmount(quote.minimumMicro),
    };
  },
});

const submitHandler = handler({
  auth: true,
  body: body({
    currency: z.enum(['USDT'], { message: 'currency must be "USDT"' }),
    network: networkSchema,
    address: z.string().max(200),
    amount,
    key: z.string().max(200),
    ...secondFactorShape,
  }),
  run: async (ctx, input) => {
    const minimum = effectiveMinimum(ctx.config, input.network);
    if (input.amount < minimum) {
      throw fail(Codes.withdrawBelowMinimum, `${formatAmount(minimum)} USDT`, {
        minimum: formatAmount(minimum),
      });
    }
    const address = requireAddress(input.network, input.address);
    await requireDestination(ctx, ctx.member, input.network, address);
    await requireKey(ctx, ctx.member, input.key, { withdrawal: true });
    await requireSecondFactor(ctx, ctx.member, 'withdraw', input);
    const id = await ctx.ids.next('withdrawal');
    const hold = await ctx.ledger.hold({
      memberId: ctx.member.id,
      amount: input.amount,
      reason: 'withdrawal',
      ref: `withdrawal:${id}`,
      insufficientCode: Codes.insufficientBalance,
    });
    const quote = quoteFee(ctx.config, input.network, input.amount);
    const row: WithdrawalRow = {
      id,
      memberId: ctx.member.id,
      currency: 'USDT',
      network: input.network,
      address,
      amount: input.amount.toString(),
      fee: quote.feeMicro.toString(),
      received: quote.receivedMicro.toString(),
      status: 'pending',
      holdId: hold.id,
      txid: null,
      reason: null,
      createdAt: ctx.now,
      reviewAt: ctx.now + ctx.config.withdrawReviewMs,
      finishedAt: null,
    };
    ctx.tx.put(withdrawals, row);
    // Demo: the simulated reviewer decides at reviewAt. Live: it waits for an operator's review.
    if (ctx.counterparties.reviewer) {
      await ctx.jobs.schedule(WITHDRAW_REVIEW_JOB, row.reviewAt, { withdrawalId: id });
    }
    ctx.emit({ type: 'withdrawal', data: { memberId: row.memberId, id, status: row.status } });
    const record: WithdrawalRecord = withdrawalView(row);
    return reply(Codes.withdrawSubmitted, record, 'Withdrawal submitted, awaiting review');
  },
});

const listHandler = handler({
  auth: true,
  body: listBody,
  run: async (ctx, input) => {
    const rows = newestFirst(await ctx.tx.query(withdrawals, 'member', ctx.member.id));
    const page = paginate(rows, input);
    return { ...page, list: page.list.map(withdrawalView) };
  },
});

export const withdrawalsDomain: Domain = {
  name: 'withdrawals',
  handlers: {
    '/api/withdraw/fee': feeHandler,
    '/api/withdraw/submit': submitHandler,
    '/api/withdraw/list': listHandler,
  },
  jobs: { [WITHDRAW_REVIEW_JOB]: reviewWithdrawalJob },
};
