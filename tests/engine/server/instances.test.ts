/**
 * Stateless instances (issue 11): several servers on ONE database schema, each with its own SQL store and
 * connection pool, serve the same members at once. Units of work run concurrently in SERIALIZABLE
 * transactions (server/sql-store.ts), so concurrent spends of one balance cannot overdraw it (L4), money is
 * conserved (L1, L2) and whatever one instance committed the other reads at once (no mirror).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Codes } from '../../../engine/errors';
import { SqlStore } from '../../../server/sql-store';
import { deposit, login, signUp, startTestServer, type Session, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schemas: string[] = [];

async function openOn(schema: string): Promise<SqlStore> {
  return SqlStore.open(await testDriver(), { schema });
}

afterAll(async () => {
  for (const name of schemas) await dropSchema(name);
});

async function balance(s: TestServer, who: Session): Promise<string> {
  const r = await s.call('/api/user/getuser', undefined, who);
  expect(r.code).toBe(0);
  return r.data.balance;
}

/** Two instances on one fresh schema: ann holds 300 USDT, bob is VIP 1 (so he may receive). */
async function twoInstances(): Promise<{ a: TestServer; b: TestServer; ann: Session; bob: Session }> {
  const schema = freshSchema();
  schemas.push(schema);
  // On PostgreSQL the instances share an event bus (LISTEN/NOTIFY) too; PGlite is one process.
  const config = { databaseUrl: process.env['DATABASE_URL'] };
  const a = await startTestServer({ storage: await openOn(schema), config });
  const b = await startTestServer({ storage: await openOn(schema), clock: a.clock, config });
  const ann = await signUp(a, 'ann');
  const bob = await signUp(b, 'bob');
  await deposit(a, ann, '300', 1);
  await deposit(b, bob, '100', 2);
  const vip = await b.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob);
  expect(vip.code).toBe(0);
  return { a, b, ann, bob };
}

describe(`two instances on one database (${sqlKind})`, () => {
  it('L4 40 concurrent transfers from a balance that covers 30: exactly 30 succeed, on either instance', async () => {
    const { a, b, ann, bob } = await twoInstances();
    const bobBefore = Number(await balance(a, bob));
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a : b).call('/api/transfer/submit', { account: 'bob', amount: '10' }, ann),
      ),
    );
    const codes = results.map((r) => r.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(30);
    expect(codes.filter((c) => c !== 0).every((c) => c === Codes.transferInsufficient)).toBe(true);
    // Read back from either instance: the same money, conserved.
    for (const s of [a, b]) {
      expect(await balance(s, ann)).toBe('0');
      expect(Number(await balance(s, bob))).toBe(bobBefore + 300);
      const list = await s.call('/api/transfer/list', { page: 1 }, ann);
      expect(list.code).toBe(0);
      expect(await s.engine.diagnostics.checkInvariants()).toEqual([]);
    }
    await a.close();
    await b.close();
  }, 120_000);

  it('one member served by both instances at once: sessions, writes and reads are shared', async () => {
    const { a, b, ann, bob } = await twoInstances();
    // ann's session opened on instance a works on b; a session opened on b works on a.
    const annOnB = await login(b, 'ann');
    const both = await Promise.all([
      a.call('/api/transfer/submit', { account: 'bob', amount: '7' }, annOnB),
      b.call('/api/transfer/submit', { account: 'bob', amount: '5' }, ann),
      a.call('/api/transfer/list', { page: 1 }, bob),
      b.call('/api/user/getuser', undefined, ann),
    ]);
    expect(both.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(await balance(a, ann)).toBe('288');
    expect(await balance(b, ann)).toBe('288');
    await a.close();
    await b.close();
  }, 120_000);

  it.runIf(sqlKind === 'postgres')(
    'a socket on instance b hears the balance event of a transfer made on instance a',
    async () => {
      const { a, b, ann, bob } = await twoInstances();
      const socket = new WebSocket(`${b.url.replace('http', 'ws')}/ws`);
      const messages: Array<{ type: string; data: { memberId?: string } | null }> = [];
      const arrived = new Set<() => void>();
      socket.on('message', (raw: Buffer) => {
        messages.push(JSON.parse(raw.toString()) as (typeof messages)[number]);
        for (const wake of arrived) wake();
      });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const waitFor = (match: (m: (typeof messages)[number]) => boolean) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (!messages.some(match)) return;
            arrived.delete(check);
            resolve();
          };
          arrived.add(check);
          check();
        });
      socket.send(JSON.stringify({ type: 'bind', data: { token: bob.token, userId: bob.id } }));
      await waitFor((m) => m.type === 'bound' && m.data?.memberId === bob.id);
      const sent = await a.call('/api/transfer/submit', { account: 'bob', amount: '3' }, ann);
      expect(sent.code).toBe(0);
      await waitFor((m) => m.type === 'balance' && m.data?.memberId === bob.id);
      // Account events stay private: ann's balance event is not delivered to bob's socket.
      expect(messages.some((m) => m.type === 'balance' && m.data?.memberId === ann.id)).toBe(false);
      socket.terminate();
      await a.close();
      await b.close();
    },
    120_000,
  );
});
