/**
 * The hot wallet's send lock across API instances: the EVM gateway takes a withdrawal's nonce from the
 * wallet's pending transaction count, right only when no other instance is between reading it and
 * broadcasting, so each send runs in a PostgreSQL transaction holding an advisory lock on (schema, network),
 * released when the send is done or the connection dies. PGlite serves one process, which sends one at a
 * time: no lock there. docs/OPERATIONS.md "Nonces across instances".
 */
import type { SqlDriver } from '../sql-driver';
import type { SendLock } from './evm';
import type { ChainNetwork } from './gateway';

/** How long a send waits for another instance's send before it fails (nothing sent, the claim released). */
const LOCK_WAIT = '60s';

export function sqlSendLock(
  sql: { driver: SqlDriver; schema: string },
  network: ChainNetwork,
): SendLock | undefined {
  if (sql.driver.kind !== 'postgres') return undefined;
  const key = `${sql.schema}:chain-send:${network}`;
  return async <T>(send: () => Promise<T>): Promise<T> => {
    const c = await sql.driver.connect();
    let broken = false;
    try {
      await c.query('BEGIN');
      await c.query(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
      await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
      return await send();
    } finally {
      await c.query('ROLLBACK').catch(() => {
        broken = true;
      });
      c.release(broken);
    }
  };
}
