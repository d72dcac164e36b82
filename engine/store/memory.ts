/** In-memory adapter: the reference implementation of the port, and the Dexie adapter's read mirror. */
import { clonePlain } from './clone';
import { compareIds, type RowRef, type StoreAdapter, type StoredRow } from './port';

interface MemTable {
  rows: Map<string, StoredRow>;
  ix: Map<string, Set<string>>;
}

export class MemoryStore implements StoreAdapter {
  readonly kind: string = 'memory';
  private readonly data = new Map<string, MemTable>();

  private table(name: string): MemTable {
    let t = this.data.get(name);
    if (!t) {
      t = { rows: new Map(), ix: new Map() };
      this.data.set(name, t);
    }
    return t;
  }

  async get(table: string, id: string): Promise<unknown> {
    const row = this.data.get(table)?.rows.get(id);
    return row ? clonePlain(row.value) : undefined;
  }

  async query(table: string, key: string): Promise<unknown[]> {
    const t = this.data.get(table);
    const ids = t?.ix.get(key);
    if (!t || !ids) return [];
    return [...ids].sort(compareIds).map((id) => clonePlain(t.rows.get(id)?.value));
  }

  async scan(table: string): Promise<unknown[]> {
    const t = this.data.get(table);
    if (!t) return [];
    return [...t.rows.keys()].sort(compareIds).map((id) => clonePlain(t.rows.get(id)?.value));
  }

  async tables(): Promise<string[]> {
    return [...this.data.entries()]
      .filter(([, t]) => t.rows.size > 0)
      .map(([name]) => name)
      .sort();
  }

  /** Synchronous: nothing can interleave, so the commit is atomic by construction. */
  async commit(puts: StoredRow[], deletes: RowRef[]): Promise<void> {
    this.apply(puts, deletes);
  }

  /** Used by the Dexie adapter once IndexedDB has committed; rows are already private copies. */
  apply(puts: StoredRow[], deletes: RowRef[]): void {
    for (const ref of deletes) this.remove(ref.table, ref.id);
    for (const row of puts) {
      const t = this.table(row.table);
      this.remove(row.table, row.id);
      t.rows.set(row.id, { ...row, value: clonePlain(row.value) });
      for (const key of row.ix) {
        let set = t.ix.get(key);
        if (!set) {
          set = new Set();
          t.ix.set(key, set);
        }
        set.add(row.id);
      }
    }
  }

  private remove(table: string, id: string): void {
    const t = this.data.get(table);
    const old = t?.rows.get(id);
    if (!t || !old) return;
    for (const key of old.ix) {
      const set = t.ix.get(key);
      set?.delete(id);
      if (set && set.size === 0) t.ix.delete(key);
    }
    t.rows.delete(id);
  }

  async close(): Promise<void> {
    this.data.clear();
  }
}
