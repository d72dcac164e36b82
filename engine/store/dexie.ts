/**
 * Dexie (IndexedDB) adapter. All rows live in ONE object store keyed by [t+id], so adding a table never
 * needs a Dexie version bump. Reads are served by an in-memory mirror loaded at open and updated only after
 * IndexedDB has committed; each commit is one `rw` transaction holding only IDB requests (bulkPut,
 * bulkDelete), so it can never auto-commit halfway the way a transaction awaiting WebCrypto would.
 *
 * One engine per database: the mirror assumes no other writer (the app runs the engine in one worker).
 */
import { Dexie, type Table } from 'dexie';
import { MemoryStore } from './memory';
import type { RowRef, StoreAdapter, StoredRow } from './port';

interface DexieRow {
  t: string;
  id: string;
  ix: string[];
  v: unknown;
}

export class DexieStore implements StoreAdapter {
  readonly kind = 'dexie';
  private readonly mirror = new MemoryStore();
  private readonly db: Dexie;
  private readonly rows: Table<DexieRow, [string, string]>;

  private constructor(name: string) {
    this.db = new Dexie(name);
    this.db.version(1).stores({ rows: '[t+id]' });
    this.rows = this.db.table('rows');
  }

  static async open(name: string): Promise<DexieStore> {
    const store = new DexieStore(name);
    await store.db.open();
    const all = await store.rows.toArray();
    store.mirror.apply(
      all.map((r) => ({ table: r.t, id: r.id, ix: r.ix, value: r.v })),
      [],
    );
    return store;
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
    if (puts.length === 0 && deletes.length === 0) return;
    await this.db.transaction('rw', this.rows, async () => {
      if (deletes.length > 0) await this.rows.bulkDelete(deletes.map((d) => [d.table, d.id]));
      if (puts.length > 0)
        await this.rows.bulkPut(puts.map((p) => ({ t: p.table, id: p.id, ix: p.ix, v: p.value })));
    });
    this.mirror.apply(puts, deletes);
  }

  async close(): Promise<void> {
    this.db.close();
    await this.mirror.close();
  }
}
