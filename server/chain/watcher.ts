/**
 * Glue between the chain gateways and the engine's operations port (engine/operations.ts), apart from the
 * HTTP layer: `watchRound` (one deposit-watcher round for one gateway: refresh the watched addresses, report
 * every change) and `sendApprovedWithdrawal` (claim once, send through the signer, record the real hash;
 * release the claim when the broadcast surely failed, keep it for the reconciler when its outcome is
 * unknown). docs/OPERATIONS.md "The chain gateway".
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
