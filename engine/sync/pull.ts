/**
 * POST /api/sync/pull { cursor?, limit? } -> { cursor, changes, hasMore }: the member's changed records after
 * the cursor, oldest change first, each rendered as the member sees it now (a record that is gone, or no
 * longer theirs to see, is a delete). The log is read one bucket of the member's own sequence at a time (no
 * scan of other members' data); a page stops at `limit` changes or MAX_BUCKETS buckets and says hasMore.
 * The cursor is opaque to devices ("<epoch>.<memberId>.<seq>[.<head>]"): it names its database and member,
 * so a cursor of another account or from before a reset is refused (400) rather than silently mixing two
 * replicas (rule Y7). A pull from nothing answers the member's own figures first (the head: profile and
 * balances, which every transfer moves to the end of the log); its cursor carries the log's last seq at that
 * moment, and the log pass skips head records not changed since (rule Y6: each record once).
 */
import { z } from 'zod';
import type { AuthCtx } from '../context';
import { fail } from '../errors';
import { counters } from '../ids';
import { handler } from '../router';
import { body } from '../schema';
import { balances } from '../ledger/tables';
import { members } from '../accounts/tables';
import {
  BUCKET,
  bucketKey,
  changeId,
  changes,
  seqKind,
  syncMeta,
  type ChangeOp,
  type ChangeRow,
} from './tables';
import { syncedTables } from './views';

export const DEFAULT_PULL = 500;
export const MAX_PULL = 1000;
const MAX_BUCKETS = 1000;

export interface Change {
  seq: number;
  table: string;
  id: string;
  op: ChangeOp;
  record: unknown;
}

export const pullBody = body({
  cursor: z.string().max(64).optional(),
  limit: z.number().int().min(1).max(MAX_PULL).optional(),
});

interface Position {
  /** The last seq answered. */
  seq: number;
  /** The log's last seq when the head was answered (0: no head): head records at or below it were sent. */
  head: number;
}

function parseCursor(ctx: AuthCtx, epoch: string, cursor: string | undefined, last: number): Position | null {
  if (cursor === undefined || cursor === '') return null;
  const match = /^([0-9a-f]{1,16})\.(\d{1,12})\.(\d{1,15})(?:\.(\d{1,15}))?$/.exec(cursor);
  if (!match) throw fail(400, 'Invalid cursor');
  const seq = Number(match[3]);
  const head = Number(match[4] ?? 0);
  if (match[1] !== epoch || seq > last || head > last)
    throw fail(400, 'This cursor is from before the data was reset: pull without one');
  if (match[2] !== ctx.member.id) throw fail(400, 'This cursor belongs to another account: pull without one');
  return { seq, head };
}

/** Synced names of the head's tables: the member's own profile and balances. */
const HEAD_TABLES: ReadonlySet<string> = new Set([members.name, balances.name]);

/** The head: the member's profile and balance rows as logged changes, each at the seq of its latest change. */
async function headRows(ctx: AuthCtx): Promise<ChangeRow[]> {
  const memberId = ctx.member.id;
  const ids = [
    { table: members.name, rowId: memberId },
    ...(await ctx.tx.query(balances, 'owner', memberId)).map((b) => ({ table: balances.name, rowId: b.id })),
  ];
  const rows = await Promise.all(ids.map((r) => ctx.tx.get(changes, changeId(memberId, r.table, r.rowId))));
  return rows.filter((r): r is ChangeRow => r !== undefined).sort((a, b) => a.seq - b.seq);
}

async function render(ctx: AuthCtx, row: ChangeRow): Promise<Change> {
  const spec = syncedTables.get(row.table);
  const record = spec ? await ctx.tx.get(spec.table, row.rowId) : undefined;
  const base = { seq: row.seq, table: row.table, id: row.rowId };
  if (!spec || !record || !spec.membersOf(record).includes(ctx.member.id))
    return { ...base, op: 'delete', record: null };
  return { ...base, op: 'put', record: await spec.view(ctx, record, ctx.member.id) };
}

export const pullHandler = handler({
  auth: true,
  body: pullBody,
  run: async (ctx, input) => {
    const memberId = ctx.member.id;
    const last = (await ctx.tx.get(counters, seqKind(memberId)))?.value ?? 0;
    const epoch = (await ctx.tx.get(syncMeta, 'epoch'))?.value ?? '0';
    const limit = input.limit ?? DEFAULT_PULL;
    const out: Change[] = [];
    const from = parseCursor(ctx, epoch, input.cursor, last);
    let head = from?.head ?? 0;
    if (from === null) {
      const rows = await headRows(ctx);
      // Only a head that fits the page is answered first; otherwise the log brings the records in its order.
      if (rows.length > 0 && rows.length <= limit) {
        for (const row of rows) out.push(await render(ctx, row));
        head = last;
      }
    }
    let cursor = from?.seq ?? 0;
    // Once the log pass is past the head's moment, the cursor no longer needs to carry it.
    const at = (seq: number) => `${epoch}.${memberId}.${seq}${head > seq ? `.${head}` : ''}`;
    // Exactly the records headRows() found: the member's profile, and balances whose owner index names them.
    const sentInHead = async (row: ChangeRow) => {
      if (row.seq > head || !HEAD_TABLES.has(row.table)) return false;
      if (row.table === members.name) return row.rowId === memberId;
      return (await ctx.tx.get(balances, row.rowId))?.owner === memberId;
    };
    const lastBucket = Math.floor(last / BUCKET);
    let bucket = Math.floor((cursor + 1) / BUCKET);
    for (let scanned = 0; bucket <= lastBucket && scanned < MAX_BUCKETS; bucket++, scanned++) {
      const rows = (await ctx.tx.query(changes, 'bucket', bucketKey(memberId, bucket)))
        .filter((r) => r.seq > cursor)
        .sort((a, b) => a.seq - b.seq);
      for (const row of rows) {
        if (await sentInHead(row)) {
          cursor = row.seq;
          continue;
        }
        if (out.length === limit) return { cursor: at(cursor), changes: out, hasMore: true };
        out.push(await render(ctx, row));
        cursor = row.seq;
      }
      // Everything up to the bucket's end has been answered (seqs of superseded changes are simply gone).
      cursor = Math.min(last, (bucket + 1) * BUCKET - 1);
    }
    return { cursor: at(cursor), changes: out, hasMore: cursor < last };
  },
});
