/**
 * What the platform's chain watcher does when a payment lands on the simulated chain: a payment to an
 * address handed out to a member becomes that member's pending deposit, credited by a job at its N-th
 * confirmation (D2); a payment anywhere else is none of the platform's business (D4). Used by the demo
 * chain and by sent withdrawals, so a withdrawal to a member's deposit address arrives as a deposit, as it
 * would on a real chain.
 */
import type { Network } from '../chain/addresses';
import { chainOf, ownerOfAddress } from '../chain/domain';
import type { ChainTx } from '../chain/simulator';
import type { Ctx } from '../context';
import { DEPOSIT_CONFIRM_JOB } from './credit';
import { deposits } from './tables';

/** Returns the id of the deposit record created, or null when nobody owns the address. */
export async function watchPayment(
  ctx: Ctx,
  network: Network,
  address: string,
  amount: bigint,
  tx: ChainTx,
): Promise<string | null> {
  const owner = await ownerOfAddress(ctx, network, address);
  if (owner === undefined) return null;
  const chain = chainOf(ctx, network);
  const id = await ctx.ids.next('deposit');
  ctx.tx.put(deposits, {
    id,
    memberId: owner,
    currency: 'USDT',
    network,
    address,
    amount: amount.toString(),
    source: 'chain',
    status: 'pending',
    txid: tx.hash,
    proof: null,
    includedHeight: tx.includedHeight,
    required: chain.params.confirmations,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.jobs.schedule(DEPOSIT_CONFIRM_JOB, chain.confirmedAtMs(tx.includedHeight), { depositId: id });
  ctx.emit({ type: 'deposit', data: { memberId: owner, id, status: 'pending' } });
  return id;
}
