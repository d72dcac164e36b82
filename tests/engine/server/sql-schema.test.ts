/**
 * The PostgreSQL schema (server/sql-schema.ts): every engine table has a migrated table of its own (the
 * schema cannot drift from the engine's defineTable calls), and the database itself refuses corrupt rows
 * even if engine code had a bug: unbalanced journal entries (L1), negative member balances (L4), a mutation
 * id applied twice for one member (S1), rows of members that do not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definedTables, Tx } from '../../../engine/store';
import { balances, holds, journal } from '../../../engine/ledger/tables';
import { members } from '../../../engine/accounts/tables';
import { sessions } from '../../../engine/security/sessions';
import { syncResults } from '../../../engine/sync/tables';
import { domains } from '../../../engine/routes';
import { ENGINE_TABLES, LEGS_BALANCED_0001, MIGRATIONS } from '../../../server/sql-schema';
import { SqlStore } from '../../../server/sql-store';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
let store: SqlStore;

beforeAll(async () => {
  store = await SqlStore.open(await testDriver(), { schema });
  const tx = new Tx(store);
  tx.put(members, { id: '100001', usernameKey: 'ann', createdAt: 1 } as never);
  await tx.commit();
  // Starting PGlite (when no DATABASE_URL) takes seconds of CPU, more on a loaded machine.
}, 120_000);

afterAll(async () => {
  await store.close();
  await dropSchema(schema);
});

/** Commits one unit writing `fill`; resolves to the database's refusal, or undefined when it committed. */
async function refusal(fill: (tx: Tx) => void): Promise<string | undefined> {
  const tx = new Tx(store);
  fill(tx);
  try {
    await tx.commit();
    return undefined;
  } catch (error) {
    return String((error as Error).message);
  }
}

