/**
 * POST /api/sync/pull { cursor?, limit? } -> { cursor, changes, hasMore }: the member's changes after the
 * cursor, oldest first. The log is read by id, seq after seq (no scan of other members' data); superseded
 * changes leave holes, so one page also stops after looking at SCAN_FACTOR x limit positions and answers
 * hasMore. The cursor is opaque to devices ("<memberId>.<seq>"): it names its member, so a cursor of another
 * account is refused (400) rather than silently mixing two members' replicas (rule Y7).
 */
import { z } from 'zod';
import type { AuthCtx } from '../context';
import { fail } from '../errors';
import { counters } from '../ids';
import { handler } from '../router';
import { body } from '../schema';
import { changeId, changes, seqKind, type ChangeOp } from './tables';

export const DEFAULT_PULL = 500;
export const MAX_PULL = 1000;
const SCAN_FACTOR = 20;

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

function parseCursor(ctx: AuthCtx, cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const match = /^(\d{1,12})\.(\d{1,15})$/.exec(cursor);
  if (!match) throw fail(400, 'Invalid cursor');
  if (match[1] !== ctx.member.id) throw fail(400, 'This cursor belongs to another account: pull without one');
  return Number(match[2]);
}

export const pullHandler = handler({
  auth: true,
  body: pullBody,
  run: async (ctx, input) => {
    const memberId = ctx.member.id;
    const after = parseCursor(ctx, input.cursor);
    const last = (await ctx.tx.get(counters, seqKind(memberId)))?.value ?? 0;
    const limit = input.limit ?? DEFAULT_PULL;
    const out: Change[] = [];
    let seq = Math.min(after, last);
    const stop = seq + limit * SCAN_FACTOR;
    while (seq < last && seq < stop && out.length < limit) {
      seq++;
      const row = await ctx.tx.get(changes, changeId(memberId, seq));
      if (row) out.push({ seq, table: row.table, id: row.rowId, op: row.op, record: row.record });
    }
    return { cursor: `${memberId}.${seq}`, changes: out, hasMore: seq < last };
  },
});
