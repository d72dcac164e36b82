/**
 * What the chain domain stores: the deposit addresses handed out (so a payment can be traced to its
 * member) and every simulated on-chain transfer (deposits in, withdrawals out). Amounts are micro-unit
 * integer strings, times ms (engine/README.md).
 */
import { defineTable } from '../store/port';
import type { Network } from './addresses';

export interface DepositAddressRow {
  /** `<network>:<address>`, the address in canonical form (EIP-55 for Ethereum). */
  id: string;
  memberId: string;
  network: Network;
  address: string;
  createdAt: number;
}

export const depositAddresses = defineTable<DepositAddressRow>('depositAddresses', {
  member: (r) => `${r.memberId}:${r.network}`,
});

export function depositAddressId(network: Network, address: string): string {
  return `${network}:${address}`;
}

export interface ChainTxRow {
  id: string;
  network: Network;
  /** The transaction hash (lower-case hex; 0x-prefixed on ERC20). */
  hash: string;
  direction: 'in' | 'out';
  /** The receiving address: a member's deposit address (in) or an outside wallet (out). */
  address: string;
  amount: string;
  includedHeight: number;
  sentAt: number;
  /** The deposit or withdrawal record it belongs to; null for a payment to an address nobody owns. */
  recordId: string | null;
}

export const chainTxs = defineTable<ChainTxRow>('chainTxs', { hash: (r) => r.hash });
