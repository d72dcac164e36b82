/**
 * The SQL adapter of engine/store/port.ts, on PostgreSQL or PGlite: one SQL table per engine table
 * (server/sql-schema.ts; values and keys encoded by server/sql-codec.ts), nothing mirrored in memory, each
 * unit of work one REPEATABLE READ transaction run again from the start on a conflict (40001, 40P01), and
 * commit notes written by their kind's writer before COMMIT. Layout, concurrency and why not SERIALIZABLE:
 * docs/SERVER.md "Storage", docs/DECISIONS.md "Server"; commit notes: docs/OPERATIONS.md "The engine's
 * operations port".
 */
import {
  StorageUnavailableError,
  type CommitNote,
  type RowRef,
  type StoreAdapter,
  type StoredRow,
} from '../engine/index';
import { compareIds, isStorageUnavailable } from '../engine/server';
import { decodeValue, encodeValue, escapeText, unescapeText } from './sql-codec';
import type { AvailabilityObserver } from './health';
import { checkSchemaName, type SqlConnection, type SqlDriver } from './sql-driver';
import { GroupCommit, type BatchHost, type GroupCommitOptions } from './group-commit';
import { migrate, MIGRATIONS, SEQUENCED_KINDS, sequenceOf } from './sql-schema';

const SEQUENCED = new Set(SEQUENCED_KINDS);

/** Writes one commit note inside the unit's transaction (connection `c`, the store's schema). */
export type CommitNoteWriter<N extends CommitNote = CommitNote> = (
  c: SqlConnection,
  schema: string,
  note: N,
) => Promise<void>;

/** A commit note could not be written (no writer for its kind, or its writer failed): nothing was committed. */
export class CommitNoteError extends Error {
  constructor(
    readonly kind: string,
    options?: { cause?: unknown },
  ) {
    super(`The ${kind} record could not be written: nothing was committed`, options);
    this.name = 'CommitNoteError';
  }
}

export interface SqlStoreOptions {
  /** PostgreSQL schema of the tables (created when missing); default `strata`. */
  schema?: string;
  /** Close the driver with the store (default true). */
  closeDriver?: boolean;
  /** Attempts of a unit of work that keeps meeting serialization conflicts (default 100). */
  maxAttempts?: number;
  /**
   * Group commit (server/group-commit.ts): units of work that arrive together share one transaction and one
   * COMMIT. Off when absent (each unit its own transaction).
   */
  groupCommit?: GroupCommitOptions;
  /**
   * Run pending migrations at open (default true). False (MIGRATE_AT_START=false, production: the runtime
   * role may not change the schema, server/db-roles.ts): `npm run migrate` runs them apart, and opening a
   * schema that lacks one this build knows fails with SchemaBehind, naming them.
   */
  migrate?: boolean;
}

/** The schema lacks migrations this build needs, and this store may not run them (MIGRATE_AT_START=false). */
export class SchemaBehind extends Error {
  constructor(
    readonly schema: string,
    readonly pending: string[],
  ) {
    super(
      `schema ${schema} lacks migrations ${pending.join(', ')}: run them with the migrations role ` +
        '(npm run migrate, docs/DEPLOY.md "Database roles") before starting this build',
    );
  }
}

/**
 * SQLSTATEs after which the whole transaction is run again: a concurrent update of a row this unit writes
 * (40001), a deadlock (40P01), and a unique key another unit inserted since this one read (23505: on the
 * re-run the engine sees the row and answers its own error, e.g. "username taken").
 */
const RETRYABLE = new Set(['40001', '40P01', '23505']);

/** At most this many rows of a conflicting unit are queued for (a settle hook may write thousands). */
const MAX_QUEUED_ROWS = 32;

/** SQLSTATEs and client errors of a connection that died (terminated, server shut down, network gone). */
const CONNECTION_LOST = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);

export function isConnectionLoss(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_LOST.has(code) || code.startsWith('08'))) return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection error|Client was closed|not queryable|terminating connection/i.test(
      message,
    )
  );
}

