/**
 * What the SQL adapter adds to the shared store contract (tests/engine/store.contract.test.ts runs that on
 * it too): persistence across reopening, values JSON and PostgreSQL text cannot carry, all-or-nothing
 * commits, two stores on one schema, and a whole server restarted on the same database.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Tx } from '../../../engine/store';
import { scratchTable } from '../scratch-table';
import type { SqlDriver } from '../../../server/sql-driver';
import { SqlStore } from '../../../server/sql-store';
import { deposit, login, signUp, startTestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const pets = scratchTable<{ id: string; owner: string; name: string }>('pets', { owner: (p) => p.owner });
const schemas: string[] = [];

async function open(schema: string): Promise<SqlStore> {
  return SqlStore.open(await testDriver(), { schema });
}

function schema(): string {
  const name = freshSchema();
  schemas.push(name);
  return name;
}

afterAll(async () => {
  for (const name of schemas) await dropSchema(name);
});

describe(`sql store (${sqlKind})`, () => {
  it('G1 what was committed is there after reopening, deletes and index keys included', async () => {
    const s = schema();
    const first = await open(s);
    const tx = new Tx(first);
    tx.put(pets, { id: '1', owner: 'ann', name: 'Rex' });
    tx.put(pets, { id: '2', owner: 'ann', name: 'Tom' });
    await tx.commit();
    const del = new Tx(first);
    del.delete(pets, '2');
    del.put(pets, { id: '1', owner: 'bob', name: 'Rex' });
    await del.commit();
    await first.close();

    const second = await open(s);
    expect(await second.scan('pets')).toEqual([{ id: '1', owner: 'bob', name: 'Rex' }]);
    expect(await second.query('pets', 'owner=bob')).toHaveLength(1);
    expect(await second.query('pets', 'owner=ann')).toEqual([]);
    await second.close();
  });

  it('G3 bigints, bytes, NUL, lone surrogates, -0 and $t keys survive a round trip through SQL', async () => {
    const s = schema();
    const odd = scratchTable<{ id: string; [k: string]: unknown }>('odd', {
      name: (r) => r['name'] as string,
    });
    const record = {
      id: 'a\u0000%b',
      name: 'x\u0000y\ud800',
      big: 12345678901234567890n,
      bytes: new Uint8Array([0, 255]),
      list: [1, null, -0, Number.NaN],
      nested: { $t: 'looks like a tag', 'k\u0000': 'v' },
    };
    const first = await open(s);
    const tx = new Tx(first);
    tx.put(odd, record);
    await tx.commit();
    await first.close();
    const second = await open(s);
    expect(await second.get('odd', 'a\u0000%b')).toEqual(record);
    expect(await second.query('odd', 'name=x\u0000y\ud800')).toEqual([record]);
    await second.close();
  });

  it('G1 a commit that fails in SQL writes nothing and leaves the store usable', async () => {
    const s = schema();
    const store = await open(s);
    const ok = new Tx(store);
    ok.put(pets, { id: '1', owner: 'ann', name: 'Rex' });
    await ok.commit();
    const bad = new Tx(store);
    bad.put(pets, { id: '2', owner: 'ann', name: 'Tom' });
    // A Map cannot be stored: the encoder refuses it before anything reaches the database.
    bad.put(scratchTable('weird'), { id: '1', map: new Map() } as { id: string });
    await expect(bad.commit()).rejects.toThrow();
    expect(await store.scan('pets')).toHaveLength(1);
    await store.close();
    const again = await open(s);
    expect(await again.tables()).toEqual(['pets']);
    await again.close();
  });

  it('G1 a statement failing inside the SQL transaction rolls it back; a lost COMMIT answer leaves the store serving what was committed', async () => {
    const s = schema();
    const real = await testDriver();
    let failOn: RegExp | null = null;
    let afterCommitFails = false;
    // A driver that breaks where told: before a statement runs, or after COMMIT ran (a lost connection).
    const flaky: SqlDriver = {
      ...real,
      connect: async () => {
        const c = await real.connect();
        return {
          release: () => c.release(),
          query: async <T>(text: string, params?: unknown[]) => {
            if (failOn?.test(text)) throw new Error('injected failure');
            const result = await c.query<T>(text, params);
            if (afterCommitFails && text === 'COMMIT') throw new Error('connection lost after COMMIT');
            return result;
          },
        };
      },
    };
    const store = await SqlStore.open(flaky, { schema: s });
    const put = async (id: string) => {
      const tx = new Tx(store);
      tx.delete(pets, 'gone');
      tx.put(pets, { id, owner: 'ann', name: id });
      await tx.commit();
    };
    await put('1');
    failOn = /^(WITH|INSERT INTO|DELETE FROM)/;
    await expect(put('2')).rejects.toThrow(/injected/);
    failOn = null;
    afterCommitFails = true;
    await expect(put('3')).rejects.toThrow(/after COMMIT/);
    afterCommitFails = false;
    // The caller was told '3' failed, but the database committed it: reads come from the database, so they
    // show it, and the store goes on serving.
    await put('4');
    expect((await store.scan('pets')).map((p) => (p as { id: string }).id)).toEqual(['1', '3', '4']);
    await store.close();
  });

  it('a unit that issues no statement takes no connection; reads issued together travel as one statement', async () => {
    const s = schema();
    const real = await testDriver();
    const statements: string[] = [];
    let connects = 0;
    const counting: SqlDriver = {
      ...real,
      connect: async () => {
        connects++;
        const c = await real.connect();
        return {
          release: (broken?: boolean) => c.release(broken),
          query: async <T>(text: string, params?: unknown[], prepared?: boolean) => {
            statements.push(text);
            return c.query<T>(text, params, prepared);
          },
        };
      },
    };
    const store = await SqlStore.open(counting, { schema: s });
    const setup = new Tx(store);
    setup.put(pets, { id: '1', owner: 'ann', name: 'Rex' });
    setup.put(pets, { id: '2', owner: 'ann', name: 'Tom' });
    setup.put(pets, { id: '3', owner: 'bob', name: 'Max' });
    await setup.commit();

    // Nothing read, nothing written: no connection, no BEGIN, no COMMIT.
    connects = 0;
    statements.length = 0;
    expect(await store.transaction(async () => 'answered from memory')).toBe('answered from memory');
    expect(connects).toBe(0);
    expect(statements).toEqual([]);

    // A unit that fails before its first statement is issued takes no connection; one that fails while its
    // connection is being taken rolls back what it began before the connection goes back to the pool.
    await expect(
      store.transaction(async (view) => {
        void view.get('pets', '1').catch(() => undefined);
        throw new Error('refused at once');
      }),
    ).rejects.toThrow('refused at once');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(connects).toBe(0);
    expect(statements).toEqual([]);
    await expect(
      store.transaction(async (view) => {
        void view.get('pets', '1').catch(() => undefined);
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect(statements[0]).toMatch(/^BEGIN/);
    expect(statements.at(-1)).toBe('ROLLBACK');
    statements.length = 0;

    // A point read, an index read, a getMany over two tables and two sequence draws, issued together.
    const together = await store.transaction((view) =>
      Promise.all([
        view.get('pets', '3'),
        view.query('pets', 'owner=ann'),
        view.getMany?.([
          { table: 'pets', id: '2' },
          { table: 'nothing', id: 'x' },
          { table: 'pets', id: '9' },
          { table: 'pets', id: '1' },
        ]),
        view.nextId?.('transfer'),
        view.nextId?.('journal'),
        view.get('pets', 'missing'),
      ]),
    );
    expect(statements.filter((t) => !/^(BEGIN|COMMIT)/.test(t))).toHaveLength(1);
    expect(statements).toHaveLength(3);
    const one = await store.transaction((view) =>
      Promise.all([view.nextId?.('transfer'), view.nextId?.('journal')]),
    );
    expect(together).toEqual([
      { id: '3', owner: 'bob', name: 'Max' },
      [
        { id: '1', owner: 'ann', name: 'Rex' },
        { id: '2', owner: 'ann', name: 'Tom' },
      ],
      [{ id: '2', owner: 'ann', name: 'Tom' }, undefined, undefined, { id: '1', owner: 'ann', name: 'Rex' }],
      // Each sequence drew once: the next draw follows it.
      (one[0] ?? 0) - 1,
      (one[1] ?? 0) - 1,
      undefined,
    ]);
    // The same reads one by one answer the same.
    expect(
      await store.transaction(async (view) => [
        await view.get('pets', '3'),
        await view.query('pets', 'owner=ann'),
        await view.getMany?.([
          { table: 'pets', id: '2' },
          { table: 'nothing', id: 'x' },
          { table: 'pets', id: '9' },
          { table: 'pets', id: '1' },
        ]),
      ]),
    ).toEqual(together.slice(0, 3));
    await store.close();
  });

  it('two stores on the same schema serve at once and read what the other committed (no lock, no mirror)', async () => {
    const s = schema();
    const first = await open(s);
    const second = await open(s);
    const tx = new Tx(first);
    tx.put(pets, { id: '1', owner: 'ann', name: 'Rex' });
    await tx.commit();
    expect(await second.get('pets', '1')).toEqual({ id: '1', owner: 'ann', name: 'Rex' });
    const del = new Tx(second);
    del.delete(pets, '1');
    await del.commit();
    expect(await first.get('pets', '1')).toBeUndefined();
    await first.close();
    await second.close();
  });
});

describe(`server restart on the same database (${sqlKind})`, () => {
  it('L2 a member registered before a restart logs in after it with the same balance', async () => {
    const s = schema();
    const first = await startTestServer({ storage: await open(s) });
    const ann = await signUp(first, 'ann');
    await deposit(first, ann, '250.5', 1);
    const before = (await first.call('/api/user/getuser', undefined, ann)).data;
    expect(before.balance).toBe('250.5');
    await first.close();

    const second = await startTestServer({ storage: await open(s), clock: first.clock });
    const again = await login(second, 'ann');
    const after = (await second.call('/api/user/getuser', undefined, again)).data;
    expect(after.balance).toBe('250.5');
    // The session opened before the restart is still valid: sessions live in the database too.
    expect((await second.call('/api/user/getuser', undefined, ann)).code).toBe(0);
    expect(await second.engine.diagnostics.checkInvariants()).toEqual([]);
    await second.close();
  });
});