describe(`sql schema (${sqlKind})`, () => {
  it('every engine table has a migrated table of its own', async () => {
    expect(domains.length).toBeGreaterThan(10);
    const engineTables = [...definedTables().keys()].sort();
    expect(engineTables.length).toBeGreaterThan(20);
    expect(engineTables.filter((name) => !(name in ENGINE_TABLES))).toEqual([]);
    expect(store.mappedTables()).toEqual(Object.keys(ENGINE_TABLES).sort());
    const { rows } = await store.driver.query<{ name: string }>(
      `SELECT name FROM ${schema}.strata_migrations ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('migrating again is a no-op, and amounts are bigint columns', async () => {
    const again = await SqlStore.open(await testDriver(), { schema });
    await again.close();
    const { rows } = await store.driver.query<{ table_name: string; data_type: string }>(
      `SELECT table_name, data_type FROM information_schema.columns
       WHERE table_schema = $1 AND column_name = 'amount' ORDER BY table_name`,
      [schema],
    );
    const types = Object.fromEntries(rows.map((r) => [r.table_name, r.data_type]));
    expect(types['ledger_balances']).toBe('bigint');
    expect(types['ledger_holds']).toBe('bigint');
    expect(types['withdrawals']).toBe('bigint');
  });

  it('L1 an unbalanced journal entry is refused; a balanced one is kept', async () => {
    const legs = (a: string, b: string) => [
      { account: 'user:100001:cash', asset: 'USDT', amount: a },
      { account: 'world:TRC20', asset: 'USDT', amount: b },
    ];
    const entry = { at: 1, kind: 'test', ref: 'r', members: ['100001'] };
    expect(await refusal((tx) => tx.put(journal, { id: 'j1', ...entry, legs: legs('5', '-4') }))).toMatch(
      /entry_balanced/,
    );
    expect(
      await refusal((tx) => tx.put(journal, { id: 'j2', ...entry, legs: legs('5', '-5') })),
    ).toBeUndefined();
  });

  it("L1's check (migration 0007, PL/pgSQL) answers what migration 0001's SQL function answered", async () => {
    // 0001's function, beside the migrated one, compared on edge cases: same answer (NULL included) or
    // the same refusal (an amount that is not a number).
    await store.driver.query(
      `CREATE FUNCTION ${schema}.legs_0001(legs jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ ${LEGS_BALANCED_0001} $$`,
    );
    const leg = (asset: unknown, amount: unknown) => ({ account: 'a', asset, amount });
    const cases: unknown[] = [
      [leg('USDT', '5'), leg('USDT', '-5')],
      [leg('USDT', '5'), leg('USDT', '-4')],
      [leg('USDT', '5'), leg('BTC', '-5')],
      [leg('USDT', '0'), leg('BTC', '0')],
      [leg('USDT', '0.000001'), leg('USDT', '-0.000001')],
      [leg('USDT', 5), leg('USDT', -5)],
      [leg('USDT', '1e3'), leg('USDT', '-1000')],
      [leg('USDT', null), leg('USDT', null)],
      [leg('USDT', null), leg('USDT', '3')],
      [leg('USDT', null), leg('USDT', '0')],
      [leg(null, '5'), leg(null, '-5')],
      [leg(null, '5'), leg('USDT', '-5')],
      [leg(null, '0'), leg('USDT', null)],
      [{ account: 'a' }, { account: 'b' }],
      ['x', 'y'],
      [1, 2],
      [[], []],
      [leg('USDT', 'NaN'), leg('USDT', '0')],
      [leg('USDT', 'Infinity'), leg('USDT', '-Infinity')],
      [leg('USDT', '5')],
      [],
      [leg('USDT', '5'), leg('USDT', '-3'), leg('USDT', '-2')],
      [leg('USDT', '5'), leg('USDT', '-3'), leg('BTC', '-2')],
      { legs: 1 },
      'legs',
      7,
      null,
    ];
    const answer = async (fn: string, legs: unknown) => {
      try {
        const { rows } = await store.driver.query<{ ok: boolean | null }>(
          `SELECT ${schema}.${fn}($1::jsonb) AS ok`,
          [legs === undefined ? null : JSON.stringify(legs)],
        );
        return rows[0]?.ok;
      } catch (error) {
        return `refused: ${(error as { code?: string }).code ?? String(error)}`;
      }
    };
    for (const legs of [...cases, undefined, [leg('USDT', 'five'), leg('USDT', '-5')]]) {
      expect([legs, await answer('strata_legs_balanced', legs)]).toEqual([
        legs,
        await answer('legs_0001', legs),
      ]);
    }
    expect(await answer('strata_legs_balanced', cases[0])).toBe(true);
    expect(await answer('strata_legs_balanced', cases[1])).toBe(false);
    expect(await answer('strata_legs_balanced', [leg('USDT', 'five'), leg('USDT', '-5')])).toMatch(/refused/);
  });

  it('L4 a member balance below zero is refused; the outside world may go negative', async () => {
    const row = (account: string, amount: string) => ({
      id: `${account}|USDT`,
      account,
      asset: 'USDT',
      amount,
      owner: account.startsWith('user:') ? '100001' : null,
    });
    expect(await refusal((tx) => tx.put(balances, row('user:100001:cash', '-1')))).toMatch(
      /balance_not_negative/,
    );
    expect(await refusal((tx) => tx.put(balances, row('platform:fees', '-1')))).toMatch(
      /balance_not_negative/,
    );
    expect(await refusal((tx) => tx.put(balances, row('world:TRC20', '-5')))).toBeUndefined();
    expect(await refusal((tx) => tx.put(balances, row('user:100001:cash', '5')))).toBeUndefined();
  });

  it('S1 one mutation id per member: a second result row for it is refused', async () => {
    const result = {
      memberId: '100001',
      mutationId: 'm-1',
      clientId: 'c',
      name: 'x',
      code: 0,
      msg: 'ok',
      data: null,
      at: 1,
    };
    expect(await refusal((tx) => tx.put(syncResults, { id: '100001:m-1', ...result }))).toBeUndefined();
    expect(await refusal((tx) => tx.put(syncResults, { id: 'other', ...result }))).toMatch(
      /unique|duplicate/i,
    );
  });

  it('rows of a member that does not exist are refused; holds move positive amounts', async () => {
    expect(
      await refusal((tx) =>
        tx.put(sessions, { id: 's1', memberId: '999999', createdAt: 1, expiresAt: 2, revokedAt: null }),
      ),
    ).toMatch(/foreign key/i);
    const hold = {
      memberId: '100001',
      account: 'user:100001:cash',
      frozenAccount: 'user:100001:cash:frozen',
      asset: 'USDT',
      reason: 'test',
      ref: 'r',
      status: 'held' as const,
      createdAt: 1,
      closedAt: null,
    };
    expect(await refusal((tx) => tx.put(holds, { id: 'h1', ...hold, amount: '0' }))).toMatch(/check/i);
    expect(await refusal((tx) => tx.put(holds, { id: 'h2', ...hold, amount: '3' }))).toBeUndefined();
  });

  it('a database of the first layout (one JSON table) is migrated: engine rows move to their tables', async () => {
    const old = freshSchema();
    const driver = await testDriver();
    try {
      await driver.query(`CREATE SCHEMA ${old}`);
      await driver.query(
        `CREATE TABLE ${old}.strata_rows (t text NOT NULL, id text NOT NULL, ix text[] NOT NULL, v jsonb NOT NULL, PRIMARY KEY (t, id))`,
      );
      await driver.query(`CREATE TABLE ${old}.strata_meta (key text PRIMARY KEY, value jsonb NOT NULL)`);
      await driver.query(
        `INSERT INTO ${old}.strata_rows (t, id, ix, v) VALUES
          ('members', '100001', '{username=ann}', '{"id":"100001","usernameKey":"ann","createdAt":1}'),
          ('counters', 'member', '{}', '{"id":"member","value":100001}'),
          ('pets', '1', '{owner=ann}', '{"id":"1","owner":"ann"}')`,
      );
      const migrated = await SqlStore.open(await testDriver(), { schema: old });
      expect(await migrated.query('members', 'username=ann')).toEqual([
        { id: '100001', usernameKey: 'ann', createdAt: 1 },
      ]);
      expect(await migrated.get('pets', '1')).toEqual({ id: '1', owner: 'ann' });
      // Ids continue after the counters of the first layout.
      expect(await migrated.nextId('member')).toBe(100_002);
      const { rows } = await driver.query<{ t: string }>(`SELECT t FROM ${old}.strata_rows`);
      expect(rows.map((r) => r.t)).toEqual(['pets']);
      await migrated.close();
    } finally {
      await driver.close();
      await dropSchema(old);
    }
  });

  it('concurrent read-modify-write units on one row, from two stores, lose no update', async () => {
    const other = await SqlStore.open(await testDriver(), { schema });
    const counter = { name: 'counters', indexes: {} };
    const bump = (s: SqlStore) =>
      s.transaction(async (view) => {
        const tx = new Tx(view);
        const row = (await tx.get(counter, 'bumps')) as { id: string; value: number } | undefined;
        tx.put(counter, { id: 'bumps', value: (row?.value ?? 0) + 1 });
        await tx.commit();
      });
    await Promise.all(Array.from({ length: 24 }, (_, i) => bump(i % 2 === 0 ? store : other)));
    expect(await other.get('counters', 'bumps')).toEqual({ id: 'bumps', value: 24 });
    await other.close();
  });
});