export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/** A unit of work's connection: its BEGIN and its one write statement, both still in flight. */
interface UnitConnection {
  c: SqlConnection;
  begin: Promise<unknown>;
  write: Promise<void> | null;
}

/** One read of a unit's batch (view, readBatch). */
type ReadPart =
  | { kind: 'get'; target: Target; id: string }
  | { kind: 'query'; target: Target; key: string }
  | { kind: 'many'; refs: readonly RowRef[] }
  | { kind: 'sequence'; sequence: string };

interface PendingRead {
  part: ReadPart;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Target {
  /** Qualified SQL table. */
  sql: string;
  /** The engine table name when the table is shared (`strata_rows`), else null. */
  t: string | null;
}

export class SqlStore implements StoreAdapter {
  readonly kind = 'sql';
  /** Engine table -> SQL table, from the schema's catalogue (strata_tables). */
  private tablesByName = new Map<string, string>();
  /** Counts for tests and the bench: conflicts retried. */
  retries = 0;
  /** Commit notes' writers by kind. */
  private readonly noteWriters = new Map<string, CommitNoteWriter>();
  /** Told when a unit cannot reach the database, and when one gets through (server/health.ts). */
  private availability: AvailabilityObserver | null = null;
  /** Told the size of each read batch (server/metrics.ts). */
  private batchObserver: ((size: number) => void) | null = null;
  /** Told the units of each batch committed and each batch run again (server/metrics.ts). */
  private groupObserver: { committed(units: number): void; retried(): void } | null = null;
  /** The group committer when group commit is on. */
  groupCommit: GroupCommit | null = null;

  private constructor(
    readonly driver: SqlDriver,
    readonly schema: string,
    private readonly closeDriver: boolean,
    private readonly maxAttempts: number,
  ) {}

  static async open(driver: SqlDriver, options: SqlStoreOptions = {}): Promise<SqlStore> {
    const schema = checkSchemaName(options.schema ?? 'strata');
    const store = new SqlStore(driver, schema, options.closeDriver ?? true, options.maxAttempts ?? 100);
    if (options.migrate === false) {
      const done = await driver
        .query<{ name: string }>(`SELECT name FROM ${schema}.strata_migrations`)
        .then(({ rows }) => new Set(rows.map((r) => r.name)))
        .catch(() => new Set<string>());
      const pending = MIGRATIONS.filter((m) => !done.has(m.name)).map((m) => m.name);
      if (pending.length > 0) {
        if (options.closeDriver ?? true) await driver.close();
        throw new SchemaBehind(schema, pending);
      }
    } else {
      const c = await driver.connect();
      try {
        await migrate(c, schema);
      } finally {
        c.release();
      }
    }
    const { rows } = await driver.query<{ name: string; sql_name: string }>(
      `SELECT name, sql_name FROM ${schema}.strata_tables`,
    );
    for (const r of rows) store.tablesByName.set(r.name, r.sql_name);
    if (options.groupCommit) store.groupCommit = new GroupCommit(store.batchHost(), options.groupCommit);
    return store;
  }

  /** Reports every unit that failed to reach the database, and every one that committed, to `observer`. */
  observeAvailability(observer: AvailabilityObserver): void {
    this.availability = observer;
  }

  /** Reports the number of reads of each batch (one statement) to `observer`. */
  observeReadBatches(observer: (size: number) => void): void {
    this.batchObserver = observer;
  }

  /** Reports each group-commit batch committed (its units) and each batch run again to `observer`. */
  observeGroupCommits(observer: { committed(units: number): void; retried(): void }): void {
    this.groupObserver = observer;
  }

  /** The engine tables that have a table of their own (the drift test compares them with the engine's). */
  mappedTables(): string[] {
    return [...this.tablesByName.keys()].sort();
  }

