/**
 * The storage port. Deliberately small (get, query by one index key, scan, atomic commit) so that memory,
 * Dexie and a future SQL adapter all implement it the same way and one contract suite checks them all.
 *
 * Tables are not declared to the adapter: a domain describes its table with `defineTable` (name + index
 * functions) next to its own code, and every written row carries its precomputed index keys
 * (`"<index>=<value>"`). Adding a table therefore never needs a schema migration.
 */

export interface Row {
  id: string;
}

export type IndexValue = string | number | boolean | null | undefined;
export type IndexFn<T> = (record: T) => IndexValue | IndexValue[];

export interface TableDef<T extends Row = Row> {
  readonly name: string;
  readonly indexes: Readonly<Record<string, IndexFn<T>>>;
}

const defined = new Map<string, TableDef<Row>>();

export function defineTable<T extends Row>(
  name: string,
  indexes: Record<string, IndexFn<T>> = {},
): TableDef<T> {
  if (!/^[a-zA-Z][\w.-]*$/.test(name)) throw new TypeError(`Bad table name ${name}`);
  const def: TableDef<T> = { name, indexes };
  defined.set(name, def as unknown as TableDef<Row>);
  return def;
}

/**
 * Every table defined so far in this process, by name (the engine's, once its domains are imported). The SQL
 * schema's drift test checks each engine table against the migrations with it.
 */
export function definedTables(): ReadonlyMap<string, TableDef<Row>> {
  return defined;
}

/** The key under which a record is found by `query(table, index, value)`. */
export function indexKey(index: string, value: IndexValue): string {
  return `${index}=${String(value)}`;
}

/** Every index key of a record; null/undefined values are not indexed. */
export function indexKeys<T extends Row>(def: TableDef<T>, record: T): string[] {
  const keys: string[] = [];
  for (const [name, fn] of Object.entries(def.indexes)) {
    const out = fn(record);
    for (const v of Array.isArray(out) ? out : [out]) {
      if (v !== null && v !== undefined) keys.push(indexKey(name, v));
    }
  }
  return keys;
}

export interface StoredRow {
  table: string;
  id: string;
  ix: string[];
  value: unknown;
}

export interface RowRef {
  table: string;
  id: string;
}

/**
 * An opaque record that a caller outside the engine attaches to one unit of work (engine.operations'
 * decisions take one), for the adapter to write in the same atomic commit as the unit's rows: the server's
 * SQL store writes the operator's audit row in the decision's own transaction. The engine never reads it;
 * adapters that keep no such records (memory, Dexie in the browser) ignore it.
 */
export interface CommitNote {
  /** What the note is, for the adapter to pick its writer (the server: `audit`). */
  readonly kind: string;
}

/**
 * Adapters return copies the caller owns, in id order (shorter ids first, then lexicographic, which is
 * numeric order for the engine's counter ids). `commit` applies every put and delete, or none.
 */
export interface StoreAdapter {
  readonly kind: 'memory' | 'dexie' | string;
  get(table: string, id: string): Promise<unknown>;
  query(table: string, key: string): Promise<unknown[]>;
  scan(table: string): Promise<unknown[]>;
  tables(): Promise<string[]>;
  /** `notes`: written in the same atomic commit by adapters that keep them, else ignored (CommitNote). */
  commit(puts: StoredRow[], deletes: RowRef[], notes?: readonly CommitNote[]): Promise<void>;
  close(): Promise<void>;
  /**
   * Present on adapters whose units of work may run concurrently (the SQL store): runs `work` against a view
   * of the store inside one database transaction (its reads and its `commit` both go through it) and commits
   * that transaction when `work` resolves. On a serialization conflict the transaction is rolled back and
   * `work` runs again from the start, so `work` must not have effects outside the store it is given.
   * Adapters without it (memory, Dexie) get every unit of work from the runtime's serial queue instead.
   */
  transaction?<T>(work: (store: StoreAdapter) => Promise<T>): Promise<T>;
  /**
   * Optional: several point reads in one (the SQL store: one statement), answered in the order asked, with
   * undefined for a row that does not exist. Adapters without it are read one `get` at a time.
   */
  getMany?(refs: readonly RowRef[]): Promise<unknown[]>;
  /**
   * Present on adapters that hand out ids from the database (the SQL store's sequences): the next number of
   * id kind `kind`, or undefined when the kind has no sequence (engine/ids.ts then uses its counter row).
   * Sequence numbers are not rolled back with a failed unit of work, so ids may have gaps.
   */
  nextId?(kind: string): Promise<number | undefined>;
  /**
   * Optional: the records of `table` (the jobs table) whose `dueAt` is at most `upTo`, in any order, and
   * possibly a few more (the caller filters). Lets settle read only what is due instead of scanning every
   * scheduled job (the SQL store answers from an index); adapters without it are scanned.
   */
  due?(table: string, upTo: number): Promise<unknown[]>;
}

export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The storage could not be reached (a database restarting, a connection killed while committing, so the
 * outcome is unknown). The engine answers 503: nothing half written, and a retry with the same mutation id
 * or Idempotency-Key is applied at most once.
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

export function isStorageUnavailable(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'StorageUnavailableError';
}
