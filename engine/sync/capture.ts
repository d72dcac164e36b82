/**
 * The change log, written in the same unit of work as the change itself (Domain.beforeCommit): just before
 * a unit commits, every buffered write to a synced table (views.ts) becomes one change per member who sees
 * it, numbered from that member's own sequence. A change cannot be committed without its log entry or the
 * other way round, so a device that pulls to the latest cursor has seen every committed change (rule Y6).
 */
import type { Ctx } from '../context';
import { counters } from '../ids';
import type { Row } from '../store/port';
import { changeHeads, changeId, changes, headId, seqKind, type ChangeOp } from './tables';
import { syncedTables } from './views';

async function append(
  ctx: Ctx,
  memberId: string,
  table: string,
  rowId: string,
  op: ChangeOp,
  record: unknown,
): Promise<void> {
  const seq = await ctx.ids.nextNumber(seqKind(memberId));
  const head = headId(memberId, table, rowId);
  const previous = await ctx.tx.get(changeHeads, head);
  // Only the latest change of a record matters to a device; older ones would make a fresh pull replay history.
  if (previous) ctx.tx.delete(changes, changeId(memberId, previous.seq));
  ctx.tx.put(changeHeads, { id: head, seq });
  ctx.tx.put(changes, { id: changeId(memberId, seq), memberId, seq, table, rowId, op, record, at: ctx.now });
}

export async function logChanges(ctx: Ctx): Promise<void> {
  // Collected first: appending writes to the same buffer the iterator walks.
  const writes = [...ctx.tx.writes()].filter((w) => syncedTables.has(w.table));
  for (const write of writes) {
    const spec = syncedTables.get(write.table);
    if (!spec) continue;
    const row = write.value ?? ((await ctx.tx.stored(write.table, write.id)) as Row | undefined);
    // Written and deleted inside this one unit: nobody ever saw it.
    if (!row) continue;
    for (const memberId of spec.membersOf(row)) {
      if (write.value) {
        const record = await spec.view(ctx, write.value, memberId);
        await append(ctx, memberId, write.table, write.id, 'put', record);
      } else {
        await append(ctx, memberId, write.table, write.id, 'delete', null);
      }
    }
  }
}

const BACKFILLED = 'sync.backfilled';

/**
 * Once per database: logs every existing synced record, so a store written before sync existed (or by an
 * engine without it) still answers "everything" to a pull without a cursor.
 */
export async function backfill(ctx: Ctx): Promise<void> {
  if (await ctx.tx.get(counters, BACKFILLED)) return;
  ctx.tx.put(counters, { id: BACKFILLED, value: 1 });
  for (const spec of syncedTables.values()) {
    for (const row of await ctx.tx.scan(spec.table)) {
      for (const memberId of spec.membersOf(row)) {
        await append(ctx, memberId, spec.table.name, row.id, 'put', await spec.view(ctx, row, memberId));
      }
    }
  }
}
