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
import { syncedByTable, syncedName, syncedTables } from './views';

async function append(ctx: Ctx, memberId: string, table: string, rowId: string): Promise<void> {
  const seq = await ctx.ids.nextNumber(seqKind(memberId));
  ctx.tx.put(changes, { id: changeId(memberId, table, rowId), memberId, table, rowId, seq });
}

export async function logChanges(ctx: Ctx): Promise<void> {
  // Collected first: appending writes to the same buffer the iterator walks.
  const writes = [...ctx.tx.writes()].filter((w) => syncedByTable.has(w.table));
  const entries: Array<{ memberId: string; table: string; rowId: string }> = [];
  for (const write of writes) {
    const specs = syncedByTable.get(write.table);
    if (!specs) continue;
    // A delete is logged for whoever saw the record before it went.
    const row = write.value ?? ((await ctx.tx.stored(write.table, write.id)) as Row | undefined);
    if (!row) continue;
    for (const spec of specs) {
      for (const memberId of spec.membersOf(row))
        entries.push({ memberId, table: syncedName(spec), rowId: write.id });
    }
  }
  // Each member's sequence counter read at once (one round trip on SQL), then advanced in order.
  await ctx.tx.prefetch([...new Set(entries.map((e) => e.memberId))].map((m) => [counters, seqKind(m)]));
  for (const e of entries) await append(ctx, e.memberId, e.table, e.rowId);
}

/** The marker of the first backfill, which logged every synced table of its time at once. */
const BACKFILLED = 'sync.backfilled';
/** The synced names that first backfill covered; tables synced later are backfilled each on its own. */
const FIRST_BACKFILL: ReadonlySet<string> = new Set([
  'members',
  'balances',
  'transfers',
  'withdrawals',
  'deposits',
  'vipRecords',
  'tradeOrders',
  'financeOrders',
  'profitLog',
  'pledges',
  'bankCards',
  'certs',
]);

/**
 * Synced views that gained fields after devices had pulled them, by version: a new version logs every
 * record of that name once more, so devices pull the new view (2: the profile's inviteShareRate).
 */
const VIEW_VERSIONS: Readonly<Record<string, number>> = { members: 2 };

/** The counter marking one synced table (at its view's version) as backfilled. */
export function backfillMarker(name: string): string {
  const version = VIEW_VERSIONS[name] ?? 1;
  return version === 1 ? `${BACKFILLED}:${name}` : `${BACKFILLED}:${name}@${version}`;
}

/**
 * Once per database and synced table: logs every existing record, so a store written before sync existed
 * (or before that table was synced) still answers "everything" to a pull without a cursor, and a device
 * with a cursor gets the newly synced table's records after it (they get new sequence numbers).
 */
async function backfill(ctx: Ctx): Promise<void> {
  const first = (await ctx.tx.get(counters, BACKFILLED)) !== undefined;
  if (!first) ctx.tx.put(counters, { id: BACKFILLED, value: 1 });
  for (const spec of syncedTables.values()) {
    const name = syncedName(spec);
    const marker = backfillMarker(name);
    if (await ctx.tx.get(counters, marker)) continue;
    ctx.tx.put(counters, { id: marker, value: 1 });
    if (first && FIRST_BACKFILL.has(name) && (VIEW_VERSIONS[name] ?? 1) === 1) continue;
    for (const row of await ctx.tx.scan(spec.table)) {
      for (const memberId of spec.membersOf(row)) await append(ctx, memberId, name, row.id);
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
