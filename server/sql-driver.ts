/**
 * The few things the SQL store needs from a database, over node-postgres (a Pool: it replaces a broken
 * connection, which a long-running server needs) or PGlite (embedded PostgreSQL in WASM, one connection).
 * Both speak the same dialect and parse jsonb and text[] into JS values, so the store above is shared.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

export interface SqlConnection {
  /**
   * One statement. `prepared`: a statement the caller sends again and again (the store's reads): on
   * PostgreSQL it becomes a named prepared statement of the connection, parsed and planned once per
   * connection instead of at every call. Its text must be a fixed template (values go in `params`).
   */
  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    prepared?: boolean,
  ): Promise<{ rows: T[] }>;
}

export interface SqlDriver extends SqlConnection {
  readonly kind: 'postgres' | 'pglite';
  /** One connection for a transaction or a session lock; `release` hands it back (`broken`: discards it). */
  connect(): Promise<SqlConnection & { release(broken?: boolean): void }>;
  close(): Promise<void>;
  /** The pool's connections (PostgreSQL only): open, idle, callers waiting for one, and its size. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
}

/** What a migration (server/sql-schema.ts MIGRATIONS) runs on: a connection inside the migrating transaction. */
export interface MigrationContext {
  c: SqlConnection;
  /** The PostgreSQL schema (a checked identifier). */
  s: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are spliced into SQL text, so only plain identifiers pass. */
export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new TypeError(`Bad schema name ${schema}`);
  return schema;
}

/** Named prepared statements by text: `s<n>`, the same name on every connection of the process. */
const statementNames = new Map<string, string>();
/** Past this many distinct texts, statements are no longer prepared (texts are templates: never reached). */
const MAX_PREPARED = 2_000;

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = `s${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

type PgQuery = { text: string; values?: unknown[]; name?: string };

function pgQuery(text: string, params: unknown[] | undefined, prepared: boolean | undefined): PgQuery {
  const name = prepared ? statementName(text) : undefined;
  return name === undefined ? { text, values: params } : { name, text, values: params };
}

/**
 * `poolSize`: connections kept (PG_POOL_MAX; default 10). Each unit of work holds one for its transaction,
 * so this bounds the units a process runs at once; the rest wait for a connection.
 *
 * Connections run in node-postgres's pipeline mode: a statement issued before the previous one answered
 * goes on the wire at once instead of waiting for it, so the store sends BEGIN with a unit's first read,
 * COMMIT right behind its write, and independent reads together (one round trip instead of several).
 * Each statement keeps its own Sync, so it succeeds or fails on its own, in order.
 */
export async function postgresDriver(url: string, options: { poolSize?: number } = {}): Promise<SqlDriver> {
  const { default: pg } = await import('pg');
  const guarded = new WeakSet<PoolClient>();
  const pool: Pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    pipeline: true,
  });
  // An idle connection dropped by the database must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const max = options.poolSize ?? 10;
  return {
    kind: 'postgres',
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    query: async <T>(text: string, params?: unknown[], prepared?: boolean) => ({
      rows: (await pool.query(pgQuery(text, params, prepared))).rows as T[],
    }),
    connect: async () => {
      const client: PoolClient = await pool.connect();
      // A checked-out client reports a dead connection as an 'error' event (the pool's own handler covers only
      // idle ones): without a listener that event would crash the process. The failed query rejects too, and
      // the store discards the connection (release(true)).
      if (!guarded.has(client)) {
        guarded.add(client);
        client.on('error', () => undefined);
      }
      return {
        query: async <T>(text: string, params?: unknown[], prepared?: boolean) => ({
          rows: (await client.query(pgQuery(text, params, prepared))).rows as T[],
        }),
        release: (broken?: boolean) => client.release(broken === true ? true : undefined),
      };
    },
    close: () => pool.end(),
  };
}

/** `dataDir` undefined: in memory (tests). */
export async function pgliteDriver(dataDir?: string): Promise<SqlDriver> {
  const { PGlite: PGliteClass } = await import('@electric-sql/pglite');
  const db: PGlite = await PGliteClass.create(dataDir);
  return pgliteOn(db, () => db.close());
}

/** One holder at a time, in arrival order. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

const pgliteLocks = new WeakMap<PGlite, Mutex>();

/**
 * A driver on an open PGlite; `close` runs `onClose` (tests share one PGlite between stores). PGlite is a
 * single connection, so `connect` hands it out to one holder at a time (every driver on the same PGlite
 * shares the lock): transactions never interleave, and a bare `query` waits for the transaction in progress.
 */
export function pgliteOn(db: PGlite, onClose: () => Promise<void>): SqlDriver {
  let lock = pgliteLocks.get(db);
  if (!lock) {
    lock = new Mutex();
    pgliteLocks.set(db, lock);
  }
  const mutex = lock;
  const query = async <T>(text: string, params?: unknown[]) => db.query<T>(text, params);
  return {
    kind: 'pglite',
    query: async <T>(text: string, params?: unknown[]) => {
      const release = await mutex.acquire();
      try {
        return await query<T>(text, params);
      } finally {
        release();
      }
    },
    connect: async () => {
      const release = await mutex.acquire();
      let released = false;
      return {
        query,
        release: () => {
          if (released) return;
          released = true;
          release();
        },
      };
    },
    close: onClose,
  };
}

/**
 * Whether the connection's role is a PostgreSQL superuser (audit L7): such a role can disable the audit
 * log's append-only triggers and delete its rows, so the server says so at start (server/app.ts).
 */
export async function runsAsSuperuser(driver: SqlDriver): Promise<boolean> {
  const { rows } = await driver.query<{ rolsuper: boolean }>(
    'SELECT rolsuper FROM pg_roles WHERE rolname = current_user',
  );
  return rows[0]?.rolsuper === true;
}
