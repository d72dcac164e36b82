/**
 * Figures for the SQL store (docs/SERVER.md): commit latency of a transfer-sized unit of work, opening
 * (loading the mirror) at 10k and 100k rows, and what one read would cost if reads went to SQL instead of
 * the mirror. `npx tsx server/bench.ts` (PGlite in memory), or with DATABASE_URL for PostgreSQL.
 */
import { Tx, defineTable } from '../engine/store';
import { type SqlDriver, pgliteDriver, postgresDriver } from './sql-driver';
import { SqlStore } from './sql-store';

interface Bal {
  id: string;
  account: string;
  amount: string;
}
const balances = defineTable<Bal>('bench-balances', { account: (b) => b.account });
const entries = defineTable<{ id: string; legs: string[]; at: number }>('bench-entries');

function ms(start: number): number {
  return Math.round((performance.now() - start) * 100) / 100;
}

async function driver(): Promise<SqlDriver> {
  const url = process.env['DATABASE_URL'];
  return url ? postgresDriver(url) : pgliteDriver();
}

async function fill(store: SqlStore, rows: number): Promise<void> {
  for (let done = 0; done < rows; done += 2_000) {
    const tx = new Tx(store);
    for (let i = done; i < Math.min(rows, done + 2_000); i++) {
      tx.put(entries, { id: String(i), legs: [`user:${i}:cash`, 'world:TRC20'], at: 1_700_000_000_000 + i });
    }
    await tx.commit();
  }
}

async function main(): Promise<void> {
  const schema = `bench_${process.pid}`;
  const db = await driver();
  const kind = db.kind;
  let store = await SqlStore.open(db, { schema, closeDriver: false });

  const commits = 300;
  let start = performance.now();
  for (let i = 0; i < commits; i++) {
    // A transfer: two balances, one journal entry with its legs, a record and an id counter.
    const tx = new Tx(store);
    tx.put(balances, { id: `a${i % 50}`, account: `user:${i % 50}:cash`, amount: String(1_000_000 - i) });
    tx.put(balances, { id: `b${i % 50}`, account: `user:${(i % 50) + 50}:cash`, amount: String(i) });
    tx.put(entries, { id: `t${i}`, legs: ['a', 'b'], at: i });
    tx.put(defineTable('bench-records'), { id: String(i), from: 'a', to: 'b', amount: '1' } as {
      id: string;
    });
    tx.put(defineTable('bench-counters'), { id: 'transfer', next: i } as { id: string });
    await tx.commit();
  }
  const perCommit = ms(start) / commits;
  console.log(
    `${kind}: transfer-sized commit ${perCommit.toFixed(2)} ms (${Math.round(1000 / perCommit)}/s)`,
  );

  start = performance.now();
  for (let i = 0; i < commits; i++) await store.get('bench-balances', `a${i % 50}`);
  console.log(`${kind}: mirror read ${((ms(start) * 1000) / commits).toFixed(1)} us`);
  start = performance.now();
  for (let i = 0; i < commits; i++) {
    await db.query(`SELECT v FROM ${schema}.strata_rows WHERE t = $1 AND id = $2`, [
      'bench-balances',
      `a${i % 50}`,
    ]);
  }
  console.log(`${kind}: one read through SQL instead ${(ms(start) / commits).toFixed(3)} ms`);

  for (const rows of [10_000, 100_000]) {
    await fill(store, rows);
    await store.close();
    start = performance.now();
    store = await SqlStore.open(db, { schema, closeDriver: false });
    console.log(`${kind}: open with ${rows} rows ${ms(start)} ms`);
  }
  await store.close();
  await db.query(`DROP SCHEMA ${schema} CASCADE`);
  await db.close();
}

await main();
