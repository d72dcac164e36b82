/**
 * Wire types of proof of reserves (issue 27 item 7; API.md "Proof of reserves"), merged into ContractMap
 * (engine/contract.ts). Times are Unix seconds; amounts USDT decimal strings; hashes, keys and signatures hex.
 */
import type { ReserveLeaf, ReservePathStep } from './merkle';

export type { ReserveLeaf, ReservePathStep } from './merkle';

/** A published snapshot of member liabilities: public, signed. */
export interface ReserveSnapshot {
  id: string;
  time: number;
  /** The Merkle sum tree's root hash. */
  root: string;
  /** What the platform owed its members at `time`: every member's USDT, frozen included. */
  total: string;
  leafCount: number;
  /** Taken by the demo: the balances and the reserves behind them are simulated. */
  demo: boolean;
  /** Ed25519 signature over snapshotMessage(this) and the public key that verifies it. */
  signature: string;
  publicKey: string;
}

/** The member's own inclusion proof in the latest snapshot. */
export interface ReserveProof {
  snapshot: ReserveSnapshot;
  leaf: ReserveLeaf;
  /** The leaf's position among `snapshot.leafCount` leaves (the path's shape follows from both). */
  index: number;
  /** Siblings from the leaf up to the root. */
  path: ReservePathStep[];
}

export interface ReservesContract {
  '/api/reserves/latest': { body: undefined; data: ReserveSnapshot };
  '/api/reserves/proof': { body: undefined; data: ReserveProof };
}
