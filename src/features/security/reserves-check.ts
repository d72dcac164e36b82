/**
 * The member's device checking its own proof of reserves (docs/OPERATIONS.md "Proof of reserves") with the
 * engine's own functions: the snapshot's Ed25519 signature by its key, then the leaf's hash from the member's
 * balances, secret and leaf id, folded up the path to the signed root and total, then whether the key is one
 * the app trusts (engine/reserves/keys.ts): the key pinned for the snapshot's time (the demo key in demo mode,
 * VITE_POR_PUBLIC_KEYS in a live build), or, with nothing pinned, the key this device saw first (trust on first
 * use), remembered in its storage. No network: it runs on the stored proof, offline too.
 */
import {
  DEMO_PINNED_KEYS,
  keyTrust,
  parsePinnedKeys,
  snapshotMessage,
  verifyInclusion,
  verifyText,
  type PinnedKey,
  type RememberedKey,
  type ReserveProof,
} from '../../../engine/index';
import { isDemoMode } from '../../api/config';

export type ReserveVerdict =
  /** `pinned`: the app's own key for the snapshot's time; `firstUse`: the key this device saw first, `since`. */
  | { state: 'verified'; key: 'pinned' }
  | { state: 'verified'; key: 'firstUse'; since: number }
  /**
   * `signature`: the snapshot is not signed by its key; `proof`: the leaf and path do not reach its root;
   * `key`: signed by a key the app does not recognise (6143).
   */
  | { state: 'broken'; reason: 'signature' | 'proof' | 'key' }
  /** Nothing pinned, and the key differs from the one this device first saw (`remembered`): a warning. */
  | { state: 'keyChanged'; remembered: RememberedKey; publicKey: string };

/** Where this device keeps the key it saw first (only when the app pins none). */
export const REMEMBERED_KEY = 'strata.reservesKey';

/** The keys this build pins: the demo key in demo mode, else VITE_POR_PUBLIC_KEYS (checked by the build). */
export function pinnedKeys(): readonly PinnedKey[] {
  if (isDemoMode()) return DEMO_PINNED_KEYS;
  const configured: unknown = import.meta.env.VITE_POR_PUBLIC_KEYS;
  return parsePinnedKeys(typeof configured === 'string' ? configured : '');
}

export function rememberedKey(): RememberedKey | null {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(REMEMBERED_KEY) ?? 'null');
    if (
      value &&
      typeof value === 'object' &&
      typeof (value as RememberedKey).publicKey === 'string' &&
      typeof (value as RememberedKey).firstSeen === 'number'
    )
      return value as RememberedKey;
  } catch {
    // Unreadable storage: as if nothing was remembered.
  }
  return null;
}

/** Remembers `publicKey` as the trusted key from now on (the first one seen, or one the member accepted). */
export function rememberKey(publicKey: string, now = Math.floor(Date.now() / 1000)): void {
  try {
    localStorage.setItem(REMEMBERED_KEY, JSON.stringify({ publicKey, firstSeen: now }));
  } catch {
    // Storage refused (private mode, full): the next check asks again.
  }
}

export interface TrustSettings {
  pinned: readonly PinnedKey[];
  remembered: RememberedKey | null;
  /** Unix seconds. */
  now: number;
}

/** The verdict on a proof, and the key to remember when it is this device's first (trust on first use). */
export async function judgeReserveProof(
  proof: ReserveProof,
  settings: TrustSettings,
): Promise<{ verdict: ReserveVerdict; remember: RememberedKey | null }> {
  const { snapshot } = proof;
  const broken = (reason: 'signature' | 'proof' | 'key') => ({
    verdict: { state: 'broken', reason } as const,
    remember: null,
  });
  if (!(await verifyText(snapshot.publicKey, snapshot.signature, snapshotMessage(snapshot))))
    return broken('signature');
  const included = verifyInclusion({
    leaf: proof.leaf,
    index: proof.index,
    path: proof.path,
    root: snapshot.root,
    total: snapshot.total,
    leafCount: snapshot.leafCount,
  });
  if (!included.ok) return broken('proof');
  const trust = keyTrust(snapshot, settings.pinned, settings.remembered, settings.now);
  switch (trust.trust) {
    case 'pinned':
      return { verdict: { state: 'verified', key: 'pinned' }, remember: null };
    case 'unknown':
      return broken('key');
    case 'firstUse':
      return {
        verdict: { state: 'verified', key: 'firstUse', since: trust.remembered.firstSeen },
        remember: trust.first ? trust.remembered : null,
      };
    case 'changed':
      return {
        verdict: { state: 'keyChanged', remembered: trust.remembered, publicKey: snapshot.publicKey },
        remember: null,
      };
  }
}

/** Checks a proof against this build's pins and this device's remembered key, remembering a first key. */
export async function checkReserveProof(proof: ReserveProof): Promise<ReserveVerdict> {
  let pinned: readonly PinnedKey[];
  try {
    pinned = pinnedKeys();
  } catch {
    // A malformed pin list (the build refuses one; a hand-made build might not): trust no key at all.
    return { state: 'broken', reason: 'key' };
  }
  const { verdict, remember } = await judgeReserveProof(proof, {
    pinned,
    remembered: pinned.length > 0 ? null : rememberedKey(),
    now: Math.floor(Date.now() / 1000),
  });
  if (remember) rememberKey(remember.publicKey, remember.firstSeen);
  return verdict;
}
