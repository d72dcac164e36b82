/**
 * The member's device checking its own proof of reserves (docs/OPERATIONS.md "Proof of reserves") with the
 * engine's own functions: the snapshot's Ed25519 signature by its key, then the leaf's hash from the member's
 * balances, secret and leaf id, folded up the path to the signed root and total. No network: it runs on the
 * stored proof, offline too.
 */
import { snapshotMessage, verifyInclusion, verifyText, type ReserveProof } from '../../../engine/index';

export type ReserveVerdict =
  | { state: 'verified' }
  /** `signature`: the snapshot is not signed by its key; `proof`: the leaf and path do not reach its root. */
  | { state: 'broken'; reason: 'signature' | 'proof' };

export async function checkReserveProof(proof: ReserveProof): Promise<ReserveVerdict> {
  const { snapshot } = proof;
  if (!(await verifyText(snapshot.publicKey, snapshot.signature, snapshotMessage(snapshot))))
    return { state: 'broken', reason: 'signature' };
  const included = verifyInclusion({
    leaf: proof.leaf,
    index: proof.index,
    path: proof.path,
    root: snapshot.root,
    total: snapshot.total,
    leafCount: snapshot.leafCount,
  });
  return included.ok ? { state: 'verified' } : { state: 'broken', reason: 'proof' };
}
