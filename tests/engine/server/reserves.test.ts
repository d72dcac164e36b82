/**
 * Proof of reserves on the live server (issue 27 item 7; API.md "Proof of reserves"), on PostgreSQL when
 * DATABASE_URL is set: the hourly snapshot signed with POR_SIGNING_KEY, /api/reserves/latest public and
 * /api/reserves/proof the member's own, both verifying as the member's device checks them; the snapshots and
 * leaves in their migrated tables (0015), the leaves never in a public answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { base64 } from '@scure/base';

import { snapshotMessage, verifyInclusion, verifyText } from '../../../engine/index';

import type { ReserveProof } from '../../../engine/index';
import { signText } from '../../../engine/reserves/signature';

import { SqlStore } from '../../../server/sql-store';

import { deposit, signUp, startTestServer, type Session, type TestServer } from './serve';

import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
const HOUR = 3_600_000;
const SEED = new Uint8Array(32).fill(42);
let server: TestServer;
let store: SqlStore;
let ann: Session;
let ben: Session;

beforeAll(async () => {
  store = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({ storage: store, config: { porSigningKey: base64.encode(SEED) } });
  ann = await signUp(server, 'ann');
  ben = await signUp(server, 'ben');
  await deposit(server, ann, '120.5', 1);
  await deposit(server, ben, '30', 2);
});

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

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

describe(`proof of reserves over HTTP (${sqlKind})`, () => {
  it('Q5 answers 6141 before the first snapshot, then publishes a signed one each hour', async () => {
    const none = await server.call('/api/reserves/latest');
    expect(none).toMatchObject({ code: 6141, data: { next: expect.any(Number) } });
    expect((await server.call('/api/reserves/proof', undefined, ann)).code).toBe(6141);

    server.clock.advance(HOUR);
    await server.engine.settle();
    const r = await server.call('/api/reserves/latest');
    expect(r.code).toBe(0);
    const snap = r.data;
    // A live server: what members hold is real, and the configured key signs.
    expect(snap).toMatchObject({ total: '150.5', leafCount: 2, demo: false });
    expect(snap.publicKey).toBe((await signText(SEED, '')).publicKey);
    expect(await verifyText(snap.publicKey, snap.signature, snapshotMessage(snap))).toBe(true);
    expect(JSON.stringify(r)).not.toMatch(/nonce|leafId/);
  });

  it('Q6 each member downloads their own proof, which verifies; a changed balance does not', async () => {
    const mine = (await server.call('/api/reserves/proof', undefined, ann)).data;
    expect(mine.leaf.balances['cash']).toBe('120.5');
    expect(included(mine)).toEqual({ ok: true, total: '150.5' });
    const tampered = { ...mine.leaf, balances: { ...mine.leaf.balances, cash: '1120.5' } };
    expect(included({ ...mine, leaf: tampered })).toEqual({ ok: false, reason: 'root' });
    const bens = (await server.call('/api/reserves/proof', undefined, ben)).data;
    expect(bens.leaf.leafId).not.toBe(mine.leaf.leafId);
    expect(bens.leaf.nonce).not.toBe(mine.leaf.nonce);
    expect((await server.call('/api/reserves/proof', undefined)).code).toBe(401);
    expect((await server.callRaw('/api/reserves/proof', { extra: 1 }, ann)).code).toBe(400);
  });

  it('0015 the snapshots and leaves are typed rows; a new member waits for the next one (6142)', async () => {
    const { rows } = await store.driver.query<{ total: string; at: string }>(
      `SELECT total::text, at::text FROM ${schema}.reserve_snapshots`,
    );
    expect(rows).toEqual([{ total: '150500000', at: String(Math.floor(server.clock.now() / HOUR) * HOUR) }]);
    const leaves = await store.driver.query<{ member_id: string }>(
      `SELECT member_id FROM ${schema}.reserve_leaves ORDER BY member_id`,
    );
    expect(leaves.rows.map((l) => l.member_id)).toEqual([ann.id, ben.id].sort());

    const cat = await signUp(server, 'cat');
    expect((await server.call('/api/reserves/proof', undefined, cat)).code).toBe(6142);
    server.clock.advance(HOUR);
    await server.engine.settle();
    const p = (await server.call('/api/reserves/proof', undefined, cat)).data;
    expect(p.snapshot.leafCount).toBe(3);
    expect(included(p).ok).toBe(true);
  });
});
