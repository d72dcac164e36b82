/**
 * Which proof-of-reserves signing key the member's device trusts: the keys the app ships (pinned, each valid
 * from a time; a snapshot must be signed by the key in force at its time), else the first key seen (trust on
 * first use, with a warning when a later snapshot is signed by another). The demo engine's published key is
 * pinned in demo mode. Pure, shared by the app and its tests. docs/OPERATIONS.md "Signing key pinning".
 */

/** A key the app expects: Ed25519 public key (hex), valid for snapshots from `validFrom` (Unix seconds). */
export interface PinnedKey {
  publicKey: string;
  validFrom: number;
}

/** The key a device remembered on first use, and when it first saw it (Unix seconds). */
export interface RememberedKey {
  publicKey: string;
  firstSeen: number;
}

/** The demo engine's signing seed (base64 of SHA-256("strata-demo-proof-of-reserves-v1")): public on purpose. */
export const DEMO_RESERVES_SIGNING_KEY = 'IWUiNJkkr8uVwk18/rA4Xce3vyHn3Eq2eTE6II9XVWA=';
/** Its Ed25519 public key, which the app pins in demo mode. */
export const DEMO_RESERVES_PUBLIC_KEY = '387f939cb077ad153b71c28ab38b3f073cfe90dd7268d162083f8bd122cf7b50';
/** The demo's pins: the demo key, from the start. */
export const DEMO_PINNED_KEYS: readonly PinnedKey[] = [{ publicKey: DEMO_RESERVES_PUBLIC_KEY, validFrom: 0 }];

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Parses a pin list (VITE_POR_PUBLIC_KEYS): entries separated by commas or white space, each `<key>` (valid from
 * the start) or `<key>@<valid-from>`, the key 64 hex digits, the valid-from an ISO 8601 date-time with its zone
 * (`2027-01-01T00:00:00Z`) or Unix seconds. Empty: no pins. Throws a RangeError naming the entry on anything
 * else, so a build with a mistyped pin fails rather than trusting the wrong key.
 */
export function parsePinnedKeys(text: string | undefined): PinnedKey[] {
  const keys: PinnedKey[] = [];
  for (const entry of (text ?? '').split(/[\s,]+/).filter(Boolean)) {
    const at = entry.indexOf('@');
    const publicKey = (at < 0 ? entry : entry.slice(0, at)).toLowerCase();
    const from = at < 0 ? '0' : entry.slice(at + 1);
    if (!HEX64.test(publicKey))
      throw new RangeError(`Proof-of-reserves key "${entry}": the key must be 64 hex digits`);
    const validFrom = /^\d+$/.test(from)
      ? Number(from)
      : /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(from)
        ? Math.floor(Date.parse(from) / 1000)
        : NaN;
    if (!Number.isSafeInteger(validFrom))
      throw new RangeError(
        `Proof-of-reserves key "${entry}": valid-from must be Unix seconds or an ISO date-time with its zone`,
      );
    if (keys.some((k) => k.validFrom === validFrom))
      throw new RangeError(`Proof-of-reserves key "${entry}": two keys are valid from the same time`);
    keys.push({ publicKey, validFrom });
  }
  return keys.sort((a, b) => a.validFrom - b.validFrom);
}

/** The pinned key in force at `time` (Unix seconds): the latest valid-from at or before it; null before all. */
export function pinnedKeyAt(pinned: readonly PinnedKey[], time: number): PinnedKey | null {
  let found: PinnedKey | null = null;
  for (const key of pinned)
    if (key.validFrom <= time && (!found || key.validFrom > found.validFrom)) found = key;
  return found;
}

export type KeyTrust =
  /** The snapshot's key is the pinned key in force at its time. */
  | { trust: 'pinned' }
  /** Keys are pinned and the snapshot's is not the one in force at its time: "key not recognised" (6143). */
  | { trust: 'unknown' }
  /** Nothing pinned: the key this device remembered (since `firstSeen`), or seen now for the first time. */
  | { trust: 'firstUse'; remembered: RememberedKey; first: boolean }
  /** Nothing pinned, and the key differs from the one this device remembered: a warning. */
  | { trust: 'changed'; remembered: RememberedKey };

/**
 * Whether the device trusts the key that signed a snapshot of `time` (Unix seconds). `remembered` is the key
 * the device kept on first use (ignored when keys are pinned); `now` (Unix seconds) dates a first sighting.
 */
export function keyTrust(
  snapshot: { publicKey: string; time: number },
  pinned: readonly PinnedKey[],
  remembered: RememberedKey | null,
  now: number,
): KeyTrust {
  const key = snapshot.publicKey.toLowerCase();
  if (pinned.length > 0)
    return pinnedKeyAt(pinned, snapshot.time)?.publicKey === key ? { trust: 'pinned' } : { trust: 'unknown' };
  if (!remembered) return { trust: 'firstUse', remembered: { publicKey: key, firstSeen: now }, first: true };
  if (remembered.publicKey === key) return { trust: 'firstUse', remembered, first: false };
  return { trust: 'changed', remembered };
}
