/**
 * Proof of reserves (issue 27 item 7): each published snapshot of member liabilities, and each member's leaf
 * in the latest one (one row per member, replaced at every snapshot: the proof a member downloads). Times
 * are ms (engine/README.md); amounts in the leaf are the wire's canonical USDT strings, as hashed.
 */
import { defineTable } from '../store/port';
import type { ReserveLeaf, ReservePathStep } from './merkle';

export interface ReserveSnapshotRow {
  id: string;
  /** The period boundary the snapshot was taken at (ms). */
  time: number;
  /** Root hash (hex) of the Merkle sum tree. */
  root: string;
  /** Every member's USDT, frozen included, as micro-units: the root's sum. */
  total: string;
  leafCount: number;
  /** The engine ran with simulated counterparties (the demo): its reserves are simulated too. */
  demo: boolean;
  /** Ed25519 over snapshotMessage (hex), and the key that verifies it (hex). */
  signature: string;
  publicKey: string;
}

export const reserveSnapshots = defineTable<ReserveSnapshotRow>('reserveSnapshots');

export interface ReserveLeafRow {
  /** The member's id: one row per member, the latest snapshot's. */
  id: string;
  memberId: string;
  snapshotId: string;
  /** Position among the snapshot's leaves (ordered by leaf hash, so it says nothing about who it is). */
  index: number;
  leaf: ReserveLeaf;
  path: ReservePathStep[];
}

export const reserveLeaves = defineTable<ReserveLeafRow>('reserveLeaves', {
  member: (r) => r.memberId,
  snapshot: (r) => r.snapshotId,
});
