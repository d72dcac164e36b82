/** Wire types of the withdrawal calls (API.md), shared by the engine and the app through engine/contract.ts. */

export interface WithdrawFeeQuote {
  fee: string;
  /** amount - fee (never below zero). */
  received: string;
  minimum: string;
}

export interface WithdrawalRecord {
  id: string;
  currency: 'USDT';
  network: 'TRC20' | 'ERC20';
  /** The destination, in canonical form (EIP-55 for Ethereum). */
  address: string;
  amount: string;
  fee: string;
  received: string;
  /** pending (held, awaiting review) -> success (sent) or rejected (hold released). */
  status: 'pending' | 'success' | 'rejected';
  /** The simulated chain's transaction hash once sent. */
  txid: string | null;
  /** Why the review rejected it. */
  reason: string | null;
  createdAt: number;
  /** When the review is due (Unix s). */
  reviewAt: number;
  /** When it was sent or rejected (Unix s). */
  finishedAt: number | null;
}
