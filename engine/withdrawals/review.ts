/**
 * The simulated review of a withdrawal, due config.withdrawReviewMs after submission. It either sends the
 * withdrawal (the hold is captured: the fee to the platform's fee account, the rest to the outside world of
 * its network, and the simulated chain gives it a hash) or rejects it (the hold is released). Only a
 * pending record is reviewed and each hold closes once (ledger L6), so the review happens exactly once.
 */
import { z } from 'zod';
import { chainOf } from '../chain/domain';
import { simulatedSigner } from '../chain/signer';
import { chainTxs } from '../chain/tables';
import type { Ctx } from '../context';
import { watchPayment } from '../deposits/incoming';
import type { JobRunner } from '../jobs';
import { notify } from '../devices/notices';
import { acct } from '../ledger/accounts';
import { formatAmount } from '../money';
import { review } from './rules';
import { withdrawals, type WithdrawalRow } from './tables';

export const WITHDRAW_REVIEW_JOB = 'withdrawals.review';

/** Where a captured withdrawal passes through on its way out, so one entry can split fee and payout. */
export const WITHDRAW_TRANSIT = acct.platform('withdrawals-transit');
export const FEE_ACCOUNT = acct.platform('fees');

const payload = z.object({ withdrawalId: z.string() });

/** The hold is captured: the fee to the platform's fee account, the rest out to the network's world. */
export async function captureWithdrawal(ctx: Ctx, row: WithdrawalRow): Promise<void> {
  await ctx.ledger.capture(row.holdId, WITHDRAW_TRANSIT);
  const legs = [
    { account: WITHDRAW_TRANSIT, amount: -BigInt(row.amount) },
    { account: acct.world(row.network), amount: BigInt(row.received) },
    { account: FEE_ACCOUNT, amount: BigInt(row.fee) },
  ].filter((leg) => leg.amount !== 0n);
  await ctx.ledger.post('withdrawal', `withdrawal:${row.id}`, legs);
}

/** The demo's send: captured, then broadcast on the simulated chain. */
async function send(ctx: Ctx, row: WithdrawalRow): Promise<WithdrawalRow> {
  await captureWithdrawal(ctx, row);
  const txId = await ctx.ids.next('chainTx');
  // Sent through the Signer interface (engine/chain/signer.ts); the demo's signer is the simulated chain.
  const tx = await simulatedSigner(chainOf(ctx, row.network)).send(
    { orderId: row.id, network: row.network, to: row.address, amount: row.received },
    ctx.now,
  );
  ctx.tx.put(chainTxs, {
    id: txId,
    network: row.network,
    hash: tx.hash,
    direction: 'out',
    address: row.address,
    amount: row.received,
    includedHeight: tx.includedHeight,
    sentAt: ctx.now,
    recordId: row.id,
  });
  // The chain delivers `received`: to a member's deposit address it arrives as that member's deposit.
  await watchPayment(ctx, row.network, row.address, BigInt(row.received), tx);
  return { ...row, status: 'success', txid: tx.hash, finishedAt: ctx.now };
}

export async function reject(ctx: Ctx, row: WithdrawalRow, reason: string): Promise<WithdrawalRow> {
  await ctx.ledger.release(row.holdId);
  return { ...row, status: 'rejected', reason, finishedAt: ctx.now };
}

export async function reviewWithdrawal(ctx: Ctx, withdrawalId: string): Promise<boolean> {
  const row = await ctx.tx.get(withdrawals, withdrawalId);
  if (!row || row.status !== 'pending') return false;
  const verdict = review(ctx.config, row.address, BigInt(row.amount));
  const done = verdict.send ? await send(ctx, row) : await reject(ctx, row, verdict.reason);
  ctx.tx.put(withdrawals, done);
  ctx.emit({ type: 'withdrawal', data: { memberId: row.memberId, id: row.id, status: done.status } });
  if (done.status === 'success') await notifySent(ctx, done);
  return true;
}

export const reviewWithdrawalJob: JobRunner = async (ctx, data) => {
  // Only the demo's simulated reviewer decides by itself (engine/counterparties.ts).
  if (!ctx.counterparties.reviewer) return;
  await reviewWithdrawal(ctx, payload.parse(data).withdrawalId);
};

/** The member's notice of a withdrawal that left (the demo's reviewer, or an operator's broadcast). */
export async function notifySent(ctx: Ctx, row: WithdrawalRow): Promise<void> {
  await notify(ctx, row.memberId, 'withdrawal.sent', {
    id: row.id,
    amount: formatAmount(BigInt(row.received)),
    network: row.network,
    txid: row.txid ?? '',
  });
}
