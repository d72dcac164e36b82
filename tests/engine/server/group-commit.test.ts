/**
 * Group commit (server/group-commit.ts, docs/SERVER.md "Group commit"), on PostgreSQL: units of work that
 * arrive together share one transaction, each checked by the engine's own rules; a unit refused by its rules
 * (or by a constraint) fails alone; two instances batching on one hot account stay exact; kill -9 during
 * batches loses no acknowledged unit.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Codes } from '../../../engine/errors';
import { manualClock } from '../../../engine/index';
import { SqlStore } from '../../../server/sql-store';
import { liveEnv, startChild, stopChildren, storedTransferIds, transferUntilKilled } from './live-helpers';
import { deposit, signUp, startTestServer, type Session, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schemas: string[] = [];

afterAll(async () => {
  stopChildren();
  for (const schema of schemas) await dropSchema(schema);
});

/** A window long enough that every call of a test's burst lands in one batch, even on a loaded machine. */
const WIDE = { windowMs: 30, maxUnits: 64, maxBatches: 1 };

async function batchedStore(schema: string): Promise<SqlStore> {
  return SqlStore.open(await testDriver(), { schema, groupCommit: WIDE });
}

async function balance(s: TestServer, who: Session): Promise<number> {
  const r = await s.call('/api/user/getuser', undefined, who);
  expect(r.code).toBe(0);
  return Number(r.data.balance);
}

/** The sum of every ledger balance and the smallest member balance, read from the database. */
async function ledger(schema: string): Promise<{ sum: string; min: string; count: number }> {
  const driver = await testDriver();
  try {
    const { rows } = await driver.query<{ sum: string; min: string; n: string }>(
      `SELECT coalesce(sum((v->>'amount')::numeric), 0)::text AS sum,
              coalesce(min((v->>'amount')::numeric) FILTER (WHERE v->>'account' LIKE 'user:%'), 0)::text AS min,
              count(*)::text AS n
         FROM ${schema}.ledger_balances`,
    );
    const row = rows[0];
    return { sum: row?.sum ?? '', min: row?.min ?? '', count: Number(row?.n) };
  } finally {
    await driver.close();
  }
}