  private target(table: string): Target {
    const own = this.tablesByName.get(table);
    return own ? { sql: `${this.schema}.${own}`, t: null } : { sql: `${this.schema}.strata_rows`, t: table };
  }

  nextId(kind: string): Promise<number | undefined> {
    return this.sequence(this.driver, kind);
  }

  private async sequence(c: SqlConnection, kind: string): Promise<number | undefined> {
    if (!SEQUENCED.has(kind)) return undefined;
    const { rows } = await c.query<{ n: string }>(
      `SELECT nextval('${this.schema}.${sequenceOf(kind)}')::text AS n`,
      [],
      true,
    );
    return Number(rows[0]?.n);
  }

  /** Due jobs from the `jobs_due` index (the jobs table has a `due_at` column); other tables are scanned. */
  async due(table: string, upTo: number): Promise<unknown[]> {
    const own = this.tablesByName.get(table);
    if (table !== 'jobs' || own !== 'jobs') return this.scan(table);
    const { rows } = await this.driver.query<DbRow>(
      `SELECT id, v FROM ${this.schema}.jobs WHERE due_at <= $1`,
      [Math.floor(upTo)],
    );
    return decodeRows(rows);
  }

  get(table: string, id: string): Promise<unknown> {
    return readGet(this.driver, this.target(table), id);
  }

  query(table: string, key: string): Promise<unknown[]> {
    return readQuery(this.driver, this.target(table), key);
  }

  scan(table: string): Promise<unknown[]> {
    return readScan(this.driver, this.target(table));
  }

  tables(): Promise<string[]> {
    return this.listTables(this.driver);
  }

  private async listTables(c: SqlConnection): Promise<string[]> {
    const parts = [...this.tablesByName].map(
      ([, sqlName], i) =>
        `SELECT $${i + 1}::text AS t WHERE EXISTS (SELECT 1 FROM ${this.schema}.${sqlName})`,
    );
    parts.push(`SELECT DISTINCT t FROM ${this.schema}.strata_rows`);
    const { rows } = await c.query<{ t: string }>(parts.join(' UNION ALL '), [...this.tablesByName.keys()]);
    return rows.map((r) => unescapeText(r.t)).sort();
  }

  commit(puts: StoredRow[], deletes: RowRef[], notes: readonly CommitNote[] = []): Promise<void> {
    if (puts.length === 0 && deletes.length === 0 && notes.length === 0) return Promise.resolve();
    return this.transaction((view) => view.commit(puts, deletes, notes));
  }

  /** Registers the writer of commit notes of `kind` (the server's audit rows: server/admin/db.ts). */
  writeNotesWith<N extends CommitNote>(kind: N['kind'], writer: CommitNoteWriter<N>): void {
    // The writer is only ever called with notes of its kind.
    this.noteWriters.set(kind, writer as CommitNoteWriter);
  }

  /** The notes of one commit, after its rows, on the same connection and transaction. */
  private async writeNotes(c: SqlConnection, notes: readonly CommitNote[]): Promise<void> {
    for (const note of notes) {
      const writer = this.noteWriters.get(note.kind);
      if (!writer) throw new CommitNoteError(note.kind);
      try {
        await writer(c, this.schema, note);
      } catch (error) {
        if (isRetryable(error) || isConnectionLoss(error)) throw error;
        throw new CommitNoteError(note.kind, { cause: error });
      }
    }
  }

  /** What the group committer uses of this store. */
  private batchHost(): BatchHost {
    return {
      driver: this.driver,
      schema: this.schema,
      target: (table) => this.target(table),
      sequenceName: (kind) => (SEQUENCED.has(kind) ? `${this.schema}.${sequenceOf(kind)}` : null),
      scan: (c, table) => readScan(c, this.target(table)),
      tables: (c) => this.listTables(c),
      write: (c, puts, deletes) => this.write(c, puts, deletes),
      writeNotes: (c, notes) => this.writeNotes(c, notes),
      solo: (work) => this.runUnit(work, this.availability),
      isRetryable,
      isConnectionLoss,
      succeeded: () => this.availability?.succeeded(),
      retried: () => {
        this.retries++;
        this.groupObserver?.retried();
      },
      committed: (units) => this.groupObserver?.committed(units),
      readBatchSize: (size) => this.batchObserver?.(size),
    };
  }

