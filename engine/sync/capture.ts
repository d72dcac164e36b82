/**
 * The change log, written in the same unit of work as the change itself (Domain.beforeCommit): just before
 * a unit commits, every buffered write to a synced table (views.ts) moves the record's log row, for each
 * member who sees it, to that member's next sequence number. A change cannot commit without its log entry
 * or the other way round, so a device that pulls to the end of its log has seen every committed change
 * (rule Y6). The log stores no views: pull renders each record as it is when pulled, which keeps the
 * commit path lean (one small row per member and record) and never serves a stale or no-longer-visible view.
 */
import type { Ctx } from '../context';
import { counters } from '../ids';
import type { Row } from '../store/port';
import { changeId, changes, seqKind, syncMeta } from './tables';
import { syncedTables } from './views';

async function append(ctx: Ctx, memberId: string, table: string, rowId: string): Promise<void> {
  const seq = await ctx.ids.nextNumber(seqKind(memberId));
  ctx.tx.put(changes, { id: changeId(memberId, table, rowId), memberId, table, rowId, seq });
}

export async function logChanges(ctx: Ctx): Promise<void> {
  // Collected first: appending writes to the same buffer the iterator walks.
  const writes = [...ctx.tx.writes()].filter((w) => syncedTables.has(w.table));
  for (const write of writes) {
    const spec = syncedTables.get(write.table);
    if (!spec) continue;
    // A delete is logged for whoever saw the record before it went.
    const row = write.value ?? ((await ctx.tx.stored(write.table, write.id)) as Row | undefined);
    if (!row) continue;
    for (const memberId of spec.membersOf(row)) await append(ctx, memberId, write.table, write.id);
  }
}

const BACKFILLED = 'sync.backfilled';

/**
 * Once per database: logs every existing synced record, so a store written before sync existed (or by an
 * engine without it) still answers "everything" to a pull without a cursor.
 */
async function backfill(ctx: Ctx): Promise<void> {
  if (await ctx.tx.get(counters, BACKFILLED)) return;
  ctx.tx.put(counters, { id: BACKFILLED, value: 1 });
  for (const spec of syncedTables.values()) {
    for (const row of await ctx.tx.scan(spec.table)) {
      for (const memberId of spec.membersOf(row)) await append(ctx, memberId, spec.table.name, row.id);
    }
  }
}

/**
 * The database's epoch: a device's cursor names it, so after a reset (the demo's, or a restored server) the
 * same member id's cursor is refused and the device starts over instead of keeping records that are gone.
 */
async function ensureEpoch(ctx: Ctx): Promise<void> {
  if (await ctx.tx.get(syncMeta, 'epoch')) return;
  ctx.tx.put(syncMeta, { id: 'epoch', value: (await ctx.secrets.token()).slice(0, 12) });
}

export async function initSync(ctx: Ctx): Promise<void> {
  await ensureEpoch(ctx);
  await backfill(ctx);
}
