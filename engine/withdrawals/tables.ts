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
}

export const withdrawals = defineTable<WithdrawalRow>('withdrawals', { member: (w) => w.memberId });
