/**
 * The unit of work. A handler (or a job) reads through it and writes into its buffer; reads see the
 * buffer's own writes. The router commits the buffer in one adapter commit on success and drops it on
 * failure, so every call is all-or-nothing (docs/RULES.md G1).
 */
import { clonePlain } from './clone';
import {
  compareIds,
  type CommitNote,
  indexKey,
  indexKeys,
  type IndexValue,
  type Row,
  type RowRef,
  type StoreAdapter,
  type StoredRow,
  type TableDef,
} from './port';

/** A buffered write. Index keys are computed when a query needs them and at commit, not at every put. */
type Pending = { def: TableDef<Row>; value: Row } | { deleted: true };

export class Tx {
  private readonly buffer = new Map<string, Map<string, Pending>>();
  /**
   * Point reads of this unit (`table\u0000id` -> the adapter's answer, in flight or done). A unit sees one
   * state of the store (the SQL store's REPEATABLE READ snapshot; memory and Dexie units run alone), so a
   * row read twice is read from the adapter once; each caller gets its own copy. Buffered writes win.
   */
  private readonly reads = new Map<string, Promise<unknown>>();
  /** Opaque records committed with the writes (StoreAdapter.commit's `notes`). */
  private notes: CommitNote[] = [];

  constructor(private readonly adapter: StoreAdapter) {}

  private pending(table: string): Map<string, Pending> {
    let m = this.buffer.get(table);
    if (!m) {
      m = new Map();
      this.buffer.set(table, m);
    }
    return m;
  }

  async get<T extends Row>(def: TableDef<T>, id: string): Promise<T | undefined> {
    const p = this.buffer.get(def.name)?.get(id);
    if (p) return 'deleted' in p ? undefined : (p.value as T);
    return clonePlain(await this.read(def.name, id)) as T | undefined;
  }

  private read(table: string, id: string): Promise<unknown> {
    const key = `${table}\u0000${id}`;
    let read = this.reads.get(key);
    if (!read) {
      read = this.adapter.get(table, id);
      this.reads.set(key, read);
      // A failed read is not kept: the unit fails with it, or reads again.
      read.catch(() => this.reads.delete(key));
    }
    return read;
  }

  /**
   * Reads these rows at once (on SQL: pipelined, one round trip), so that the `get`s that follow are
   * answered from this unit's reads. For a handler that knows which rows it is about to read one by one.
   */
  async prefetch(refs: ReadonlyArray<readonly [{ readonly name: string }, string]>): Promise<void> {
    const wanted: RowRef[] = [];
    const seen = new Set<string>();
    for (const [def, id] of refs) {
      const key = `${def.name}\u0000${id}`;
      if (this.buffer.get(def.name)?.has(id) || this.reads.has(key) || seen.has(key)) continue;
      seen.add(key);
      wanted.push({ table: def.name, id });
    }
    const { adapter } = this;
    if (wanted.length > 1 && adapter.getMany) {
      const all = adapter.getMany(wanted);
      wanted.forEach((ref, i) => {
        const key = `${ref.table}\u0000${ref.id}`;
        const read = all.then((values) => values[i]);
        this.reads.set(key, read);
        read.catch(() => this.reads.delete(key));
      });
      await all;
      return;
    }
    await Promise.all(wanted.map((ref) => this.read(ref.table, ref.id)));
  }

  /** Records whose index `index` has `value`, in id order. */
  query<T extends Row>(def: TableDef<T>, index: string, value: IndexValue): Promise<T[]> {
    return this.queryKey(def, indexKey(index, value));
  }

  /** Records with the precomputed index key `key` ("<index>=<value>"). */
  async queryKey<T extends Row>(def: TableDef<T>, key: string): Promise<T[]> {
    // Kept like point reads (same state for the whole unit); this unit's writes are laid over each time.
    const cacheKey = `${def.name}\u0001${key}`;
    let read = this.reads.get(cacheKey);
    if (!read) {
      read = this.adapter.query(def.name, key);
      this.reads.set(cacheKey, read);
      read.catch(() => this.reads.delete(cacheKey));
    }
    const base = clonePlain((await read) as T[]);
    return this.overlay(def, base, (ix) => ix.includes(key));
  }

