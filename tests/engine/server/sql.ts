/**
 * SQL for tests: PostgreSQL when DATABASE_URL is set (.ci/run sets it when the server is up), else one
 * in-memory PGlite per test file. Every test database is a fresh random schema, dropped when the test
 * is done with it, so parallel test files share PostgreSQL without colliding.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { StoreAdapter } from '../../../engine/index';
import { postgresDriver, pgliteOn, type SqlDriver } from '../../../server/sql-driver';
import { SqlStore } from '../../../server/sql-store';

export const sqlKind = process.env['DATABASE_URL'] ? 'postgres' : 'pglite';

let pglite: Promise<PGlite> | null = null;

function sharedPglite(): Promise<PGlite> {
  pglite ??= import('@electric-sql/pglite').then(({ PGlite: P }) => P.create());
  return pglite;
}

/** A driver on the test database; closing it does not close the shared PGlite. */
export async function testDriver(): Promise<SqlDriver> {
  const url = process.env['DATABASE_URL'];
  if (url) return postgresDriver(url);
  return pgliteOn(await sharedPglite(), async () => undefined);
}

export function freshSchema(): string {
  return `t_${crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const driver = await testDriver();
  try {
    await driver.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await driver.close();
  }
}

/** A SQL store in a fresh schema that drops its schema when closed (the contract suite's adapter). */
export async function openThrowawaySqlStore(): Promise<StoreAdapter> {
  const schema = freshSchema();
  const store = await SqlStore.open(await testDriver(), { schema });
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await dropSchema(schema);
  };
  return store;
}
