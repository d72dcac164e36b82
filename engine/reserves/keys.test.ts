/**
 * Proof-of-reserves signing key pinning (docs/OPERATIONS.md "Signing key pinning"; RULES.md Q9-Q10): the pin
 * list a live build ships (VITE_POR_PUBLIC_KEYS), the key in force at a snapshot's time, trust on first use when
 * nothing is pinned, and the demo engine signing with the published demo key the app pins in demo mode.
 */
import { describe, expect, it } from 'vitest';

import { base64 } from '@scure/base';

import { harness, signUp } from '../../tests/engine/harness';

import {
  DEMO_PINNED_KEYS,
  DEMO_RESERVES_PUBLIC_KEY,
  DEMO_RESERVES_SIGNING_KEY,
  keyTrust,
  parsePinnedKeys,
  pinnedKeyAt,
} from './keys';

import { signText } from './signature';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const T_2027 = Date.UTC(2027, 0, 1) / 1000;

describe('parsePinnedKeys (VITE_POR_PUBLIC_KEYS)', () => {
  it('reads nothing as no pins, a bare key as valid from the start, and a list in valid-from order', () => {
    expect(parsePinnedKeys(undefined)).toEqual([]);
    expect(parsePinnedKeys('  ')).toEqual([]);
    expect(parsePinnedKeys(A.toUpperCase())).toEqual([{ publicKey: A, validFrom: 0 }]);
    expect(parsePinnedKeys(`${C}@2027-01-01T00:00:00Z, ${A}\n${B}@1780000000`)).toEqual([
      { publicKey: A, validFrom: 0 },
      { publicKey: B, validFrom: 1_780_000_000 },
      { publicKey: C, validFrom: T_2027 },
    ]);
    expect(parsePinnedKeys(`${A}@2027-01-01T02:00:00+02:00`)).toEqual([{ publicKey: A, validFrom: T_2027 }]);
  });

  it('refuses a malformed key, a valid-from without its zone, and two keys from the same time', () => {
    expect(() => parsePinnedKeys('abc')).toThrow(/64 hex digits/);
    expect(() => parsePinnedKeys(`${A.slice(1)}g`)).toThrow(/64 hex digits/);
    expect(() => parsePinnedKeys(`${A}@2027-01-01`)).toThrow(/valid-from/);
    expect(() => parsePinnedKeys(`${A}@2027-01-01T00:00:00`)).toThrow(/valid-from/);
    expect(() => parsePinnedKeys(`${A}@soon`)).toThrow(/valid-from/);
    expect(() => parsePinnedKeys(`${A}@5,${B}@5`)).toThrow(/same time/);
  });
});

describe('Q9 the pinned key in force at the snapshot’s time', () => {
  const pins = parsePinnedKeys(`${A}@1000,${B}@5000`);
  it('is the latest valid-from at or before the time; none before the first', () => {
    expect(pinnedKeyAt(pins, 999)).toBeNull();
    expect(pinnedKeyAt(pins, 1000)?.publicKey).toBe(A);
    expect(pinnedKeyAt(pins, 4999)?.publicKey).toBe(A);
    expect(pinnedKeyAt(pins, 5000)?.publicKey).toBe(B);
  });

  it('trusts only that key: a rotated-out key signs nothing after its successor’s valid-from', () => {
    expect(keyTrust({ publicKey: A, time: 3600 }, pins, null, 9e9)).toEqual({ trust: 'pinned' });
    expect(keyTrust({ publicKey: B, time: 7200 }, pins, null, 9e9)).toEqual({ trust: 'pinned' });
    expect(keyTrust({ publicKey: A, time: 7200 }, pins, null, 9e9)).toEqual({ trust: 'unknown' });
    expect(keyTrust({ publicKey: B, time: 3600 }, pins, null, 9e9)).toEqual({ trust: 'unknown' });
    expect(keyTrust({ publicKey: C, time: 7200 }, pins, null, 9e9)).toEqual({ trust: 'unknown' });
    expect(keyTrust({ publicKey: A, time: 0 }, pins, null, 9e9)).toEqual({ trust: 'unknown' });
    // With pins, what the device remembered plays no part.
    const remembered = { publicKey: C, firstSeen: 1 };
    expect(keyTrust({ publicKey: C, time: 7200 }, pins, remembered, 9e9)).toEqual({ trust: 'unknown' });
  });
});

describe('Q10 trust on first use when nothing is pinned', () => {
  it('remembers the first key, trusts it after, and flags another key', () => {
    const first = keyTrust({ publicKey: A.toUpperCase(), time: 3600 }, [], null, 1234);
    expect(first).toEqual({ trust: 'firstUse', remembered: { publicKey: A, firstSeen: 1234 }, first: true });
    const remembered = { publicKey: A, firstSeen: 1234 };
    expect(keyTrust({ publicKey: A, time: 7200 }, [], remembered, 9999)).toEqual({
      trust: 'firstUse',
      remembered,
      first: false,
    });
    expect(keyTrust({ publicKey: B, time: 7200 }, [], remembered, 9999)).toEqual({
      trust: 'changed',
      remembered,
    });
  });
});

describe('the demo key', () => {
  it('is the public key of the published demo seed, pinned from the start', async () => {
    const { publicKey } = await signText(base64.decode(DEMO_RESERVES_SIGNING_KEY), 'x');
    expect(publicKey).toBe(DEMO_RESERVES_PUBLIC_KEY);
    expect(DEMO_PINNED_KEYS).toEqual([{ publicKey: DEMO_RESERVES_PUBLIC_KEY, validFrom: 0 }]);
  });

  it('signs a demo engine’s snapshots (a configured key still comes first: reserves.test.ts Q8)', async () => {
    const h = await harness();
    await signUp(h, 'alice');
    h.clock.advance(3_600_000);
    await h.engine.settle();
    const snap = (await h.call('/api/reserves/latest', undefined)).data;
    expect(snap).toMatchObject({ demo: true, publicKey: DEMO_RESERVES_PUBLIC_KEY });
    expect(keyTrust(snap, DEMO_PINNED_KEYS, null, 0)).toEqual({ trust: 'pinned' });
    // The same snapshot in a live build pinning another key: not recognised.
    expect(keyTrust(snap, parsePinnedKeys(A), null, 0)).toEqual({ trust: 'unknown' });
  });
});
