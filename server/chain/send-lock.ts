/**
 * The hot wallet's send lock across API instances (docs/OPERATIONS.md "Nonces across instances"): the EVM
 * gateway takes each withdrawal's nonce from the hot wallet's pending transaction count, which is only right
 * when no other instance is between reading it and broadcasting. Each send (nonce, signature, broadcast) runs
 * inside a PostgreSQL transaction holding a transaction-scoped advisory lock on (schema, network), so two
 * instances approving at the same instant send one after the other; the lock is released when the send is
 * done (ROLLBACK: the transaction writes nothing), or by PostgreSQL if the connection dies.
 *
 * PGlite serves one process, where the gateway already sends one at a time: no lock is needed there (and
 * holding PGlite's single connection during a send would block the engine's own units of work).
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
