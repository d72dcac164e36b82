/**
 * The SQL adapter of engine/store/port.ts, on PostgreSQL or PGlite.
 *
 * Layout (in one PostgreSQL schema): `strata_rows (t, id, ix text[], v jsonb)`, one row per record of
 * every engine table, keyed by (t, id), so a new engine table never needs a migration (as in the Dexie
 * adapter); `ix` holds the record's precomputed index keys, `v` the record (server/sql-codec.ts).
 * `strata_meta` holds the layout version.
 *
 * Reads come from an in-memory mirror loaded at open, as the Dexie adapter does: the engine reads many
 * records per call (scans, index queries), and each read a round trip would be. The price is that the
 * server process must be the only writer; on PostgreSQL it holds a session advisory lock on the schema for
 * its lifetime, so a second server on the same schema refuses to start instead of diverging silently.
 * `commit` is ONE SQL transaction (BEGIN, delete, upsert, COMMIT; ROLLBACK on error); the mirror changes
 * only after COMMIT succeeded.
 */
import { MemoryStore } from '../engine/store/memory';
import type { RowRef, StoreAdapter, StoredRow } from '../engine/index';
import { decodeValue, encodeValue, escapeText, unescapeText } from './sql-codec';
import { checkSchemaName, type SqlConnection, type SqlDriver } from './sql-driver';

const LAYOUT_VERSION = 1;

interface DbRow {
  t: string;
  id: string;
  ix: string[];
  v: unknown;
}

export interface SqlStoreOptions {
  /** PostgreSQL schema of the tables (created when missing); default `strata`. */
  schema?: string;
  /** Close the driver with the store (default true). */
  closeDriver?: boolean;
}

export class SqlStore implements StoreAdapter {
  readonly kind = 'sql';
  private mirror = new MemoryStore();
  private lock: (SqlConnection & { release(): void }) | null = null;
  /** Set when a COMMIT's outcome is unknown (connection lost): the mirror is reloaded before going on. */
  private stale = false;

  private constructor(
    private readonly driver: SqlDriver,
    private readonly schema: string,
    private readonly closeDriver: boolean,
  ) {}

  private get rows(): string {
    return `${this.schema}.strata_rows`;
  }

  static async open(driver: SqlDriver, options: SqlStoreOptions = {}): Promise<SqlStore> {
    const schema = checkSchemaName(options.schema ?? 'strata');
    const store = new SqlStore(driver, schema, options.closeDriver ?? true);
    await store.migrate();
    if (driver.kind === 'postgres') await store.takeLock();
    await store.load();
    return store;
  }

  private async migrate(): Promise<void> {
    const s = this.schema;
    const c = await this.driver.connect();
    try {
      await c.query('BEGIN');
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await c.query(
        `CREATE TABLE IF NOT EXISTS ${s}.strata_rows (t text NOT NULL, id text NOT NULL, ` +
          `ix text[] NOT NULL, v jsonb NOT NULL, PRIMARY KEY (t, id))`,
      );
      await c.query(
        `CREATE TABLE IF NOT EXISTS ${s}.strata_meta (key text PRIMARY KEY, value jsonb NOT NULL)`,
      );
      await c.query(
        `INSERT INTO ${s}.strata_meta (key, value) VALUES ('layout', $1::jsonb) ON CONFLICT (key) DO NOTHING`,
        [JSON.stringify(LAYOUT_VERSION)],
      );
      const [meta] = (
        await c.query<{ value: unknown }>(`SELECT value FROM ${s}.strata_meta WHERE key = 'layout'`)
      ).rows;
      if (meta?.value !== LAYOUT_VERSION) throw new Error(`Unknown storage layout ${String(meta?.value)}`);
      await c.query('COMMIT');
    } catch (error) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      c.release();
    }
  }

  private async takeLock(): Promise<void> {
    const c = await this.driver.connect();
    const { rows } = await c.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS ok`, [
      `strata:${this.schema}`,
    ]);
    if (!rows[0]?.ok) {
      c.release();
      throw new Error(`Another server holds the database (schema ${this.schema})`);
    }
    this.lock = c;
  }

  private async load(): Promise<void> {
    const { rows } = await this.driver.query<DbRow>(`SELECT t, id, ix, v FROM ${this.rows}`);
    const mirror = new MemoryStore();
    mirror.apply(
      rows.map((r) => ({
        table: unescapeText(r.t),
        id: unescapeText(r.id),
        ix: r.ix.map(unescapeText),
        value: decodeValue(r.v),
      })),
      [],
    );
    this.mirror = mirror;
    this.stale = false;
  }

  get(table: string, id: string): Promise<unknown> {
    return this.mirror.get(table, id);
  }

  query(table: string, key: string): Promise<unknown[]> {
    return this.mirror.query(table, key);
  }

  scan(table: string): Promise<unknown[]> {
    return this.mirror.scan(table);
  }

  tables(): Promise<string[]> {
    return this.mirror.tables();
  }

  async commit(puts: StoredRow[], deletes: RowRef[]): Promise<void> {
    if (this.stale) await this.load();
    if (puts.length === 0 && deletes.length === 0) return;
    // The last write of a key wins, as in the memory adapter; an upsert may not touch a row twice.
    const last = new Map<string, StoredRow>();
    for (const p of puts) last.set(`${p.table}\u0000${p.id}`, p);
    const encoded = JSON.stringify(
      [...last.values()].map((p) => [
        escapeText(p.table),
        escapeText(p.id),
        p.ix.map(escapeText),
        encodeValue(p.value),
      ]),
    );
    const c = await this.driver.connect();
    let sentCommit = false;
    try {
      await c.query('BEGIN');
      if (deletes.length > 0) {
        await c.query(
          `DELETE FROM ${this.rows} r USING unnest($1::text[], $2::text[]) AS d(t, id) ` +
            `WHERE r.t = d.t AND r.id = d.id`,
          [deletes.map((d) => escapeText(d.table)), deletes.map((d) => escapeText(d.id))],
        );
      }
      if (last.size > 0) {
        await c.query(
          `INSERT INTO ${this.rows} (t, id, ix, v) ` +
            `SELECT e->>0, e->>1, ARRAY(SELECT jsonb_array_elements_text(e->2)), e->3 ` +
            `FROM jsonb_array_elements($1::jsonb) AS e ` +
            `ON CONFLICT (t, id) DO UPDATE SET ix = EXCLUDED.ix, v = EXCLUDED.v`,
          [encoded],
        );
      }
      sentCommit = true;
      await c.query('COMMIT');
    } catch (error) {
      if (sentCommit) this.stale = true;
      else await c.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      c.release();
    }
    this.mirror.apply(puts, deletes);
  }

  async close(): Promise<void> {
    if (this.lock) {
      // A pooled connection keeps session locks after release: unlock explicitly.
      await this.lock
        .query(`SELECT pg_advisory_unlock(hashtext($1))`, [`strata:${this.schema}`])
        .catch(() => undefined);
      this.lock.release();
      this.lock = null;
    }
    await this.mirror.close();
    if (this.closeDriver) await this.driver.close();
  }
}