describe.runIf(sqlKind === 'postgres')('group commit (postgres)', () => {
  it('a unit refused by its rules fails alone; its batch mates commit, in one transaction', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    const store = await batchedStore(schema);
    const s = await startTestServer({ storage: store, config: { databaseUrl: process.env['DATABASE_URL'] } });
    const ann = await signUp(s, 'ann');
    const bob = await signUp(s, 'bob');
    await deposit(s, ann, '25', 1);
    await deposit(s, bob, '100', 2);
    expect((await s.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob)).code).toBe(0);
    const gc = store.groupCommit;
    if (!gc) throw new Error('group commit is off');
    const before = { ...gc.stats };
    const bobBefore = await balance(s, bob);

    // Three transfers of 10 from 25: the third (whichever it is) is refused by the ledger's rule; a fourth
    // is refused before it reads anything (to oneself), a fifth names nobody.
    const results = await Promise.all([
      s.call('/api/transfer/submit', { account: 'bob', amount: '10' }, ann),
      s.call('/api/transfer/submit', { account: 'bob', amount: '10' }, ann),
      s.call('/api/transfer/submit', { account: 'bob', amount: '10' }, ann),
      s.call('/api/transfer/submit', { account: 'ann', amount: '1' }, ann),
      s.call('/api/transfer/submit', { account: 'nobody-here', amount: '1' }, ann),
    ]);
    const codes = results.map((r) => r.code);
    expect(codes.slice(0, 3).sort()).toEqual([0, 0, Codes.transferInsufficient].sort());
    expect(codes[3]).toBe(Codes.transferSelf);
    expect(codes[4]).not.toBe(0);
    // They shared a batch: fewer transactions than units, and the ones that read the balance a batch mate
    // had just spent ran again against the batch's state.
    expect(gc.stats.largest).toBeGreaterThanOrEqual(3);
    expect(gc.stats.batches - before.batches).toBeLessThan(5);
    expect(gc.stats.reruns - before.reruns).toBeGreaterThanOrEqual(1);
    expect(await balance(s, ann)).toBe(5);
    expect(await balance(s, bob)).toBe(bobBefore + 20);
    expect(await s.engine.diagnostics.checkInvariants()).toEqual([]);
    expect((await ledger(schema)).sum).toBe('0');
    // A lone transfer is one batch of two read statements (the session, the member, the recipient and the
    // sender's security row; then the balances, counters, receive totals and ids), then the write and COMMIT.
    const lone = { ...gc.stats };
    expect((await s.call('/api/transfer/submit', { account: 'bob', amount: '1' }, ann)).code).toBe(0);
    expect(gc.stats.batches - lone.batches).toBe(1);
    expect(gc.stats.reads - lone.reads).toBe(2);
    await s.close();
  }, 30_000);

  it('a unit whose rows a constraint refuses fails alone: its batch mates run again on their own and commit', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    const store = await batchedStore(schema);
    // Two units in one batch: one writes a good receive total, the other a negative one, which the schema's
    // check refuses (the engine never writes one: the constraint is the database's backstop).
    const table = 'receiveTotals';
    const row = (id: string, amount: string) => ({ table, id, ix: [], value: { id, amount } });
    const gc = store.groupCommit;
    if (!gc) throw new Error('group commit is off');
    const [good, bad] = await Promise.allSettled([
      store.transaction(async (view) => {
        await view.get(table, 'g1');
        await view.commit([row('g1', '5')], []);
      }),
      store.transaction(async (view) => {
        await view.get(table, 'b1');
        await view.commit([row('b1', '-5')], []);
      }),
    ]);
    expect(good.status).toBe('fulfilled');
    expect(bad.status).toBe('rejected');
    expect(gc.stats.solo).toBe(2);
    expect(await store.get(table, 'g1')).toEqual({ id: 'g1', amount: '5' });
    expect(await store.get(table, 'b1')).toBeUndefined();

    // A unit that issues no statement joins no batch; one that scans, reads by index and writes in a batch
    // with a unit that writes the row it then sees (applied in order, the scan and the index read see it).
    const batches = gc.stats.batches;
    expect(await store.transaction(async () => 'answered from memory')).toBe('answered from memory');
    expect(gc.stats.batches).toBe(batches);
    const [, seen] = await Promise.all([
      store.transaction(async (view) => {
        await view.get(table, 'g2');
        await view.commit([{ table, id: 'g2', ix: ['k=1'], value: { id: 'g2', amount: '7' } }], []);
      }),
      store.transaction(async (view) => {
        const all = await view.scan(table);
        const keyed = await view.query(table, 'k=1');
        return { all: all.length, keyed: keyed.length };
      }),
    ]);
    // Either order is a serial one: the reader ran before the writer (nothing) or after it (the row).
    expect([JSON.stringify({ all: 1, keyed: 0 }), JSON.stringify({ all: 2, keyed: 1 })]).toContain(
      JSON.stringify(seen),
    );
    expect(await store.query(table, 'k=1')).toEqual([{ id: 'g2', amount: '7' }]);
    await store.close();
  }, 30_000);

  it('L4 two instances batching on one hot account stay exact: sum zero, no negative balance', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    const config = { databaseUrl: process.env['DATABASE_URL'] };
    const storeA = await batchedStore(schema);
    const storeB = await SqlStore.open(await testDriver(), { schema, groupCommit: { ...WIDE, windowMs: 5 } });
    const a = await startTestServer({ storage: storeA, config });
    const b = await startTestServer({ storage: storeB, clock: a.clock, config });
    const ann = await signUp(a, 'ann');
    const bob = await signUp(b, 'bob');
    const cat = await signUp(a, 'cat');
    await deposit(a, ann, '100', 1);
    for (const [who, nonce] of [
      [bob, 2],
      [cat, 3],
    ] as const) {
      await deposit(a, who, '100', nonce);
      expect((await a.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, who)).code).toBe(0);
    }
    const others = (await balance(a, bob)) + (await balance(a, cat));
    // 60 transfers of 2 from 100, spread over both instances and two recipients: exactly 50 succeed.
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? a : b).call(
          '/api/transfer/submit',
          { account: i % 3 === 0 ? 'cat' : 'bob', amount: '2' },
          ann,
        ),
      ),
    );
    const codes = results.map((r) => r.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(50);
    expect(codes.filter((c) => c !== 0).every((c) => c === Codes.transferInsufficient)).toBe(true);
    expect(await balance(b, ann)).toBe(0);
    expect((await balance(a, bob)) + (await balance(b, cat))).toBe(others + 100);
    const sums = await ledger(schema);
    expect(sums.sum).toBe('0');
    expect(Number(sums.min)).toBeGreaterThanOrEqual(0);
    for (const s of [a, b]) expect(await s.engine.diagnostics.checkInvariants()).toEqual([]);
    // Both instances batched (more units than transactions).
    for (const store of [storeA, storeB]) expect(store.groupCommit?.stats.largest).toBeGreaterThan(1);
    await b.close();
    await a.close();
  }, 30_000);

  it('L4 two batches of one instance in flight on one hot account stay exact (GROUP_COMMIT_BATCHES=2)', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    // Small batches, two in flight: a burst of transfers from one account fills several batches, and the
    // second starts while the first has not committed (each on a connection of its own).
    const store = await SqlStore.open(await testDriver(), {
      schema,
      groupCommit: { windowMs: 30, maxUnits: 6, maxBatches: 2 },
    });
    const s = await startTestServer({ storage: store, config: { databaseUrl: process.env['DATABASE_URL'] } });
    const ann = await signUp(s, 'ann');
    const bob = await signUp(s, 'bob');
    const cat = await signUp(s, 'cat');
    await deposit(s, ann, '60', 1);
    for (const [who, nonce] of [
      [bob, 2],
      [cat, 3],
    ] as const) {
      await deposit(s, who, '100', nonce);
      expect((await s.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, who)).code).toBe(0);
    }
    const others = (await balance(s, bob)) + (await balance(s, cat));
    const gc = store.groupCommit;
    const before = { ...gc?.stats };
    // 40 transfers of 2 from 60: exactly 30 succeed, whichever batch each one lands in.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        s.call('/api/transfer/submit', { account: i % 3 === 0 ? 'cat' : 'bob', amount: '2' }, ann),
      ),
    );
    const codes = results.map((r) => r.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(30);
    expect(codes.filter((c) => c !== 0).every((c) => c === Codes.transferInsufficient)).toBe(true);
    expect(await balance(s, ann)).toBe(0);
    expect((await balance(s, bob)) + (await balance(s, cat))).toBe(others + 60);
    const sums = await ledger(schema);
    expect(sums.sum).toBe('0');
    expect(Number(sums.min)).toBeGreaterThanOrEqual(0);
    expect(await s.engine.diagnostics.checkInvariants()).toEqual([]);
    // Batches were in flight together (two, or more when one waited past the start guard on a slow
    // machine), each later one running again after an earlier one's commit (a conflict on ann's rows) or
    // queued behind it on the hot rows' locks.
    expect(gc?.stats.overlapped).toBeGreaterThanOrEqual(2);
    expect((gc?.stats.batches ?? 0) - (before.batches ?? 0)).toBeGreaterThan(1);
    await s.close();
  }, 60_000);

  it('G1 kill -9 during batches: every acknowledged transfer is in the database, money conserved', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    const a = await startTestServer({
      storage: await SqlStore.open(await testDriver(), { schema }),
      clock: manualClock(Date.now()),
      config: { databaseUrl: process.env['DATABASE_URL'] },
    });
    const ann = await signUp(a, 'ann');
    const bob = await signUp(a, 'bob');
    await deposit(a, ann, '1000', 1);
    await deposit(a, bob, '100', 2);
    expect((await a.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob)).code).toBe(0);

    // The instance in a process of its own (its own process group), group commit on with a 5 ms window so
    // that every batch holds several of the 16 callers' transfers.
    const server = await startChild(liveEnv(schema, { GROUP_COMMIT: 'on', GROUP_COMMIT_MS: '5' }));
    const acked = await transferUntilKilled(server, ann, 'bob', { workers: 16, killAfter: 60 });
    const stored = await storedTransferIds(schema);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    // Money is conserved, counting the transfers committed whose answer never arrived.
    expect(await balance(a, ann)).toBe(1000 - stored.size);
    expect((await ledger(schema)).sum).toBe('0');
    expect(await a.engine.diagnostics.checkInvariants()).toEqual([]);
    await a.close();
  }, 60_000);
});