  async transaction<T>(work: (store: StoreAdapter) => Promise<T>): Promise<T> {
    const observer = this.availability;
    const gc = this.groupCommit;
    if (!observer) return gc ? gc.transaction(work) : this.runUnit(work, null);
    try {
      return await (gc ? gc.transaction(work) : this.runUnit(work, observer));
    } catch (error) {
      if (isStorageUnavailable(error)) observer.failed(error);
      throw error;
    }
  }

  private async runUnit<T>(
    work: (store: StoreAdapter) => Promise<T>,
    observer: AvailabilityObserver | null,
  ): Promise<T> {
    // The rows the last failed attempt wrote: a re-run first queues for them (below).
    let contended: string[] = [];
    for (let attempt = 1; ; attempt++) {
      let c: Awaited<ReturnType<SqlDriver['connect']>> | null = null;
      let opening: Promise<UnitConnection> | null = null;
      const writes: string[] = [];
      let began = false;
      let locked = false;
      let committing = false;
      let broken = false;
      // Once the attempt has ended, a statement issued late (a read nobody waited for) cannot take a
      // connection that nothing would release.
      let ended = false;
      // The connection is taken and BEGIN sent when the unit issues its first statement: a unit that reads
      // and writes nothing (the public market list, answered from memory) costs no pool connection, no
      // BEGIN and no COMMIT, and a unit's CPU work before its first read holds no connection.
      const open = (): Promise<UnitConnection> =>
        (opening ??= ended
          ? Promise.reject(new Error('This unit of work has ended'))
          : (async () => {
              try {
                c = await this.driver.connect();
              } catch (error) {
                throw new StorageUnavailableError('The database cannot be reached', { cause: error });
              }
              const conn = c;
              // Fairness on hot rows: a unit that lost a conflict takes session advisory locks on the rows it
              // writes, in one global order, BEFORE its snapshot, so re-runs on one row queue instead of colliding
              // again and again (without this, 16 concurrent spends of one balance could lose 100 times running).
              // Released below, or by PostgreSQL when the connection dies (kill -9 included).
              for (const key of contended) {
                locked = true;
                await conn.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [
                  `${this.schema}:${key}`,
                ]);
              }
              // BEGIN is not waited for: the connection pipelines it with the unit's first statement (one round
              // trip for both); every statement of the unit waits for it too, so a failed BEGIN fails the unit.
              const begin = conn.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
              begin.catch(() => undefined);
              began = true;
              return { c: conn, begin, write: null };
            })());
      try {
        // A re-run takes its locks before it runs (and so before its snapshot).
        if (contended.length > 0) await open();
        const result = await work(this.view(open, writes));
        // A unit that issued no statement has nothing to commit (and no transaction).
        if (opening === null) {
          ended = true;
          return result;
        }
        const unit = await (opening as Promise<UnitConnection>);
        // COMMIT goes on the wire right behind the unit's write statement (pipelined, one round trip). If the
        // write fails, PostgreSQL ends the failed transaction at that COMMIT (answered ROLLBACK), and the
        // write's error is the unit's. A connection lost from here on leaves the outcome unknown (503).
        committing = true;
        const commit = unit.c.query('COMMIT');
        commit.catch(() => undefined);
        await unit.begin;
        if (unit.write) await unit.write;
        await commit;
        observer?.succeeded();
        return result;
      } catch (error) {
        if (isConnectionLoss(error)) {
          // The connection died (terminated, failover): it is discarded, never handed back to the pool.
          // Before COMMIT nothing was written, so the unit runs again on a fresh connection; during COMMIT
          // the outcome is unknown, so the caller hears 503 and a retry under its id applies at most once.
          broken = true;
          if (committing || attempt >= this.maxAttempts)
            throw new StorageUnavailableError('The database connection was lost', { cause: error });
          this.retries++;
        } else {
          // A connection still being taken when the unit failed gets its BEGIN first: wait for it, so that
          // its transaction is rolled back before the connection goes back to the pool.
          ended = true;
          ended = true;
          if (opening) await (opening as Promise<UnitConnection>).catch(() => undefined);
          if (began && c) await (c as SqlConnection).query('ROLLBACK').catch(() => undefined);
          if (!isRetryable(error) || attempt >= this.maxAttempts) throw error;
          this.retries++;
          contended = [...new Set([...contended, ...writes])].sort().slice(0, MAX_QUEUED_ROWS);
        }
      } finally {
        // An open still in flight (a statement the unit started and did not wait for) is settled first.
        ended = true;
        if (opening) await (opening as Promise<UnitConnection>).catch(() => undefined);
        const held = c as Awaited<ReturnType<SqlDriver['connect']>> | null;
        if (held) {
          if (locked && !broken) await held.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
          held.release(broken);
        }
      }
      // Units queued on the advisory locks of their rows go at once (the lock queue orders them); others
      // back off at random, growing with the attempts, so colliding units spread out.
      if (contended.length === 0) {
        const ceiling = Math.min(2 ** attempt, 64);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
      }
    }
  }

