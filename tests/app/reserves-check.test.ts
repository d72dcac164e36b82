/**
 * The device's verdict on a proof of reserves with signing key pinning (docs/OPERATIONS.md "Signing key
 * pinning"; RULES.md Q9-Q10): a snapshot signed by the pinned key in force is verified; by another key, "key not
 * recognised" (6143) however valid its signature; with nothing pinned (a live build without
 * VITE_POR_PUBLIC_KEYS) the first key is remembered on the device and a later different key is a warning.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64 } from '@scure/base';
import {
  RESERVE_ACCOUNTS,
  buildReserveTree,
  leafIdOf,
  leafNode,
  reservePath,
  snapshotMessage,
  type ReserveNode,
} from '../../engine/reserves/merkle';
import { DEMO_RESERVES_PUBLIC_KEY, DEMO_RESERVES_SIGNING_KEY } from '../../engine/reserves/keys';
import { signText } from '../../engine/reserves/signature';
import type { ReserveProof } from '../../engine/index';
import {
  checkReserveProof,
  judgeReserveProof,
  REMEMBERED_KEY,
  rememberedKey,
} from '../../src/features/security/reserves-check';

const HOUR_S = 3_600;
const balances = (cash: string) => ({
  ...Object.fromEntries(RESERVE_ACCOUNTS.map((a) => [a, '0'])),
  cash,
});
const T = Date.UTC(2026, 10, 28, 12) / 1000;

/** A proof of one member among three, signed at `time` by the key whose seed is `seed`. */
async function proofSignedBy(seed: Uint8Array, time = T): Promise<ReserveProof> {
  const leaves = ['m1', 'm2', 'm3'].map((id, i) => ({
    leafId: leafIdOf(id),
    nonce: String(i + 1).repeat(64),
    balances: balances(`${(i + 1) * 10}`),
  }));
  const nodes = leaves.map((leaf) => leafNode(leaf) as ReserveNode);
  const tree = buildReserveTree(nodes);
  const unsigned = {
    id: 'snap-1',
    time,
    root: tree.root.hash,
    total: '60',
    leafCount: 3,
    demo: false,
  };
  const { signature, publicKey } = await signText(seed, snapshotMessage(unsigned));
  return {
    snapshot: { ...unsigned, signature, publicKey },
    leaf: leaves[1] as ReserveProof['leaf'],
    index: 1,
    path: reservePath(tree, 1),
  };
}

const seedA = new Uint8Array(32).fill(1);
const seedB = new Uint8Array(32).fill(2);

afterEach(() => {
  vi.unstubAllEnvs();
  localStorage.removeItem(REMEMBERED_KEY);
});

