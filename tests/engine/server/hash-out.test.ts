/**
 * Hashes outside the unit of work for sync pushes and Idempotency-Key calls (issue 11 item 7, docs/SERVER.md
 * "Hashing pool"): a push whose mutations need a password or key hash leaves its unit (rolled back, nothing
 * recorded), the hash runs outside any transaction, connection or serial-queue slot, and the push runs again
 * from its first mutation. The answers, the exactly-once records and the failure counts are those of before;
 * after 8 rounds a push hashes inline. Checked on memory and on SQL (PGlite, or PostgreSQL with
 * DATABASE_URL), in the engine and over HTTP with the server's worker pool.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyOf, DataOf, Engine, Envelope, StoreAdapter } from '../../../engine/index';
import { webCryptoHasher, type Hasher } from '../../../engine/security/hashing';
import { callWithKey } from '../../../server/http/engine-routes';
import { SqlStore } from '../../../server/sql-store';
import { fund, harness, login, signUp, type Harness, type Session } from '../harness';
import { startTestServer, signUp as serverSignUp, deposit, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const TRC = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const WITHDRAW_SUBMITTED = 911;

/** Whether the code running now was called from inside a storage transaction (see watched()). */
const inTransaction = new AsyncLocalStorage<true>();

/** Marks every transaction of `store`: code called inside one sees inTransaction's store. */
function watched<S extends StoreAdapter>(store: S): S {
  const transaction = store.transaction?.bind(store);
  if (transaction) store.transaction = (work) => inTransaction.run(true, () => transaction(work));
  return store;
}

interface Seen {
  /** The hash was called from inside a transaction. */
  inside: boolean;
  /** Another call got through while the hash ran (memory: the serial queue was free; PGlite: its connection). */
  othersRan: boolean;
}

/**
 * A hasher that records, for each derivation, whether it runs inside a transaction and whether a read call
 * gets through meanwhile (`probe`, set once the engine is up).
 */
function watchingHasher(inner: Hasher): {
  hasher: Hasher;
  seen: Seen[];
  probe: { read?: () => Promise<unknown> };
} {
  const seen: Seen[] = [];
  const probe: { read?: () => Promise<unknown> } = {};
  const hasher: Hasher = {
    pbkdf2: async (secret, salt, iterations) => {
      const inside = inTransaction.getStore() === true;
      let othersRan = true;
      if (probe.read) {
        const timeout = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 3_000));
        othersRan = (await Promise.race([probe.read().then(() => 'ran' as const), timeout])) === 'ran';
      }
      seen.push({ inside, othersRan });
      return inner.pbkdf2(secret, salt, iterations);
    },
  };
  return { hasher, seen, probe };
}

type Pushed = Envelope<DataOf<'/api/sync/push'>>;
type Mutation = BodyOf<'/api/sync/push'>['mutations'][number];

const results = (r: Pushed) => r.data.results;

const withdrawal = (id: string, key = 'key1', amount = '20') => ({
  id,
  name: '/api/withdraw/submit',
  args: { currency: 'USDT', network: 'TRC20', address: TRC, amount, key },
});

async function rows(engine: Engine, table: string): Promise<Array<Record<string, unknown>>> {
  return ((await engine.diagnostics.snapshot())[table] ?? []) as Array<Record<string, unknown>>;
}

