/**
 * Dexie (IndexedDB) adapter with a write-ahead log: each commit is ONE put of the unit of work into the `log`
 * store, folded into `rows` every `compactEvery` commits and at open; reads come from an in-memory mirror
 * updated after IndexedDB committed (one engine per database, behind a Web Lock); `durability: 'relaxed'`.
 * Why: docs/DECISIONS.md "Engine core" ("Write-ahead log on IndexedDB").
 */
// Dexie itself is imported in `DexieStore.open`, so the server does not load it with engine/index.ts
// (docs/SERVER.md "Memory"); in the app's build it is in the worker's engine-boot chunk either way.
import type { Dexie, Table } from 'dexie';
import { MemoryStore } from './memory';
import type { RowRef, StoreAdapter, StoredRow } from './port';

interface DexieRow {
  t: string;
  id: string;
  ix: string[];
  v: unknown;
}

interface LogEntry {
  seq?: number;
  /**
   * The commit as JSON: IndexedDB clones one string about as fast as a bare record, and twice as fast as
   * the object graph. Commits JSON cannot represent exactly (bigints, byte arrays) are logged as objects.
   */
  json?: string;
  puts?: StoredRow[];
  deletes?: RowRef[];
}

/** True when JSON.stringify/parse gives back an equal value (no bigints, typed arrays, Dates, holes...). */
function jsonSafe(value: unknown): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (Array.isArray(value)) {
        for (const item of value) if (item === undefined || !jsonSafe(item)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) {
        const item = (value as Record<string, unknown>)[key];
        if (item !== undefined && !jsonSafe(item)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

function decode(entry: LogEntry): { puts: StoredRow[]; deletes: RowRef[] } {
  if (entry.json === undefined) return { puts: entry.puts ?? [], deletes: entry.deletes ?? [] };
  return JSON.parse(entry.json) as { puts: StoredRow[]; deletes: RowRef[] };
}

const COMPACT_EVERY = 256;

export class DexieStore implements StoreAdapter {
  readonly kind = 'dexie';
  private readonly mirror = new MemoryStore();
  private readonly db: Dexie;
  private readonly rows: Table<DexieRow, [string, string]>;
  private readonly log: Table<LogEntry, number>;
  /** Keys written since the last compaction, with their latest row (or null when deleted). */
  private readonly dirty = new Map<string, StoredRow | RowRef>();
  private logged = 0;

  private constructor(db: Dexie, onReplaced?: () => void) {
    this.db = db;
    this.db.version(1).stores({ rows: '[t+id]' });
    this.db.version(2).stores({ rows: '[t+id]', log: '++seq' });
    this.rows = this.db.table('rows');
    this.log = this.db.table('log');
    // A newer version of the app is upgrading this database: close at once so the upgrade can proceed
    // (it waits for every old connection), refuse further work instead of reopening the old schema, and
    // tell the owner, who reloads into the new version.
    this.db.on('versionchange', () => {
      this.db.close({ disableAutoOpen: true });
      onReplaced?.();
      return false;
    });
  }

  static async open(name: string, options: { onReplaced?: () => void } = {}): Promise<DexieStore> {
    const { Dexie } = await import('dexie');
    const store = new DexieStore(new Dexie(name), options.onReplaced);
    await store.db.open();
    const all = await store.rows.toArray();
    store.mirror.apply(
      all.map((r) => ({ table: r.t, id: r.id, ix: r.ix, value: r.v })),
      [],
    );
    for (const entry of await store.log.orderBy('seq').toArray()) {
      const { puts, deletes } = decode(entry);
      store.remember(puts, deletes);
    }
    if (store.dirty.size > 0) await store.compact();
    return store;
  }

  /** Applies a logged commit to the mirror and notes its keys for the next compaction. */
  private remember(puts: StoredRow[], deletes: RowRef[]): void {
    this.mirror.apply(puts, deletes);
    for (const d of deletes) this.dirty.set(`${d.table}\u0000${d.id}`, { table: d.table, id: d.id });
    for (const p of puts) this.dirty.set(`${p.table}\u0000${p.id}`, p);
    this.logged++;
  }

  private async compact(): Promise<void> {
    const puts: DexieRow[] = [];
    const deletes: Array<[string, string]> = [];
    for (const row of this.dirty.values()) {
      if ('ix' in row) puts.push({ t: row.table, id: row.id, ix: row.ix, v: row.value });
      else deletes.push([row.table, row.id]);
    }
    await this.db.transaction('rw', this.rows, this.log, async () => {
      if (deletes.length > 0) await this.rows.bulkDelete(deletes);
      if (puts.length > 0) await this.rows.bulkPut(puts);
      await this.log.clear();
    });
    this.dirty.clear();
    this.logged = 0;
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
    // The raw IDB API on the hot path: one put, no Dexie promise machinery around it.
    const idb = this.db.backendDB();
    const tx = idb.transaction('log', 'readwrite', { durability: 'relaxed' });
    const entry: LogEntry = jsonSafe(puts) ? { json: JSON.stringify({ puts, deletes }) } : { puts, deletes };
    tx.objectStore('log').add(entry);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB commit failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB commit aborted'));
    });
    this.remember(puts, deletes);
    if (this.logged >= COMPACT_EVERY) await this.compact();
  }

  async close(): Promise<void> {
    if (this.dirty.size > 0) await this.compact();
    this.db.close();
    await this.mirror.close();
  }
}
