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
}

export const withdrawals = defineTable<WithdrawalRow>('withdrawals', { member: (w) => w.memberId });
