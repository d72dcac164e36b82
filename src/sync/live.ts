/**
 * The one read path (docs/OFFLINE.md): screens read the signed-in member's records from the device replica
 * through dexie-react-hooks' useLiveQuery, so they show the last pulled data at once, online or not, and
 * re-render by themselves whenever a pull writes new rows. Nothing here calls the server: opening a screen
 * only asks the sync engine for a background pull (coalesced with any pull already running).
 */
import { useCallback, useEffect, useState } from 'react';
import { Dexie } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { userStore, useUser } from '../state/user-store';
import { appSync } from './app';
import { pulledAtKey, type DeviceDb } from './db';
import type { SyncEngine } from './sync-engine';

export interface Replicated<T> {
  /** The member's records of the table, newest first (by numeric id, as the server's lists order them). */
  records: T[];
  /** The device database answered (false only for the first moments after a screen opens). */
  loaded: boolean;
  /** When the replica was last pulled complete (ms), or null if never on this device. */
  pulledAt: number | null;
  /** Anything was ever loaded for this member: a pull finished once, or records are on the device. */
  everLoaded: boolean;
}

/** A record list read a page at a time: the newest `records`, how many there are, and "show more". */
export interface ReplicatedPage<T> extends Replicated<T> {
  total: number;
  more: () => void;
}

export interface ReplicatedTables {
  tables: Record<string, unknown[]>;
  loaded: boolean;
  pulledAt: number | null;
  everLoaded: boolean;
}

/** Newest first: numeric ids descending (engine ids are counters), then by id text. */
export function newestFirst<T>(records: readonly T[]): T[] {
  const idOf = (r: T) => String((r as { id?: unknown }).id ?? '');
  return [...records].sort((a, b) => {
    const x = idOf(a);
    const y = idOf(b);
    const nx = Number(x);
    const ny = Number(y);
    if (Number.isFinite(nx) && Number.isFinite(ny) && nx !== ny) return ny - nx;
    return y < x ? -1 : y > x ? 1 : 0;
  });
}

/** Reads several tables of one member in one snapshot (e.g. the profile and the balances). */
export async function readTables(
  db: DeviceDb,
  memberId: string,
  tables: readonly string[],
): Promise<{ tables: Record<string, unknown[]>; pulledAt: number | null }> {
  return db.transaction('r', db.replica, db.meta, async () => {
    const out: Record<string, unknown[]> = {};
    for (const table of tables) {
      const rows = await db.replica.where('[memberId+table]').equals([memberId, table]).toArray();
      out[table] = rows.map((r) => r.record);
    }
    const meta = await db.meta.get(pulledAtKey(memberId));
    return { tables: out, pulledAt: meta ? Number(meta.value) : null };
  });
}

const EMPTY: Record<string, unknown[]> = {};

type TablesAnswer = { member: string; tables: Record<string, unknown[]>; pulledAt: number | null };

/** Answers read before the first render (warmReplicaTables), by sync engine, member and tables. */
const warmed = new WeakMap<SyncEngine, Map<string, TablesAnswer>>();

/**
 * Reads the signed-in member's tables before the screen that shows them first renders (src/app/routes.tsx
 * awaits it with the screen's code at start-up), so that screen's first frame already has the device's figures
 * instead of a loading state followed by a re-render (issue 14: numbers in the first frame; nothing shifts).
 * `sets` are the table lists the screen's parts read (each as its useReplicaTables call names them): one read
 * of their union, one snapshot for all of them.
 */
export async function warmReplicaTables(
  sets: readonly (readonly string[])[],
  sync: SyncEngine = appSync(),
): Promise<void> {
  const member = userStore.get()?.id;
  if (!member) return;
  const { tables, pulledAt } = await readTables(sync.db, member, [...new Set(sets.flat())]);
  let byKey = warmed.get(sync);
  if (!byKey) warmed.set(sync, (byKey = new Map()));
  for (const set of sets) {
    const answer = { member, pulledAt, tables: Object.fromEntries(set.map((t) => [t, tables[t] ?? []])) };
    byKey.set(`${member}|${set.join(',')}`, answer);
  }
}

/**
 * The signed-in member's records of `tables`, live. Opening the screen asks for a background pull, so a
 * screen opened online catches up within one round trip; offline it shows what the device has.
 */
