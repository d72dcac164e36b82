/**
 * Glue between the chain gateways and the engine's operations port (engine/operations.ts), independent of
 * the HTTP layer so the live server can mount it once its rewrite lands (docs/OPERATIONS.md):
 * - `watchRound`: one round of the deposit watcher for one gateway: the watched set is refreshed from the
 *   deposit addresses the engine handed out, then every change the gateway sees is reported to the engine.
 * - `sendApprovedWithdrawal`: a reviewer's approval: the withdrawal is claimed (once), the gateway sends it
 *   through the signer, and the engine records the real hash. If the broadcast surely failed, the claim is
 *   released so the withdrawal can be approved again or rejected; if its outcome is unknown
 *   (BroadcastUncertainError, with the hash), it stays claimed until the chain is checked for that hash: the
 *   signed transaction's hash was recorded on it before the broadcast, for the reconciler
 *   (server/chain/reconciler.ts).
 */
import type { EngineOperations } from '../../engine/index';
import {
  BroadcastUncertainError,
  forwardDeposits,
  type ChainGateway,
  type ChainNetwork,
  type ObservedDeposit,
} from './gateway';

export async function watchRound(
  gateway: ChainGateway,
  operations: Pick<EngineOperations, 'depositAddresses' | 'recordChainDeposit'>,
): Promise<ObservedDeposit[]> {
  gateway.watch(await operations.depositAddresses(gateway.network));
  return forwardDeposits(gateway, operations);
}

export type SendOutcome =
  | { sent: true; txHash: string }
  /** Not pending, already claimed by another approval, or no gateway for its network: nothing was sent. */
  | { sent: false; reason: 'not-claimable' | 'no-gateway' };

export async function sendApprovedWithdrawal(
  gateways: Partial<Record<ChainNetwork, ChainGateway>>,
  operations: Pick<
    EngineOperations,
    'claimWithdrawal' | 'releaseWithdrawal' | 'completeWithdrawal' | 'recordBroadcast'
  >,
  withdrawalId: string,
): Promise<SendOutcome> {
  const claim = await operations.claimWithdrawal(withdrawalId);
  if (!claim) return { sent: false, reason: 'not-claimable' };
  const gateway = gateways[claim.network];
  if (!gateway) {
    await operations.releaseWithdrawal(withdrawalId);
    return { sent: false, reason: 'no-gateway' };
  }
  let txHash: string;
  try {
    ({ txHash } = await gateway.sendWithdrawal({
      id: claim.id,
      to: claim.address,
      amount: claim.amount,
      // Recorded before the broadcast, so the reconciler (server/chain/reconciler.ts) can look it up. If the
      // claim is gone (an operator released it), this throws and nothing is broadcast.
      onSigned: async (sent) => {
        if (!(await operations.recordBroadcast(claim.id, sent)))
          throw new Error(
            'the withdrawal is no longer being sent (released meanwhile): nothing was broadcast',
          );
      },
    }));
  } catch (error) {
    // Unknown outcome: it stays claimed (neither re-sendable nor rejectable) until the hash is checked.
    if (error instanceof BroadcastUncertainError) throw error;
    // Refused before or by the broadcast (estimation, signing, the node's error answer): nothing is on chain.
    await operations.releaseWithdrawal(withdrawalId);
    throw error;
  }
  await operations.completeWithdrawal(withdrawalId, txHash);
  return { sent: true, txHash };
}
