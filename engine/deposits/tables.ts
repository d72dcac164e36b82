/** Deposit records. Amounts are micro-unit integer strings, times ms (engine/README.md). */
import type { Network } from '../chain/addresses';
import { defineTable } from '../store/port';
import type { DepositSource, DepositStatus } from './rules';

export interface DepositRow {
  id: string;
  memberId: string;
  currency: 'USDT';
  network: Network;
  address: string;
  amount: string;
  source: DepositSource;
  status: DepositStatus;
  /** Lower-case; unique among deposits that are not rejected (D3). */
  txid: string | null;
  proof: string | null;
  /** Chain deposits only: the including block. */
  includedHeight: number | null;
  /** Chain deposits only: confirmations required when it was seen. */
  required: number | null;
  /** Chain deposits reported by a real chain gateway (live): the confirmations last observed. */
  confirmations?: number | null;
  /** An operator's reason for rejecting a manual deposit (engine/operations.ts). */
  reason?: string | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * A deposit observed by a chain gateway (engine/operations.ts), keyed `<network>:<txHash>:<logIndex>`: a
 * transfer is recorded once and credited once, however often the gateway reports it.
 */
export interface ChainDepositRow {
  id: string;
  depositId: string;
  status: 'pending' | 'confirmed' | 'dropped';
  updatedAt: number;
}

export const chainDeposits = defineTable<ChainDepositRow>('chainDeposits');

export const deposits = defineTable<DepositRow>('deposits', {
  member: (d) => d.memberId,
  txid: (d) => d.txid,
});