describe('judgeReserveProof', () => {
  it('verifies a snapshot signed by the pinned key in force at its time, and by no other (6143)', async () => {
    const a = await proofSignedBy(seedA);
    const b = await proofSignedBy(seedB);
    const pinned = [{ publicKey: a.snapshot.publicKey, validFrom: T - HOUR_S }];
    const settings = { pinned, remembered: null, now: T };
    expect(await judgeReserveProof(a, settings)).toEqual({
      verdict: { state: 'verified', key: 'pinned' },
      remember: null,
    });
    expect((await judgeReserveProof(b, settings)).verdict).toEqual({ state: 'broken', reason: 'key' });
    // The key's valid-from after the snapshot: not yet in force.
    const later = { ...settings, pinned: [{ publicKey: a.snapshot.publicKey, validFrom: T + 1 }] };
    expect((await judgeReserveProof(a, later)).verdict).toEqual({ state: 'broken', reason: 'key' });
  });

  it('checks the signature and the inclusion before the key', async () => {
    const a = await proofSignedBy(seedA);
    const pinned = [{ publicKey: 'f'.repeat(64), validFrom: 0 }];
    const forged = { ...a, snapshot: { ...a.snapshot, total: '1' } };
    expect((await judgeReserveProof(forged, { pinned, remembered: null, now: T })).verdict).toEqual({
      state: 'broken',
      reason: 'signature',
    });
    const changed = { ...a, leaf: { ...a.leaf, balances: balances('999') } };
    expect((await judgeReserveProof(changed, { pinned, remembered: null, now: T })).verdict).toEqual({
      state: 'broken',
      reason: 'proof',
    });
  });

  it('with nothing pinned: the first key to remember, the same key verified since then, another a warning', async () => {
    const a = await proofSignedBy(seedA);
    const b = await proofSignedBy(seedB, T + HOUR_S);
    const first = await judgeReserveProof(a, { pinned: [], remembered: null, now: T + 60 });
    expect(first).toEqual({
      verdict: { state: 'verified', key: 'firstUse', since: T + 60 },
      remember: { publicKey: a.snapshot.publicKey, firstSeen: T + 60 },
    });
    const remembered = first.remember;
    expect(await judgeReserveProof(a, { pinned: [], remembered, now: T + 999 })).toEqual({
      verdict: { state: 'verified', key: 'firstUse', since: T + 60 },
      remember: null,
    });
    expect(await judgeReserveProof(b, { pinned: [], remembered, now: T + 999 })).toEqual({
      verdict: { state: 'keyChanged', remembered, publicKey: b.snapshot.publicKey },
      remember: null,
    });
  });
});

describe('checkReserveProof in each build', () => {
  it('demo: pins the demo key, whose snapshots verify; another key is not recognised', async () => {
    vi.stubEnv('VITE_API_MODE', 'demo');
    const demo = await proofSignedBy(base64.decode(DEMO_RESERVES_SIGNING_KEY));
    expect(demo.snapshot.publicKey).toBe(DEMO_RESERVES_PUBLIC_KEY);
    expect(await checkReserveProof(demo)).toEqual({ state: 'verified', key: 'pinned' });
    expect(await checkReserveProof(await proofSignedBy(seedA))).toEqual({ state: 'broken', reason: 'key' });
    expect(localStorage.getItem(REMEMBERED_KEY)).toBeNull();
  });

  it('live with VITE_POR_PUBLIC_KEYS: its keys only; the demo key is not trusted there', async () => {
    const a = await proofSignedBy(seedA);
    vi.stubEnv('VITE_API_MODE', 'live');
    vi.stubEnv('VITE_POR_PUBLIC_KEYS', `${a.snapshot.publicKey}@2026-01-01T00:00:00Z`);
    expect(await checkReserveProof(a)).toEqual({ state: 'verified', key: 'pinned' });
    const demo = await proofSignedBy(base64.decode(DEMO_RESERVES_SIGNING_KEY));
    expect(await checkReserveProof(demo)).toEqual({ state: 'broken', reason: 'key' });
    vi.stubEnv('VITE_POR_PUBLIC_KEYS', 'not-a-key');
    expect(await checkReserveProof(a)).toEqual({ state: 'broken', reason: 'key' });
  });

  it('live without pins: remembers the first key on the device and warns when it changes', async () => {
    vi.stubEnv('VITE_API_MODE', 'live');
    vi.stubEnv('VITE_POR_PUBLIC_KEYS', '');
    const a = await proofSignedBy(seedA);
    const first = await checkReserveProof(a);
    expect(first).toMatchObject({ state: 'verified', key: 'firstUse' });
    expect(rememberedKey()?.publicKey).toBe(a.snapshot.publicKey);
    expect(await checkReserveProof(a)).toEqual(first);
    const b = await proofSignedBy(seedB, T + HOUR_S);
    expect(await checkReserveProof(b)).toMatchObject({
      state: 'keyChanged',
      remembered: { publicKey: a.snapshot.publicKey },
    });
    // Still the first key on the device until the member accepts the new one.
    expect(rememberedKey()?.publicKey).toBe(a.snapshot.publicKey);
  });
});