  async scan<T extends Row>(def: TableDef<T>): Promise<T[]> {
    const base = (await this.adapter.scan(def.name)) as T[];
    return this.overlay(def, base, () => true);
  }

  private overlay<T extends Row>(def: TableDef<T>, base: T[], match: (ix: string[]) => boolean): T[] {
    const pend = this.buffer.get(def.name);
    if (!pend || pend.size === 0) return base;
    const out = base.filter((r) => !pend.has(r.id));
    for (const p of pend.values()) {
      if (!('deleted' in p) && match(indexKeys(p.def, p.value))) out.push(p.value as T);
    }
    return out.sort((a, b) => compareIds(a.id, b.id));
  }

  put<T extends Row>(def: TableDef<T>, record: T): T {
    if (typeof record.id !== 'string' || record.id.length === 0)
      throw new TypeError(`${def.name}: record without id`);
    this.pending(def.name).set(record.id, { def: def as unknown as TableDef<Row>, value: record });
    return record;
  }

  delete<T extends Row>(def: TableDef<T>, id: string): void {
    this.pending(def.name).set(id, { deleted: true });
  }

  /** The buffered writes (value undefined: a delete), for hooks that run just before the commit. */
  *writes(): Generator<{ table: string; id: string; value: Row | undefined }> {
    for (const [table, m] of this.buffer) {
      for (const [id, p] of m) yield { table, id, value: 'deleted' in p ? undefined : p.value };
    }
  }

  /** The adapter's next id of `kind` (StoreAdapter.nextId), or undefined when it has none. */
  nextId(kind: string): Promise<number | undefined> {
    return this.adapter.nextId ? this.adapter.nextId(kind) : Promise.resolve(undefined);
  }

  /** The committed record, ignoring this unit's own writes (what a buffered delete removes). */
  stored(table: string, id: string): Promise<unknown> {
    return this.adapter.get(table, id);
  }

  /** Attaches an opaque record to this unit's commit (CommitNote); dropped with the unit on failure. */
  note(note: CommitNote): void {
    this.notes.push(note);
  }

  /** A savepoint: hands this unit's writes (and notes) to `parent`'s buffer instead of committing them. */
  mergeInto(parent: Tx): void {
    for (const note of this.notes) parent.note(note);
    this.notes = [];
    for (const [table, m] of this.buffer) {
      for (const [id, p] of m) {
        if ('deleted' in p) parent.delete(tableRef(table), id);
        else parent.put(p.def, p.value);
      }
    }
    this.buffer.clear();
  }

  get dirty(): boolean {
    for (const m of this.buffer.values()) if (m.size > 0) return true;
    return false;
  }

  /** Writes everything buffered in one atomic adapter commit. */
  async commit(): Promise<void> {
    const puts: StoredRow[] = [];
    const deletes: RowRef[] = [];
    for (const [table, m] of this.buffer) {
      for (const [id, p] of m) {
        if ('deleted' in p) deletes.push({ table, id });
        else puts.push({ table, id, ix: indexKeys(p.def, p.value), value: p.value });
      }
    }
    this.buffer.clear();
    const notes = this.notes;
    this.notes = [];
    await (notes.length > 0 ? this.adapter.commit(puts, deletes, notes) : this.adapter.commit(puts, deletes));
  }
}

const refs = new Map<string, TableDef<Row>>();

/** A table named at run time (reads and deletes need only its name). */
function tableRef(name: string): TableDef<Row> {
  let def = refs.get(name);
  if (!def) {
    def = { name, indexes: {} };
    refs.set(name, def);
  }
  return def;
}

/**
 * A unit of work nested in `parent` (engine/sync's push: each replayed mutation): reads see the parent's
 * buffered writes, as copies, so a nested unit that fails cannot have changed what the parent holds.
 */
export function savepointOf(parent: Tx): StoreAdapter {
  return {
    kind: 'savepoint',
    get: async (table, id) => clonePlain(await parent.get(tableRef(table), id)),
    query: async (table, key) => clonePlain(await parent.queryKey(tableRef(table), key)),
    scan: async (table) => clonePlain(await parent.scan(tableRef(table))),
    tables: () => Promise.reject(new Error('A savepoint does not list tables')),
    nextId: (kind) => parent.nextId(kind),
    commit: () => Promise.reject(new Error('A savepoint merges into its parent instead of committing')),
    close: async () => undefined,
  };
}
