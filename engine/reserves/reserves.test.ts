/**
 * Proof of reserves in the engine (docs/RULES.md Q5-Q8; API.md "Proof of reserves"): an hourly signed
 * snapshot of every member's USDT, frozen included; each member's own proof verifying against it; a member
 * who joined after it told when the next one comes (6142); before the first, 6141.
 */
import { describe, expect, it } from 'vitest';

import { base64 } from '@scure/base';

import { fund, harness, signUp, type Harness, type Session } from '../../tests/engine/harness';

import { snapshotMessage, verifyInclusion } from './merkle';

import { signText, verifyText } from './signature';

import type { ReserveProof } from './wire';

const HOUR = 3_600_000;

async function latest(h: Harness) {
  return h.call('/api/reserves/latest', undefined);
}

async function proof(h: Harness, s: Session): Promise<ReserveProof> {
  const r = await h.call('/api/reserves/proof', undefined, s);
  expect(r.code).toBe(0);
  return r.data;
}

function included(p: ReserveProof) {
  return verifyInclusion({
    leaf: p.leaf,
    index: p.index,
    path: p.path,
    root: p.snapshot.root,
    total: p.snapshot.total,
    leafCount: p.snapshot.leafCount,
  });
}

async function nextHour(h: Harness): Promise<void> {
  h.clock.advance(HOUR);
  await h.engine.settle();
}

describe('Q5 the hourly snapshot', () => {
  it('Q5 none before the first hour (6141 with when it is due), then a signed snapshot of every member', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    const none = await latest(h);
    expect(none).toMatchObject({ code: 6141, data: { next: expect.any(Number) } });
    expect((await h.call('/api/reserves/proof', undefined, alice)).code).toBe(6141);

    await fund(h, alice.id, '100.25');
    await fund(h, bob.id, '600');
    // Bob's VIP2 deposit stays his, frozen: it counts among what is owed.
    expect((await h.call('/api/Viplist/Buyvip', { level: 2, key: 'key1' }, bob)).code).toBe(0);
    await nextHour(h);

    const r = await latest(h);
    expect(r.code).toBe(0);
    const snap = r.data;
    expect(snap).toMatchObject({ total: '700.25', leafCount: 2, demo: true });
    expect(snap.time).toBe(Math.floor(h.clock.now() / 3_600_000) * 3_600);
    expect(await verifyText(snap.publicKey, snap.signature, snapshotMessage(snap))).toBe(true);
    // The signature covers the total, the time and the leaf count.
    for (const changed of [{ total: '700.24' }, { time: snap.time + 1 }, { leafCount: 3 }, { demo: false }])
      expect(await verifyText(snap.publicKey, snap.signature, snapshotMessage({ ...snap, ...changed }))).toBe(
        false,
      );

    const mine = await proof(h, bob);
    expect(mine.snapshot).toEqual(snap);
    expect(mine.leaf.balances).toMatchObject({ cash: '100', 'cash:frozen': '500' });
    expect(included(mine)).toEqual({ ok: true, total: '700.25' });
    expect(included(await proof(h, alice)).ok).toBe(true);
  });

  it('Q6 a changed balance breaks the member’s proof; a later snapshot includes the change', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    await fund(h, alice.id, '10');
    await nextHour(h);
    const before = await proof(h, alice);
    const tampered = {
      ...before,
      leaf: { ...before.leaf, balances: { ...before.leaf.balances, cash: '11' } },
    };
    expect(included(tampered)).toEqual({ ok: false, reason: 'root' });

    await fund(h, alice.id, '1');
    await nextHour(h);
    const after = await proof(h, alice);
    expect(after.leaf.balances['cash']).toBe('11');
    expect(after.snapshot.id).not.toBe(before.snapshot.id);
    // Q7 a fresh nonce per snapshot; a proof of one snapshot fails against another's root.
    expect(after.leaf.nonce).not.toBe(before.leaf.nonce);
    expect(included({ ...before, snapshot: after.snapshot })).toMatchObject({ ok: false });
    expect(included(after).ok).toBe(true);
  });

  it('Q6 a member who joined after the snapshot is told when the next one comes (6142), then included', async () => {
    const h = await harness();
    await signUp(h, 'alice');
    await nextHour(h);
    h.clock.advance(60_000);
    const carol = await signUp(h, 'carol');
    const late = await h.call('/api/reserves/proof', undefined, carol);
    expect(late).toMatchObject({ code: 6142, data: { next: Math.floor(h.clock.now() / HOUR + 1) * 3_600 } });
    await nextHour(h);
    const p = await proof(h, carol);
    expect(p.snapshot.leafCount).toBe(2);
    expect(included(p).ok).toBe(true);
    expect((await h.call('/api/reserves/proof', undefined)).code).toBe(401);
  });

  it('Q7 each member’s nonce is their own secret; Q8 a configured key signs every snapshot', async () => {
    const seed = new Uint8Array(32).fill(9);
    const h = await harness({ config: { reservesSigningKey: base64.encode(seed) } });
    const a = await signUp(h, 'alice');
    const b = await signUp(h, 'bob');
    await nextHour(h);
    const [pa, pb] = [await proof(h, a), await proof(h, b)];
    expect(pa.leaf.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(pa.leaf.nonce).not.toBe(pb.leaf.nonce);
    expect(pa.leaf.leafId).not.toBe(pb.leaf.leafId);
    const { publicKey } = await signText(seed, 'x');
    expect(pa.snapshot).toMatchObject({ publicKey, total: '0', leafCount: 2 });
    // The stored leaf holds the nonce; the public snapshot does not.
    expect(JSON.stringify(pa.snapshot)).not.toContain(pa.leaf.nonce);
    // A fast-forward of several hours publishes one snapshot, as of the last hour.
    h.clock.advance(5 * HOUR);
    await h.engine.settle();
    const snap = (await latest(h)).data;
    expect(Number(snap.id)).toBe(Number(pa.snapshot.id) + 1);
    expect(snap.time).toBe(pa.snapshot.time + 5 * 3_600);
  });
});
