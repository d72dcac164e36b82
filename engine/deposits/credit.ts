/**
 * Crediting: the one place a deposit becomes money. Both the chain-confirmation job and the simulated
 * reviewer's job end here, inside their own unit of work, and only a pending record can be credited (D2),
 * so a job that runs twice, or a record reached by both paths, is credited exactly once.
 */
import { z } from 'zod';
import type { Ctx } from '../context';
import type { JobRunner } from '../jobs';
import { notify } from '../devices/notices';
import { acct } from '../ledger/accounts';
import { formatAmount } from '../money';
import { canCredit } from './rules';
import { deposits } from './tables';

export const DEPOSIT_CONFIRM_JOB = 'deposits.confirm';
export const DEPOSIT_REVIEW_JOB = 'deposits.review';

const payload = z.object({ depositId: z.string() });

/** Credits a pending deposit: world:<network> -> the member's cash; the record moves to success. */
export async function creditDeposit(ctx: Ctx, depositId: string): Promise<boolean> {
  const row = await ctx.tx.get(deposits, depositId);
  if (!row || !canCredit(row.status)) return false;
  await ctx.ledger.move(acct.world(row.network), acct.user(row.memberId), BigInt(row.amount), {
    kind: 'deposit',
    ref: `deposit:${row.id}`,
  });
  ctx.tx.put(deposits, { ...row, status: 'success', updatedAt: ctx.now });
  ctx.emit({ type: 'deposit', data: { memberId: row.memberId, id: row.id, status: 'success' } });
  await notify(ctx, row.memberId, 'deposit.credited', {
    id: row.id,
    amount: formatAmount(BigInt(row.amount)),
    network: row.network,
  });
  return true;
}

/** Due when the payment reaches its network's confirmations (SimulatedChain.confirmedAtMs). */
export const confirmDepositJob: JobRunner = async (ctx, data) => {
  await creditDeposit(ctx, payload.parse(data).depositId);
};

/** The simulated reviewer of manual deposits: it accepts what it is shown, after config.rechargeReviewMs. */
export const reviewDepositJob: JobRunner = async (ctx, data) => {
  // A job scheduled in demo mode never credits on an engine reopened live: an operator decides there.
  if (!ctx.counterparties.reviewer) return;
  await creditDeposit(ctx, payload.parse(data).depositId);
};