export function useReplicaTables(tables: readonly string[], sync: SyncEngine = appSync()): ReplicatedTables {
  const member = useUser()?.id ?? null;
  const key = tables.join(',');
  const warmKey = `${member}|${key}`;
  const warm = member ? warmed.get(sync)?.get(warmKey) : undefined;
  const answer = useLiveQuery(
    async (): Promise<TablesAnswer | null> =>
      member ? { member, ...(await readTables(sync.db, member, key.split(','))) } : null,
    [member, key, sync],
    // Until the live query's first answer: what was read before the first render, if anything.
    warm,
  );
  // Used once: a later mount starts from its own live query, never from the start-up snapshot.
  useEffect(() => {
    if (warm && answer !== warm) warmed.get(sync)?.delete(warmKey);
  }, [warm, answer, sync, warmKey]);
  useEffect(() => {
    if (member) sync.requestPull();
  }, [member, key, sync]);
  // A previous member's answer is never shown while the new member's query runs.
  const mine = answer && answer.member === member ? answer : undefined;
  const loaded = member === null || answer === null || mine !== undefined;
  const data = mine?.tables ?? EMPTY;
  const pulledAt = mine?.pulledAt ?? null;
  const any = Object.values(data).some((rows) => rows.length > 0);
  return { tables: data, loaded, pulledAt, everLoaded: pulledAt !== null || any };
}

/** One table of the signed-in member, newest first. */
export function useReplica<T>(table: string, sync?: SyncEngine): Replicated<T> {
  const { tables, loaded, pulledAt, everLoaded } = useReplicaTables([table], sync);
  const rows = tables[table];
  const records = sortedOnce(rows) as T[];
  return { records, loaded, pulledAt, everLoaded };
}

const sortedCache = new WeakMap<unknown[], unknown[]>();
const NONE: unknown[] = [];

/** Sorting once per snapshot (the live query answers a new array only when the rows changed). */
function sortedOnce(rows: unknown[] | undefined): unknown[] {
  if (!rows) return NONE;
  let sorted = sortedCache.get(rows);
  if (!sorted) {
    sorted = newestFirst(rows);
    sortedCache.set(rows, sorted);
  }
  return sorted;
}

/** The newest `limit` rows of one table of a member, from the ordered index (no full read), and the count. */
export async function readPage(
  db: DeviceDb,
  memberId: string,
  table: string,
  limit: number,
): Promise<{ records: unknown[]; total: number; pulledAt: number | null }> {
  return db.transaction('r', db.replica, db.meta, async () => {
    const rows = await db.replica
      .where('[memberId+table+order]')
      .between([memberId, table, Dexie.minKey], [memberId, table, Dexie.maxKey])
      .reverse()
      .limit(limit)
      .toArray();
    const total = await db.replica.where('[memberId+table]').equals([memberId, table]).count();
    const meta = await db.meta.get(pulledAtKey(memberId));
    return { records: rows.map((r) => r.record), total, pulledAt: meta ? Number(meta.value) : null };
  });
}

/**
 * A record list of the signed-in member, newest first, `pageSize` more at a time: the first screenful reads
 * only its rows from the device (the offline cold start does not wait for thousands of records), live.
 */
export function useReplicaPage<T>(
  table: string,
  pageSize: number,
  sync: SyncEngine = appSync(),
): ReplicatedPage<T> {
  const member = useUser()?.id ?? null;
  const [limit, setLimit] = useState(pageSize);
  const answer = useLiveQuery(
    async () => (member ? { member, ...(await readPage(sync.db, member, table, limit)) } : null),
    [member, table, limit, sync],
  );
  useEffect(() => {
    if (member) sync.requestPull();
  }, [member, table, sync]);
  const more = useCallback(() => setLimit((n) => n + pageSize), [pageSize]);
  const mine = answer && answer.member === member ? answer : undefined;
  const loaded = member === null || answer === null || mine !== undefined;
  const records = (mine?.records ?? NONE) as T[];
  const pulledAt = mine?.pulledAt ?? null;
  const total = mine?.total ?? 0;
  return { records, total, more, loaded, pulledAt, everLoaded: pulledAt !== null || total > 0 };
}