  /**
   * The store seen from inside one transaction; `writes` collects the rows it writes. `open` gives the
   * unit's connection (taken, with BEGIN sent, at its first statement). Every statement is issued at once
   * (pipelined behind BEGIN and the unit's other statements in flight) and waits for BEGIN. `commit` only
   * issues the write statement: the transaction waits for it together with its COMMIT.
   *
   * Reads issued together (point reads, index reads, `getMany`, sequence draws, in the same turn of the event
   * loop, or while the connection is being taken) travel as ONE statement (a `UNION ALL` of their parts,
   * see `readBatch`): a transfer's session, member and recipient are one statement, its balances, receive
   * totals and both ids another. A read alone keeps its own prepared statement.
   */
  private view(open: () => Promise<UnitConnection>, writes: string[]): StoreAdapter {
    // Issued once the connection is there (in call order: one promise, continuations run in order), then
    // waited for together with BEGIN: a statement that fails with its BEGIN (a lost connection) is never
    // unhandled.
    const on = async <T>(statement: (c: SqlConnection) => Promise<T>): Promise<T> => {
      const unit = await open();
      return (await Promise.all([unit.begin, statement(unit.c)]))[1];
    };
    let pending: PendingRead[] = [];
    const flush = async (): Promise<void> => {
      let unit: UnitConnection;
      try {
        unit = await open();
      } catch (error) {
        const failed = pending;
        pending = [];
        for (const r of failed) r.reject(error);
        return;
      }
      // Everything asked for until now goes in this statement.
      const batch = pending;
      pending = [];
      if (batch.length === 0) return;
      try {
        const [, results] = await Promise.all([unit.begin, this.readBatch(unit.c, batch)]);
        batch.forEach((r, i) => r.resolve(results[i]));
      } catch (error) {
        for (const r of batch) r.reject(error);
      }
    };
    const read = <T>(part: ReadPart): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        if (pending.length === 0) process.nextTick(() => void flush());
        pending.push({ part, resolve: resolve as (value: unknown) => void, reject });
      });
    let committed = false;
    return {
      kind: 'sql-transaction',
      get: (table, id) => read({ kind: 'get', target: this.target(table), id }),
      query: (table, key) => read({ kind: 'query', target: this.target(table), key }),
      scan: (table) => on((c) => readScan(c, this.target(table))),
      tables: () => on((c) => this.listTables(c)),
      commit: async (puts, deletes, notes = []) => {
        if (committed) throw new Error('A unit of work commits once');
        committed = true;
        if (puts.length === 0 && deletes.length === 0 && notes.length === 0) return;
        for (const row of [...puts, ...deletes])
          writes.push(`${escapeText(row.table)}:${escapeText(row.id)}`);
        const unit = await open();
        const write = this.write(unit.c, puts, deletes);
        if (notes.length > 0) {
          // Notes are written after the rows and before COMMIT: waited for here, so that COMMIT (issued once
          // the unit's work returns) cannot overtake them on the connection.
          unit.write = Promise.resolve();
          await Promise.all([unit.begin, write]);
          await this.writeNotes(unit.c, notes);
          return;
        }
        write.catch(() => undefined);
        unit.write = write;
      },
      getMany: (refs) => read({ kind: 'many', refs }),
      nextId: (kind) =>
        SEQUENCED.has(kind) ? read({ kind: 'sequence', sequence: kind }) : Promise.resolve(undefined),
      close: async () => undefined,
    };
  }

  /**
   * Reads in one statement. One read alone is its own (prepared) statement, as outside a transaction;
   * several are one `UNION ALL` of parts, each part's rows tagged with its number (`g`): a point read or an
   * index read of a table, `id = ANY(...)` per table of a `getMany`, a sequence's `nextval` as a jsonb number.
   * Every part runs (Append runs all its branches), so each sequence draws exactly once.
   */
  private async readBatch(c: SqlConnection, batch: readonly PendingRead[]): Promise<unknown[]> {
    this.batchObserver?.(batch.length);
    if (batch.length === 1) {
      const only = batch[0]?.part;
      if (!only) return [];
      if (only.kind === 'get') return [await readGet(c, only.target, only.id)];
      if (only.kind === 'query') return [await readQuery(c, only.target, only.key)];
      if (only.kind === 'many') return [await this.readMany(c, only.refs)];
      return [await this.sequence(c, only.sequence)];
    }
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const parts: string[] = [];
    /** Per read, its parts' numbers (a getMany has one per table). */
    const groups: Array<Array<{ g: number; table?: string }>> = [];
    const branch = ({ sql, t }: Target, where: string) =>
      t === null
        ? `FROM ${sql} WHERE ${where}`
        : `FROM ${sql} WHERE t = ${param(escapeText(t))} AND ${where}`;
    for (const { part } of batch) {
      const mine: Array<{ g: number; table?: string }> = [];
      const g = () => parts.length;
      if (part.kind === 'get') {
        const n = g();
        parts.push(`SELECT ${n} AS g, id, v ${branch(part.target, `id = ${param(escapeText(part.id))}`)}`);
        mine.push({ g: n });
      } else if (part.kind === 'query') {
        const n = g();
        parts.push(
          `SELECT ${n} AS g, id, v ${branch(part.target, `ix @> ARRAY[${param(escapeText(part.key))}::text]`)}`,
        );
        mine.push({ g: n });
      } else if (part.kind === 'many') {
        const byTable = new Map<string, string[]>();
        for (const ref of part.refs) {
          const ids = byTable.get(ref.table) ?? [];
          ids.push(escapeText(ref.id));
          byTable.set(ref.table, ids);
        }
        for (const table of [...byTable.keys()].sort()) {
          const n = g();
          const where = idsWhere(byTable.get(table) ?? [], param);
          parts.push(`SELECT ${n} AS g, id, v ${branch(this.target(table), where)}`);
          mine.push({ g: n, table });
        }
      } else {
        const n = g();
        parts.push(
          `SELECT ${n} AS g, NULL::text AS id, to_jsonb(nextval('${this.schema}.${sequenceOf(part.sequence)}')) AS v`,
        );
        mine.push({ g: n });
      }
      groups.push(mine);
    }
    const { rows } = await c.query<DbRow & { g: number }>(parts.join(' UNION ALL '), params, true);
    const byGroup = new Map<number, DbRow[]>();
    for (const row of rows) {
      const list = byGroup.get(row.g) ?? [];
      list.push(row);
      byGroup.set(row.g, list);
    }
    return batch.map(({ part }, i) => {
      const mine = groups[i] ?? [];
      const first = mine[0];
      if (part.kind === 'get') {
        const row = first && byGroup.get(first.g)?.[0];
        return row ? decodeValue(row.v) : undefined;
      }
      if (part.kind === 'query') return decodeRows((first && byGroup.get(first.g)) || []);
      if (part.kind === 'sequence') return Number((first && byGroup.get(first.g)?.[0]?.v) ?? NaN);
      // Decoded once per row (decodeValue works in place), however many refs name it.
      const found = new Map<string, unknown>();
      for (const { g, table } of mine)
        for (const row of byGroup.get(g) ?? [])
          found.set(`${table ?? ''}\u0000${row.id}`, decodeValue(row.v));
      return part.refs.map((ref) => found.get(`${ref.table}\u0000${escapeText(ref.id)}`));
    });
  }

  getMany(refs: readonly RowRef[]): Promise<unknown[]> {
    return this.readMany(this.driver, refs);
  }

  /** Point reads in several tables in one statement (one `id = ANY(...)` per table, UNION ALL). */
  private async readMany(c: SqlConnection, refs: readonly RowRef[]): Promise<unknown[]> {
    const byTable = new Map<string, string[]>();
    for (const ref of refs) {
      const ids = byTable.get(ref.table) ?? [];
      ids.push(escapeText(ref.id));
      byTable.set(ref.table, ids);
    }
    const tables = [...byTable.keys()].sort();
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const parts = tables.map((table, g) => {
      const { sql, t } = this.target(table);
      const where = idsWhere(byTable.get(table) ?? [], param);
      return t === null
        ? `SELECT ${g} AS g, id, v FROM ${sql} WHERE ${where}`
        : `SELECT ${g} AS g, id, v FROM ${sql} WHERE t = ${param(escapeText(t))} AND ${where}`;
    });
    const { rows } = await c.query<DbRow & { g: number }>(parts.join(' UNION ALL '), params, true);
    // Decoded once per row (decodeValue works in place), however many refs name it.
    const found = new Map<string, unknown>();
    for (const row of rows) found.set(`${tables[row.g] ?? ''}\u0000${row.id}`, decodeValue(row.v));
    return refs.map((ref) => found.get(`${ref.table}\u0000${escapeText(ref.id)}`));
  }

  /** The writes of one commit, inside the caller's transaction: one statement per table and kind. */
  private async write(c: SqlConnection, puts: StoredRow[], deletes: RowRef[]): Promise<void> {
    const deletesBy = new Map<string, string[]>();
    for (const d of deletes) {
      const ids = deletesBy.get(d.table) ?? [];
      ids.push(escapeText(d.id));
      deletesBy.set(d.table, ids);
    }
    // The last write of a key wins, as in the memory adapter; an upsert may not touch a row twice.
    const putsBy = new Map<string, Map<string, StoredRow>>();
    for (const p of puts) {
      const rows = putsBy.get(p.table) ?? new Map<string, StoredRow>();
      rows.set(p.id, p);
      putsBy.set(p.table, rows);
    }
    // Every write of the commit in ONE statement (data-modifying CTEs: one round trip however many tables),
    // tables in a fixed order.
    const statements: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    for (const table of [...deletesBy.keys()].sort()) {
      const { sql, t } = this.target(table);
      const ids = param(deletesBy.get(table) ?? []);
      statements.push(
        t === null
          ? `DELETE FROM ${sql} WHERE id = ANY(${ids}::text[])`
          : `DELETE FROM ${sql} WHERE t = ${param(escapeText(t))} AND id = ANY(${ids}::text[])`,
      );
    }
    for (const table of [...putsBy.keys()].sort()) {
      const { sql, t } = this.target(table);
      const rows = [...(putsBy.get(table)?.values() ?? [])].sort((a, b) => compareIds(a.id, b.id));
      const encoded = param(
        JSON.stringify(rows.map((p) => [escapeText(p.id), p.ix.map(escapeText), encodeValue(p.value)])),
      );
      const select =
        `SELECT e->>0 AS id, ARRAY(SELECT jsonb_array_elements_text(e->1)) AS ix, e->2 AS v ` +
        `FROM jsonb_array_elements(${encoded}::jsonb) AS e`;
      statements.push(
        t === null
          ? `INSERT INTO ${sql} (id, ix, v) ${select} ` +
              `ON CONFLICT (id) DO UPDATE SET ix = EXCLUDED.ix, v = EXCLUDED.v`
          : `INSERT INTO ${sql} (t, id, ix, v) SELECT ${param(escapeText(t))}, s.* FROM (${select}) AS s ` +
              `ON CONFLICT (t, id) DO UPDATE SET ix = EXCLUDED.ix, v = EXCLUDED.v`,
      );
    }
    if (statements.length === 0) return;
    const [only] = statements;
    const text =
      statements.length === 1 && only !== undefined
        ? only
        : `WITH ${statements.map((st, i) => `w${i} AS (${st})`).join(', ')} SELECT 1`;
    // A prepared statement: its text depends only on which tables the commit writes and deletes in (the rows
    // travel as parameters), so a kind of unit (a transfer: six tables) is parsed and planned once per
    // connection instead of at every commit.
    await c.query(text, params, true);
  }

  async close(): Promise<void> {
    if (this.closeDriver) await this.driver.close();
  }
}