for (const kind of ['memory', sqlKind] as const) {
  describe(`a push that needs a hash leaves its unit (engine, ${kind})`, () => {
    const schema = freshSchema();
    let h: Harness;
    let watch: ReturnType<typeof watchingHasher>;
    let ann: Session;

    beforeAll(async () => {
      watch = watchingHasher(webCryptoHasher);
      const storage =
        kind === 'memory' ? 'memory' : watched(await SqlStore.open(await testDriver(), { schema }));
      h = await harness({ storage, hasher: watch.hasher });
      ann = await signUp(h, 'ann');
      await fund(h, ann.id, '1000');
    }, 60_000);

    afterAll(async () => {
      await h?.engine.close();
      if (kind !== 'memory') await dropSchema(schema);
    });

    const push = (mutations: Mutation[], clientId = 'phone') =>
      h.call('/api/sync/push', { clientId, mutations }, ann);

    it('Y1 a withdrawal and a password change hash outside any unit; a retry answers the first results', async () => {
      watch.seen.length = 0;
      watch.probe.read = () => h.call('/api/market/list');
      const first = results(
        await push([
          withdrawal('w1'),
          {
            id: 'p1',
            name: '/api/user/editPsw',
            args: { oldPassword: 'secret1', password: 'secret2', repassword: 'secret2' },
          },
        ]),
      );
      watch.probe.read = undefined;
      expect(first.map((r) => [r.id, r.code])).toEqual([
        ['w1', WITHDRAW_SUBMITTED],
        ['p1', 0],
      ]);
      // The key check, the old password's check and the new password's hash: each once, outside.
      expect(watch.seen).toHaveLength(3);
      expect(watch.seen.every((s) => !s.inside && s.othersRan)).toBe(true);

      watch.seen.length = 0;
      expect(results(await push([withdrawal('w1'), withdrawal('w1', 'other-key')], 'tablet'))).toEqual([
        first[0],
        first[0],
      ]);
      expect(watch.seen).toHaveLength(0);
      expect(await rows(h.engine, 'withdrawals')).toHaveLength(1);
      // The password changed once, to secret2.
      await expect(login(h, 'ann', 'secret1')).rejects.toThrow(/2016/);
      await login(h, 'ann', 'secret2');
    });

    it('Y3 a wrong key is counted once and its answer recorded, though the push ran twice', async () => {
      const before = (await rows(h.engine, 'members')).find((m) => m['id'] === ann.id);
      expect(before?.['keyFails']).toBe(0);
      const [wrong] = results(await push([withdrawal('w2', 'not-the-key')]));
      expect(wrong).toMatchObject({ code: 3007, data: { remaining: 4 } });
      expect(results(await push([withdrawal('w2', 'not-the-key')]))).toEqual([wrong]);
      const after = (await rows(h.engine, 'members')).find((m) => m['id'] === ann.id);
      expect(after?.['keyFails']).toBe(1);
      expect(await rows(h.engine, 'withdrawals')).toHaveLength(1);
    });

    it('an Idempotency-Key call that needs a hash answers once, applied once', async () => {
      watch.seen.length = 0;
      const call = (amount: string) =>
        callWithKey(
          h.engine,
          {
            method: 'POST',
            path: '/api/withdraw/submit',
            headers: ann.headers,
            body: withdrawal('', 'key1', amount).args,
          },
          'w-key-1',
        );
      const first = await call('25');
      expect(first.body).toMatchObject({ code: WITHDRAW_SUBMITTED, data: { amount: '25' } });
      expect(watch.seen.length).toBeGreaterThan(0);
      expect(watch.seen.every((s) => !s.inside)).toBe(true);
      // A retry answers the first result; the same key with another body is refused (Y12) and applies nothing.
      expect((await call('25')).body).toEqual(first.body);
      expect((await call('30')).body).toMatchObject({ code: 422 });
      expect(await rows(h.engine, 'withdrawals')).toHaveLength(2);
    });

    it('a push needing more than 8 rounds of hashes falls back to hashing inline and applies each once', async () => {
      watch.seen.length = 0;
      // Ten key changes in a chain: each verifies the key the one before set, then hashes its own: 20 hashes.
      const changes = Array.from({ length: 10 }, (_, i) => ({
        id: `k${i}`,
        name: '/api/user/edituserPsw',
        args: { oldKey: `key${i + 1}`, key: `key${i + 2}`, rekey: `key${i + 2}` },
      }));
      const answered = results(await push(changes));
      expect(answered.map((r) => r.code)).toEqual(changes.map(() => 0));
      expect(watch.seen).toHaveLength(20);
      // 8 rounds outside, then inline (SQL: inside the push's transaction).
      if (kind !== 'memory') {
        expect(watch.seen.filter((s) => !s.inside)).toHaveLength(8);
        expect(watch.seen.filter((s) => s.inside)).toHaveLength(12);
      }
      expect(results(await push(changes, 'tablet'))).toEqual(answered);
      const [w] = results(await push([withdrawal('w3', 'key11')]));
      expect(w?.code).toBe(WITHDRAW_SUBMITTED);
      expect(await rows(h.engine, 'withdrawals')).toHaveLength(3);
      expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
    });
  });
}

describe(`Idempotency-Key calls that hash, over HTTP with the worker pool (${sqlKind})`, () => {
  const schema = freshSchema();
  let server: TestServer;
  let watch: ReturnType<typeof watchingHasher>;

  beforeAll(async () => {
    const storage = watched(await SqlStore.open(await testDriver(), { schema }));
    server = await startTestServer({
      storage,
      wrapHasher: (pool) => {
        watch = watchingHasher(pool);
        return watch.hasher;
      },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await dropSchema(schema);
  });

  it('Y1 retries arriving together answer the first result; no hash ran inside a transaction', async () => {
    const ann = await serverSignUp(server, 'ann');
    await deposit(server, ann, '100', 1);
    watch.seen.length = 0;
    const send = (path: string, body: unknown, key: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...ann.headers, 'Idempotency-Key': key },
        body: JSON.stringify(body),
      }).then(async (r) => (await r.json()) as { code: number; data: unknown });
    const withdraw = () => send('/api/withdraw/submit', withdrawal('', 'key1', '20').args, 'w-1');
    const answers = await Promise.all([withdraw(), withdraw(), withdraw()]);
    expect(answers[0]).toMatchObject({ code: WITHDRAW_SUBMITTED });
    for (const a of answers) expect(a).toEqual(answers[0]);
    const change = () =>
      send(
        '/api/user/editPsw',
        { oldPassword: 'secret1', password: 'secret2', repassword: 'secret2' },
        'p-1',
      );
    const [changed, again] = await Promise.all([change(), change()]);
    expect(changed?.code).toBe(0);
    expect(again).toEqual(changed);
    expect(watch.seen.length).toBeGreaterThanOrEqual(3);
    expect(watch.seen.filter((s) => s.inside)).toEqual([]);
    const listed = await server.call('/api/withdraw/list', { page: 1 }, ann);
    expect(listed.data.list).toHaveLength(1);
  });
});
