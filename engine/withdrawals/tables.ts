/** Withdrawal records. Amounts are micro-unit integer strings, times ms (engine/README.md). */
import type { Network } from '../chain/addresses';
import { defineTable } from '../store/port';

export interface WithdrawalRow {
  id: string;
  memberId: string;
  currency: 'USDT';
  network: Network;
  address: string;
  amount: string;
  fee: string;
  received: string;
  status: 'pending' | 'success' | 'rejected';
  /** The ledger hold freezing `amount` until review captures or releases it (W3, W4). */
  holdId: string;
  txid: string | null;
  reason: string | null;
  createdAt: number;
  reviewAt: number;
  finishedAt: number | null;
  /**
   * Live mode: when a reviewer's approval handed it to the chain gateway (engine/operations.ts
   * claimWithdrawal). While set it cannot be claimed again nor rejected: it may already be on chain.
   */
  sendingSince?: number | null;
  /**
   * Live mode, while it is being sent: the signed transaction the gateway was about to broadcast (recorded
   * before the broadcast, engine/operations.ts recordBroadcast), so a broadcast whose outcome is unknown can
   * be looked up on chain later (server/chain/reconciler.ts). Cleared when completed or released.
   */
  broadcast?: WithdrawalBroadcast | null;
}

export interface WithdrawalBroadcast {
  /** Lower-case transaction hash, as checkTxid answers it. */
  txHash: string;
  /** The EVM nonce it was signed with; null on TRON. */
  nonce: number | null;
  at: number;
}

export const withdrawals = defineTable<WithdrawalRow>('withdrawals', {
  member: (w) => w.memberId,
  // The withdrawals being sent, by network: what the reconciler of uncertain broadcasts reads.
  sending: (w) =>
    w.status === 'pending' && w.sendingSince !== undefined && w.sendingSince !== null ? w.network : null,
});
