/** Proof-of-reserves fixtures for the app's tests: a snapshot signed again by another key (validly). */
import { snapshotMessage, type ReserveSnapshot } from '../../engine/index';
import { signText } from '../../engine/reserves/signature';

/** `snapshot` with a valid signature by the key whose seed is 32 bytes of `fill` (not the demo key). */
export async function resignedBy(fill: number, snapshot: ReserveSnapshot): Promise<ReserveSnapshot> {
  return { ...snapshot, ...(await signText(new Uint8Array(32).fill(fill), snapshotMessage(snapshot))) };
}