interface DbRow {
  id: string;
  v: unknown;
}

/**
 * The condition of a point read of `ids` (escaped): one id is `id = $n`, several `id = ANY($n::text[])`.
 * The difference matters to prepared statements: PostgreSQL plans `= ANY` of an unknown array for ten rows,
 * which on a small table makes the generic plan a sequential scan and costlier than a custom plan, so it
 * planned the statement again at every execution (a transfer's session lookup: ~0.15 ms each time); with
 * `id = $n` the generic plan is the primary-key lookup and is kept.
 */
function idsWhere(ids: readonly string[], param: (value: unknown) => string): string {
  const [only] = ids;
  return ids.length === 1 && only !== undefined ? `id = ${param(only)}` : `id = ANY(${param(ids)}::text[])`;
}

function decodeRows(rows: DbRow[]): unknown[] {
  return rows
    .map((r) => ({ id: unescapeText(r.id), v: r.v }))
    .sort((a, b) => compareIds(a.id, b.id))
    .map((r) => decodeValue(r.v));
}

async function readGet(c: SqlConnection, { sql, t }: Target, id: string): Promise<unknown> {
  const { rows } =
    t === null
      ? await c.query<DbRow>(`SELECT id, v FROM ${sql} WHERE id = $1`, [escapeText(id)], true)
      : await c.query<DbRow>(
          `SELECT id, v FROM ${sql} WHERE t = $1 AND id = $2`,
          [escapeText(t), escapeText(id)],
          true,
        );
  const [row] = rows;
  return row ? decodeValue(row.v) : undefined;
}

async function readQuery(c: SqlConnection, { sql, t }: Target, key: string): Promise<unknown[]> {
  const { rows } =
    t === null
      ? await c.query<DbRow>(`SELECT id, v FROM ${sql} WHERE ix @> ARRAY[$1::text]`, [escapeText(key)], true)
      : await c.query<DbRow>(
          `SELECT id, v FROM ${sql} WHERE t = $1 AND ix @> ARRAY[$2::text]`,
          [escapeText(t), escapeText(key)],
          true,
        );
  return decodeRows(rows);
}

async function readScan(c: SqlConnection, { sql, t }: Target): Promise<unknown[]> {
  const { rows } =
    t === null
      ? await c.query<DbRow>(`SELECT id, v FROM ${sql}`)
      : await c.query<DbRow>(`SELECT id, v FROM ${sql} WHERE t = $1`, [escapeText(t)]);
  return decodeRows(rows);
}
