/** Wire types of the deposit calls (API.md), shared by the engine and the app through engine/contract.ts. */

export type WireNetwork = 'TRC20' | 'ERC20';

export interface DepositRecord {
  id: string;
  currency: 'USDT';
  network: WireNetwork;
  /** The receiving address: the member's exclusive address (chain) or the platform address (manual). */
  address: string;
  amount: string;
  /** pending -> success (credited) or rejected. */
  status: 'pending' | 'success' | 'rejected';
  /** `chain`: seen on the chain, credited after its confirmations; `manual`: submitted, credited on review. */
  type: 'chain' | 'manual';
  txid: string | null;
  /** Relative URL of the uploaded payment proof (manual deposits). */
  proof: string | null;
  /** Chain deposits: confirmations so far (capped at `required`); manual deposits: null. */
  confirmations: number | null;
  required: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface DepositAddress {
  network: WireNetwork;
  address: string;
  currency: 'USDT';
  /** Confirmations a payment to it needs before it is credited. */
  confirmations: number;
  /**
   * True for an address of a demo key (generated per database, docs/SERVER.md "Key custody"): show it as
   * a demo address, never as one to send real funds to. Added field; false on a live server's xpub.
   */
  demo: boolean;
}

export interface ChainSendResult {
  txid: string;
  network: WireNetwork;
  address: string;
  amount: string;
  /** Block that includes the payment, the confirmations it needs, and when it reaches them (Unix s). */
  includedHeight: number;
  required: number;
  confirmAt: number;
}
