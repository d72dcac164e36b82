/**
 * The replica: the member's records as last pulled, kept in the device database so screens can show them
 * offline. A page of changes and the cursor after it are written in one transaction, so the cursor never
 * runs ahead of the records (a crash mid-pull re-pulls that page). A cursor the server refuses (another
 * account's, or a server whose data was reset) starts the member's replica over from nothing. A page is
 * written only if the cursor it was asked with is still the stored one: a logout (which forgets the replica
 * and its cursor) while a page was on its way must not leave that page's cursor behind without the records
 * before it, or the member's next pull would start past data the device no longer has.
 */
import { isApiError } from '../api/api-error';
import type { ApiClient } from '../api/client';
import { cursorKey, pulledAtKey, replicaKey, replicaOrder, type DeviceDb, type ReplicaRecord } from './db';

export interface Change {
  seq: number;
  table: string;
  id: string;
  op: 'put' | 'delete';
  record: unknown;
}

/** The stored cursor moved while a page was on its way (the member's replica was forgotten or reset). */
class StalePage extends Error {}

async function applyPage(
  db: DeviceDb,
  memberId: string,
  askedWith: string | undefined,
  changes: Change[],
  cursor: string,
  finishedAt: number | null,
): Promise<void> {
  await db.transaction('rw', db.replica, db.meta, async () => {
    if ((await db.meta.get(cursorKey(memberId)))?.value !== askedWith) throw new StalePage();
    const puts: ReplicaRecord[] = [];
    const deletes: string[] = [];
    for (const c of changes) {
      const key = replicaKey(memberId, c.table, c.id);
      if (c.op === 'delete') deletes.push(key);
      else
        puts.push({
          key,
          memberId,
          table: c.table,
          id: c.id,
          seq: c.seq,
          record: c.record,
          order: replicaOrder(c.id),
        });
    }
    await db.replica.bulkDelete(deletes);
    await db.replica.bulkPut(puts);
    await db.meta.put({ key: cursorKey(memberId), value: cursor });
    // The last page also records when the replica was last complete: the time screens show beside it.
    if (finishedAt !== null) await db.meta.put({ key: pulledAtKey(memberId), value: String(finishedAt) });
  });
}

export async function resetReplica(db: DeviceDb, memberId: string): Promise<void> {
  await db.transaction('rw', db.replica, db.meta, async () => {
    await db.replica.where('memberId').equals(memberId).delete();
    await db.meta.delete(cursorKey(memberId));
    await db.meta.delete(pulledAtKey(memberId));
  });
}

/**
 * The first page of a pull from nothing: the server answers the member's profile and balances first (rule
 * Y6), so a small page brings the figures /user shows in one short answer; the pages after it are the
 * server's default size.
 */
export const FIRST_PAGE = 50;

/** Pulls every page after the member's cursor; answers how many changes were applied. */
export async function pullChanges(
  db: DeviceDb,
  api: ApiClient,
  memberId: string,
  now: () => number = () => Date.now(),
): Promise<number> {
  let applied = 0;
  let restarted = false;
  for (;;) {
    const cursor = (await db.meta.get(cursorKey(memberId)))?.value;
    let page: { cursor: string; changes: Change[]; hasMore: boolean };
    try {
      page = await api.call('/api/sync/pull', cursor ? { cursor } : { limit: FIRST_PAGE }, { silent: true });
    } catch (error) {
      if (!restarted && cursor && isApiError(error) && error.code === 400) {
        restarted = true;
        await resetReplica(db, memberId);
        continue;
      }
      throw error;
    }
    try {
      await applyPage(db, memberId, cursor, page.changes, page.cursor, page.hasMore ? null : now());
    } catch (error) {
      // Nothing of the page was written; the next pull starts from whatever is stored now.
      if (error instanceof StalePage) return applied;
      throw error;
    }
    applied += page.changes.length;
    if (!page.hasMore) return applied;
  }
}

/** The member's replicated records of one table (e.g. 'transfers', 'balances', 'withdrawals'). */
export async function replicaRecords<T = unknown>(
  db: DeviceDb,
  memberId: string,
  table: string,
): Promise<T[]> {
  const rows = await db.replica.where('[memberId+table]').equals([memberId, table]).toArray();
  return rows.map((r) => r.record as T);
}

/** When the member's replica was last pulled complete (ms), or null if it never was. */
export async function lastPulledAt(db: DeviceDb, memberId: string): Promise<number | null> {
  const row = await db.meta.get(pulledAtKey(memberId));
  return row ? Number(row.value) : null;
}

/**
 * Logging out: everything this device keeps for the member goes (replica, cursor, last pull time, outbox,
 * stored answers, their cache entries), in one transaction, so the next member to sign in here starts from nothing.
 */
export async function forgetMember(db: DeviceDb, memberId: string): Promise<void> {
  await db.transaction('rw', [db.replica, db.meta, db.outbox, db.results, db.cache], async () => {
    await db.replica.where('memberId').equals(memberId).delete();
    await db.cache.where('key').startsWith(`m:${memberId}:`).delete();
    await db.outbox.where('memberId').equals(memberId).delete();
    await db.results.where('memberId').equals(memberId).delete();
    await db.meta.bulkDelete([cursorKey(memberId), pulledAtKey(memberId)]);
  });
}
