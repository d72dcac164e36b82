/**
 * The device's own database, 'strata-device' (separate from the engine's): the outbox of mutations waiting
 * for an answer, the answers kept for the UI, the replica of pulled records and each member's cursor.
 * Everything is scoped by member id, so two accounts on one device never push or read each other's data.
 */
import { Dexie, type Table } from 'dexie';

export const DEVICE_DB_NAME = 'strata-device';

export interface OutboxEntry {
  /** Auto-increment: the order mutations were queued in, which is the order they are replayed in. */
  seq?: number;
  /** Client-generated (crypto.randomUUID): the server applies each id at most once, ever. */
  id: string;
  memberId: string;
  name: string;
  args: unknown;
  createdAt: number;
}

export interface StoredResult {
  id: string;
  memberId: string;
  name: string;
  code: number;
  msg: string;
  data: unknown;
  /** When the answer arrived (ms). */
  at: number;
}

export interface ReplicaRecord {
  /** `<memberId>|<table>|<id>` */
  key: string;
  memberId: string;
  table: string;
  id: string;
  seq: number;
  record: unknown;
  /** Sorts the member's rows of a table oldest to newest (replicaOrder); lists read it backwards, a page at a time. */
  order?: string;
}

/**
 * The index key that orders a table's rows as the server's lists do (newest first when read backwards):
 * engine ids are counters, so numbers sort by value (zero-padded), other ids after them by their text.
 */
export function replicaOrder(id: string): string {
  return /^\d{1,20}$/.test(id) ? `n${id.padStart(20, '0')}` : `s${id}`;
}

/**
 * Data that is not the member's own (quotes, K-lines, order books, help articles, VIP levels, products...),
 * kept with the time it was fetched so a screen can show it offline with that time. `kind` groups keys
 * for eviction (e.g. every 'kline' series); `used` is when a screen last read it (least recently used first).
 */
export interface CacheRow {
  key: string;
  kind: string;
  value: unknown;
  /** When the value was fetched (ms). */
  at: number;
  /** When a screen last asked for it (ms). */
  used: number;
}

export interface MetaRow {
  key: string;
  value: string;
}

export type DeviceDb = Dexie & {
  outbox: Table<OutboxEntry, number>;
  results: Table<StoredResult, string>;
  replica: Table<ReplicaRecord, string>;
  meta: Table<MetaRow, string>;
  cache: Table<CacheRow, string>;
};

export function openDeviceDb(name: string = DEVICE_DB_NAME): DeviceDb {
  const db = new Dexie(name) as DeviceDb;
  db.version(1).stores({
    outbox: '++seq, &id, memberId',
    results: 'id, memberId',
    replica: 'key, memberId, [memberId+table]',
    meta: 'key',
  });
  db.version(2).stores({ cache: 'key, kind, [kind+used]' });
  // Record lists read one page from the index instead of every row (the offline cold start with 5,000 rows).
  db.version(3)
    .stores({ replica: 'key, memberId, [memberId+table], [memberId+table+order]' })
    .upgrade((tx) =>
      tx
        .table<ReplicaRecord, string>('replica')
        .toCollection()
        .modify((row) => {
          row.order = replicaOrder(row.id);
        }),
    );
  return db;
}

export function replicaKey(memberId: string, table: string, id: string): string {
  return `${memberId}|${table}|${id}`;
}

export function cursorKey(memberId: string): string {
  return `cursor:${memberId}`;
}

/** When the member's last pull finished (ms, as a decimal string): the freshness every screen shows. */
export function pulledAtKey(memberId: string): string {
  return `pulledAt:${memberId}`;
}
