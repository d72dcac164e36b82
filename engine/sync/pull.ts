/**
 * POST /api/sync/pull { cursor?, limit? } -> { cursor, changes, hasMore }: the member's changed records after
 * the cursor, oldest change first, each rendered as the member sees it now (a record that is gone, or no
 * longer theirs to see, is a delete). The log is read one bucket of the member's own sequence at a time (no
 * scan of other members' data); a page stops at `limit` changes or MAX_BUCKETS buckets and says hasMore.
 * The cursor is opaque to devices ("<epoch>.<memberId>.<seq>"): it names its database and member, so a
 * cursor of another account or from before a reset is refused (400) rather than silently mixing two
 * replicas (rule Y7).
 */
import { z } from 'zod';
import type { AuthCtx } from '../context';
import { fail } from '../errors';
import { counters } from '../ids';
import { handler } from '../router';
import { body } from '../schema';
import { BUCKET, bucketKey, changes, seqKind, syncMeta, type ChangeOp, type ChangeRow } from './tables';
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

function parseCursor(ctx: AuthCtx, epoch: string, cursor: string | undefined, last: number): number {
  if (cursor === undefined || cursor === '') return 0;
  const match = /^([0-9a-f]{1,16})\.(\d{1,12})\.(\d{1,15})$/.exec(cursor);
  if (!match) throw fail(400, 'Invalid cursor');
  if (match[1] !== epoch || Number(match[3]) > last)
    throw fail(400, 'This cursor is from before the data was reset: pull without one');
  if (match[2] !== ctx.member.id) throw fail(400, 'This cursor belongs to another account: pull without one');
  return Number(match[3]);
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
    const at = (seq: number) => `${epoch}.${memberId}.${seq}`;
    let cursor = parseCursor(ctx, epoch, input.cursor, last);
    const limit = input.limit ?? DEFAULT_PULL;
    const out: Change[] = [];
    const lastBucket = Math.floor(last / BUCKET);
    let bucket = Math.floor((cursor + 1) / BUCKET);
    for (let scanned = 0; bucket <= lastBucket && scanned < MAX_BUCKETS; bucket++, scanned++) {
      const rows = (await ctx.tx.query(changes, 'bucket', bucketKey(memberId, bucket)))
        .filter((r) => r.seq > cursor)
        .sort((a, b) => a.seq - b.seq);
      for (const row of rows) {
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
